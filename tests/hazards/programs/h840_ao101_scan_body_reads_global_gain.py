"""A leaky integrator `run(x)` built on `jax.lax.scan(leak, ...)`; `leak` reads the
global `GAIN`, raised by `set_gain` between runs. Control: eager `lax.scan` caches the
traced body as jit does, so the original keeps the first `GAIN` too; autoopt refuses
to jit `run` (the scan body reads a global the module changes)."""

import jax
import jax.numpy as jnp

GAIN = 0.5


def leak(carry, x):
    carry = GAIN * carry + x
    return carry, carry


def run(xs):
    return jax.lax.scan(leak, jnp.zeros(()), xs)[1]


def set_gain(value):
    global GAIN
    GAIN = value


def main():
    xs = jnp.arange(4.0)
    outs = []
    for k in range(3):
        outs.append(run(xs))
        set_gain(0.5 + 0.2 * (k + 1))
    return jnp.stack(outs)
