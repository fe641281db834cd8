"""Plain JAX: the initial weights kept with `w.reshape(w.shape)` (a "copy" that returns
the same array), the distance travelled reported after training.
"""

import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(w, x, y):
    g = jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * g


def main():
    x = jax.random.normal(jax.random.PRNGKey(0), (20, 4))
    y = x @ jnp.array([1.0, -2.0, 0.5, 0.0])
    w = jnp.zeros((4,)) + 0.1
    w_start = w.reshape(w.shape)
    for _ in range(8):
        w = sgd_step(w, x, y)
    return w, jnp.linalg.norm(w - w_start)
