"""A uint8 test pattern advanced by the frame number: `frame + t` wraps modulo 256
because a Python int keeps the uint8 dtype (weak typing). A traced loop index is a
strong int32 and promotes the frame."""

import jax.numpy as jnp


def main():
    frame = jnp.arange(8, dtype=jnp.uint8) * 30
    checksum = jnp.zeros((), jnp.uint32)
    for t in range(40):
        frame = frame + t
        checksum = checksum + frame.astype(jnp.uint32).sum()
    return frame, checksum
