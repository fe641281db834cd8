"""Must-not (control h1360): the fitness function prints every generation. Traced once
in a jitted step, it would print once: no AO103 fix (AO101 names the print)."""

import jax
import jax.numpy as jnp
from evosax.algorithms import SimpleES


def fitness_fn(population):
    print("evaluating", population.shape[0], "candidates")
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
