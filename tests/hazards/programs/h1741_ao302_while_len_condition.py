"""A `while` loop whose condition reads the loss list: `while len(losses) < 6 and
step < 20`.
"""

import jax
import jax.numpy as jnp


@jax.jit
def step_fn(w, x):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - 2.0) ** 2))(w)
    return w - 0.1 * g, loss


def main():
    x = jax.random.normal(jax.random.PRNGKey(2), (8, 3))
    w = jnp.zeros(3)
    losses = []
    step = 0
    while len(losses) < 6 and step < 20:
        w, loss = step_fn(w, x)
        losses.append(float(loss))
        step += 1
    return losses, step
