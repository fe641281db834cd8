"""haiku: `hk.Embed(embedding_matrix=GLOVE)` initialises its parameter with
`jnp.asarray(GLOVE)`, the module-level array itself. Trap for AO201: donating the params
deletes `GLOVE`, read after training for the drift from the pretrained vectors."""

import haiku as hk
import jax
import jax.numpy as jnp

GLOVE = jnp.array([[0.5, -0.5], [1.0, 0.0], [0.0, 1.0]], dtype=jnp.float32)


def forward(ids):
    return hk.Embed(embedding_matrix=GLOVE, name="embed")(ids).sum()


model = hk.without_apply_rng(hk.transform(forward))


@jax.jit
def update(params, ids):
    grads = jax.grad(lambda p: (model.apply(p, ids) - 3.0) ** 2)(params)
    return jax.tree.map(lambda p, g: p - 0.05 * g, params, grads)


def main():
    ids = jnp.array([0, 1, 1])
    params = model.init(None, ids)
    for _ in range(3):
        params = update(params, ids)
    return params, jnp.sum((params["embed"]["embeddings"] - GLOVE) ** 2)
