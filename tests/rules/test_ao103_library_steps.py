"""AO103 on training loops whose step calls a library the overlays know (optax): the
step is proven and compiled, computing what the loop did; a library call the overlays do
not list, an optimizer of unproven kind or rebound in the loop, host values taken every
step or a Python counter keep it from a safe fix."""

from __future__ import annotations

import pytest

from autoopt.api import check_source, optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability

from .helpers import assert_same, run_snippet

_LOOP = """
import jax
import jax.numpy as jnp
import optax


def loss_fn(params, x):
    return jnp.mean((x @ params["w"] - 1.0) ** 2)


def main():
    x = jnp.linspace(0.0, 1.0, 12).reshape(4, 3)
    params = {"w": jnp.ones((3, 2))}
    opt = optax.adam(0.05)
    opt_state = opt.init(params)
    for epoch in range(20):
        loss, grads = jax.value_and_grad(loss_fn)(params, x)
        updates, opt_state = opt.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
    return params, loss


result = main()
"""

_STEP = """
@functools.partial(
    jax.jit, static_argnames=("opt",), donate_argnames=("opt_state", "params")
)
def _main_step(opt_state, params, x, opt):
    loss, grads = jax.value_and_grad(loss_fn)(params, x)
    updates, opt_state = opt.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    return loss, opt_state, params
"""


def _ao103(code: str) -> list:
    _, findings = check_source(code, settings=Settings(select=("AO103",)))
    return findings


def _rewritten(code: str) -> str:
    return optimize_source(code, settings=Settings(select=("AO103",))).new_source


def test_a_local_optax_optimizer_is_a_static_argument_of_the_compiled_step() -> None:
    (finding,) = _ao103(_LOOP)
    assert finding.fix is Applicability.SAFE
    assert finding.message == (
        "this loop's body runs eagerly, one dispatch per operation: compile it as one jitted "
        "step, `_main_step`, donating `opt_state`, `params`"
    )
    new = _rewritten(_LOOP)
    assert _STEP in new
    assert "        loss, opt_state, params = _main_step(opt_state, params, x, opt)\n" in new
    assert_same(run_snippet(_LOOP), run_snippet(new), rtol=1e-5)


def test_a_break_on_a_host_value_keeps_the_loop_of_steps() -> None:
    code = _LOOP.replace(
        "        params = optax.apply_updates(params, updates)\n",
        "        params = optax.apply_updates(params, updates)\n"
        "        if float(loss) < 0.3:\n            break\n",
    )
    (finding,) = _ao103(code)
    assert finding.fix is Applicability.SAFE and "lax.scan" not in finding.message
    new = _rewritten(code)
    assert "        if float(loss) < 0.3:\n            break\n" in new
    assert_same(run_snippet(code), run_snippet(new), rtol=1e-5)


def test_a_tree_map_update_with_a_lambda_is_compiled_and_computes_the_same() -> None:
    code = _LOOP.replace(
        "        updates, opt_state = opt.update(grads, opt_state, params)\n"
        "        params = optax.apply_updates(params, updates)\n",
        "        params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)\n",
    )
    (finding,) = _ao103(code)
    assert finding.fix is Applicability.SAFE
    assert_same(run_snippet(code), run_snippet(_rewritten(code)), rtol=1e-5)


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        (
            "        updates, opt_state",
            "        print(float(loss))\n        updates, opt_state",
            "prints a host value every step",
        ),
        (
            "        updates, opt_state",
            "        losses.append(float(loss))\n        updates, opt_state",
            "appends a host value every step",
        ),
        (
            "        params = optax.apply_updates(params, updates)\n",
            "        params = optax.apply_updates(params, updates)\n"
            "        opt = optax.adam(0.05 / (epoch + 1))\n",
            "rebinds the optimizer every step: jit would compile again each time",
        ),
        (
            "        params = optax.apply_updates(params, updates)\n",
            "        params = optax.apply_updates(params, updates)\n"
            "        seen = seen + epoch * 1_000_000_000\n",
            "carries a Python int beyond int32",
        ),
    ],
)
def test_host_work_or_a_changing_optimizer_gets_no_step(old: str, new: str, why: str) -> None:
    code = _LOOP.replace("    for epoch", "    losses = []\n    seen = 0\n    for epoch")
    assert _ao103(code.replace(old, new)) == [], why


@pytest.mark.parametrize(
    ("old", "new", "premise"),
    [
        (
            "        params = optax.apply_updates(params, updates)\n",
            "        params = optax.incremental_update(\n"
            "            optax.apply_updates(params, updates), params, 0.5\n        )\n",
            "it is not pure: it calls `optax.incremental_update`, code autoopt cannot see",
        ),
        (
            "    opt = optax.adam(0.05)\n",
            "    opt = make_optimizer(0.05)\n",
            "it is not pure: it calls `opt.update`, which may change its argument `opt`: code "
            "autoopt cannot see",
        ),
    ],
)
def test_an_unproven_library_call_is_named_with_no_fix(old: str, new: str, premise: str) -> None:
    code = _LOOP.replace("import optax\n", "import optax\nfrom helpers import make_optimizer\n")
    (finding,) = _ao103(code.replace(old, new))
    assert finding.fix is Applicability.NONE
    assert finding.message == (
        "this loop's body runs eagerly, one dispatch per operation; not compiled as one step "
        f"(`_main_step`): {premise}"
    )
