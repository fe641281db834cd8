"""Power iteration on the host: `np.dot(m, v, w)` writes the product into `w`
(the third positional argument of `np.dot` is `out`); `w` goes to the device to
compute a Rayleigh quotient each step."""

import jax.numpy as jnp
import numpy as np


def main():
    m = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    v = np.ones(3)
    w = np.empty(3)
    quotients = []
    for _ in range(6):
        np.dot(m, v, w)
        wd = jnp.asarray(w)
        quotients.append(jnp.dot(wd, wd) / jnp.dot(wd, jnp.asarray(m) @ wd))
        v = w / np.linalg.norm(w)
    return jnp.stack(quotients)
