"""plain jax, signal coding: a codec is two jitted functions, `encode` (scale to the
quantizer step and add the magic number 1.5 * 2**23, which rounds the float32 to an
integer level held in the mantissa) and `decode` (subtract it and scale back); an eager
loop encodes and decodes each frame, accumulates the squared round-trip error and keeps
the worst frame's error. Called as separate programs, the encoded float32 is stored and
rounded between them. Trap for AO103: the compiled step traces both helpers into one
XLA program, which folds `(t + C) - C` to `t`: the accumulated error becomes 0."""

import jax
import jax.numpy as jnp

MAGIC = 12582912.0
STEP = 0.125


@jax.jit
def encode(frame):
    return frame / STEP + MAGIC


@jax.jit
def decode(code):
    return (code - MAGIC) * STEP


def main():
    frames = jax.random.normal(jax.random.PRNGKey(4), (5, 32))
    total = jnp.zeros(())
    worst = jnp.zeros(())
    for i in range(5):
        restored = decode(encode(frames[i]))
        err = jnp.sum((frames[i] - restored) ** 2)
        total = total + err
        worst = jnp.maximum(worst, err)
    return total, worst
