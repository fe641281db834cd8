"""Must-not (control h1360): the strategy is looked up by name in a table of evosax's
classes (as evosax's own examples do), so the loop's `es` is of a kind autoopt cannot
prove: any object with `ask` and `tell` methods. AO103 gives no fix."""

import jax
import jax.numpy as jnp
from evosax.algorithms import Open_ES, SimpleES

STRATEGIES = {"SimpleES": SimpleES, "Open_ES": Open_ES}


def fitness_fn(population):
    return jnp.sum((population - 1.0) ** 2, axis=-1)


def evolve(es, params, state, key):
    best = []
    for _ in range(6):
        key, key_ask, key_tell = jax.random.split(key, 3)
        population, state = es.ask(key_ask, state, params)
        fitness = fitness_fn(population)
        state, metrics = es.tell(key_tell, population, fitness, state, params)
        best.append(metrics["best_fitness"])
    return state.mean, jnp.stack(best)


def main():
    key = jax.random.key(0)
    solution = jnp.zeros(3)
    es = STRATEGIES["SimpleES"](population_size=8, solution=solution)
    params = es.default_params
    return evolve(es, params, es.init(key, solution, params), key)
