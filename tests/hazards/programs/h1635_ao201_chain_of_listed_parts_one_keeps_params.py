"""An optimizer assembled like a tutorial's trainer: a list of transformations extended
in a branch, and the optimizer class chosen by name, chained; the list also takes a
transformation of the program whose `init` returns the parameters themselves. The
`TrainState` then holds the parameters' buffers twice (as `params` and in `opt_state`).
Trap for AO201: donating the state donates one buffer twice, which XLA refuses."""

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


def keep_params():
    return optax.GradientTransformation(lambda params: params, lambda u, s, p=None: (u, s))


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
        transf.append(keep_params())
    optimizer = optax.chain(*transf, opt_class(0.1))
    params = {"w": jnp.ones(3)}
    state = train_state.TrainState.create(apply_fn=None, params=params, tx=optimizer)
    x = jnp.arange(3.0)
    for _ in range(3):
        state = train_step(state, x)
    return state.params["w"]
