"""plain jax, dynamical systems: an ensemble of Henon-map orbits, one per starting
point, each iterated 60 times by `orbit_end(x0)` (a Python loop of `1 - a * x * x + y`
and `b * x`), one starting point at a time in a list comprehension, stacked. The map is
chaotic (a one-ulp difference doubles every few steps). Trap for AO501: the fix runs
`orbit_end` jitted and vmapped; XLA contracts `1 - a * x * x + y` into fused
multiply-adds that round once instead of twice, and after 60 iterations the orbits'
end points differ completely, far outside float tolerance."""

import jax.numpy as jnp


def orbit_end(start):
    x, y = start[0], start[1]
    for _ in range(60):
        x, y = 1.0 - 1.4 * x * x + y, 0.3 * x
    return jnp.stack([x, y])


def main():
    starts = jnp.stack([jnp.linspace(0.01, 0.08, 8), jnp.linspace(0.02, 0.05, 8)], axis=1)
    ends = jnp.stack([orbit_end(s) for s in starts])
    return ends
