"""`log = losses.append` taken before the loop; the loop calls `log(float(loss))` and
prints `losses[-1]` every 3 steps.
"""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    loss, g = jax.value_and_grad(lambda w: jnp.mean(jnp.sin(x * w) ** 2))(w)
    return w - 0.2 * g, loss


def main():
    x = jnp.linspace(-1.0, 1.0, 8)
    w = jnp.ones(8)
    losses = []
    log = losses.append
    for i in range(7):
        w, loss = step(w, x)
        log(float(loss))
        if i % 3 == 2:
            print(f"step {i} loss {losses[-1]:.6f}")
    return losses
