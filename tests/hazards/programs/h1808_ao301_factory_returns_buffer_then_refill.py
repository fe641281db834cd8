"""equinox + NumPy: `make_augmenter(n, seed)` returns `(noise, jitter)`, a preallocated
NumPy buffer and a closure that redraws it in place; the loop calls `jitter()` then
hands `jnp.asarray(noise)` to a `filter_jit` step. Trap for AO301: the closure refills
the buffer the loop transfers; hoisting the transfer reuses the first draw."""

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np


class Model(eqx.Module):
    w: jax.Array


def make_augmenter(n, seed):
    rng = np.random.default_rng(seed)
    noise = np.zeros(n, dtype=np.float64)

    def jitter():
        noise[:] = rng.uniform(-1.0, 1.0, n)

    return noise, jitter


@eqx.filter_jit
def make_step(model, eps):
    grads = eqx.filter_grad(lambda m: jnp.sum((m.w + 0.1 * eps - 1.0) ** 2))(model)
    return Model(model.w - 0.2 * grads.w)


def main():
    noise, jitter = make_augmenter(3, 1)
    model = Model(jnp.zeros(3))
    for _ in range(5):
        jitter()
        model = make_step(model, jnp.asarray(noise))
    return model.w
