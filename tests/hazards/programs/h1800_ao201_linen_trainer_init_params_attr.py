"""flax linen: a `Trainer` class that keeps `self.init_params = variables["params"]` and
`self.state = TrainState.create(..., params=variables["params"])`, then trains with
`self.state = self.train_step(self.state, batch)`; `distance_from_init` reads the kept
params afterwards. Trap for AO201: donating `self.state` deletes the arrays
`init_params` shares with the first state."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training.train_state import TrainState


def make_mlp(sizes):
    return nn.Sequential([nn.Dense(s) for s in sizes])


def train_step(state, batch):
    def loss_fn(params):
        pred = state.apply_fn({"params": params}, batch["x"])
        return jnp.mean((pred - batch["y"]) ** 2)

    grads = jax.grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads)


class Trainer:
    def __init__(self, sizes, x):
        self.model = make_mlp(sizes)
        variables = self.model.init(jax.random.PRNGKey(0), x)
        self.init_params = variables["params"]
        self.state = TrainState.create(
            apply_fn=self.model.apply, params=variables["params"], tx=optax.sgd(0.1)
        )
        self.train_step = jax.jit(train_step)

    def fit(self, batch, steps):
        for _ in range(steps):
            self.state = self.train_step(self.state, batch)

    def distance_from_init(self):
        diffs = jax.tree.map(
            lambda a, b: jnp.sum((a - b) ** 2), self.state.params, self.init_params
        )
        return sum(jax.tree.leaves(diffs))


def main():
    x = jnp.linspace(0.0, 1.0, 8).reshape(4, 2)
    trainer = Trainer([3, 1], x)
    trainer.fit({"x": x, "y": jnp.ones((4, 1))}, 3)
    return trainer.distance_from_init()
