"""A flax `TrainState` trainer that keeps `self.init_params` for an L2-to-init report
and builds the state from `jax.device_put(init_params)`, which the author takes for a
copy: for an array already on the device it returns the same array. Trap for AO201:
donating `self.state` deletes `self.init_params`, read by `distance_from_init()`."""

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


def apply_fn(params, x):
    return x @ params["w"] + params["b"]


@jax.jit
def train_step(state, batch):
    x, y = batch

    def loss_fn(p):
        return jnp.mean((state.apply_fn(p, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


class Trainer:
    def __init__(self, init_params):
        self.init_params = init_params
        self.state = train_state.TrainState.create(
            apply_fn=apply_fn,
            params=jax.device_put(init_params),
            tx=optax.sgd(0.1),
        )

    def fit(self, batches):
        losses = []
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            losses.append(loss)
        return losses

    def distance_from_init(self):
        sq = jax.tree.map(lambda a, b: jnp.sum((a - b) ** 2), self.state.params, self.init_params)
        return jnp.sqrt(sum(jax.tree.leaves(sq)))


def main():
    key = jax.random.PRNGKey(0)
    init = {"w": jax.random.normal(key, (3, 1)), "b": jnp.zeros(1)}
    x = jnp.arange(12.0).reshape(4, 3) / 10.0
    y = x.sum(axis=1, keepdims=True)
    trainer = Trainer(init)
    losses = trainer.fit([(x, y)] * 5)
    return jnp.stack(losses), trainer.distance_from_init()
