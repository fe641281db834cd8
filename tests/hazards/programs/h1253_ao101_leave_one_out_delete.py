"""Leave-one-out ridge scores: each call drops one training row with
`jnp.delete(x, jnp.array([i]), axis=0)`. Eagerly the index array is concrete; under
jit `jnp.delete` with an array index needs a concrete one. Trap for AO101: jitting
`loo_score` fails."""

import jax.numpy as jnp


def loo_score(x, y, i, lam):
    keep_x = jnp.delete(x, jnp.array([i]), axis=0)
    keep_y = jnp.delete(y, jnp.array([i]), axis=0)
    w = jnp.linalg.solve(keep_x.T @ keep_x + lam * jnp.eye(x.shape[1]), keep_x.T @ keep_y)
    return (x[i] @ w - y[i]) ** 2


def main():
    x = jnp.array([[1.0, 0.5], [0.2, 1.0], [1.5, 1.2], [0.3, 0.1], [1.0, 2.0]])
    y = jnp.array([1.0, 0.8, 2.1, 0.2, 1.9])
    errors = []
    for i in range(x.shape[0]):
        errors.append(loo_score(x, y, i, 0.1))
    return jnp.stack(errors)
