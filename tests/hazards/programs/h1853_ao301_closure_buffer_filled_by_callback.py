"""plain jax + NumPy: `make_sampler()` returns a `refill` function closing over a NumPy
buffer it overwrites in place, and the buffer itself; the loop calls `refill()` and then
transfers `jax.device_put(buf)` to a jitted step. Trap for AO301: the buffer changes
through the closure, which the loop only calls; hoisting the transfer keeps the first
contents."""

import jax
import jax.numpy as jnp
import numpy as np


def make_sampler(n):
    buf = np.zeros(n, dtype=np.float64)
    state = {"t": 0}

    def refill():
        state["t"] += 1
        buf[:] = np.arange(n) * state["t"]

    return refill, buf


@jax.jit
def accumulate(total, batch):
    return total + jnp.sum(batch)


def main():
    refill, buf = make_sampler(3)
    total = jnp.zeros(())
    for _ in range(4):
        refill()
        total = accumulate(total, jax.device_put(buf))
    return total
