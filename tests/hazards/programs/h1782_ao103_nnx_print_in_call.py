"""nnx: a model that prints from `__call__` and counts in a plain int, trained by an
`nnx.jit` step in a counted loop that evaluates every 4 steps. Trap for AO103 (nnx whole
loop): the int changes the graph so every step retraces and prints; one compiled loop
prints once."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Tagger(nnx.Module):
    def __init__(self, rngs):
        self.proj = nnx.Linear(4, 3, rngs=rngs)
        self.step = 0

    def __call__(self, x):
        self.step += 1
        print("forward", self.step)
        return jax.nn.log_softmax(self.proj(x))


@nnx.jit
def train_step(model, optimizer, x, labels):
    def loss_fn(model):
        logits = model(x)
        return -jnp.mean(jnp.take_along_axis(logits, labels[:, None], axis=1))

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss


def main():
    model = Tagger(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.2), wrt=nnx.Param)
    x = jnp.linspace(-1.0, 1.0, 20).reshape(5, 4)
    labels = jnp.array([0, 1, 2, 1, 0])
    for i in range(8):
        loss = train_step(model, optimizer, x, labels)
        if i % 4 == 3:
            print("eval", float(loss))
    return loss
