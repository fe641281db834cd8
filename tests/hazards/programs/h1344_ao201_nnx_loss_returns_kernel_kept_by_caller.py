"""A loss function keeps nothing, but returns its model's kernel array in a list that the
caller keeps. Trap for AO201: what a proven function returns is the caller's; donating
the model deletes the array the caller's history holds, read after training."""

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, n_features: int = 3, *, rngs: nnx.Rngs):
        self.n_features = n_features
        self.hidden = nnx.Linear(n_features, 8, rngs=rngs)
        self.out = nnx.Linear(8, 2, rngs=rngs)

    def __call__(self, x):
        x = x.reshape(x.shape[0], self.n_features)
        return self.out(nnx.relu(self.hidden(x)))


def loss_fun(model: nnx.Module, data: jax.Array, labels: jax.Array):
    logits = model(data)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits=logits, labels=labels).mean()
    return loss, [model.hidden.kernel.value]


@nnx.jit
def train_step(model, optimizer, data, labels):
    grads, _ = nnx.grad(loss_fun, has_aux=True)(model, data, labels)
    optimizer.update(grads)


def main():
    model = MLP(rngs=nnx.Rngs(0))
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))
    data = jnp.arange(12.0).reshape(4, 3) / 12.0
    labels = jnp.array([0, 1, 0, 1])
    losses = []
    history = []
    for i in range(6):
        train_step(model, optimizer, data, labels)
        if i % 2 == 0:
            loss, kept = loss_fun(model, data, labels)
            history.append(kept)
            losses.append(float(loss))
    return losses, history[0][0].sum()
