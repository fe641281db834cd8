# BROKEN by the default rewrite (AO201, safe fix applied).
# Fix: `@jax.jit` on `step` becomes
# `@functools.partial(jax.jit, donate_argnames=("w",))`.
# `w` is bound by an assignment expression, `if (w := checkpoint.get("params")) is None:`,
# to the array the checkpoint dict keeps; `checkpoint["params"]` is read after the loop.
# Outcome: original returns ([1.819, 2.4095, 3.0], [0.819, 0.4095, 0.0]); default
# rewrite crashes: "RuntimeError: Array has been deleted with shape=float32[3]."
# Hazard class: aliases the donation proof misses (issue 27, class 4): a walrus binding
# of a container's value.
"""Resume from a checkpoint dict with an assignment expression in the condition:
`if (w := checkpoint.get("params")) is None: ...`; the checkpoint is compared with the
trained weights at the end."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.9 + 0.3


def main():
    checkpoint = {"params": jnp.array([1.0, 2.0, 3.0])}
    if (w := checkpoint.get("params")) is None:
        w = jnp.zeros(3)
    for _ in range(5):
        w = step(w)
    return w, w - checkpoint["params"]
