"""Kalman filter for a 2D constant-velocity target observed through noisy position fixes.

Filtered means and covariance traces are written into preallocated arrays, one row per step.
"""

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


def kalman_filter(zs, x0, P0):
    Fm, Hm = jnp.asarray(F), jnp.asarray(H)
    Q = Q_STD**2 * jnp.eye(4)
    R = R_STD**2 * jnp.eye(2)

    means = jnp.zeros((zs.shape[0], 4))
    traces = jnp.zeros(zs.shape[0])
    x, P = x0, P0
    for t in range(zs.shape[0]):
        # predict
        x = Fm @ x
        P = Fm @ P @ Fm.T + Q
        # update
        S = Hm @ P @ Hm.T + R
        K = jnp.linalg.solve(S, Hm @ P).T  # P H^T S^-1 (S, P symmetric)
        x = x + K @ (zs[t] - Hm @ x)
        P = (jnp.eye(4) - K @ Hm) @ P
        means = means.at[t].set(x)
        traces = traces.at[t].set(jnp.trace(P))
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
