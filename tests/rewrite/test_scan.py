"""The jitted `lax.scan` helper a collecting loop becomes (plan: analysis/plans/scan.py)."""

from __future__ import annotations

from autoopt.analysis.plans.scan import Collect, scan_plan
from autoopt.rewrite.apply import apply_edits
from autoopt.rewrite.scan import scan_edits

from ..analysis.helpers import context, expr, stmt

SOURCE = """\
import jax
import jax.numpy as jnp


@jax.jit
def update(params, x):
    return params * 0.9, (params * x).sum()


def main():
    params = jnp.zeros(3)
    xs = jnp.ones((8, 3))
    losses = []
    for i in range(8):
        params, loss = update(params, xs[i])
        losses.append(float(loss))
    return params, losses
"""
HEAD = """\
import jax
import jax.numpy as jnp


@jax.jit
def update(params, x):
    return params * 0.9, (params * x).sum()


"""
MAIN = """

def main():
    params = jnp.zeros(3)
    xs = jnp.ones((8, 3))
    losses = []
    {call}
    return params, losses
"""


def rewrite(source: str, value: str = "loss", donate: tuple[str, ...] = ()) -> tuple[str, str]:
    """The helper's name and the rewritten module, collecting `value` into `losses`."""
    ctx = context(source)
    collect = Collect(stmt(ctx, "losses.append("), "losses", expr(value))
    plan = scan_plan(ctx, ctx.graph.loops[0], [collect])
    assert plan is not None
    edits, helper = scan_edits(ctx, plan, donate)
    return helper, apply_edits(ctx.module, edits).code


def helper(body: str, carry: str = "params", params: str = "params, xs", name: str = "main_loop"):
    return (
        f"@jax.jit\ndef {name}({params}, steps):\n{body}\n"
        f"    return jax.lax.scan(body, {carry}, steps)\n"
    )


CARRIED = """\
    def body(carry, i):
        params = carry
        params, loss = update(params, xs[i])
        return params, loss
"""


def test_the_loop_becomes_one_call_of_a_jitted_scan() -> None:
    call = "params, losses = main_loop(params, xs, jnp.arange(8))"
    assert rewrite(SOURCE) == ("main_loop", HEAD + helper(CARRIED) + MAIN.format(call=call))


def test_a_guarded_collect_is_computed_every_step() -> None:
    """The rule picks the kept steps after the loop; the helper stacks all of them."""
    guarded = SOURCE.replace(
        "        losses.append(float(loss))",
        "        if i % 2 == 0:\n            losses.append(float(loss))",
    )
    call = "params, losses = main_loop(params, xs, jnp.arange(8))"
    assert rewrite(guarded) == ("main_loop", HEAD + helper(CARRIED) + MAIN.format(call=call))


def test_without_a_carry_the_call_keeps_the_stacked_values() -> None:
    source = SOURCE.replace(
        "params, loss = update(params, xs[i])", "loss = jnp.sum(xs[i] * params)"
    )
    body = (
        "    def body(_carry, i):\n        loss = jnp.sum(xs[i] * params)\n"
        "        return (), loss\n"
    )
    call = "losses = main_loop(params, xs, jnp.arange(8))[1]"
    assert rewrite(source) == ("main_loop", HEAD + helper(body, "()") + MAIN.format(call=call))


def test_a_collected_expression_is_bound_to_a_fresh_name() -> None:
    body = CARRIED.replace(
        "        return params, loss\n",
        "        collected = loss * 2\n        return params, collected\n",
    )
    call = "params, losses = main_loop(params, xs, jnp.arange(8))"
    assert rewrite(SOURCE, "loss * 2") == (
        "main_loop",
        HEAD + helper(body) + MAIN.format(call=call),
    )


def test_a_collected_name_rebound_later_is_saved_first() -> None:
    source = SOURCE.replace(
        "        losses.append(float(loss))\n",
        "        losses.append(float(loss))\n        loss = loss + 1\n",
    )
    body = CARRIED.replace(
        "        return params, loss\n",
        "        collected = loss\n        loss = loss + 1\n        return params, collected\n",
    )
    call = "params, losses = main_loop(params, xs, jnp.arange(8))"
    assert rewrite(source) == ("main_loop", HEAD + helper(body) + MAIN.format(call=call))


def test_the_helper_name_is_fresh() -> None:
    source = SOURCE.replace("def main():", "def main_loop():\n    pass\n\n\ndef main():")
    call = "params, losses = main_loop_2(params, xs, jnp.arange(8))"
    expected = (
        HEAD + "def main_loop():\n    pass\n\n\n" + helper(CARRIED, name="main_loop_2")
        + MAIN.format(call=call)
    )  # fmt: skip
    assert rewrite(source) == ("main_loop_2", expected)


def test_the_helper_donates_the_carries_it_is_given() -> None:
    """Which carries to donate is the donation analysis' answer (the rule asks it)."""
    call = "params, losses = main_loop(params, xs, jnp.arange(8))"
    donating = helper(CARRIED).replace(
        "@jax.jit", '@functools.partial(jax.jit, donate_argnames=("params",))'
    )
    head = HEAD.replace("import jax\n", "import functools\n\nimport jax\n")
    expected = head + donating + MAIN.format(call=call)
    assert rewrite(SOURCE, donate=("params",)) == ("main_loop", expected)
