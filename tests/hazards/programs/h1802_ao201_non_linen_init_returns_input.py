"""plain jax: an `EMA` object whose `init(params)` (not a linen Module's) returns
`{"params": params, "count": 0}`, the input itself inside a dict; the jitted step
replaces that state. Trap for AO201: donating the state deletes the params the caller
still reads."""

import functools

import jax
import jax.numpy as jnp


class EMA:
    def __init__(self, decay):
        self.decay = decay

    def init(self, params):
        return {"params": params, "count": jnp.zeros((), jnp.int32)}


ema = EMA(0.9)


@jax.jit
def ema_step(ema_state, new_params):
    avg = jax.tree.map(lambda a, b: 0.9 * a + 0.1 * b, ema_state["params"], new_params)
    return {"params": avg, "count": ema_state["count"] + 1}


def main():
    params = {"w": jnp.array([1.0, 2.0]), "b": jnp.array(0.5)}
    ema_state = ema.init(params)
    for i in range(4):
        new = jax.tree.map(functools.partial(jnp.multiply, 1.0 + 0.1 * i), params)
        ema_state = ema_step(ema_state, new)
    return ema_state, params
