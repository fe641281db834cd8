"""An evosax-style functional ES: `state = tell(state, x, fitness)` where `state` is a
NamedTuple with the mean and a `best` field set with `jnp.where`. The loop also keeps
`elite = state.mean` whenever the fitness improves, returned after the run. Trap for
AO201: donating `state` deletes the kept `elite`."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class ESState(NamedTuple):
    mean: jax.Array
    best: jax.Array
    key: jax.Array


def ask(state, pop):
    key, sub = jax.random.split(state.key)
    eps = jax.random.normal(sub, (pop, state.mean.shape[0]))
    return state.mean + 0.3 * eps, state._replace(key=key)


@jax.jit
def tell(state, xs, fitness):
    w = jax.nn.softmax(fitness * 3.0)
    mean = jnp.sum(w[:, None] * xs, axis=0)
    return state._replace(mean=mean, best=jnp.maximum(state.best, fitness.max()))


def objective(xs):
    return -jnp.sum((xs - 1.0) ** 2, axis=1)


def main():
    state = ESState(jnp.zeros(2), jnp.array(-jnp.inf), jax.random.PRNGKey(0))
    elite, elite_f = None, -jnp.inf
    for _ in range(6):
        xs, state = ask(state, 8)
        fitness = objective(xs)
        if fitness.max() > elite_f:
            elite, elite_f = state.mean, fitness.max()
        state = tell(state, xs, fitness)
    return elite, state.best, state.mean
