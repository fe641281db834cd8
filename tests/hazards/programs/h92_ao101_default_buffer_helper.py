"""Filter whose taps are a NumPy buffer bound as a default two calls below the
jitted candidate, and rescaled in place by a helper with `np.multiply(..., out=)`.
Trap for AO101: jitting `smooth` traces `taps_of`'s default once; every later pass
would use the first taps."""

import jax.numpy as jnp
import numpy as np

TAPS = np.array([0.25, 0.5, 0.25])


def taps_of(scale, taps=TAPS):
    return scale * jnp.asarray(taps)


def smooth(signal):
    taps = taps_of(1.0)
    return jnp.convolve(signal, taps, mode="same")


def sharpen(buffer, factor):
    np.multiply(buffer, factor, out=buffer)


def main():
    signal = jnp.sin(jnp.linspace(0.0, 6.0, 32))
    for _ in range(6):
        signal = smooth(signal)
        sharpen(TAPS, 1.1)
    return signal
