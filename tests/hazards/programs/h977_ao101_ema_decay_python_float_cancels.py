"""An EMA update `ema_update(ema, x, decay)` called with the Python float `decay =
0.99999`; `(1 - decay)` is computed in Python double precision before it meets an
array. Trap for AO101: jitted, `decay` is a traced float32 (0.99998999) and `1 - decay`
is off by 0.14%, far beyond float32 rounding of the result."""

import jax.numpy as jnp


def ema_update(ema, x, decay):
    return decay * ema + (1 - decay) * x


def main():
    ema = jnp.zeros(3)
    x = jnp.array([100.0, -50.0, 10.0])
    for _ in range(5):
        ema = ema_update(ema, x, 0.99999)
    return ema
