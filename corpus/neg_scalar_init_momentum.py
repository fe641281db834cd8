"""Heavy-ball least squares whose momentum buffer starts as the Python float 0.0.

Negative for a whole-loop scan: `velocity` is a float scalar before the first step
and a (64,) array after it, so the carry changes shape (and type) across
iterations; `lax.scan` with `velocity` as a carry raises, and the loop has no host
interaction that would otherwise stop a naive rewrite.
"""

import jax.numpy as jnp
import numpy as np

N_ROWS = 400
N_FEATURES = 64
STEPS = 40
LR = 0.02
BETA = 0.9


def make_problem(seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((N_ROWS, N_FEATURES)).astype(np.float32) / np.sqrt(N_ROWS)
    w_true = rng.standard_normal(N_FEATURES).astype(np.float32)
    b = a @ w_true + 0.01 * rng.standard_normal(N_ROWS).astype(np.float32)
    return jnp.asarray(a), jnp.asarray(b)


def gradient(a, b, w):
    return a.T @ (a @ w - b)


def main():
    a, b = make_problem()
    w = jnp.zeros(N_FEATURES)
    velocity = 0.0
    for _ in range(STEPS):
        velocity = BETA * velocity + gradient(a, b, w)
        w = w - LR * velocity
    residual = jnp.linalg.norm(a @ w - b)
    return {"w": w, "velocity": velocity, "residual": residual}


if __name__ == "__main__":
    print(main())
