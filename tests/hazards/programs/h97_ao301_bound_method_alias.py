"""Bias sweep: a host bias buffer is reset each step through `reset = bias.fill`, a
bound method taken as a value before the loop. Trap for AO301: the loop never names
`bias` when it changes it, yet `reset(...)` refills it in place."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def respond(h, b):
    return jnp.tanh(h + b)


def main():
    bias = np.zeros(5)
    reset = bias.fill
    h = jnp.zeros(5)
    outs = []
    for step in range(8):
        reset(0.1 * step)
        h = respond(h, jnp.asarray(bias))
        outs.append(h[0])
    return h, jnp.stack(outs)
