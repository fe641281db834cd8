"""Heat equation with an adaptive time step kept on a controller object: the loop
jits `functools.partial(heat_step, dt=controller.dt)` and `adapt(controller, ...)`
changes `controller.dt`. Trap for AO102: the jit's argument reads an attribute that a
function called in the loop changes; hoisted, the first `dt` stays."""

import functools

import jax
import jax.numpy as jnp


class StepController:
    def __init__(self, dt):
        self.dt = dt


def adapt(controller, change):
    """Grow the step while the solution changes slowly, halve it otherwise."""
    controller.dt = controller.dt * (1.2 if change < 0.05 else 0.5)


def heat_step(u, dt):
    return u + dt * (jnp.roll(u, 1) - 2.0 * u + jnp.roll(u, -1))


def main():
    controller = StepController(0.05)
    u = jnp.zeros(32).at[16].set(1.0)
    for _ in range(10):
        u_new = jax.jit(functools.partial(heat_step, dt=controller.dt))(u)
        adapt(controller, float(jnp.max(jnp.abs(u_new - u))))
        u = u_new
    return u, controller.dt
