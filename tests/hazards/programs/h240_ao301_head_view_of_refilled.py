"""Sliding window: `recent = history[-3:]` is taken once before the loop (a NumPy
view), while the loop shifts and refills `history`; the view is transferred."""

import jax.numpy as jnp
import numpy as np


def main():
    history = np.zeros(6)
    recent = history[-3:]
    trend = []
    for t in range(8):
        history[:-1] = history[1:]
        history[-1] = np.cos(0.4 * t)
        trend.append(jnp.asarray(recent).mean())
    return jnp.stack(trend)
