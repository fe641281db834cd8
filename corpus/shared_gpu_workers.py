"""A small hyper-parameter sweep: two ridge regressions fit at once in two worker processes.

Each worker imports jax, builds its own data from its seed and fits the weights by
gradient descent in one jitted `lax.fori_loop`. Both workers run on the same machine,
so on a GPU they share its memory: with JAX's default preallocation the first one to
start its backend takes 75% of it.
"""

import multiprocessing

import jax
import jax.numpy as jnp
import numpy as np

WORKERS = 2
SAMPLES, FEATURES = 512, 32
STEPS = 300
PENALTIES = (0.01, 0.1)


@jax.jit
def fit_weights(x, y, penalty):
    """Gradient descent on the ridge loss, all steps in one compiled loop."""

    def loss(w):
        residual = x @ w - y
        return jnp.mean(residual**2) + penalty * jnp.sum(w**2)

    def step(_, w):
        return w - 0.05 * jax.grad(loss)(w)

    w = jax.lax.fori_loop(0, STEPS, step, jnp.zeros(x.shape[1], x.dtype))
    return w, loss(w)


def fit(seed):
    """One worker: its data, its fit, the result as NumPy (what the parent receives)."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(SAMPLES, FEATURES)).astype(np.float32)
    w_true = rng.normal(size=FEATURES).astype(np.float32)
    y = x @ w_true + 0.1 * rng.normal(size=SAMPLES).astype(np.float32)
    w, loss = fit_weights(x, y, PENALTIES[seed])
    return np.asarray(w), float(loss)


def main():
    with multiprocessing.get_context("spawn").Pool(WORKERS) as pool:
        fits = pool.map(fit, range(WORKERS))
    return {
        "weights": np.stack([w for w, _ in fits]),
        "losses": np.array([loss for _, loss in fits], dtype=np.float32),
    }


if __name__ == "__main__":
    print(main())
