"""AO102 builds `jax.jit(f)` before its loop safely only where building it there cannot
raise where the original never builds it (`analysis/plans/hoist_reach.py`): it wraps a
function with no options, or it runs on the first iteration of a loop proven to run."""

from __future__ import annotations

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability

_CODE = """import jax
import jax.numpy as jnp


def double(x):
    return x * 2


def run(xs, post=None):
    total = 0.0
    for x in xs:
        if post is not None:
            x = {jit}(x)
        total = total + jnp.sum(x)
        print(total)
    return total
"""


def _only(jit: str):
    result = optimize_source(_CODE.format(jit=jit), settings=Settings(select=("AO102",)))
    (finding,) = result.findings
    return finding


def test_a_guarded_jit_of_an_argument_is_built_before_the_loop_only_as_unsafe() -> None:
    finding = _only("jax.jit(post)")
    assert finding.fix is Applicability.UNSAFE
    assert finding.message == (
        "`jax.jit(post)` is built on every iteration of the loop at line 11: build it once "
        "before the loop; unsafe: `jax.jit(post)` runs only where `post is not None`; before "
        "the loop it may raise (not a function, or options it rejects)"
    )


def test_a_guarded_jit_with_options_is_unsafe() -> None:
    finding = _only("jax.jit(double, static_argnums=(1,))")
    assert finding.fix is Applicability.UNSAFE
    assert "unsafe: `jax.jit(double, static_argnums=(1,))` runs only where" in finding.message


def test_a_guarded_jit_of_a_module_function_stays_safe() -> None:
    finding = _only("jax.jit(double)")
    assert finding.fix is Applicability.SAFE
