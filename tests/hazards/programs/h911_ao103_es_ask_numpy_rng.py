"""An evolution strategy with the ask/tell interface; `ask()` draws the perturbations
from a NumPy Generator the strategy owns. Trap for AO103: the generation loop's device
work (perturb, evaluate, weight) compiled as one step would call `ask` once at trace
time: the same noise every generation."""

import jax.numpy as jnp
import numpy as np


def fitness(pop):
    return -jnp.sum((pop - 1.5) ** 2, axis=1)


class OpenES:
    def __init__(self, dim, popsize, sigma, seed):
        self.rng = np.random.default_rng(seed)
        self.dim = dim
        self.popsize = popsize
        self.sigma = sigma

    def ask(self):
        return jnp.asarray(self.rng.standard_normal((self.popsize, self.dim)), jnp.float32)


def main():
    es = OpenES(dim=3, popsize=8, sigma=0.1, seed=0)
    mean = jnp.zeros(3)
    for _ in range(6):
        eps = es.ask()
        scores = fitness(mean + es.sigma * eps)
        ranks = (scores - scores.mean()) / (scores.std() + 1e-8)
        mean = mean + 0.05 / (es.popsize * es.sigma) * ranks @ eps
    return mean
