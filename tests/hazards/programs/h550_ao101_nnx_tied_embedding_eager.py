"""Framework hazard (issue 26): nnx tied embeddings, trained by an eager step in place.

A tiny next-token model whose output projection is the embedding table itself
(`self.embed.attend`). The step is plain Python: `nnx.value_and_grad` and
`optimizer.update(model, grads)` change `model` and `optimizer` in place and only the
loss is returned. `jax.jit` on this step would trace copies of the modules and drop
every in-place update (the loss would never move); only `nnx.jit` keeps them.
"""

import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx

VOCAB = 12
DIM = 16
STEPS = 25


class TiedLM(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.embed = nnx.Embed(VOCAB, DIM, rngs=rngs)
        self.mix = nnx.Linear(DIM, DIM, rngs=rngs)

    def __call__(self, tokens):
        h = jnp.tanh(self.mix(self.embed(tokens)))
        return self.embed.attend(h)


def loss_fn(model, tokens, targets):
    logits = model(tokens)
    return optax.softmax_cross_entropy_with_integer_labels(logits, targets).mean()


def train_step(model, optimizer, tokens, targets):
    loss, grads = nnx.value_and_grad(loss_fn)(model, tokens, targets)
    optimizer.update(model, grads)
    return loss


def main():
    rng = np.random.default_rng(0)
    sequence = rng.integers(0, VOCAB, size=257)
    tokens, targets = jnp.asarray(sequence[:-1]), jnp.asarray((sequence[:-1] * 5 + 3) % VOCAB)
    model = TiedLM(rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(0.05), wrt=nnx.Param)
    losses = []
    for _ in range(STEPS):
        losses.append(train_step(model, optimizer, tokens, targets))
    return {"losses": jnp.stack(losses), "table": model.embed.embedding.value}
