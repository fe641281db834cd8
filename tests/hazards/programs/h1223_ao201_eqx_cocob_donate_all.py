"""An equinox loop with `optax.contrib.cocob()`, whose `init` keeps the initial
parameters in its state. Trap for AO201: `eqx.filter_jit(donate="all")` would donate the
model's arrays and the same arrays inside `opt_state` in one call."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax

OPT = optax.contrib.cocob()


@eqx.filter_jit
def step(model, opt_state, x, y):
    loss, grads = eqx.filter_value_and_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    updates, opt_state = OPT.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state, loss


def main():
    model = eqx.nn.MLP(2, 1, 4, 1, key=jax.random.PRNGKey(3))
    opt_state = OPT.init(eqx.filter(model, eqx.is_array))
    x = jnp.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.5, 0.5]])
    y = jnp.array([[1.0], [1.0], [0.0], [0.5]])
    for _ in range(4):
        model, opt_state, loss = step(model, opt_state, x, y)
    return loss
