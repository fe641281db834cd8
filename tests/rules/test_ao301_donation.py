"""AO301 hoists a transfer only when every call the one shared array reaches is proven
not to donate it (`analysis/facts/call_donation.py`): each spelling of a donation autoopt
cannot decide leaves the fix unsafe, naming the premise."""

from __future__ import annotations

import pytest

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability

_SAFE, _UNSAFE = Applicability.SAFE, Applicability.UNSAFE
_HEAD = """
import functools

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

def apply_mask(w, mask):
    return w * mask + 0.1, mask
"""
_MESSAGE = (
    "`jnp.asarray(mask_np)` copies the same data to the device on every iteration of the "
    "loop at line {line}: transfer it once before the loop "
    "(`mask_np_dev = jax.device_put(mask_np)`)"
)
_UNKNOWN = "; unsafe: not proven that no call donates (and deletes) the one shared array: "


def _finding(code: str):
    result = optimize_source(_HEAD + code, settings=Settings(select=("AO301",)))
    (finding,) = result.findings
    return finding, result.new_source


def _loop_line(code: str) -> int:
    lines = (_HEAD + code).splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.lstrip().startswith("for "))


UNSAFE_CASES = {
    "lowered and compiled": (
        """
def main(w):
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    compiled = jax.jit(apply_mask, donate_argnums=(0, 1)).lower(w, w).compile()
    for _ in range(5):
        m = jnp.asarray(mask_np)
        w, _ = compiled(w, m)
    return w
""",
        _UNKNOWN + "`compiled` is the result of a call at line 14: what it donates is not known",
    ),
    "**options": (
        """
JIT_OPTS = {"donate_argnums": (0, 1)}
masked_step = jax.jit(apply_mask, **JIT_OPTS)

def main(w):
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    for _ in range(5):
        m = jnp.asarray(mask_np)
        w, _ = masked_step(w, m)
    return w
""",
        _UNKNOWN + "`masked_step` is jitted with `**JIT_OPTS`, which may donate its arguments",
    ),
    "a dict of steps": (
        """
STEPS = {"mask": jax.jit(apply_mask, donate_argnums=(0, 1))}

def main(w):
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    for _ in range(5):
        w, _ = STEPS["mask"](w, jnp.asarray(mask_np))
    return w
""",
        _UNKNOWN + '`STEPS["mask"]` is looked up in a container: what it donates is not known',
    ),
    "a partial of jit called": (
        """
masked_update = functools.partial(jax.jit, donate_argnums=(0, 1))(apply_mask)

def main(w):
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    for _ in range(6):
        w, _ = masked_update(w, jnp.asarray(mask_np))
    return w
""",
        _UNKNOWN
        + "`masked_update` is the result of a call at line 12: what it donates is not known",
    ),
    "a wrapping decorator": (
        """
def timed(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args)
    return wrapper

@timed
@functools.partial(jax.jit, donate_argnums=(0, 1))
def step(w, mask):
    return w * mask, mask

def main(w):
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    for _ in range(5):
        w, _ = step(w, jnp.asarray(mask_np))
    return w
""",
        _UNKNOWN + "`step` has a decorator autoopt cannot see through (`@timed`)",
    ),
    "a parameter": (
        """
def run(step_fn, mask_np, n):
    w = jnp.ones(4)
    for _ in range(n):
        w, _ = step_fn(w, jnp.asarray(mask_np))
    return w

def main():
    step = jax.jit(apply_mask, donate_argnums=(0, 1))
    return run(step, np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32), 5)
""",
        _UNKNOWN
        + "`step_fn` is a parameter of `run`: what the function it is given donates is not known",
    ),
    "eqx donate all": (
        """
@eqx.filter_jit(donate="all")
def step(w, mask):
    return w * mask

def main(w):
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    for _ in range(5):
        w = step(w, jnp.asarray(mask_np))
    return w
""",
        '; unsafe: `step` donates its arguments (`donate="all"`), which would delete the one '
        "shared array",
    ),
    "a helper that hands it on": (
        """
donating = jax.jit(apply_mask, donate_argnums=(1,))

def helper(w, mask):
    return donating(w, mask)

def main(w):
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    for _ in range(5):
        w, _ = helper(w, jnp.asarray(mask_np))
    return w
""",
        "; unsafe: `helper` hands on its arguments: `donating` donates its arguments "
        "(`donate_argnums=(1,)`), which would delete the one shared array",
    ),
    "an alias passed on": (
        """
def main(w, step_fn):
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    for _ in range(5):
        m = jnp.asarray(mask_np)
        m2 = m
        w = step_fn(w, m2)
    return w
""",
        _UNKNOWN
        + "`step_fn` is a parameter of `main`: what the function it is given donates is not known",
    ),
    "stored on an object": (
        """
def main(w, holder):
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    for _ in range(5):
        holder.mask = jnp.asarray(mask_np)
        w = w * holder.mask
    return w
""",
        _UNKNOWN + "it is stored in `holder.mask` at line 15",
    ),
    "an array's delete": (
        """
def main(w):
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    for _ in range(5):
        m = jnp.asarray(mask_np)
        w = w * m
        m.delete()
    return w
""",
        "; unsafe: `m.delete` deletes the array, which would delete the one shared array",
    ),
}


@pytest.mark.parametrize("name", sorted(UNSAFE_CASES))
def test_an_undecided_or_donating_callee_leaves_the_hoist_unsafe(name: str) -> None:
    code, why = UNSAFE_CASES[name]
    finding, new_source = _finding(code)
    assert finding.message == _MESSAGE.format(line=_loop_line(code)) + why
    assert finding.fix is _UNSAFE
    assert new_source == _HEAD + code  # the default rewrite leaves it


SAFE_CASES = {
    "a visible jit without donation": """
@jax.jit
def step(w, mask):
    return w * mask

def main(w):
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    for _ in range(5):
        w = step(w, jnp.asarray(mask_np))
    return w
""",
    "a jnp op": """
def main(w):
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    for _ in range(5):
        w = jnp.tanh(w * jnp.asarray(mask_np))
    return w
""",
    "a function of the module seen in full": """
def scale(w, mask):
    return jnp.where(mask > 0, w, 0.0) + float(jnp.sum(mask))

def main(w):
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    for _ in range(5):
        m = jnp.asarray(mask_np)
        w = scale(w, m)
    return w
""",
    "a list of results": """
@jax.jit
def score(w, mask):
    return jnp.sum(w * mask)

def main(ws):
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    scores = []
    for w in ws:
        scores.append(score(w, jnp.asarray(mask_np)))
    return scores
""",
    "an eqx jit that donates nothing": """
@eqx.filter_jit(donate="none")
def step(w, mask):
    return w * mask

def main(w):
    mask_np = np.array([1.0, 0.0, 1.0, 1.0], dtype=np.float32)
    for _ in range(5):
        w = step(w, jnp.asarray(mask_np))
    return w
""",
}


@pytest.mark.parametrize("name", sorted(SAFE_CASES))
def test_callees_proven_not_to_donate_keep_the_safe_hoist(name: str) -> None:
    code = SAFE_CASES[name]
    finding, new_source = _finding(code)
    assert finding.message == _MESSAGE.format(line=_loop_line(code))
    assert finding.fix is _SAFE
    assert "mask_np_dev = jax.device_put(mask_np)" in new_source
