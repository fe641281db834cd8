"""Exponential moving average of per-step gradients, started from the scalar
`jnp.zeros(())` and broadcast to the gradient's shape by the first update; its size
is logged with `.item()`. Trap for AO302: as a `lax.scan`, the carry's shape must not
change, and scan raises."""

import jax
import jax.numpy as jnp

N_STEPS = 10


@jax.jit
def ema_update(ema, target):
    grad = 2.0 * (jnp.tanh(target) - target)
    return 0.8 * ema + 0.2 * grad


@jax.jit
def size_of(ema):
    return jnp.sum(ema**2)


def main():
    targets = jnp.linspace(-1.0, 1.0, N_STEPS * 3).reshape(N_STEPS, 3)
    ema = jnp.zeros(())
    norms = []
    for i in range(N_STEPS):
        ema = ema_update(ema, targets[i])
        norm = size_of(ema)
        norms.append(norm.item())
    return norms, ema
