"""Module-level eager loop; an eval helper reads the global `params` every 3 steps."""

import jax
import jax.numpy as jnp

X = jax.random.normal(jax.random.PRNGKey(2), (10, 3))
Y = X @ jnp.array([0.3, 0.2, -0.7])


def loss_fn(p):
    return jnp.mean((X @ p["w"] + p["b"] - Y) ** 2)


def evaluate():
    return float(loss_fn(params))


params = {"w": jnp.zeros(3), "b": jnp.zeros(())}
evals = []
for step in range(9):
    grads = jax.grad(loss_fn)(params)
    params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
    if step % 3 == 2:
        evals.append(evaluate())


def main():
    return evals, params
