"""Peak counting per signal: `count_peaks` returns a Python int (how many local maxima
exceed a threshold), and the counts are stacked into an array. Trap for AO501: under
vmap the count must be a traced array, and `int(...)` of a batched tracer raises."""

import jax.numpy as jnp


def count_peaks(signal, threshold=0.5):
    interior = signal[1:-1]
    peaks = (interior > signal[:-2]) & (interior > signal[2:]) & (interior > threshold)
    return int(jnp.sum(peaks))


def main():
    t = jnp.linspace(0.0, 6.0, 40)
    signals = jnp.stack([jnp.sin(k * t) for k in (1.0, 2.0, 3.0, 5.0)])
    counts = jnp.stack([count_peaks(s) for s in signals])
    return counts
