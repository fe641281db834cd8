"""Control (for h1361-h1367): an eager ask / evaluate / tell loop of an evosax strategy
built once in the function, whose fitness function is pure. AO103 compiles the
generation as one jitted step with the strategy a static argument (safe): the results
are unchanged."""

import jax
import jax.numpy as jnp
from evosax.algorithms import SimpleES


def fitness_fn(population):
    return jnp.sum((population - 1.0) ** 2, axis=-1)


def main():
    key = jax.random.key(0)
    solution = jnp.zeros(3)
    es = SimpleES(population_size=8, solution=solution)
    params = es.default_params
    state = es.init(key, solution, params)
    best = []
    for _ in range(6):
        key, key_ask, key_tell = jax.random.split(key, 3)
        population, state = es.ask(key_ask, state, params)
        fitness = fitness_fn(population)
        state, metrics = es.tell(key_tell, population, fitness, state, params)
        best.append(metrics["best_fitness"])
    return state.mean, jnp.stack(best)
