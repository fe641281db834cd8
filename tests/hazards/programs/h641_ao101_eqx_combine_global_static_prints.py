"""Equinox model split once at module level (`PARAMS, STATIC = eqx.partition(...)`);
`score(x)` recombines it with `eqx.combine` and calls it, and the model's `__call__`
prints a line per call. Trap for AO101: jitted, `score` would print once at trace
time; the effect is in the method of the object `eqx.combine` returns."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Scorer(eqx.Module):
    weight: jax.Array

    def __call__(self, x):
        print("scoring a batch")
        return x @ self.weight


PARAMS, STATIC = eqx.partition(Scorer(jnp.array([0.5, -1.0])), eqx.is_array)


def score(x):
    return jnp.sum(eqx.combine(PARAMS, STATIC)(x))


def main():
    totals = []
    for k in range(3):
        totals.append(score(jnp.array([1.0, float(k)])))
    return jnp.stack(totals)
