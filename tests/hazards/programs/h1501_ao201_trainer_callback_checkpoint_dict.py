"""Trainer hands `self.state` to its callbacks; a checkpoint callback keeps params."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn
from flax.training import train_state


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(nn.relu(nn.Dense(6)(x)))


class InMemoryCheckpoint:
    def __init__(self, every):
        self.every = every
        self.saved = {}

    def __call__(self, state, step):
        if step % self.every == 0:
            self.saved[step] = state.params


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        logits = state.apply_fn({"params": p}, x)
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


class Trainer:
    def __init__(self, callbacks):
        model = Net()
        params = model.init(jax.random.PRNGKey(0), jnp.ones((1, 4)))["params"]
        self.state = train_state.TrainState.create(
            apply_fn=model.apply, params=params, tx=optax.adam(1e-2)
        )
        self.callbacks = callbacks

    def train_model(self, x, y, steps):
        losses = []
        for step in range(steps):
            self.state, loss = train_step(self.state, x, y)
            losses.append(loss)
            for cb in self.callbacks:
                cb(self.state, step)
        return losses


def main():
    x = jax.random.normal(jax.random.PRNGKey(3), (20, 4))
    y = (x[:, 0] > 0).astype(jnp.int32)
    ckpt = InMemoryCheckpoint(every=4)
    trainer = Trainer([ckpt])
    losses = trainer.train_model(x, y, 10)
    kernels = {k: v["Dense_0"]["kernel"].sum() for k, v in ckpt.saved.items()}
    return jnp.stack(losses), kernels
