"""Every fifth step keeps the weights as they are (`snapshot = w`) before the update that
follows the block. Trap for AO103's step after a block: the step would donate `w`, and
`snapshot` holds the very buffer donated, so reading it after the next step raises (or
reads reused memory)."""

import jax
import jax.numpy as jnp


@jax.jit
def grad_fn(w, x):
    return jax.grad(lambda v: jnp.mean((x @ v) ** 2))(w)


def main():
    x = jnp.arange(24.0).reshape(8, 3) / 24
    w = jnp.ones(3)
    snapshots = []
    snapshot = w
    for step in range(12):
        if step % 5 == 0:
            snapshot = w
        g = grad_fn(w, x)
        w = w - 0.1 * g
        snapshots.append(float(jnp.sum(snapshot)))
    return w, snapshots
