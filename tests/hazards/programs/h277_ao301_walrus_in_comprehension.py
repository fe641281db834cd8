"""A sweep that picks the best host candidate with an assignment expression inside a
comprehension (`best := c`), which binds `best` in the enclosing function; the
current best goes to the device every round."""

import jax.numpy as jnp
import numpy as np

CANDIDATES = [np.array([1.0, 0.0]), np.array([0.5, 0.5]), np.array([0.0, 2.0])]


def main():
    best = np.array([0.0, 0.0])
    out = []
    for r in range(3):
        _ = [best := c for c in CANDIDATES[: r + 1] if c.sum() >= best.sum()]
        out.append(jnp.asarray(best) * 10.0)
    return jnp.stack(out)
