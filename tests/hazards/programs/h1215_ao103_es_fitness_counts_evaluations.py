"""A functional ES loop (ask, evaluate, tell inline) whose fitness object counts its
evaluations on the host, `self.calls += 1`, for a budget printed at the end. Trap for
AO103: compiled as one step, the count runs once at trace time instead of every
iteration."""

import jax
import jax.numpy as jnp


class Rastrigin:
    def __init__(self):
        self.calls = 0

    def __call__(self, xs):
        self.calls += 1
        return 10 * xs.shape[1] + jnp.sum(xs**2 - 10 * jnp.cos(2 * jnp.pi * xs), axis=1)


def main():
    fitness_fn = Rastrigin()
    mean = jnp.array([1.5, -1.0])
    key = jax.random.PRNGKey(0)
    for _ in range(6):
        key, sub = jax.random.split(key)
        eps = jax.random.normal(sub, (8, 2))
        f = fitness_fn(mean + 0.2 * eps)
        w = jax.nn.softmax(-f)
        mean = mean + 0.2 * (w[:, None] * eps).sum(0)
    print("evaluations", fitness_fn.calls)
    return mean, fitness_fn.calls
