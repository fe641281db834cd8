"""FitzHugh-Nagumo cells on a ring, classic RK4, state held in a dict.

Outside-team style: `rk4_step(state, dt)` works on a dict of coupled arrays
through small helpers (`rhs`, `axpy`); the fraction of excited cells is appended
every step and stacked at the end, a snapshot of `u` is kept every 100 steps.
"""

import jax.numpy as jnp
import numpy as np

N_CELLS = 256
N_STEPS = 600
DT = 0.05
D = 0.8
EPS = 0.08
A = 0.7
B = 0.8
I_EXT = 0.35


def laplacian(u):
    return jnp.roll(u, 1) + jnp.roll(u, -1) - 2.0 * u


def rhs(state):
    u, v = state["u"], state["v"]
    du = D * laplacian(u) + u - u**3 / 3.0 - v + I_EXT
    dv = EPS * (u + A - B * v)
    return {"u": du, "v": dv}


def axpy(a, x, y):
    return {k: y[k] + a * x[k] for k in y}


def rk4_step(state, dt):
    k1 = rhs(state)
    k2 = rhs(axpy(dt / 2, k1, state))
    k3 = rhs(axpy(dt / 2, k2, state))
    k4 = rhs(axpy(dt, k3, state))
    return {k: state[k] + dt / 6.0 * (k1[k] + 2 * k2[k] + 2 * k3[k] + k4[k]) for k in state}


def initial_state(seed=0):
    rng = np.random.default_rng(seed)
    u = -1.2 + 0.1 * rng.standard_normal(N_CELLS)
    u[100:110] = 1.5
    v = -0.6 + 0.05 * rng.standard_normal(N_CELLS)
    return {"u": jnp.asarray(u, jnp.float32), "v": jnp.asarray(v, jnp.float32)}


def main():
    state = initial_state()
    activity = []
    snapshots = []
    for step in range(N_STEPS):
        state = rk4_step(state, DT)
        activity.append(jnp.mean(state["u"] > 1.0))
        if step % 100 == 0:
            snapshots.append(state["u"])
    return {
        "u": state["u"],
        "v": state["v"],
        "activity": jnp.stack(activity),
        "snapshots": jnp.stack(snapshots),
    }


if __name__ == "__main__":
    print(main())
