"""An eager training loop whose loss reads `SCHED.weight` from a module-level schedule
object; `SCHED.advance()` is called at the end of every iteration and changes the
attribute. Trap for AO103: a compiled step of the gradient statements reads the weight
once, when it is traced."""

import jax
import jax.numpy as jnp


class KLSchedule:
    def __init__(self):
        self.weight = 0.0

    def advance(self):
        self.weight = min(1.0, self.weight + 0.3)


SCHED = KLSchedule()


def loss_fn(mu, x):
    recon = jnp.sum((mu - x) ** 2)
    kl = 0.5 * jnp.sum(mu**2)
    return recon + SCHED.weight * kl


def main():
    x = jnp.array([1.0, 2.0])
    mu = jnp.zeros(2)
    for _ in range(5):
        g = jax.grad(loss_fn)(mu, x)
        mu = mu - 0.1 * g
        SCHED.advance()
    return mu
