"""haiku training state in the style of haiku's ImageNet example: a NamedTuple
`TrainState(params, avg_params, opt_state)` whose Polyak average starts as the params
themselves (`avg_params=params`). The jitted step replaces the whole state every step;
donating it donates the same buffers twice (XLA refuses)."""

from typing import NamedTuple

import haiku as hk
import jax
import jax.numpy as jnp
import optax


class TrainState(NamedTuple):
    params: hk.Params
    avg_params: hk.Params
    opt_state: optax.OptState


def forward(x):
    return hk.nets.MLP([6, 1])(x)[:, 0]


net = hk.without_apply_rng(hk.transform(forward))
opt = optax.sgd(0.05, momentum=0.9)


def initial_state(rng, x):
    params = net.init(rng, x)
    return TrainState(params=params, avg_params=params, opt_state=opt.init(params))


@jax.jit
def train_step(state, x, y):
    loss, grads = jax.value_and_grad(lambda p: jnp.mean((net.apply(p, x) - y) ** 2))(state.params)
    updates, opt_state = opt.update(grads, state.opt_state)
    params = optax.apply_updates(state.params, updates)
    avg_params = optax.incremental_update(params, state.avg_params, 0.1)
    return TrainState(params, avg_params, opt_state), loss


def main():
    x = jnp.linspace(-1.0, 1.0, 20).reshape(5, 4)
    y = x.sum(axis=1) ** 2
    state = initial_state(jax.random.PRNGKey(1), x)
    losses = []
    for _ in range(5):
        state, loss = train_step(state, x, y)
        losses.append(loss)
    return state.avg_params, losses
