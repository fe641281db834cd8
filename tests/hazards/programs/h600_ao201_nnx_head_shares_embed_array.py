"""A small nnx language model whose output head is tied to its embedding by building
a second `nnx.Param` around the embedding's array. Trap for AO201: the module's state
then holds one buffer under two variables, so donating `model` to the `nnx.jit` step
donates that buffer twice (XLA refuses the call)."""

import jax.numpy as jnp
import optax
from flax import nnx


class TinyLM(nnx.Module):
    def __init__(self, vocab, dim, rngs):
        self.embed = nnx.Embed(vocab, dim, rngs=rngs)
        self.head = nnx.Param(self.embed.embedding.value)
        self.scale = nnx.Param(jnp.ones(dim))

    def __call__(self, ids):
        h = self.embed(ids) * self.scale.value
        return h @ self.head.value.T


def loss_fn(model, ids, targets):
    logits = model(ids)
    return optax.softmax_cross_entropy_with_integer_labels(logits, targets).mean()


@nnx.jit
def train_step(model, optimizer, ids, targets):
    loss, grads = nnx.value_and_grad(loss_fn)(model, ids, targets)
    optimizer.update(model, grads)
    return loss


def main():
    model = TinyLM(11, 4, nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(0.05), wrt=nnx.Param)
    ids = jnp.arange(10) % 11
    targets = (ids + 1) % 11
    losses = []
    for _ in range(6):
        loss = train_step(model, optimizer, ids, targets)
        losses.append(round(float(loss), 4))
    print("losses", losses)
    return model.head.value, model.embed.embedding.value
