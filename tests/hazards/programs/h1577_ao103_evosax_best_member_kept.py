"""evosax loop keeps the best population member whenever it improves, read after the loop."""

import jax
import jax.numpy as jnp
from evosax.algorithms import SimpleES


def fitness(x):
    return jnp.sum(jnp.abs(x - jnp.array([0.5, -0.5])), axis=-1)


def main():
    es = SimpleES(population_size=8, solution=jnp.zeros(2))
    params = es.default_params
    key = jax.random.PRNGKey(2)
    state = es.init(key, jnp.zeros(2), params)
    best_x, best_f = None, float("inf")
    for gen in range(5):  # noqa: B007
        key, k_ask, k_tell = jax.random.split(key, 3)
        population, state = es.ask(k_ask, state, params)
        fit = fitness(population)
        state, metrics = es.tell(k_tell, population, fit, state, params)  # noqa: RUF059
        i = int(jnp.argmin(fit))
        if float(fit[i]) < best_f:
            best_f = float(fit[i])
            best_x = population[i]
    return best_x, best_f
