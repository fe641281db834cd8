"""Poisson regression (log link) for count data, minibatch SGD on rows drawn from a NumPy table.

The dataset stays in NumPy, as it was loaded; every step picks its minibatch rows from a
precomputed shuffled order (`X[idx]`), converts them and takes a gradient step.
"""

import jax
import jax.numpy as jnp
import numpy as np

N_ROWS = 20_480  # 160 minibatches
N_FEATURES = 24
BATCH = 128
N_STEPS = 300
LR = 0.05


def poisson_nll(coef, intercept, x, counts):
    eta = x @ coef + intercept
    return jnp.mean(jnp.exp(eta) - counts * eta)


def sgd_step(coef, intercept, x, counts):
    nll, (g_coef, g_int) = jax.value_and_grad(poisson_nll, argnums=(0, 1))(
        coef, intercept, x, counts
    )
    return coef - LR * g_coef, intercept - LR * g_int, nll


def main():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(N_ROWS, N_FEATURES)).astype(np.float32)
    true_coef = rng.normal(scale=0.2, size=N_FEATURES)
    y = rng.poisson(np.exp(X @ true_coef + 0.5)).astype(np.float32)
    order = rng.permutation(N_ROWS)

    coef = jnp.zeros(N_FEATURES)
    intercept = jnp.zeros(())
    nll_trace = []
    for step in range(N_STEPS):
        idx = order[(step * BATCH) % N_ROWS : (step * BATCH) % N_ROWS + BATCH]
        xb, yb = jnp.asarray(X[idx]), jnp.asarray(y[idx])
        coef, intercept, nll = sgd_step(coef, intercept, xb, yb)
        nll_trace.append(nll)

    return {
        "coef": coef,
        "intercept": intercept,
        "nll": jnp.stack(nll_trace),
        "coef_error": jnp.linalg.norm(coef - true_coef),
    }


if __name__ == "__main__":
    print(main())
