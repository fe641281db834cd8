"""Haiku `transform_with_state`: a counter state and a param both created from one
module-level array through `init=lambda *_: START` (the same buffer in two trees).
"""

import haiku as hk
import jax
import jax.numpy as jnp

START = jnp.array([0.5, -0.5])


def forward(x):
    w = hk.get_parameter("w", (2,), init=lambda *_: START)
    ema = hk.get_state("ema", (2,), init=lambda *_: START)
    hk.set_state("ema", 0.9 * ema + 0.1 * w)
    return jnp.sum(x * w)


net = hk.without_apply_rng(hk.transform_with_state(forward))


@jax.jit
def step(params, state, x):
    (loss, state), g = jax.value_and_grad(lambda p: net.apply(p, state, x), has_aux=True)(params)
    return jax.tree.map(lambda p, q: p - 0.1 * q, params, g), state, loss


def main():
    x = jnp.array([1.0, 2.0])
    params, state = net.init(None, x)
    for _ in range(3):
        params, state, loss = step(params, state, x)
    return loss, state, START
