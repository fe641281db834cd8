"""Kalman filter for a 2D constant-velocity target observed through noisy position fixes.

Hand-optimized: the filter is one jitted lax.scan that emits the per-step outputs.
"""

import jax
import jax.numpy as jnp
import numpy as np

T = 100
DT = 0.1
Q_STD, R_STD = 0.05, 0.5

F = np.array([[1, 0, DT, 0], [0, 1, 0, DT], [0, 0, 1, 0], [0, 0, 0, 1]], dtype=np.float32)
H = np.array([[1, 0, 0, 0], [0, 1, 0, 0]], dtype=np.float32)


def simulate(rng):
    x = np.array([0.0, 0.0, 1.0, 0.5])
    xs, zs = [], []
    for _ in range(T):
        x = F @ x + Q_STD * rng.normal(size=4)
        xs.append(x)
        zs.append(H @ x + R_STD * rng.normal(size=2))
    return np.array(xs, dtype=np.float32), np.array(zs, dtype=np.float32)


@jax.jit
def kalman_filter(zs, x0, P0):
    Fm, Hm = jnp.asarray(F), jnp.asarray(H)
    Q = Q_STD**2 * jnp.eye(4)
    R = R_STD**2 * jnp.eye(2)

    def step(carry, z):
        x, P = carry
        # predict
        x = Fm @ x
        P = Fm @ P @ Fm.T + Q
        # update
        S = Hm @ P @ Hm.T + R
        K = jnp.linalg.solve(S, Hm @ P).T  # P H^T S^-1 (S, P symmetric)
        x = x + K @ (z - Hm @ x)
        P = (jnp.eye(4) - K @ Hm) @ P
        return (x, P), (x, jnp.trace(P))

    _, (means, traces) = jax.lax.scan(step, (x0, P0), zs)
    return means, traces


def main():
    rng = np.random.default_rng(0)
    true_states, observations = simulate(rng)
    zs = jnp.asarray(observations)
    means, traces = kalman_filter(zs, jnp.zeros(4), 10.0 * jnp.eye(4))
    rmse = jnp.sqrt(jnp.mean((means[:, :2] - true_states[:, :2]) ** 2))
    return {"means": means, "cov_trace": traces, "rmse": rmse}


if __name__ == "__main__":
    print(main())
