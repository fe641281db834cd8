"""evosax ask/tell loop; the fitness adds noise whose scale, a module global, is annealed."""

import jax
import jax.numpy as jnp
from evosax.algorithms import SimpleES

NOISE = 1.0


def fitness(key, x):
    return jnp.sum(x**2, axis=-1) + NOISE * jax.random.normal(key, (x.shape[0],))


def main():
    global NOISE
    es = SimpleES(population_size=6, solution=jnp.zeros(2))
    params = es.default_params
    key = jax.random.PRNGKey(1)
    state = es.init(key, jnp.full(2, 2.0), params)
    for gen in range(6):  # noqa: B007
        key, k_ask, k_fit, k_tell = jax.random.split(key, 4)
        population, state = es.ask(k_ask, state, params)
        fit = fitness(k_fit, population)
        state, metrics = es.tell(k_tell, population, fit, state, params)  # noqa: RUF059
        NOISE = NOISE * 0.1
    return state.mean, NOISE
