"""Per-example hinge losses `losses(w, xs, ys)` through `jax.vmap(hinge, ...)`; `hinge`
reads the global `MARGIN`, shrunk by `anneal()` each epoch. Trap for AO101: eager
`vmap` traces `hinge` on every call; jitted, `losses` keeps the first margin."""

import jax
import jax.numpy as jnp

MARGIN = 1.0


def hinge(w, x, y):
    return jnp.maximum(0.0, MARGIN - y * jnp.dot(w, x))


def losses(w, xs, ys):
    return jax.vmap(hinge, in_axes=(None, 0, 0))(w, xs, ys)


def anneal():
    global MARGIN
    MARGIN = MARGIN * 0.5


def main():
    w = jnp.array([0.2, -0.1])
    xs = jnp.array([[1.0, 2.0], [0.5, -1.0], [-1.0, 0.3]])
    ys = jnp.array([1.0, -1.0, 1.0])
    out = []
    for _ in range(3):
        for _ in range(2):
            out.append(losses(w, xs, ys))
        anneal()
    return jnp.stack(out)
