"""Two Langevin chains from one initial state: a `lax.scan` burn-in, then a jitted sampling loop.

The burn-in body hands the preconditioner `mass` through unchanged.
"""

import jax
import jax.numpy as jnp


def potential(x):
    return 0.5 * jnp.sum((x - 1.0) ** 2) + 0.1 * jnp.sum(x**4)


def burn_in(state, keys):
    def body(s, key):
        noise = jax.random.normal(key, s["x"].shape)
        x = s["x"] - 0.05 * s["mass"] * jax.grad(potential)(s["x"]) + 0.1 * noise
        return {"x": x, "mass": s["mass"]}, None

    state, _ = jax.lax.scan(body, state, keys)
    return state


@jax.jit
def sample_step(state, key):
    noise = jax.random.normal(key, state["x"].shape)
    x = state["x"] - 0.05 * state["mass"] * jax.grad(potential)(state["x"]) + 0.1 * noise
    return {"x": x, "mass": state["mass"]}


def main():
    state0 = {"x": jnp.zeros(3), "mass": jnp.full((3,), 0.5)}
    chains = []
    for chain in range(2):
        keys = jax.random.split(jax.random.PRNGKey(chain), 12)
        state = burn_in(state0, keys[:4])
        samples = []
        for key in keys[4:]:
            state = sample_step(state, key)
            samples.append(potential(state["x"]))
        chains.append(jnp.stack(samples))
    return jnp.stack(chains)
