"""A simulation whose carried state dict is donated by a user-written
`jax.jit(..., donate_argnums=0)`; the loop records `state["energy"].item()` after every
step. Trap for AO302: deferring the `.item()` keeps the donated dict's own leaf, deleted
by the next call."""

import jax
import jax.numpy as jnp


def _advance(state):
    v = state["v"] - 0.1 * state["x"]
    x = state["x"] + 0.1 * v
    energy = 0.5 * jnp.sum(v**2) + 0.5 * jnp.sum(x**2)
    return {"x": x, "v": v, "energy": energy}


advance = jax.jit(_advance, donate_argnums=0)


def main():
    state = {"x": jnp.array([1.0, 0.0]), "v": jnp.array([0.0, 1.0]), "energy": jnp.zeros(())}
    energies = []
    for _ in range(5):
        state = advance(state)
        energies.append(state["energy"].item())
    return energies
