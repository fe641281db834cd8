"""Logistic regression whose parameters are one weight vector in a dict. The starting
point is kept flattened, `theta0 = jnp.concatenate(jax.tree.leaves(params))`, to measure
how far training moved; with one 1-D leaf `jnp.concatenate` returns that leaf itself.
Trap for AO201: donating `params` deletes `theta0`, read after the loop."""

import jax
import jax.numpy as jnp


def nll(params, x, y):
    logits = x @ params["w"]
    return jnp.mean(jnp.logaddexp(0.0, logits) - y * logits)


@jax.jit
def sgd_step(params, x, y):
    g = jax.grad(nll)(params, x, y)
    return jax.tree.map(lambda p, gi: p - 0.5 * gi, params, g)


def main():
    x = jnp.array(
        [[1.0, 0.2, -0.5, 1.0], [0.3, -1.0, 0.8, 1.0], [-0.7, 0.4, 0.1, 1.0], [0.9, 0.9, -0.2, 1.0]]
    )
    y = jnp.array([1.0, 0.0, 0.0, 1.0])
    params = {"w": jnp.full(4, 0.1)}
    theta0 = jnp.concatenate(jax.tree.leaves(params))
    for _ in range(12):
        params = sgd_step(params, x, y)
    theta = jnp.concatenate(jax.tree.leaves(params))
    return theta, jnp.linalg.norm(theta - theta0)
