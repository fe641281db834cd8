"""flax linen: a model built from a list of layers by a factory; `variables =
model.init(...)` is kept and `params = variables["params"]` is trained by a jitted optax
step; the loop reports the change from `variables` at the end. Trap for AO201:
donating `params` deletes the arrays `variables` still holds."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class Stack(nn.Module):
    widths: tuple

    def setup(self):
        self.layers = [nn.Dense(w) for w in self.widths]

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = nn.tanh(layer(x))
        return self.layers[-1](x)


def build(widths):
    return Stack(tuple(widths))


model = build([4, 4, 1])
tx = optax.adam(0.05)


@jax.jit
def step(params, opt_state, x, y):
    def loss_fn(p):
        return jnp.mean((model.apply({"params": p}, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    x = jnp.linspace(-1.0, 1.0, 10).reshape(5, 2)
    y = jnp.sin(x[:, :1])
    variables = model.init(jax.random.PRNGKey(3), x)
    params = variables["params"]
    opt_state = tx.init(params)
    for _ in range(4):
        params, opt_state, loss = step(params, opt_state, x, y)
    moved = jax.tree.map(lambda a, b: jnp.abs(a - b).max(), params, variables["params"])
    return loss, moved
