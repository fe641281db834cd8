"""Per-example scoring under an annealed temperature: the examples come from a
generator that cools the temperature array in place (`out=`) before yielding each one.
Trap for AO501: the per-example call is `score(x, temperature)` with the same name
every time, so vmap would pass `temperature` once (`in_axes=None`), but its data
changes from one example to the next."""

import jax.numpy as jnp
import numpy as np


def annealed(xs, temperature):
    for x in xs:
        np.multiply(temperature, 0.8, out=temperature)
        yield x


def score(x, temperature):
    return jnp.exp(-jnp.sum(x**2) / temperature[0])


def main():
    xs = jnp.linspace(-1.0, 1.0, 18).reshape(6, 3)
    temperature = np.ones(1)
    scores = []
    for x in annealed(xs, temperature):
        scores.append(score(x, temperature))
    return jnp.stack(scores)
