# BROKEN by the default rewrite (AO201, safe fix applied).
# Fix: `@jax.jit` on `step` becomes
# `@functools.partial(jax.jit, donate_argnames=("w",))`.
# `w` is bound by a `match` mapping pattern (`case {"params": w, "step": start}:`) to
# the array stored in `checkpoint["params"]`; the alias proof does not see the capture,
# and `checkpoint["params"]` is read after the loop.
# Outcome: original returns ([0.9, 1.7, -0.7], 3.5); default rewrite crashes:
# "RuntimeError: Array has been deleted with shape=float32[3]."
# Hazard class: aliases the donation proof misses (issue 27, class 4), a binding form.
"""Resuming from a checkpoint dict destructured with `match`: `case {"params": w,
"step": start}` binds `w` to the checkpoint's array; training replaces `w`, and the
script reports the distance from the checkpoint at the end."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w - 0.1 * jnp.sign(w - 1.0)


def main():
    checkpoint = {"params": jnp.array([0.0, 3.0, -2.0]), "step": 7}
    match checkpoint:
        case {"params": w, "step": start}:
            pass
        case _:
            w, start = jnp.zeros(3), 0
    for _ in range(start, 20):
        w = step(w)
    return w, jnp.abs(w - checkpoint["params"]).sum()
