"""An eager rollout keeps only the last three hidden states in
`window = collections.deque(maxlen=3)`, appended every step. Trap for AO103's whole-loop
scan: the stacked values must go through the deque's `append` (which drops the oldest);
handing the list all rows, or replacing the deque by a list, keeps five."""

import collections

import jax.numpy as jnp


def main():
    w = jnp.array([[0.8, -0.3], [0.2, 0.9]])
    h = jnp.array([1.0, 0.0])
    window = collections.deque(maxlen=3)
    for _ in range(5):
        h = jnp.tanh(w @ h)
        h = h + 0.05
        window.append(h)
    return h, list(window), len(window)
