"""plain jax, DSP: a one-pole IIR filter simulated in fixed point (8 fractional bits)
to check what the hardware will output; each step rounds the accumulator to the grid
with the magic-number trick `(t + 1.5 * 2**23) - 1.5 * 2**23`, and the loop appends
every output sample. Eagerly each operation rounds, so every sample is a multiple of
1/256. Trap for AO103: compiled (a step or a whole-loop scan), XLA's algebraic
simplifier folds `(t + C) - C` to `t`: the filter runs in full float precision and the
samples are no longer on the fixed-point grid."""

import jax
import jax.numpy as jnp

MAGIC = 12582912.0


def main():
    samples = jax.random.uniform(jax.random.PRNGKey(3), (40,), minval=-1.0, maxval=1.0)
    state = jnp.zeros(())
    outputs = []
    for n in range(40):
        acc = 0.875 * state + 0.125 * samples[n]
        scaled = acc * 256.0
        state = ((scaled + MAGIC) - MAGIC) / 256.0
        outputs.append(state)
    return jnp.stack(outputs)
