"""A jitted simulation step reports its state to the host through
`jax.debug.callback`; the callback copies it into a host buffer that the loop then
transfers back to compute a diagnostic."""

import jax
import jax.numpy as jnp
import numpy as np

mirror = np.zeros(4)


def record(x):
    mirror[:] = x


@jax.jit
def step(x):
    x = 0.9 * x + 0.1
    jax.debug.callback(record, x)
    return x


def main():
    x = jnp.arange(4.0)
    diag = []
    for _ in range(5):
        x = step(x)
        jax.effects_barrier()
        diag.append(jnp.sum(jnp.asarray(mirror)))
    return jnp.stack(diag)
