"""An adaptive-step integrator object: `run` defines its step function inside the
method, reading `self.dt`, which the loop shrinks when the state grows. Trap for
AO101: jit freezes `self.dt` at trace time."""

import jax.numpy as jnp


class Pendulum:
    def __init__(self, dt):
        self.dt = dt

    def run(self, state, steps):
        def advance(state):
            theta, omega = state[0], state[1]
            omega = omega - self.dt * 9.81 * jnp.sin(theta)
            theta = theta + self.dt * omega
            return jnp.stack([theta, omega])

        for _ in range(steps):
            state = advance(state)
            if abs(float(state[1])) > 1.0:
                self.dt = self.dt * 0.8
        return state


def main():
    sim = Pendulum(0.1)
    final = sim.run(jnp.array([1.2, 0.0]), 30)
    return final, sim.dt
