"""An eager SGD loop whose Python float rate `lr = 3e-5` multiplies the gradient array
directly. Control for h978: weak typing computes `lr * g` alike eagerly and traced, so
AO103's compiled step is safe and keeps the result."""

import jax
import jax.numpy as jnp


def loss(w, x):
    return jnp.sum((w - x) ** 2)


def main():
    lr = 3e-5
    x = jnp.array([1000.0, -2000.0, 500.0])
    w = jnp.zeros(3)
    for _ in range(5):
        g = jax.grad(loss)(w, x)
        w = w - lr * g
    return w
