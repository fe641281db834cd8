"""Multichannel feedback echo (comb filter) applied to a synthetic chirp, one sample at a time.

Each output sample is scheduled to come back DELAY samples later; writes that would land past
the end of the signal are intentionally dropped.
"""

import jax.numpy as jnp
import numpy as np

N_SAMPLES = 300
N_CH = 4
DELAY = 37
FEEDBACK = 0.6


def make_chirp():
    t = np.linspace(0.0, 1.0, N_SAMPLES)
    f0 = np.array([5.0, 7.0, 11.0, 13.0])
    sig = np.sin(2 * np.pi * (f0[None, :] * t[:, None] + 20.0 * t[:, None] ** 2))
    sig *= np.exp(-3.0 * t)[:, None]
    return jnp.asarray(sig, dtype=jnp.float32)


def channel_rms(a):
    return jnp.sqrt(jnp.mean(a**2, axis=0))


def main():
    x = make_chirp()
    echo = jnp.zeros((N_SAMPLES, N_CH))
    for t in range(N_SAMPLES):
        y = x[t] + FEEDBACK * echo[t]
        # for t >= N_SAMPLES - DELAY the index is out of range and .at[].set drops it
        echo = echo.at[t + DELAY].set(y)
    out = x + FEEDBACK * echo  # every echo slot is final once the loop is done
    return {
        "out": out,
        "echo": echo,
        "energy": jnp.sum(out**2),
        "gain_db": 20.0 * jnp.log10(channel_rms(out) / channel_rms(x)),
    }


if __name__ == "__main__":
    print(main())
