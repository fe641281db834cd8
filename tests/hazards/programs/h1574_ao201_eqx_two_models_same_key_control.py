"""Control: two equinox models built from one key (equal values, distinct buffers), both trained."""

import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit
def step(model, x, y):
    def loss_fn(m):
        return jnp.mean((jax.vmap(m)(x)[:, 0] - y) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    return eqx.apply_updates(model, jax.tree.map(lambda g: -0.1 * g, grads)), loss


def main():
    key = jax.random.PRNGKey(0)
    a = eqx.nn.MLP(2, 1, 4, 1, key=key)
    b = eqx.nn.MLP(2, 1, 4, 1, key=key)
    x = jax.random.normal(jax.random.PRNGKey(1), (8, 2))
    y = x[:, 0] - x[:, 1]
    for _ in range(3):
        a, la = step(a, x, y)
    for _ in range(5):
        b, lb = step(b, x, y)
    return la, lb
