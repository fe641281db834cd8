"""Poisson regression (log link) for count data, minibatch SGD on rows drawn from a NumPy table.

Hand-optimized: the table and the shuffled order are transferred to the device once; one
jitted lax.scan gathers each step's rows on the device and takes the gradient step.
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


@jax.jit
def train(coef, intercept, X, y, order):
    def body(carry, step):
        start = (step * BATCH) % N_ROWS
        idx = jax.lax.dynamic_slice_in_dim(order, start, BATCH)
        coef, intercept, nll = sgd_step(*carry, X[idx], y[idx])
        return (coef, intercept), nll

    return jax.lax.scan(body, (coef, intercept), jnp.arange(N_STEPS))


def main():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(N_ROWS, N_FEATURES)).astype(np.float32)
    true_coef = rng.normal(scale=0.2, size=N_FEATURES)
    y = rng.poisson(np.exp(X @ true_coef + 0.5)).astype(np.float32)
    order = rng.permutation(N_ROWS)

    coef = jnp.zeros(N_FEATURES)
    intercept = jnp.zeros(())
    X_dev, y_dev, order_dev = jax.device_put((X, y, order))
    (coef, intercept), nll_trace = train(coef, intercept, X_dev, y_dev, order_dev)

    return {
        "coef": coef,
        "intercept": intercept,
        "nll": nll_trace,
        "coef_error": jnp.linalg.norm(coef - true_coef),
    }


if __name__ == "__main__":
    print(main())
