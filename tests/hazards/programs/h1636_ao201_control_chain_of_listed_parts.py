"""Control for h1635: an optimizer assembled like a tutorial's trainer, a list of
optax transformations extended in a branch and the optimizer class chosen by name,
chained; every part's `init` makes new buffers, so the donated state holds each buffer
once and the default rewrite donates it with the same results."""

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


@jax.jit
def train_step(state, x):
    grads = jax.grad(lambda p: jnp.sum((p["w"] * x) ** 2))(state.params)
    return state.apply_gradients(grads=grads)


def main(name="sgd", decay=True):
    if name == "adam":  # noqa: SIM108  (the branches a tutorial writes)
        opt_class = optax.adam
    else:
        opt_class = optax.sgd
    transf = [optax.clip(1.0)]
    if decay:
        transf.append(optax.add_decayed_weights(1e-4))
    optimizer = optax.chain(*transf, opt_class(0.1))
    params = {"w": jnp.ones(3)}
    state = train_state.TrainState.create(apply_fn=None, params=params, tx=optimizer)
    x = jnp.arange(3.0)
    for _ in range(3):
        state = train_step(state, x)
    return state.params["w"]
