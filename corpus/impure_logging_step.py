"""Linear regression by full-batch gradient descent, with hand-rolled step logging.

The step function records its own diagnostics into module-level state.
"""

import jax
import jax.numpy as jnp
import numpy as np

history = []  # (step, grad norm) written by `gd_step`
n_calls = 0

LR = 0.1
VERBOSE_EVERY = 25


def loss(w, X, y):
    r = X @ w - y
    return 0.5 * jnp.mean(r**2)


def gd_step(w, X, y):
    global n_calls
    g = jax.grad(loss)(w, X, y)
    gnorm = jnp.linalg.norm(g)
    history.append(gnorm)
    n_calls += 1
    if n_calls % VERBOSE_EVERY == 0:
        print(f"step {n_calls}: |g| = {gnorm:.3e}")
    return w - LR * g


def main():
    global n_calls
    history.clear()
    n_calls = 0

    rng = np.random.default_rng(0)
    X = jnp.asarray(rng.normal(size=(1024, 16)), dtype=jnp.float32)
    w_true = jnp.asarray(rng.normal(size=16), dtype=jnp.float32)
    y = X @ w_true + 0.01 * jnp.asarray(rng.normal(size=1024), dtype=jnp.float32)

    w = jnp.zeros(16)
    for _ in range(100):
        w = gd_step(w, X, y)

    return {
        "w": w,
        "grad_norms": jnp.stack(history),
        "n_calls": n_calls,
        "final_loss": loss(w, X, y),
    }


if __name__ == "__main__":
    print(main())
