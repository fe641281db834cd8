"""Two EMAs `ema_update(ema, x, decay)` with the constant decays 0.999 and 0.99999, where
`1 - decay` cancels in Python. Control for h977: every call passes a constant, so the
jitted `ema_update` takes `decay` static and computes `1 - decay` in float64 as eagerly."""

import jax.numpy as jnp


def ema_update(ema, x, decay):
    return decay * ema + (1 - decay) * x


def main():
    fast = jnp.zeros(3)
    slow = jnp.zeros(3)
    x = jnp.array([100.0, -50.0, 10.0])
    for _ in range(5):
        fast = ema_update(fast, x, 0.999)
        slow = ema_update(slow, x, 0.99999)
    return fast, slow
