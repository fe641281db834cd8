"""Does a loop-carried value keep its shape and dtype from one iteration to the next?"""

from __future__ import annotations

import pytest

from autoopt.analysis.plans.carry import unstable_carry

from ..helpers import HEADER, context

HELPERS = """
@jax.jit
def sgd(w, x, y):
    grad = jax.grad(lambda w: jnp.sum((w * x - y) ** 2))(w)
    return w - 0.1 * grad, jnp.sum(w * x)

@jax.jit
def momentum(params, vel, x):
    loss, grads = jax.value_and_grad(lambda p: jnp.sum(p * x))(params)
    vel = jax.tree_util.tree_map(lambda v, g: 0.9 * v + g, vel, grads)
    params = jax.tree_util.tree_map(lambda p, v: p - 0.1 * v, params, vel)
    return params, vel, loss

@jax.jit
def broadcast(w, x):
    return w - 0.1 * x, jnp.sum(x)

@jax.jit
def promote(acc, x):
    return acc + x.astype(jnp.float32)

"""


def doubts(setup: str, body: str, carry: tuple[str, ...]) -> list[str]:
    lines = "".join(f"        {line}\n" for line in body.split("\n"))
    code = HELPERS + "def run(xs, ys):\n" + setup + "    for i in range(4):\n" + lines
    ctx = context(code, HEADER)
    loop = ctx.graph.loops[0]
    return unstable_carry(ctx, ctx.graph.loop_stmts(loop.id), carry)


def unproven(name: str) -> str:
    return f"cannot prove `{name}` keeps its shape and dtype across iterations"


@pytest.mark.parametrize(
    ("setup", "body", "carry", "found"),
    [
        # proven: updates of itself, weakly typed arithmetic, gradients, helpers
        ("    acc = jnp.zeros(3)\n", "acc = acc.at[i].set(1.0)", ("acc",), []),
        ("    acc = jnp.zeros(3)\n", "acc = acc * 0.5 + 1.0", ("acc",), []),
        ("    acc = jnp.zeros(3)\n", "acc = jnp.tanh(acc)", ("acc",), []),
        ("    w = jnp.zeros(3)\n", "w, loss = sgd(w, xs[i], ys[i])", ("w",), []),
        # known equal shapes and dtypes
        (
            "    acc = jnp.zeros(3)\n    rows = jnp.ones((4, 3))\n",
            "acc = acc + rows[i]",
            ("acc",),
            [],
        ),
        # pytrees of one type: the velocity starts as zeros like the parameters
        (
            "    params = {'w': jnp.zeros(3)}\n"
            "    vel = jax.tree_util.tree_map(jnp.zeros_like, params)\n",
            "params, vel, loss = momentum(params, vel, xs[i])",
            ("params", "vel"),
            [],
        ),
        # unproven: the other operand may broadcast or promote the carry
        ("    w = jnp.zeros(3)\n", "w, s = broadcast(w, xs[i])", ("w",), [unproven("w")]),
        (
            "    acc = jnp.zeros(3, jnp.bfloat16)\n",
            "acc = promote(acc, xs[i])",
            ("acc",),
            [unproven("acc")],
        ),
        ("    acc = jnp.zeros(3)\n", "acc = acc + xs[i]", ("acc",), [unproven("acc")]),
        ("    acc = 0.0\n", "acc = acc + jnp.sum(xs[i])", ("acc",), [unproven("acc")]),
        # a velocity of unknown type: not the parameters' type
        (
            "    params = {'w': jnp.zeros(3)}\n    vel = make(params)\n",
            "params, vel, loss = momentum(params, vel, xs[i])",
            ("params", "vel"),
            [unproven("params"), unproven("vel")],
        ),
    ],
)
def test_unstable_carry(setup: str, body: str, carry: tuple[str, ...], found: list[str]) -> None:
    assert doubts(setup, body, carry) == found
