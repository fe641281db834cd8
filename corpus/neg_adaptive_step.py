"""Van der Pol oscillator with an adaptive Heun/Euler step-size controller.

Negative for a whole-loop step: whether a step is accepted, and the next `dt`, are decided on
the host from the step's error estimate (`float(err)`), so both the state update and the
number of steps depend on values read back each iteration.
"""

import jax.numpy as jnp

MU = 4.0
T_END = 12.0
TOL = 1e-4
MAX_STEPS = 5000


def vdp(y):
    return jnp.array([y[1], MU * (1 - y[0] ** 2) * y[1] - y[0]])


def heun_with_error(y, dt):
    k1 = vdp(y)
    k2 = vdp(y + dt * k1)
    y_new = y + 0.5 * dt * (k1 + k2)
    return y_new, jnp.max(jnp.abs(0.5 * dt * (k2 - k1)))


def main():
    y = jnp.array([2.0, 0.0])
    t, dt = 0.0, 0.01
    times, accepted, rejected = [], 0, 0
    for _ in range(MAX_STEPS):
        if t >= T_END:
            break
        dt = min(dt, T_END - t)
        y_new, err = heun_with_error(y, dt)
        err = float(err)
        if err <= TOL:
            y, t = y_new, t + dt
            times.append(t)
            accepted += 1
        else:
            rejected += 1
        dt = dt * min(2.0, max(0.2, 0.9 * (TOL / max(err, 1e-12)) ** 0.5))
    return {"y": y, "t": t, "accepted": accepted, "rejected": rejected, "times": times}


if __name__ == "__main__":
    print(main())
