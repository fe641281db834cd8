"""k-step transition probabilities of a Markov chain, `matrix_power(P, k)` for k = 1..5."""

import jax.numpy as jnp

P = jnp.array([[0.9, 0.1, 0.0], [0.2, 0.7, 0.1], [0.0, 0.3, 0.7]])


def k_step_distribution(p0, transition, k):
    return p0 @ jnp.linalg.matrix_power(transition, k)


def main():
    p0 = jnp.array([1.0, 0.0, 0.0])
    rows = []
    for k in range(1, 6):
        rows.append(k_step_distribution(p0, P, k))
    return jnp.stack(rows)
