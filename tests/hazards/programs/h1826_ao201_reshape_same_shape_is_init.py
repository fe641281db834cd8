"""plain jax: `theta = theta0.reshape(-1)` flattens the initial parameters for an
optimizer that works on a vector, but `theta0` is already 1-D, so the reshape returns
the same array; the jitted step replaces `theta`. Trap for AO201: donating `theta`
deletes `theta0`, read after the loop."""

import jax
import jax.numpy as jnp


@jax.jit
def newton_like(theta, a):
    g = a @ theta - 1.0
    return theta - 0.2 * (a.T @ g)


def main():
    theta0 = jnp.array([0.0, 0.5, 1.0])
    theta = theta0.reshape(-1)
    a = jnp.array([[1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])
    for _ in range(5):
        theta = newton_like(theta, a)
    return theta, theta0
