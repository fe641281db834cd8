"""The weights are replaced by every step but their first value is kept (`start = w`) and
read after training, while the momentum and the dataset go on. Trap for AO201's
keep-first form: the weights must be kept with the dataset (packed first), only the
momentum donated; donating the weights would delete `start`."""

import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit
def step(w, mom, xs):
    """One momentum step."""
    grad = jax.grad(lambda v: jnp.sum((xs @ v) ** 2))(w)
    mom = 0.9 * mom + grad
    return w - 0.01 * mom, mom


def main():
    xs = jnp.arange(6.0).reshape(2, 3) / 6.0
    w, mom = jnp.ones(3), jnp.zeros(3)
    start = w
    for _ in range(5):
        w, mom = step(w, mom, xs)
    return w, mom, start, xs
