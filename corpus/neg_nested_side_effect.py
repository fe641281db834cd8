"""Finite-volume advection with a minmod slope limiter that keeps an audit trail.

Negative for compiling the step: two calls below the step, `limited_slopes` calls
`record_limiter`, which appends to a module-level list and bumps a counter. Under jit (or
scan) that would run once, at trace time, and leak tracers into the list.
"""

import jax.numpy as jnp
import numpy as np

NX = 128
CFL = 0.4
N_STEPS = 60

LIMITER_LOG = []
CALLS = {"limiter": 0}


def record_limiter(active):
    CALLS["limiter"] += 1
    LIMITER_LOG.append(jnp.mean(active))


def limited_slopes(u):
    left = u - jnp.roll(u, 1)
    right = jnp.roll(u, -1) - u
    active = left * right <= 0
    record_limiter(active)
    return jnp.where(active, 0.0, jnp.sign(left) * jnp.minimum(jnp.abs(left), jnp.abs(right)))


def muscl_step(u):
    slope = limited_slopes(u)
    face = u + 0.5 * (1 - CFL) * slope
    return u - CFL * (face - jnp.roll(face, 1))


def main():
    LIMITER_LOG.clear()
    CALLS["limiter"] = 0
    x = np.linspace(0.0, 1.0, NX, endpoint=False)
    u = jnp.asarray(((x > 0.2) & (x < 0.45)) + np.exp(-200 * (x - 0.7) ** 2), dtype=jnp.float32)
    for _ in range(N_STEPS):
        u = muscl_step(u)
    return {"u": u, "limiter_fraction": jnp.stack(LIMITER_LOG), "calls": CALLS["limiter"]}


if __name__ == "__main__":
    print(main())
