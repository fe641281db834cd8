"""evosax ask/tell loop; every 2 generations the state's mean is kept for a trajectory plot."""

import jax
import jax.numpy as jnp
from evosax.algorithms import SimpleES


def fitness(x):
    return jnp.sum((x - 1.0) ** 2, axis=-1)


def main():
    es = SimpleES(population_size=8, solution=jnp.zeros(3))
    params = es.default_params
    key = jax.random.PRNGKey(0)
    state = es.init(key, jnp.zeros(3), params)
    trajectory = []
    for gen in range(6):
        key, k_ask, k_tell = jax.random.split(key, 3)
        population, state = es.ask(k_ask, state, params)
        fit = fitness(population)
        state, metrics = es.tell(k_tell, population, fit, state, params)  # noqa: RUF059
        if gen % 2 == 0:
            trajectory.append(state.mean)
    return jnp.stack(trajectory), state.best_fitness
