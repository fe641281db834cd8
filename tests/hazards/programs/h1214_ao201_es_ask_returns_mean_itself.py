"""An ask/tell evolution strategy whose `ask()` returns the current mean as the first
candidate (elitism) and perturbed copies after it. The loop keeps the best candidate
seen; when the mean itself wins, `best_x` is `es.mean`. Trap for AO201: donating
`self.mean` to `es_update` deletes `best_x`, returned after the run."""

import jax
import jax.numpy as jnp

POP = 6
SIGMA = 0.3


@jax.jit
def es_update(mean, eps, fitness):
    z = (fitness - fitness.mean()) / (fitness.std() + 1e-8)
    return mean + 0.2 * SIGMA * (z[1:, None] * eps).mean(0)


class ES:
    def __init__(self, dim, seed):
        self.mean = jnp.full((dim,), 2.0)
        self.key = jax.random.PRNGKey(seed)
        self.eps = None

    def ask(self):
        self.key, sub = jax.random.split(self.key)
        self.eps = jax.random.normal(sub, (POP - 1, self.mean.shape[0]))
        return [self.mean] + [self.mean + SIGMA * e for e in self.eps]

    def tell(self, fitness):
        self.mean = es_update(self.mean, self.eps, fitness)


def sphere(x):
    return -jnp.sum(x**2)


def main():
    es = ES(3, seed=0)
    best_x, best_f = None, -jnp.inf
    for _ in range(8):
        cands = es.ask()
        fitness = jnp.stack([sphere(c) for c in cands])
        i = int(jnp.argmax(fitness))
        if fitness[i] > best_f:
            best_x, best_f = cands[i], fitness[i]
        es.tell(fitness)
    return best_x, best_f, es.mean
