"""What calling an nnx module object runs, and purity following it through the trace."""

from __future__ import annotations

import pytest

from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.facts.closure_factories import closure_layer, field_closure
from autoopt.analysis.facts.nnx_instances import (
    called_instance,
    field_instance,
    instance_methods,
    method_problem,
    returns_array,
)
from autoopt.analysis.facts.purity import impurities_except

from ..helpers import context

_MODULE = """
import jax.numpy as jnp
from flax import nnx


def hook(*args, **kwargs):
    return None


class Block(nnx.Module):
    def __init__(self, rngs):
        self.dense = nnx.Linear(4, 4, rngs=rngs)

    def __call__(self, x):
        return nnx.relu(self.dense(x))


class Net(nnx.Module):
    def __init__(self, rngs):
        self.block = Block(rngs)
        self.out = nnx.Linear(4, 1, rngs=rngs)
        self.hooked = nnx.Linear(4, 4, dot_general=hook, rngs=rngs)
        self.drop = nnx.Dropout(0.1, rngs=rngs)

    def __call__(self, x):
        return self.out(self.block(x))

    def encode(self, x):
        return self.block(x)


class Sub(Net):
    pass


net = Net(nnx.Rngs(0))
linear = nnx.Linear(4, 1, rngs=nnx.Rngs(0))
hooked = nnx.Linear(4, 1, dot_general=hook, rngs=nnx.Rngs(0))
sub = Sub(nnx.Rngs(0))
use = (net, linear, hooked, sub)
"""


def _reader():
    ctx = context(_MODULE)
    return ctx, next(s for s in ctx.graph.scope_stmts(MODULE) if "use" in s.defs)


@pytest.mark.parametrize(
    ("name", "instance"),
    [("net", "Net"), ("linear", "flax.nnx.Linear"), ("hooked", None), ("sub", None)],
)
def test_a_name_holds_the_instance_its_one_binding_builds(name: str, instance: str | None) -> None:
    """A class of the module deriving from `nnx.Module` alone, or a listed layer given
    no option run at call time; a subclass of a class of the module is not read."""
    ctx, reader = _reader()
    assert called_instance(ctx, reader, name) == instance


@pytest.mark.parametrize(
    ("field", "instance"),
    [("block", "Block"), ("out", "flax.nnx.Linear"), ("hooked", None), ("drop", None),
     ("missing", None)],
)  # fmt: skip
def test_a_field_holds_what_init_alone_stores(field: str, instance: str | None) -> None:
    assert field_instance(context(_MODULE), "Net", field) == instance


def test_a_field_set_outside_the_class_is_not_read() -> None:
    ctx = context(_MODULE + "net.out = Block(nnx.Rngs(1))\n")
    assert field_instance(ctx, "Net", "out") is None


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ("", ""),
        ("Net.__call__ = Block.__call__\n", "may be replaced by an attribute the program sets"),
        ("setattr(net, 'x', 1)\n", "may be replaced by an attribute the program sets"),
        ("net.__class__ = Block\n", "may be replaced by an attribute the program sets"),
    ],
)
def test_a_method_is_the_class_body_s_one_def(extra: str, problem: str) -> None:
    assert method_problem(context(_MODULE + extra), "Net", "__call__") == problem


def test_a_decorated_or_hooked_method_is_not_read() -> None:
    code = _MODULE.replace("    def encode(", "    @staticmethod\n    def encode(")
    assert method_problem(context(code), "Net", "encode") == (
        "is not one undecorated `def` of the class"
    )
    code = _MODULE.replace("    def encode(", "    def __getattr__(self, n):\n        return n\n\n"
                           "    def encode(")  # fmt: skip
    assert method_problem(context(code), "Net", "__call__") == (
        "may be reached through an attribute hook of the class"
    )


def test_the_methods_a_call_may_run_include_the_fields_classes() -> None:
    ctx = context(_MODULE)
    names = sorted(fn.qualname for fn in instance_methods(ctx, "Net"))
    assert names == ["Block.__call__", "Net.__call__", "Net.encode"]
    assert instance_methods(ctx, "flax.nnx.Linear") == []


_STEP = """
def loss(model, x):
    return jnp.sum(model(x))


def step(model, x):
    return nnx.grad(loss)(model, x)
"""


@pytest.mark.parametrize(
    ("instance", "reasons"),
    [
        ("Net", []),
        ("flax.nnx.Linear", []),
        ("", ["calls `loss`, which calls its argument `model`, code autoopt cannot see"]),
    ],
)  # fmt: skip
def test_purity_follows_an_instance_through_nnx_grad(instance: str, reasons: list[str]) -> None:
    ctx = context(_MODULE + _STEP)
    step = ctx.graph.functions["step"]
    given = (("model", instance),) if instance else ()
    found = impurities_except(ctx, step, frozenset(), frozenset(), given)
    assert found == reasons


def test_purity_names_what_the_followed_call_does() -> None:
    code = _MODULE.replace("        return nnx.relu(self.dense(x))", "        print(x)\n"
                           "        return nnx.relu(self.dense(x))")  # fmt: skip
    ctx = context(code + _STEP)
    found = impurities_except(ctx, ctx.graph.functions["loss"], frozenset(), frozenset(),
                              (("model", "Net"),))  # fmt: skip
    assert found == [
        "calls its argument `model`, whose `Net.__call__` calls `self.block`, whose "
        "`Block.__call__` prints (`print` runs once, at trace time; use jax.debug.print)"
    ]


_CALLERS = """

def run(model, x):
    return model(x)


def twice(model, x):
    return run(model, x) + run(model, x)


out = twice(net, 1.0)
"""


def _param_reader(code: str):
    ctx = context(_MODULE + code)
    return ctx, next(s for s in ctx.graph.scope_stmts("run") if "model" in s.uses)


def test_a_parameter_holds_what_every_known_call_gives_it() -> None:
    """`run`'s one caller is `twice`, whose one caller gives it `net`: `model` holds a
    `Net` wherever `run` reads it (`facts/known_callers.py`)."""
    assert called_instance(*_param_reader(_CALLERS), "model") == "Net"


@pytest.mark.parametrize(
    "change",
    [
        ("out = twice(net, 1.0)\n", "out = twice(net, 1.0) + run(linear, 1.0)\n"),  # another
        ("out = twice(net, 1.0)\n", "out = twice(net, 1.0)\nRUN = {'run': run}\n"),  # escapes
        ("out = twice(net, 1.0)\n", "out = twice(*[net], 1.0)\n"),  # unpacked
        ("def run(model, x):\n", "def run(model, x):\n    model = sub\n"),  # bound again
        ("def run(model, x):\n", "def run(x, model=net):\n"),  # a default left to
        ("out = twice(net, 1.0)\n", "out = twice(net, 1.0)\nglobals()['twice'](sub, 1)\n"),
    ],
)
def test_a_parameter_not_given_one_instance_by_every_caller_holds_none(
    change: tuple[str, str],
) -> None:
    code = _CALLERS.replace(*change)
    assert change[0] in _CALLERS
    assert called_instance(*_param_reader(code), "model") is None


_FACTORY = """
import jax.numpy as jnp
import numpy as np
from flax import nnx


class UNet(nnx.Module):
    def __init__(self, features, *, rngs):
        self.features = features
        self.time = nnx.Linear(in_features=8, out_features=features, rngs=rngs)
        self.block = self._block(features, rngs)
        self.head = nnx.Conv(in_features=features, out_features=1, kernel_size=(3, 3), rngs=rngs)

    def _block(self, channels, rngs):
        proj = nnx.Linear(in_features=channels, out_features=channels, rngs=rngs)

        def forward(x):
            h = proj(x)
            return x + h.reshape(x.shape)

        return forward

    def __call__(self, x):
        return self.head(self.block(self.time(x)))


def loss(model, x):
    return model(x).mean()
"""


def _loss_impurities(code: str) -> list[str]:
    """Why `loss`, its `model` an object of `UNet`, is not pure."""
    ctx = context(code)
    loss = ctx.graph.functions["loss"]
    return impurities_except(ctx, loss, frozenset(), frozenset(), (("model", "UNet"),))


def test_a_factory_s_closure_and_keyword_sized_layers_are_read() -> None:
    """Sizes given by keyword are plain; `self.features = features` in the class's own
    `__init__` sets no layer's attribute; a field storing a factory's closure holds
    it, whose calls of the factory's layers run listed layers."""
    ctx = context(_FACTORY)
    assert field_instance(ctx, "UNet", "time") == "flax.nnx.Linear"
    assert field_instance(ctx, "UNet", "head") == "flax.nnx.Conv"
    closure = field_closure(ctx, "UNet", "block")
    assert closure is not None and closure.qualname == "UNet._block.forward"
    assert closure_layer(ctx, closure, "proj") == "flax.nnx.Linear"
    assert returns_array(ctx, "UNet")
    assert _loss_impurities(_FACTORY) == []


@pytest.mark.parametrize(
    ("change", "field", "instance"),
    [
        (("        return forward\n", "        return forward\n\n"
          "    def resize(self, n):\n        self.features = n\n"), "time", None),
        (("    def __call__(self, x):\n", "    def resize(self):\n        self.time.kernel = 0\n\n"
          "    def __call__(self, x):\n"), "time", None),
        (("rngs=rngs)\n        self.block", "rngs=rngs, dot_general=jnp.dot)\n        self.block"),
         "time", None),
        (("class UNet(nnx.Module):", "class UNet(nnx.Module, metaclass=type(nnx.Module)):"),
         "time", None),
    ],
)  # fmt: skip
def test_a_layer_field_some_code_may_change_is_not_read(
    change: tuple[str, str], field: str, instance: str | None
) -> None:
    assert change[0] in _FACTORY
    assert field_instance(context(_FACTORY.replace(*change)), "UNet", field) == instance


def test_a_closure_that_is_not_pure_or_calls_a_hooked_layer_is_named() -> None:
    impure = _FACTORY.replace("            h = proj(x)\n",
                              "            h = proj(x) + np.random.normal()\n")  # fmt: skip
    assert _loss_impurities(impure) == [
        "calls its argument `model`, whose `UNet.__call__` calls `self.block`, a closure "
        "`UNet._block.forward`, which draws host random numbers with numpy.random "
        "(`numpy.random.normal`)"
    ]
    hooked = _FACTORY.replace("out_features=channels, rngs=rngs)",
                              "out_features=channels, rngs=rngs, dot_general=None)")  # fmt: skip
    ctx = context(hooked)
    closure = field_closure(ctx, "UNet", "block")
    assert closure is not None and closure_layer(ctx, closure, "proj") is None


def test_a_call_returns_an_array_where_each_return_calls_such_a_field() -> None:
    local = _FACTORY.replace("        return self.head(self.block(self.time(x)))\n",
                             "        out = self.head(self.block(self.time(x)))\n"
                             "        return out\n")  # fmt: skip
    assert not returns_array(context(local), "UNet")
    assert _loss_impurities(local) == [
        "calls `.mean` on the result of `model(...)`, code autoopt cannot see"
    ]
    assert returns_array(context(_FACTORY), "flax.nnx.Linear")


def test_the_methods_a_call_may_run_include_the_factory_closures() -> None:
    names = sorted(fn.qualname for fn in instance_methods(context(_FACTORY), "UNet"))
    assert names == ["UNet.__call__", "UNet._block", "UNet._block.forward"]
