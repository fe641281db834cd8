"""plain jax: the working weights are `w = w_init.astype(jnp.float32)` ("make sure it
is float32"), but `w_init` already is float32, so `astype` returns the same array; the
jitted step replaces `w` and the loop reports the distance from `w_init`. Trap for
AO201: donating `w` deletes `w_init`."""

import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(w, x, y):
    grad = jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * grad


def main():
    w_init = jnp.array([0.5, -0.25, 1.0])
    w = w_init.astype(jnp.float32)
    x = jnp.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
    y = jnp.array([1.0, 2.0])
    for _ in range(4):
        w = sgd_step(w, x, y)
    return w, jnp.linalg.norm(w - w_init)
