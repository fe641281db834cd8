"""Must-not (control h1360): the evosax strategy is given a metrics function of the
program's own that prints, which `tell` runs. The overlay vouches only for evosax's own
functions there, so the strategy is not proven and AO103 gives no fix (evosax's own jit
of `tell` traces the function too: it prints once either way)."""

import jax
import jax.numpy as jnp
from evosax.algorithms import SimpleES


def fitness_fn(population):
    return jnp.sum((population - 1.0) ** 2, axis=-1)


def noisy_metrics(key, population, fitness, state, params):
    print("metrics of", population.shape[0], "candidates")
    return {"best_fitness": state.best_fitness}


def main():
    key = jax.random.key(0)
    solution = jnp.zeros(3)
    es = SimpleES(population_size=8, solution=solution, metrics_fn=noisy_metrics)
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
