"""A sweep over regularisation strengths: each iteration builds the loss with a factory,
`make_loss(lam)`, and jits the closure it returns. Trap for AO102: hoisting
`jax.jit(make_loss(lam))` above the loop would compile the closure of one `lam`; every
iteration's loss is a different function."""

import jax
import jax.numpy as jnp


def make_loss(lam):
    def loss(w):
        return jnp.sum((w - 1.0) ** 2) + lam * jnp.sum(w**2)

    return loss


def main():
    w = jnp.array([0.5, 2.0])
    values = []
    for lam in (0.0, 0.5, 2.0):
        f = jax.jit(make_loss(lam))
        values.append(f(w))
    return jnp.stack(values)
