"""A stacked weight tensor turned into per-layer weights with `jnp.unstack(stacked)`
(a tuple) and an eager forward loop over `range(len(layers))`. Trap for AO103: the
layers are a tuple; a compiled step that indexes it with a traced layer index fails."""

import jax
import jax.numpy as jnp


def main():
    stacked = jax.random.normal(jax.random.PRNGKey(0), (4, 3, 3)) * 0.5
    layers = jnp.unstack(stacked)
    h = jnp.array([1.0, -0.5, 0.25])
    for layer in range(len(layers)):
        h = jnp.tanh(h @ layers[layer])
        h = h / (jnp.linalg.norm(h) + 1e-6)
    return h
