"""A factory returns a weighted loss over a Python list of weights it was given; the
loop reweights the list in place after every step. Trap for AO103 following a
factory's closure: the closure reads a list (a host object) from outside; compiled, the
step would freeze the weights of its first trace."""

import jax
import jax.numpy as jnp


def make_loss(weights):
    def loss(w):
        return jnp.sum(jnp.asarray(weights, dtype=jnp.float32) * w**2)

    return loss


WEIGHTS = [1.0, 2.0, 3.0]
grad_fn = jax.grad(make_loss(WEIGHTS))


def main():
    w = jnp.ones(3, dtype=jnp.float32)
    for step in range(6):
        g = grad_fn(w)
        w = w - 0.05 * g
        w = w * 0.99
        WEIGHTS[step % 3] = WEIGHTS[step % 3] * 2.0
    return w
