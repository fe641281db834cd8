"""Names proven to hold an nnx module where a statement reads them, and the failures."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.nnx_modules import (
    holds_module,
    jit_spelling,
    library_class,
    module_update,
    update_call,
    user_module_class,
    written_back,
)

from ..helpers import HEADER, context, stmt

IMPORTS = HEADER + "import optax\nfrom flax import nnx\n"
CLASSES = """
class Counter(nnx.Module):
    def __init__(self):
        self.count = nnx.Variable(jnp.zeros(4))

class Plain:
    pass

class Twice(nnx.Module):
    pass

Twice = Plain
"""


def _holds(body: str, name: str) -> bool:
    ctx = context(CLASSES + "\ndef main(arg):\n" + body + "    use(" + name + ")\n", IMPORTS)
    return holds_module(ctx, stmt(ctx, f"use({name})"), name)


@pytest.mark.parametrize(
    "body",
    [
        "    m = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n",
        "    m = nnx.Optimizer(arg, optax.sgd(0.1), wrt=nnx.Param)\n",
        "    m = Counter()\n",
        # bound again, as a notebook's later cell does: the reader sees the last binding
        "    m = Counter()\n    print(m)\n    m = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n",
    ],
)
def test_a_name_bound_once_to_a_module_constructor_is_proven(body: str) -> None:
    assert _holds(body, "m")


@pytest.mark.parametrize(
    ("body", "name"),
    [
        ("", "arg"),  # the caller's
        ("    m = Plain()\n", "m"),  # not an nnx class
        ("    m = Twice()\n", "m"),  # the class name is rebound
        ("    m = make()\n", "m"),  # a function's result
        ("    m = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n    m = wrap(m)\n", "m"),  # rebound
        ("    if arg:\n        m = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n", "m"),  # not always
        (  # two bindings may reach the reader
            "    m = Counter()\n    if arg:\n        m = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n",
            "m",
        ),
        ("    global g\n    g = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n", "g"),  # a global
        ("    m, n = nnx.Linear(2, 2, rngs=nnx.Rngs(0)), 1\n", "m"),  # not `name = C(...)`
    ],
)
def test_anything_else_is_unproven(body: str, name: str) -> None:
    assert not _holds(body, name)


@pytest.mark.parametrize(
    ("body", "line", "expected"),
    [
        (
            "    opt = nnx.Optimizer(arg, optax.sgd(0.1), wrt=nnx.Param)\n",
            "opt.update(arg, arg)",
            "opt.update(arg, arg)",
        ),
        ("", "nnx.update(arg, arg)", "nnx.update(arg, arg)"),
        ("    opt = optax.sgd(0.1)\n", "opt.update(arg, arg)", None),  # pure, optax's
        ("    opt = make()\n", "opt.update(arg, arg)", None),  # unproven receiver
        ("    m = Counter()\n", "m.update(arg)", None),  # a method the overlay does not list
    ],
)
def test_module_update_names_the_call_that_changes_a_module(
    body: str, line: str, expected: str | None
) -> None:
    ctx = context(CLASSES + "\ndef main(arg):\n" + body + "    " + line + "\n", IMPORTS)
    assert module_update(ctx, stmt(ctx, line)) == expected


STEPS = """
@nnx.jit
def step(model, x):
    return model(x)

@jax.jit
def plain(model, x):
    return model(x)

def eager(model, x):
    return model(x)
"""


@pytest.mark.parametrize(
    ("body", "line", "expected"),
    [
        ("    m = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n", "step(m, arg)", "step(m, arg)"),
        (
            "    m = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n",
            "step(\n        m, arg\n    )",
            "step(...)",
        ),
        ("", "step(arg, arg)", None),  # the argument is not proven a module
        ("    m = make()\n", "step(m, arg)", None),  # a function's result
        ("    m = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n", "plain(m, arg)", None),  # jax.jit
        ("    m = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n", "eager(m, arg)", None),  # not a jit
    ],
)
def test_written_back_names_an_nnx_jit_call_given_a_module(
    body: str, line: str, expected: str | None
) -> None:
    code = CLASSES + STEPS + "\ndef main(arg):\n" + body + "    " + line + "\n"
    ctx = context(code, IMPORTS)
    assert written_back(ctx, stmt(ctx, line.split("\n")[0])) == expected


@pytest.mark.parametrize(
    ("binding", "cls"),
    [
        ("m = nnx.Optimizer(arg, optax.sgd(0.1), wrt=nnx.Param)", "flax.nnx.Optimizer"),
        ("m = nnx.Linear(2, 2, rngs=nnx.Rngs(0))", "flax.nnx.Linear"),
        ("m = Counter()", None),  # a class of the module may override any method
        ("m = make()", None),
    ],
)
def test_library_class_is_the_overlay_constructor_s(binding: str, cls: str | None) -> None:
    ctx = context(CLASSES + f"\ndef main(arg):\n    {binding}\n    use(m)\n", IMPORTS)
    assert library_class(ctx, stmt(ctx, "use(m)"), "m") == cls


@pytest.mark.parametrize(
    ("binding", "cls"),
    [
        ("m = Counter()", "Counter"),
        ("m = nnx.Linear(2, 2, rngs=nnx.Rngs(0))", None),  # the overlay's, not the module's
        ("m = Twice()", None),  # bound twice
        ("m = arg", None),
    ],
)
def test_user_module_class_is_the_module_s_class(binding: str, cls: str | None) -> None:
    ctx = context(CLASSES + f"\ndef main(arg):\n    {binding}\n    use(m)\n", IMPORTS)
    assert user_module_class(ctx, stmt(ctx, "use(m)"), "m") == cls


_UPDATES = """
@nnx.jit
def step(model, opt):
    pass

@nnx.jit(donate_argnums=0)
def donating(model, opt):
    pass

def plain(model, opt):
    pass

def main(m, o, x):
    CALL
"""


@pytest.mark.parametrize(
    ("call", "jitted", "expected"),
    [
        ("o.update(m, x)", False, True),  # an overlay optimizer's `update`
        ("nnx.update(m, x)", False, True),
        ("nnx.update(x, m)", False, False),  # the module is not what it writes
        ("m.update(x)", False, False),  # `flax.nnx.Linear.update` is not listed
        ("step(m, o)", True, True),
        ("step(m, o)", False, False),  # an `nnx.jit` function only where asked
        ("step(x, x)", True, False),  # given no module
        ("donating(m, o)", True, False),  # an `nnx.jit` with options
        ("plain(m, o)", True, False),
    ],
)
def test_update_call(call: str, jitted: bool, expected: bool) -> None:
    ctx = context(_UPDATES.replace("CALL", call), IMPORTS)
    line = stmt(ctx, call)
    modules = {"m": "flax.nnx.Linear", "o": "flax.nnx.Optimizer"}
    assert update_call(ctx, line, line.calls[0], modules, jitted) is expected


@pytest.mark.parametrize(
    ("imports", "spelling"),
    [
        ("from flax import nnx\n", "nnx.jit"),
        ("import flax.nnx as fn\n", "fn.jit"),
        ("import flax\n", "flax.nnx.jit"),
    ],
)
def test_jit_spelling_uses_the_module_s_binding(imports: str, spelling: str) -> None:
    assert jit_spelling(context("x = 1\n", imports)) == (spelling, ())
