"""PI controller whose gain is re-tuned by a config line executed with
`exec(..., globals())`: the module global `GAIN` is rebound by code jit cannot see."""

import jax.numpy as jnp

GAIN = 0.8


def control(error, integral):
    return GAIN * error + 0.1 * integral


def retune(value):
    exec(f"GAIN = {value!r}", globals())


def main():
    target = jnp.array([1.0, 2.0])
    state = jnp.zeros(2)
    integral = jnp.zeros(2)
    for t in range(12):
        error = target - state
        integral = integral + error
        state = state + 0.5 * control(error, integral)
        if t == 5:
            retune(0.2)
    return state
