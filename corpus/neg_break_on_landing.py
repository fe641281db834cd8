"""Shot trajectories with quadratic air drag, integrated until the projectile lands.

Negative for a whole-loop rewrite: the step's own output decides the `break`
(`if float(state[1]) < 0.0`), so the trip count is only known by running it; a scan over
MAX_STEPS would keep integrating below ground and return a different state and time.
"""

import jax.numpy as jnp
import numpy as np

G = 9.81
DRAG = 0.02
DT = 0.01
MAX_STEPS = 2000


def derivatives(state):
    vel = state[2:]
    speed = jnp.sqrt(jnp.sum(vel**2))
    accel = -DRAG * speed * vel + jnp.array([0.0, -G])
    return jnp.concatenate([vel, accel])


def rk2_step(state):
    half = state + 0.5 * DT * derivatives(state)
    return state + DT * derivatives(half)


def main():
    angle = np.deg2rad(38.0)
    state = jnp.array([0.0, 1.5, 30.0 * np.cos(angle), 30.0 * np.sin(angle)], dtype=jnp.float32)
    heights = []
    steps = 0
    for _ in range(MAX_STEPS):
        state = rk2_step(state)
        steps += 1
        heights.append(state[1])
        if float(state[1]) < 0.0:
            break

    return {
        "landing_state": state,
        "flight_time": steps * DT,
        "steps": steps,
        "heights": jnp.stack(heights),
    }


if __name__ == "__main__":
    print(main())
