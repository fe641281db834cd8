"""An ES loop that evaluates the population in chunks: `chunks = jnp.split(pop, 4)`
(a list) and an eager loop over `range(4)` accumulating the fitness-weighted step. Trap
for AO103: indexing the list with a traced index in a compiled step fails."""

import jax
import jax.numpy as jnp


def fitness(xs):
    return -jnp.sum((xs - 0.5) ** 2, axis=1)


def main():
    key = jax.random.PRNGKey(3)
    mean = jnp.zeros(2)
    for gen in range(3):  # noqa: B007
        key, sub = jax.random.split(key)
        pop = mean + 0.3 * jax.random.normal(sub, (8, 2))
        chunks = jnp.split(pop, 4)
        grad = jnp.zeros(2)
        for c in range(4):
            f = fitness(chunks[c])
            grad = grad + jnp.sum(f[:, None] * (chunks[c] - mean), axis=0)
        mean = mean + 0.1 * grad
    return mean
