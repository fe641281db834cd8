"""Which nnx objects a loop step passes to `nnx.jit`, and whether the `nnx.jit`
functions it calls are pure but for their module updates (analysis/plans/nnx_step.py)."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.plans.nnx_step import callee_problem, step_modules
from autoopt.analysis.plans.step import step_plans

from ..helpers import HEADER, context

IMPORTS = HEADER + "import optax\nfrom flax import nnx\n"
PROGRAM = """
class Net(nnx.Module):
    def __init__(self):
        self.w = nnx.Param(jnp.ones(3))

@nnx.jit
def decay(model, opt, scale):
    BODY
    return scale

def main(arg):
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    opt = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    net = Net()
    other = make()
    x = jnp.ones(3)
    for _ in range(4):
        s = jnp.sin(x)
        t = decay(model, opt, s) + jnp.sum(net.w[...]) + arg + other
        x = x * t
    return x

result = main(1.0)
"""


def _ctx(body: str = "opt.update(model, nnx.state(model, nnx.Param))"):
    return context(PROGRAM.replace("BODY", body), IMPORTS)


def test_step_modules_are_the_proven_nnx_objects_it_reads() -> None:
    ctx = _ctx()
    (plan,) = step_plans(ctx)
    assert step_modules(ctx, plan) == {
        "model": "flax.nnx.Linear",
        "net": "",  # a class of the module: proven a module, no listed methods
        "opt": "flax.nnx.Optimizer",
    }  # `arg` (a parameter) and `other` (from code autoopt cannot see) are not


def _step_problem(body: str) -> str:
    ctx = _ctx(body)
    (plan,) = step_plans(ctx)
    modules = step_modules(ctx, plan)
    step = cst.parse_module(
        "def step(model, opt, s):\n    t = decay(model, opt, s)\n    return t\n"
    ).body[0]
    other = ctx.derived(ctx.module.with_changes(body=(*ctx.module.body, step)))
    return callee_problem(other, other.graph.functions["step"], modules)


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("opt.update(model, nnx.state(model, nnx.Param))", ""),
        (
            "print(scale)",
            "`decay` runs again when the step is traced, and it is not proven pure but for "
            "its module updates: it prints (`print` runs once, at trace time; use "
            "jax.debug.print)",
        ),
        ("model(scale)", "it calls its argument `model`, code autoopt cannot see"),
        ("model.kernel.value = scale", "it mutates its argument `model`"),
        (
            "nnx.grad(lambda m: jnp.sum(m(scale)))(model)",
            "it calls `m`, code autoopt cannot see",
        ),
    ],
)
def test_callee_problem(body: str, problem: str) -> None:
    found = _step_problem(body)
    assert (problem in found) if problem else found == ""


def test_an_assignment_into_a_module_is_judged_beside_an_update() -> None:
    found = _step_problem("model.kernel.value = opt.update(model, scale)")
    assert "it mutates its argument `model`" in found
