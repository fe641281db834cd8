"""A loop that keeps a noisy probe of the field every fourth step, the noise drawn by a
module NumPy Generator inside a helper. Trap for AO103's whole-loop form of values kept
under a condition: the kept value would be computed inside the compiled step, where the
host draw runs once at trace time (one frozen noise for every row) and the Generator
advances other than it did; the loop must keep its step form."""

import jax.numpy as jnp
import numpy as np

STEPS = 12
RNG = np.random.default_rng(7)


def probe(u):
    return u + jnp.asarray(RNG.normal(size=u.shape), dtype=jnp.float32)


def main():
    u = jnp.linspace(0.0, 2.0, 8, dtype=jnp.float32)
    probes = []
    for step in range(STEPS):
        du = jnp.sin(u) - u
        u = u + 0.1 * du
        if step % 4 == 0:
            probes.append(probe(u))
    return u, jnp.stack(probes), RNG.normal()
