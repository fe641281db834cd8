"""A user init builds its parameter list empty and fills it by appends of arrays, then
appends the activation's name through an alias of the list (`layers = params`). Trap for
AO101: the list is not a pytree of arrays; a jitted `score` would be handed a string,
which jit can neither trace nor take as a static part of a list argument."""

import itertools

import jax
import jax.numpy as jnp


def init(key, sizes):
    params = []
    for n_in, n_out in itertools.pairwise(sizes):
        key, sub = jax.random.split(key)
        params.append(jax.random.normal(sub, (n_out, n_in)) * 0.1)
    layers = params
    layers.append("tanh")
    return params


def score(params, x):
    h = x
    for w in params[:-1]:
        h = jnp.tanh(w @ h)
    return jnp.sum(h) * len(params[-1])


def main():
    params = init(jax.random.PRNGKey(0), [4, 8, 2])
    x = jnp.linspace(-1.0, 1.0, 4)
    scores = []
    for step in range(3):
        scores.append(score(params, x * (step + 1)))
    return scores
