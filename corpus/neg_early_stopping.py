"""Fit a damped sinusoid  a * exp(-b t) * sin(w t + p)  to noisy samples with Gauss-Newton-ish GD.

Training stops as soon as the loss drops below a tolerance; we keep the loss curve.
"""

import jax
import jax.numpy as jnp
import numpy as np

TOL = 2.6e-3
MAX_STEPS = 2000
LR = 0.05


def model(theta, t):
    a, b, w, p = theta
    return a * jnp.exp(-b * t) * jnp.sin(w * t + p)


def mse(theta, t, y):
    return jnp.mean((model(theta, t) - y) ** 2)


@jax.jit
def step(theta, t, y):
    loss, g = jax.value_and_grad(mse)(theta, t, y)
    return theta - LR * g, loss


def main():
    rng = np.random.default_rng(0)
    t = np.linspace(0.0, 6.0, 400).astype(np.float32)
    y = 1.3 * np.exp(-0.4 * t) * np.sin(2.1 * t + 0.3) + 0.05 * rng.normal(size=t.shape)
    t, y = jnp.asarray(t), jnp.asarray(y, dtype=jnp.float32)

    theta = jnp.array([1.0, 0.5, 2.0, 0.0])
    losses = []
    n_steps = MAX_STEPS
    for i in range(MAX_STEPS):
        theta, loss = step(theta, t, y)
        loss = float(loss)
        losses.append(loss)
        if loss < TOL:
            n_steps = i + 1
            break

    return {"theta": theta, "n_steps": n_steps, "losses": np.asarray(losses)}


if __name__ == "__main__":
    print(main())
