"""Each phase of a schedule opens a context manager that yields the phase's mask as
`with phase(t) as mask:`, rebinding `mask` in the loop."""

import contextlib

import jax.numpy as jnp
import numpy as np


@contextlib.contextmanager
def phase(t):
    yield np.array([1.0, 0.0, 1.0]) if t % 2 else np.array([0.0, 1.0, 1.0])


def main():
    mask = np.ones(3)
    x = jnp.arange(3.0)
    out = []
    for t in range(4):
        out.append(jnp.asarray(mask) * x)
        with phase(t) as mask:
            pass
    return jnp.stack(out)
