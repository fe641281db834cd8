"""equinox: an `eqx.nn.Embedding(weight=PRETRAINED)` built from a module-level pretrained
table stores that array itself as its weight. Fine-tuning with `eqx.filter_jit`, then
measuring the drift from `PRETRAINED`. Trap for AO201 (`donate="all"`): donating the
model deletes the global table the drift reads."""

import equinox as eqx
import jax
import jax.numpy as jnp

PRETRAINED = jnp.array([[0.1, 0.2], [0.3, -0.1], [0.0, 0.5], [0.2, 0.2]])


@eqx.filter_jit
def step(model, ids, targets):
    def loss_fn(m):
        return jnp.mean((jax.vmap(m)(ids) - targets) ** 2)

    grads = eqx.filter_grad(loss_fn)(model)
    return jax.tree.map(lambda p, g: p - 0.5 * g, model, grads)


def main():
    model = eqx.nn.Embedding(weight=PRETRAINED)
    ids = jnp.array([0, 2, 3])
    targets = jnp.ones((3, 2))
    for _ in range(3):
        model = step(model, ids, targets)
    return model.weight, jnp.sum((model.weight - PRETRAINED) ** 2)
