"""Equinox evaluation written with the filter idiom: `evaluate(params, static, x)`
recombines the model with `eqx.combine` and calls it; the model's `__call__` reports
each call with a plain `print`. Trap for AO101: jitted, the print runs once at trace
time; the effect is in a module method reached through the recombined model."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Scorer(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.linear = eqx.nn.Linear(2, 1, key=key)

    def __call__(self, x):
        print("scoring", x.shape)
        return self.linear(x)


def evaluate(params, static, x):
    model = eqx.combine(params, static)
    return jnp.sum(model(x))


def main():
    params, static = eqx.partition(Scorer(jax.random.key(1)), eqx.is_array)
    scores = []
    for k in range(3):
        scores.append(evaluate(params, static, jnp.array([1.0, float(k)])))
    return jnp.stack(scores)
