"""An epoch loop that shuffles the host dataset in place with `rng.shuffle(data)` and
then transfers it, `jnp.asarray(data)`, to run the epoch on the device. Trap for AO301:
`data` is never rebound, but the shuffle reorders it every epoch; hoisting the transfer
keeps the first order, which changes an order-dependent result. Float64 host data."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def epoch(w, xs):
    def body(w, x):
        return w + 0.3 * (x - w) * jnp.arange(1.0, 3.0), None

    return jax.lax.scan(body, w, xs)[0]


def main():
    rng = np.random.default_rng(0)
    data = np.arange(10, dtype=np.float64).reshape(5, 2)
    w = jnp.zeros(2)
    for _ in range(3):
        rng.shuffle(data)
        w = epoch(w, jnp.asarray(data))
    return w
