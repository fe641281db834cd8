"""plain jax, computational geometry: a route planner classifies waypoints against a
road segment with the classic orientation test (the sign of a 2-D cross product);
waypoints lying exactly on the road's diagonal give a cross product of `u * v - u * v`,
exactly 0 eagerly, so they are reported as "on the road" (0). Trap for AO101: the fix
jits `orientation`, and XLA contracts `a * b - c * d` into a fused multiply-add, which
leaves the rounding error of one product instead of 0: the signs become +1/-1 (integer
results change, not rounding). The premise that jit changes values only within float
tolerance fails where a program takes signs or compares floats."""

import jax.numpy as jnp


def orientation(a, b, p):
    cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    return jnp.sign(cross).astype(jnp.int32)


def main():
    start = jnp.array([0.0, 0.0])
    end = jnp.array([0.7, 0.7])
    sides = []
    for k in range(1, 8):
        waypoint = jnp.array([0.13, 0.13]) * k
        sides.append(orientation(start, end, waypoint))
    on_road = sum(int(s == 0) for s in sides)
    return jnp.stack(sides), on_road
