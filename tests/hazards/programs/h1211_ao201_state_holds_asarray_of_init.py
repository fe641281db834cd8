"""A proximal (L2-to-init) fine-tuning state built by a helper as
`{"w": w, "anchor": jnp.asarray(w)}`: the author expects a copy, but `jnp.asarray` of a
JAX array is that array. Trap for AO201: one buffer fills two leaves of the donated
state, which XLA refuses to donate ("attempt to donate the same buffer twice")."""

import jax
import jax.numpy as jnp


def init_state(key):
    w = jax.random.normal(key, (4,))
    return {"w": w, "anchor": jnp.asarray(w), "t": jnp.zeros(())}


@jax.jit
def prox_step(state, x, y):
    def loss_fn(w):
        return jnp.mean((x @ w - y) ** 2) + 0.1 * jnp.sum((w - state["anchor"]) ** 2)

    g = jax.grad(loss_fn)(state["w"])
    return {"w": state["w"] - 0.1 * g, "anchor": state["anchor"], "t": state["t"] + 1}


def main():
    state = init_state(jax.random.PRNGKey(0))
    x = jnp.eye(4)[:3] + 0.5
    y = jnp.array([1.0, 2.0, 3.0])
    for _ in range(5):
        state = prox_step(state, x, y)
    return state["w"], state["t"]
