"""Per-example scoring through a small scorer class of the file, built afresh in
`score(w, x)` and called at once, `Scorer(w)(x)`; its `__call__` logs each example with
a plain `print`. Trap for AO501: vmapped, the print runs once at trace time instead of
once per example; the effect is in a method reached through a constructor's result."""

import jax.numpy as jnp


class Scorer:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        print("scoring one example")
        return jnp.tanh(x @ self.w)


def score(w, x):
    return jnp.sum(Scorer(w)(x))


def main():
    w = jnp.eye(2) * 0.5
    xs = jnp.linspace(-1.0, 1.0, 8).reshape(4, 2)
    out = []
    for x in xs:
        out.append(score(w, x))
    return jnp.stack(out)
