"""Polynomial regression by minibatch SGD with best-checkpoint tracking on a validation split.

The learning rate is aggressive and batches are tiny, so the validation loss is not monotone.
"""

import jax
import jax.numpy as jnp
import numpy as np

DEGREE = 9
LR = 0.7
BATCH = 8
STEPS = 200


def design(x):
    return jnp.stack([x**k for k in range(DEGREE + 1)], axis=1)


def loss(coef, X, y):
    return jnp.mean((X @ coef - y) ** 2) + 1e-4 * jnp.sum(coef**2)


@jax.jit
def sgd_step(coef, X, y):
    return coef - LR * jax.grad(loss)(coef, X, y)


@jax.jit
def val_loss(coef, X, y):
    return jnp.mean((X @ coef - y) ** 2)


def main():
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, size=300).astype(np.float32)
    y = (np.sin(2.5 * x) + 0.3 * rng.normal(size=300)).astype(np.float32)
    idx = rng.integers(0, 200, size=(STEPS, BATCH))
    X_batches = design(jnp.asarray(x[idx].reshape(-1))).reshape(STEPS, BATCH, DEGREE + 1)
    y_batches = jnp.asarray(y[idx])
    X_va, y_va = design(jnp.asarray(x[200:])), jnp.asarray(y[200:])

    coef = jnp.zeros(DEGREE + 1)
    best, best_val, best_step = coef, float("inf"), -1
    for step in range(STEPS):
        coef = sgd_step(coef, X_batches[step], y_batches[step])
        v = float(val_loss(coef, X_va, y_va))
        if v < best_val:
            best, best_val, best_step = coef, v, step  # keeps a reference to this iterate

    return {"best": best, "best_val": best_val, "best_step": best_step, "final": coef}


if __name__ == "__main__":
    print(main())
