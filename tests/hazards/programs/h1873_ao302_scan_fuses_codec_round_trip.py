"""plain jax, signal coding: a codec is two jitted functions, `encode` (scale to the
quantizer step and add the magic number 1.5 * 2**23, which rounds the float32 to an
integer level held in the mantissa) and `decode` (subtract it and scale back); a loop
over signal frames measures each frame's round-trip error with `float(...)`. Run as two
programs, the encoded float32 is stored between them, so it is rounded: the errors are
the quantization errors. Trap for AO302: the scan form runs the loop as one jitted
`lax.scan`, where XLA inlines both functions into one program and folds `(t + C) - C`
to `t`: every measured error becomes 0.0."""

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


@jax.jit
def max_error(frame, restored):
    return jnp.max(jnp.abs(frame - restored))


def main():
    frames = jax.random.normal(jax.random.PRNGKey(2), (6, 32))
    errors = []
    for i in range(6):
        code = encode(frames[i])
        restored = decode(code)
        errors.append(float(max_error(frames[i], restored)))
    return errors
