"""An MLP whose layer specs (weights and an activation name) are closed over by a
forward pass that is jitted with `jax.jit(forward)`: `dense` is only ever called from
traced code. Trap for AO101: jitting `dense` itself makes the spec dict an argument,
and its string leaf is not a JAX type."""

import jax
import jax.numpy as jnp
import numpy as np

ACTIVATIONS = {"tanh": jnp.tanh, "relu": jax.nn.relu, "linear": lambda h: h}


def dense(h, layer):
    return ACTIVATIONS[layer["act"]](jnp.dot(h, layer["w"]) + layer["b"])


def make_forward(layers):
    def forward(x):
        h = x
        for layer in layers:
            h = dense(h, layer)
        return h

    return jax.jit(forward)


def main():
    rng = np.random.default_rng(7)
    sizes = [4, 8, 8, 2]
    acts = ["tanh", "relu", "linear"]
    layers = [
        {
            "w": jnp.asarray(rng.normal(size=(m, n)) / np.sqrt(m), jnp.float32),
            "b": jnp.zeros(n),
            "act": act,
        }
        for m, n, act in zip(sizes[:-1], sizes[1:], acts, strict=True)
    ]
    forward = make_forward(layers)
    x = jnp.asarray(rng.normal(size=(5, 4)), jnp.float32)
    return forward(x)
