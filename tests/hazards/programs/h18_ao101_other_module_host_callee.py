"""Projectile with tabulated drag: the step calls `drag_coefficient` from another
module of the project, which interpolates the table with NumPy on the host. Trap for
AO101: the callee converts its argument to NumPy, which a tracer cannot do."""

import jax.numpy as jnp
from hazlib_physics import drag_coefficient


def flight_step(pos, vel, dt):
    speed = jnp.linalg.norm(vel)
    cd = jnp.asarray(drag_coefficient(speed))
    acc = jnp.array([0.0, -9.81]) - cd * speed * vel / 10.0
    return pos + dt * vel, vel + dt * acc


def main():
    pos, vel = jnp.zeros(2), jnp.array([30.0, 20.0])
    for _ in range(40):
        pos, vel = flight_step(pos, vel, 0.05)
    return pos, vel
