"""Must-not (control h1360): a strategy of the program's own named like evosax's, with
`ask` and `tell` methods, counts its generations on `self`. Traced once in a jitted
step, the count would stop at one: no AO103 fix."""

import jax
import jax.numpy as jnp


class SimpleES:
    def __init__(self, population_size, solution):
        self.population_size = population_size
        self.generations = 0
        self.default_params = jnp.float32(0.1)

    def init(self, key, solution, params):
        return solution

    def ask(self, key, state, params):
        self.generations += 1
        noise = jax.random.normal(key, (self.population_size, state.shape[0]))
        return state + params * noise, state

    def tell(self, key, population, fitness, state, params):
        best = population[jnp.argmin(fitness)]
        return best, {"best_fitness": jnp.min(fitness) + self.generations}


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
    return state, jnp.stack(best), es.generations
