"""A trainer factory: `make_trainer` closes over the initial parameters, and every
call of `train(steps)` restarts from them (used for a short and a long run). Trap for
AO201: the first run donates the closed-over initial parameters; the second run
starts from a deleted buffer."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def gd_step(w, x, y):
    g = jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * g


def make_trainer(init_w, x, y):
    def train(steps):
        w = init_w
        for _ in range(steps):
            w = gd_step(w, x, y)
        return w

    return train


def main():
    rng = np.random.default_rng(13)
    x = jnp.asarray(rng.normal(size=(30, 4)), jnp.float32)
    y = x @ jnp.array([1.0, 2.0, -1.0, 0.5])
    train = make_trainer(jnp.zeros(4), x, y)
    short = train(5)
    long = train(20)
    return short, long
