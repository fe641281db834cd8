"""A factory captures its argument `xs`; the module-level loop then rebinds the global
`xs` (a shrinking copy for logging) after every step. The closure reads the factory's
`xs`, bound once, never the global: AO103 may compile the step, and the results must
stay those of the eager loop (a proof that confused the two names would refuse, or
pass the global)."""

import jax
import jax.numpy as jnp


def make_loss(xs):
    def loss(w):
        return jnp.mean((xs @ w - 1.0) ** 2)

    return loss


xs = jnp.linspace(0.0, 1.0, 12, dtype=jnp.float32).reshape(4, 3)
grad_fn = jax.grad(make_loss(xs))
w = jnp.zeros(3, dtype=jnp.float32)
shrunk = []
for _ in range(10):
    g = grad_fn(w)
    w = w - 0.2 * g
    w = w * 0.999
    xs = xs * 0.5
    shrunk.append(float(jnp.sum(xs)))


def main():
    return w, shrunk
