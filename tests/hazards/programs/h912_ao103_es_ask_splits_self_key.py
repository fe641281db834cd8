"""An ask/tell evolution strategy keeping its PRNG key on `self`: `ask()` does
`self.key, sub = jax.random.split(self.key)` and samples. Trap for AO103: compiled into a
jitted step, `ask` would run once at trace time: the key stored on `self` is a tracer and
every generation reuses the noise of the first."""

import jax
import jax.numpy as jnp


class SimpleES:
    def __init__(self, dim, popsize, seed):
        self.key = jax.random.PRNGKey(seed)
        self.dim = dim
        self.popsize = popsize

    def ask(self, mean, sigma):
        self.key, sub = jax.random.split(self.key)
        return mean + sigma * jax.random.normal(sub, (self.popsize, self.dim))


def objective(pop):
    return jnp.sum(pop**2, axis=1)


def main():
    es = SimpleES(dim=2, popsize=6, seed=3)
    mean = jnp.array([1.0, -1.0])
    for _ in range(5):
        pop = es.ask(mean, 0.3)
        scores = objective(pop)
        elite = pop[jnp.argsort(scores)[:3]]
        mean = elite.mean(axis=0)
    return mean
