"""A flax trainer that also builds an "initial" `TrainState` from the live one's params,
`self.initial = TrainState.create(apply_fn=..., params=self.state.params, tx=...)`,
to report the untrained loss at the end. Trap for AO201: `TrainState.create` makes new
optimizer buffers but keeps the params it is given; donating `self.state` deletes them."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training.train_state import TrainState


class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.tanh(nn.Dense(4)(x)))


@jax.jit
def train_step(state, x, y):
    def loss(p):
        return jnp.mean((state.apply_fn({"params": p}, x) - y) ** 2)

    value, grads = jax.value_and_grad(loss)(state.params)
    return state.apply_gradients(grads=grads), value


@jax.jit
def eval_loss(state, x, y):
    return jnp.mean((state.apply_fn({"params": state.params}, x) - y) ** 2)


class Trainer:
    def __init__(self, x):
        model = Regressor()
        tx = optax.adam(0.05)
        params = model.init(jax.random.key(3), x)["params"]
        self.state = TrainState.create(apply_fn=model.apply, params=params, tx=tx)
        self.initial = TrainState.create(apply_fn=model.apply, params=self.state.params, tx=tx)

    def fit(self, x, y, steps):
        for _ in range(steps):
            self.state, loss = train_step(self.state, x, y)
        return loss


def main():
    x = jnp.linspace(-1.0, 1.0, 10).reshape(5, 2)
    y = jnp.sum(x, axis=1, keepdims=True) ** 2
    trainer = Trainer(x)
    final = trainer.fit(x, y, 8)
    before = eval_loss(trainer.initial, x, y)
    print("before", round(float(before), 5), "after", round(float(final), 5))
    return before, final
