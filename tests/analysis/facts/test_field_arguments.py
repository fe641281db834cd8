"""The fields of an equinox module class that stores what its constructor is given:
which classes declare their fields (`declared_fields`), what every construction gives a
field (`field_arguments`), and the kind the keep-nothing reader gives it (`field_kind`)."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.declared_fields import declared_fields
from autoopt.analysis.facts.field_arguments import equinox_fields, field_arguments
from autoopt.analysis.facts.unkept_arguments import DATA, UNKNOWN, field_kind

from ..helpers import context

PROGRAM = """
import equinox as eqx
import jax
import jax.numpy as jnp
import jax.nn as jnn


class Func(eqx.Module):
    \"\"\"A vector field.\"\"\"

    scale: jnp.ndarray
    mlp: eqx.nn.MLP

    def __call__(self, t, y, args):
        return self.scale * self.mlp(y)


class Model(eqx.Module):
    func: Func
    size: int

    def __init__(self, *, size, width=4, key, **kwargs):
        super().__init__(**kwargs)
        scale = jnp.ones(())
        mlp = eqx.nn.MLP(width, width, 8, 1, activation=jnn.softplus, key=key)
        self.func = Func(scale, mlp)
        self.size = size


def main(size=3):
    model = Model(size=size, key=jax.random.PRNGKey(0))
    return model


main()
"""


def _kind(code: str, cls: str, field: str) -> str:
    return field_kind(context(code), cls, field)


def _edit(*pairs: tuple[str, str]) -> str:
    code = PROGRAM
    for old, new in pairs:
        assert old in code, old
        code = code.replace(old, new, 1)
    return code


def _before_call(method: str) -> tuple[str, str]:
    """A method, its body `pass`, before `Func.__call__`."""
    call = "    def __call__(self, t, y, args):"
    return call, f"{method}        pass\n\n{call}"


def _before_func(lines: str) -> tuple[str, str]:
    """Statements before `Model.__init__` builds the `Func`."""
    return "        self.func = Func(", f"{lines}        self.func = Func("


def test_a_class_that_declares_its_fields_takes_them_in_order() -> None:
    ctx = context(PROGRAM)
    assert declared_fields(ctx, "Func") == ("scale", "mlp")
    assert declared_fields(ctx, "Model") is None  # its own `__init__`
    assert equinox_fields(ctx, "Func") == ("scale", "mlp")
    assert equinox_fields(ctx, "Model") == ("func", "size")


@pytest.mark.parametrize(
    "change",
    [
        ("    scale: jnp.ndarray\n", "    scale: jnp.ndarray = 1.0\n"),  # a default
        ("    scale: jnp.ndarray\n", "    scale: ClassVar[float]\n"),  # no field
        ("    scale: jnp.ndarray\n", "    scale: typing.ClassVar\n"),
        ("    scale: jnp.ndarray\n", "    _: KW_ONLY\n    scale: jnp.ndarray\n"),
        ("    scale: jnp.ndarray\n", "    scale: 'ClassVar[float]'\n"),
        ("    scale: jnp.ndarray\n", "    scale: Scale\n"),  # a name bound to anything
        ("class Func(eqx.Module):", "@some_decorator\nclass Func(eqx.Module):"),
        ("class Func(eqx.Module):", "class Func(eqx.Module, metaclass=Meta):"),
        ("class Func(eqx.Module):", "class Func(Base):"),
        _before_call("    def __post_init__(self):\n"),
        _before_call("    def __check_init__(self):\n"),
        _before_call("    def __getattribute__(self, name):\n"),
        _before_call("    def mlp(self):\n"),
        _before_call("    @property\n    def other(self):\n"),
        ("    mlp: eqx.nn.MLP\n", "    mlp: eqx.nn.MLP\n    if True:\n        extra: int\n"),
        ("\n\nclass Model", "\n\nFunc = None\n\n\nclass Model"),  # bound twice
    ],
)
def test_a_class_read_otherwise_declares_nothing(change: tuple[str, str]) -> None:
    """A default, a `ClassVar`, `KW_ONLY` or a name bound to either, a decorator, a
    metaclass or another base, a method run on construction or on a read, or a body
    holding anything else: the generated `__init__` may take other parameters or run
    code, or a read of a field may."""
    assert declared_fields(context(_edit(change)), "Func") is None


def test_a_field_holds_what_every_construction_gives_it() -> None:
    """`Func(scale, mlp)`: an array and an equinox layer built with JAX activations;
    `self.size = size` of a number every call gives (`main`'s parameter)."""
    assert _kind(PROGRAM, "Func", "scale") == DATA
    assert _kind(PROGRAM, "Func", "mlp") == "layer:equinox.nn.MLP"
    assert _kind(PROGRAM, "Model", "size") == DATA
    assert _kind(PROGRAM, "Model", "func") == "Func"
    given = field_arguments(context(PROGRAM), "Model", "size")
    assert given is not None and [len(given)] == [1]


def test_a_left_out_parameter_holds_its_literal_default() -> None:
    code = _edit(
        ("        self.size = size\n", "        self.size = size\n        self.width = width\n")
    )
    assert _kind(code, "Model", "width") == DATA


@pytest.mark.parametrize(
    "change",
    [
        # a list, which code may fill later; an object; a value of unknown kind
        ("Model(size=size,", "Model(size=[1, 2],"),
        ("Model(size=size,", "Model(size=Keeper(),"),
        ("def main(size=3):", "def main(size):"),
        # a second construction given an object
        ("    return model\n", "    other = Model(size=Keeper(), key=None)\n    return model\n"),
        # a construction out of sight: `**kwargs`, the class handed out, the module's
        # namespace reached, `__init__` named, the class subclassed
        ("Model(size=size, key=jax.random.PRNGKey(0))", "Model(**dict(size=size, key=0))"),
        ("    return model\n", "    return model, Model\n"),
        ("    return model\n", "    return model, globals()\n"),
        ("    return model\n", "    Model.__init__(model, size=[1], key=None)\n    return model\n"),
        # the field stored elsewhere, by name or through `object.__setattr__`
        ("    return model\n", "    object.__setattr__(model, 'size', [1])\n    return model\n"),
        ("    return model\n", "    model.size = [1]\n    return model\n"),
        # the parameter bound again in `__init__`, or stored twice
        ("        self.size = size\n", "        size = [size]\n        self.size = size\n"),
        ("        self.size = size\n", "        self.size = size\n        self.size = width\n"),
        # left out, with no default
        ("    model = Model(size=size, key", "    model = Model(key"),
    ],
)
def test_a_field_given_anything_else_is_unknown(change: tuple[str, str]) -> None:
    """A field some construction gives a value of another kind, or that an object may
    hold from a construction out of sight or a store elsewhere, may hold anything."""
    assert _kind(_edit(change), "Model", "size") == UNKNOWN


@pytest.mark.parametrize(
    "change",
    [
        ("self.func = Func(scale, mlp)", "self.func = Func(scale, held)"),
        ("activation=jnn.softplus", "activation=keep"),  # a function of the program's
        ("        mlp = eqx.nn.MLP(", "        mlp = other = eqx.nn.MLP("),
        _before_func("        def inner():\n            nonlocal mlp\n            mlp = 0\n\n"),
        _before_func("        if width:\n            mlp = Keeper()\n"),
        ("self.func = Func(scale, mlp)", "self.func = Func(scale, *[mlp])"),
    ],
)
def test_a_layer_field_is_read_only_where_built_in_sight(change: tuple[str, str]) -> None:
    """A name not bound once to the layer's constructor where the call reads it (or
    rebound by a nested function), an activation of the program's, or a starred
    argument: the field is unknown."""
    assert _kind(_edit(change), "Func", "mlp") == UNKNOWN


def test_an_nnx_module_field_is_not_read_from_its_constructions() -> None:
    """An nnx module is mutable: what its constructor stored may be replaced later."""
    code = """
    from flax import nnx


    class Model(nnx.Module):
        def __init__(self, size):
            self.size = size


    def main():
        return Model(3)
    """
    assert _kind(code, "Model", "size") == UNKNOWN
