"""A step called directly in the loop and, for evaluation, through `functools.partial`,
which binds the weights by position. Trap for AO201's keep-first form: reordering the
parameters and the direct calls alone would make the partial pass the weights as the
(moved) dataset."""

import functools

import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def step(w, xs):
    return w + xs.mean(0)


def main():
    xs = jnp.arange(6.0).reshape(2, 3)
    w = jnp.zeros(3)
    for _ in range(3):
        w = step(w, xs)
    evaluate = functools.partial(step, w)
    return w, evaluate(xs * 2.0), xs.sum()
