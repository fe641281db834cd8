"""Fit of a once-a-minute oscillation in a sensor window stamped with Unix time: the loop
body, after a host block that prints every 10 steps, builds the window's phases as
`(omega * t_start) % (2 * math.pi) + omega * offsets`. Eagerly the product and the modulo
of the two Python floats are float64 (the phase is exact); traced as float32 arguments,
`omega * t_start` (about 1.8e8) is off by up to 8 and the phase is garbage, so the features,
the fitted weights and the printed sums change. Trap for AO103: compiling the device work
must not turn Python float arithmetic into float32 arithmetic."""

import math

import jax
import jax.numpy as jnp


@jax.jit
def grad_fn(w, feats, target):
    return jax.grad(lambda v: jnp.mean((feats @ v - target) ** 2))(w)


def main():
    offsets = jnp.linspace(0.0, 50.0, 8)
    target = jnp.sin(jnp.linspace(0.0, 50.0, 8) * (2 * math.pi / 60.0) + 1.0)
    omega = 2 * math.pi / 60.0
    t_start = 1_700_000_017.0
    w = jnp.zeros(2)
    for step in range(30):
        if step % 10 == 0:
            print(step, f"{float(jnp.sum(w)):.5f}")
        phase = (omega * t_start) % (2 * math.pi) + omega * offsets
        feats = jnp.stack([jnp.sin(phase), jnp.cos(phase)], axis=1)
        g = grad_fn(w, feats, target)
        w = w - 0.5 * g
    return w
