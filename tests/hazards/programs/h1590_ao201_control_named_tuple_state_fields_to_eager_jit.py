"""Control (for h1587): a `typing.NamedTuple` training state of haiku parameters,
an adam state and a key, replaced every step by a plain `jax.jit` step that rebuilds it
from `optax.apply_updates` and `opt.update`; an eager compiled loss is given two of its
fields and a batch of the user's own loader. The named tuple is registered as nothing
else (its aux data is None) and each field is haiku's, optax's or a key, so the loss's
body sees no object of the caller: donating `state` to `update` keeps the losses."""

from typing import NamedTuple

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax


class TrainingState(NamedTuple):
    params: hk.Params
    opt_state: optax.OptState
    rng_key: jax.Array


class Loader:
    def __init__(self, xs):
        self.xs = xs
        self.i = 0

    def __next__(self):
        x = self.xs[self.i % len(self.xs)]
        self.i += 1
        return x


def forward(x):
    return hk.Linear(2)(x)


model = hk.transform(forward)


def main():
    optimizer = optax.adam(1e-2)

    @jax.jit
    def loss_fn(params, rng_key, batch):
        out = model.apply(params, rng_key, batch)
        return jnp.mean(jnp.square(out - batch))

    @jax.jit
    def update(state, batch):
        rng_key, next_rng_key = jax.random.split(state.rng_key)
        gradients = jax.grad(loss_fn)(state.params, rng_key, batch)
        updates, new_opt_state = optimizer.update(gradients, state.opt_state)
        new_params = optax.apply_updates(state.params, updates)
        return TrainingState(new_params, new_opt_state, next_rng_key)

    train = Loader(np.linspace(0.0, 1.0, 24, dtype=np.float32).reshape(4, 3, 2))
    evals = Loader(np.linspace(1.0, 0.0, 24, dtype=np.float32).reshape(4, 3, 2))
    key = jax.random.PRNGKey(0)
    params = model.init(key, next(train))
    state = TrainingState(params, optimizer.init(params), key)
    seen = []
    for step in range(5):
        state = update(state, next(train))
        if step % 2 == 0:
            seen.append(float(loss_fn(state.params, state.rng_key, next(evals))))
    return state.params, seen
