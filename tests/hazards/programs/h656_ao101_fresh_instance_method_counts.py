"""An sklearn-style scaler built afresh in each call of `standardise(stats, x)` and
used through its method, `Scaler(stats).transform(x)`; `transform` counts the rows it
has seen in a module-level dict (a usage meter). Trap for AO101: the effect is in a
method of a class of the file, called on a constructor's result; jitted,
`standardise` counts once at trace time, and the meter read at the end is wrong."""

import jax.numpy as jnp

METER = {"rows": 0}


class Scaler:
    def __init__(self, stats):
        self.stats = stats

    def transform(self, x):
        METER["rows"] += x.shape[0]
        return (x - self.stats[0]) / self.stats[1]


def standardise(stats, x):
    return Scaler(stats).transform(x) * 1.0


def main():
    stats = jnp.array([[0.5, 1.0], [2.0, 4.0]])
    total = jnp.zeros(2)
    for k in range(4):
        total = total + standardise(stats, jnp.full((3, 2), float(k))).sum(axis=0)
    print("rows seen", METER["rows"])
    return total
