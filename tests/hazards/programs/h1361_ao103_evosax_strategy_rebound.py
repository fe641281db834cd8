"""Must-not (control h1360): a restart strategy rebuilds the evosax strategy inside the
loop, with a larger population and its mean as the new solution. Built inside a jitted
step, the strategy would be built from traced arrays (its constructor is code autoopt
does not follow): AO103 gives no fix."""

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
    for generation in range(6):
        key, key_ask, key_tell, key_init = jax.random.split(key, 4)
        population, state = es.ask(key_ask, state, params)
        fitness = fitness_fn(population)
        state, metrics = es.tell(key_tell, population, fitness, state, params)
        es = SimpleES(population_size=8 + 4 * generation, solution=state.mean)
        params = es.default_params
        state = es.init(key_init, state.mean, params)
        best.append(metrics["best_fitness"])
    return state.mean, jnp.stack(best)
