"""A stream reader decodes frames with `np.frombuffer(buf, ...)` once, then refills the
`bytearray` behind it every step with `buf[:] = packet`. The array is a view of the
bytes. Trap for AO301: the transfer of `frame` looks loop-invariant, but its memory
changes through `buf`; hoisted, every step sees the first packet."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def accumulate(acc, frame):
    return 0.5 * acc + frame


def main():
    packets = [np.full(4, k, dtype=np.float64).tobytes() for k in range(1, 6)]
    buf = bytearray(packets[0])
    frame = np.frombuffer(buf, dtype=np.float64)
    acc = jnp.zeros(4)
    for packet in packets:
        buf[:] = packet
        acc = accumulate(acc, jnp.asarray(frame))
    return acc
