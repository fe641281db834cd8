"""The jitted step reports its gradient norm with `jax.debug.print`; the loop collects
`float(loss)` and prints a Python line per step. The host sync of `float(loss)` makes
each step's debug line appear before that step's Python line. Trap for AO302: keeping
the losses on the device removes the sync, so the asynchronous debug lines may be
printed after later Python lines: the printed output changes order."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    jax.debug.print("grad norm {n:.4f}", n=jnp.linalg.norm(g))
    return w - 0.1 * g, loss


def main():
    x = jnp.linspace(-1.0, 1.0, 64).reshape(16, 4)
    y = x @ jnp.array([1.0, -1.0, 0.5, 2.0])
    w = jnp.zeros(4)
    losses = []
    for i in range(8):
        w, loss = step(w, x, y)
        losses.append(float(loss))
        print("finished step", i)
    return w, losses
