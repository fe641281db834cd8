"""Linear model whose default weights are a NumPy buffer decayed in place between
epochs (`WEIGHTS[:] *= 0.5`). Trap for AO103: the inner loop's compiled step (or its
`lax.scan`) traces `predict`'s default once; later epochs would use stale weights
(issue 27, x11)."""

import jax.numpy as jnp
import numpy as np

WEIGHTS = np.array([1.0, 2.0, 3.0])


def predict(x, w=WEIGHTS):
    return jnp.tanh(x * w) + x


def main():
    x = jnp.array([0.1, 0.2, 0.3])
    for _epoch in range(5):
        for _ in range(4):
            x = predict(x)
        WEIGHTS[:] *= 0.5
    return x
