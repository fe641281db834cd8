"""plain jax: control. A jitted step that logs the loss to a host list through
`jax.experimental.io_callback` (ordered); the loop runs 4 steps and returns the log. A
whole-loop scan (AO103) runs the callback once per step in order, and a
`jax.eval_shape` type check runs none: the log stays the same."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

LOG = []


def record(loss):
    LOG.append(float(loss))
    return np.zeros((), np.float32)


@jax.jit
def step(w, x):
    loss = jnp.sum((w - x) ** 2)
    io_callback(record, jax.ShapeDtypeStruct((), jnp.float32), loss, ordered=True)
    return w - 0.25 * (w - x)


def main():
    w = jnp.zeros(3)
    x = jnp.array([1.0, 2.0, 3.0])
    for _ in range(4):
        w = step(w, x)
    return w, LOG
