"""Names proven to hold an nnx module where a statement reads them, and the failures."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.nnx_modules import holds_module, module_update, written_back

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
