"""Gradient accumulation with the accumulator kept in bfloat16 to save memory; the
jitted update adds float32 gradients, so after the first step the accumulator is
float32. The gradient norm is logged with `float()` every step. Trap for AO302: as a
`lax.scan`, the carry's dtype must not change, and scan raises."""

import jax
import jax.numpy as jnp

N_STEPS = 12


@jax.jit
def accumulate(acc, grad):
    return acc + 0.5 * grad


@jax.jit
def grad_norm(acc):
    return jnp.sqrt(jnp.sum(acc.astype(jnp.float32) ** 2))


def main():
    grads = jnp.sin(jnp.linspace(0.0, 3.0, N_STEPS * 4)).reshape(N_STEPS, 4)
    acc = jnp.zeros(4, jnp.bfloat16)
    norms = []
    for i in range(N_STEPS):
        acc = accumulate(acc, grads[i])
        norm = grad_norm(acc)
        norms.append(float(norm))
    return norms, acc
