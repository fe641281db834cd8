"""A script whose time loop runs at module level; `report()` reads `flux`, a value the
loop's last iteration left as a module global. Trap for AO103: a step that keeps
`flux` local leaves the global unbound (NameError in `report`)."""

import jax.numpy as jnp

N_STEPS = 30

u = jnp.sin(jnp.linspace(0.0, 3.0, 16, dtype=jnp.float32))
for _ in range(N_STEPS):
    flux = 0.5 * (jnp.roll(u, -1) - u)
    u = u + 0.1 * flux


def report():
    return float(jnp.sum(flux**2))


def main():
    return u, report()
