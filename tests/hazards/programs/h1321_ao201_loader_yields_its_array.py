"""A generator that yields the array it was given, unchanged, every step (issue 26).
Trap for AO201 (`donate="all"`): donating the batch deletes the array the generator
yields again at the next step."""

import equinox as eqx
import jax.numpy as jnp


def repeat(data):
    while True:
        yield data


@eqx.filter_jit
def make_step(model, x):
    return model * 0.9 + x.mean(), x - model


def main():
    data = jnp.linspace(0.0, 1.0, 6)
    model = jnp.zeros(6)
    totals = []
    for _, x in zip(range(4), repeat(data), strict=False):
        model, residual = make_step(model, x)
        totals.append(residual.sum())
    return model, totals
