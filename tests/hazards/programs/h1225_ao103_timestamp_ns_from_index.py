"""A sensor-fusion loop that timestamps each step in integer nanoseconds,
`t_ns = k * PERIOD_NS`, and converts to seconds for a drift model. Python ints do not
overflow; traced as int32 in a compiled step, `k * 1_500_000_000` wraps from the second
step. Trap for AO103: the loop index carried into a jitted step changes the timestamps."""

import jax.numpy as jnp

PERIOD_NS = 1_500_000_000


def main():
    bias = jnp.zeros(2)
    est = jnp.array([0.5, -0.5])
    for k in range(6):
        t_s = k * PERIOD_NS * 1e-9
        drift = jnp.array([0.01, -0.02]) * t_s
        est = 0.8 * est + 0.2 * (bias + drift)
        bias = bias + 0.1 * drift
    return est, bias
