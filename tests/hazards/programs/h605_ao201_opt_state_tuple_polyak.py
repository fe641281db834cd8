"""Polyak averaging written by hand: the optimizer state is a tuple `(avg, velocity)`
whose average starts as the params themselves, `opt_state = (params, zeros)`. Trap for
AO201: the first call passes one buffer as `params` and inside `opt_state`; donating
both is refused by XLA, and donating one deletes the other."""

import jax
import jax.numpy as jnp


@jax.jit
def update(params, opt_state, target):
    avg, velocity = opt_state
    grad = params - target
    velocity = 0.9 * velocity + grad
    params = params - 0.1 * velocity
    avg = 0.8 * avg + 0.2 * params
    return params, (avg, velocity)


def main():
    params = jnp.array([2.0, -1.0, 0.5, 3.0])
    opt_state = (params, jnp.zeros_like(params))
    target = jnp.array([0.0, 1.0, 1.0, -1.0])
    for _ in range(10):
        params, opt_state = update(params, opt_state, target)
    avg, velocity = opt_state
    print("distance", round(float(jnp.linalg.norm(avg - target)), 5))
    return params, avg, velocity
