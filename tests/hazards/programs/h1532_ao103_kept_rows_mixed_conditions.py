"""A relaxation loop keeps probes under several step conditions: every 4th, after warm-up,
the last.
"""

import jax.numpy as jnp


def main():
    x = jnp.array([1.0, 2.0, 0.5])
    every_fourth, late_odd, last, tail, edges = [], [], [], [], []
    for i in range(12):
        x = jnp.tanh(x * 1.1 + 0.01)
        x = x - 0.1 * jnp.mean(x)
        if i % 4 == 0:
            every_fourth.append(x[0])
        if i % 3 == 2 and i > 4:
            late_odd.append(x[1])
        if i == 11:
            last.append(x[2])
        if i >= 9:
            tail.append(x.sum())
        if i % 4 == 3 or i == 0:
            edges.append(x.max())
    return x, every_fourth, late_odd, last, tail, edges
