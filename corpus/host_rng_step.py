"""Overdamped Langevin sampling from a 2D double-well potential.

Noise is drawn with NumPy's global RNG, the way the original notebook did it.
"""

import jax
import jax.numpy as jnp
import numpy as np

N_WALKERS = 2000
N_STEPS = 60
DT = 3e-2
TEMP = 0.3


def potential(x):
    # double well in x[0], harmonic in x[1]
    return (x[..., 0] ** 2 - 1.0) ** 2 + 0.5 * x[..., 1] ** 2


grad_potential = jax.grad(lambda x: potential(x).sum())


def langevin_step(x):
    noise = np.random.normal(size=x.shape).astype(np.float32)
    return x - DT * grad_potential(x) + jnp.sqrt(2.0 * TEMP * DT) * noise


def main():
    np.random.seed(0)
    x = jnp.asarray(np.random.normal(scale=0.1, size=(N_WALKERS, 2)), dtype=jnp.float32)
    right_fraction = []
    for t in range(N_STEPS):
        x = langevin_step(x)
        if t % 3 == 0:
            right_fraction.append((x[:, 0] > 0).mean())
    return {
        "x": x,
        "right_fraction": jnp.stack(right_fraction),
        "mean_energy": potential(x).mean(),
    }


if __name__ == "__main__":
    print(main())
