"""Equinox `filter_jit` step with `optax.contrib.cocob`, whose state holds the params."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


@eqx.filter_jit
def step(model, opt_state, x, y):
    def loss_fn(m):
        return jnp.mean((jax.vmap(m)(x)[:, 0] - y) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state, loss


optim = optax.contrib.cocob()


def main():
    model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    x = jax.random.normal(jax.random.PRNGKey(1), (20, 2))
    y = x[:, 0] ** 2 - x[:, 1]
    for _ in range(5):
        model, opt_state, loss = step(model, opt_state, x, y)
    return loss, model(x[0])
