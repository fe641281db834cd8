"""A factory returns a perturbed objective that draws its noise from a NumPy Generator
the factory was given (an evolution-strategy "ask" drawing from a host RNG). Trap for
AO103 following a factory's closure: compiled, the host draw would run once at trace
time and every step would see the same noise."""

import jax
import jax.numpy as jnp
import numpy as np


def make_objective(rng):
    def objective(x):
        noise = jnp.asarray(rng.normal(size=x.shape), dtype=jnp.float32)
        return jnp.sum((x + 0.1 * noise) ** 2)

    return objective


objective = make_objective(np.random.default_rng(3))
grad_fn = jax.grad(objective)


def main():
    x = jnp.ones(4, dtype=jnp.float32)
    for _ in range(6):
        g = grad_fn(x)
        x = x - 0.1 * g
        x = x * 0.99
    return x
