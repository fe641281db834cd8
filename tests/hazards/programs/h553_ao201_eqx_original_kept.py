"""Framework hazard (issue 26): a model kept as `original = model` and read later.

An equinox regression MLP (a list of `eqx.nn.Linear`) is fine-tuned by a jitted step
that returns a new model; the author keeps `original = model` before training and,
after it, reports how far the weights moved and the original model's loss. Donating
`model` would delete the arrays `original` still holds.
"""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax

STEPS = 40

optim = optax.adam(1e-2)


class MLP(eqx.Module):
    layers: list

    def __init__(self, sizes, key):
        keys = jax.random.split(key, len(sizes) - 1)
        self.layers = [
            eqx.nn.Linear(m, n, key=k) for m, n, k in zip(sizes[:-1], sizes[1:], keys, strict=True)
        ]

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = jnp.tanh(layer(x))
        return self.layers[-1](x)


def loss_fn(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


@jax.jit
def train_step(model, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(model, x, y)
    updates, opt_state = optim.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, loss


def main():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.uniform(-1, 1, size=(256, 2)).astype(np.float32))
    y = jnp.sin(3 * x[:, :1]) * x[:, 1:]
    model = MLP((2, 32, 32, 1), jax.random.PRNGKey(1))
    opt_state = optim.init(model)
    original = model
    for _ in range(STEPS):
        model, opt_state, loss = train_step(model, opt_state, x, y)
    moved = sum(
        jnp.sum((a - b) ** 2)
        for a, b in zip(jax.tree.leaves(model), jax.tree.leaves(original), strict=True)
    )
    return {"loss": loss, "moved": moved, "original_loss": loss_fn(original, x, y)}
