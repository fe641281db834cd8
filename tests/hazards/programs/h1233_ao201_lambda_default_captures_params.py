"""Evaluation closures are made in the loop with a default argument binding the current
weights, `evals.append(lambda w=w: loss(w))`, and run after training to compare the
checkpoints. Trap for AO201: each lambda's default holds a `w` that the next step would
donate."""

import jax
import jax.numpy as jnp

X = jnp.array([[1.0, 2.0], [3.0, 1.0], [0.0, 1.0]])
Y = jnp.array([1.0, 0.0, 2.0])


def loss(w):
    return jnp.mean((X @ w - Y) ** 2)


@jax.jit
def step(w):
    return w - 0.05 * jax.grad(loss)(w)


def main():
    w = jnp.array([0.3, -0.2])
    evals = []
    for i in range(6):
        w = step(w)
        if i % 2 == 0:
            evals.append(lambda w=w: loss(w))
    return jnp.stack([f() for f in evals]), w
