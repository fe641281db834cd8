"""Must-not (control h1360): the fitness function keeps every population it is given in
a module list. Traced once in a jitted step, it would append one tracer: no AO103 fix."""

import jax
import jax.numpy as jnp
from evosax.algorithms import SimpleES

EVALUATED = []


def fitness_fn(population):
    EVALUATED.append(population)
    return jnp.sum((population - 1.0) ** 2, axis=-1)


def main():
    key = jax.random.key(0)
    solution = jnp.zeros(3)
    es = SimpleES(population_size=8, solution=solution)
    params = es.default_params
    state = es.init(key, solution, params)
    for _ in range(6):
        key, key_ask, key_tell = jax.random.split(key, 3)
        population, state = es.ask(key_ask, state, params)
        fitness = fitness_fn(population)
        state, _ = es.tell(key_tell, population, fitness, state, params)
    return state.mean, len(EVALUATED), jnp.stack(EVALUATED).sum()
