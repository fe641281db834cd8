"""Mixed-precision inference with equinox: `infer(model, x)` casts the model's arrays to
bfloat16 with `jax.tree.map` and calls the cast model, whose `__call__` prints a line
per batch. Trap for AO101: jitted, `infer` would print once at trace time; the effect
is in the method of the object `jax.tree.map` returns (the model's own class)."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Tagger(eqx.Module):
    weight: jax.Array
    bias: jax.Array

    def __call__(self, x):
        print("tagging a batch")
        return jnp.tanh(x @ self.weight + self.bias)


def infer(model, x):
    half = jax.tree.map(lambda p: p.astype(jnp.bfloat16), model)
    return half(x.astype(jnp.bfloat16)).astype(jnp.float32)


def main():
    model = Tagger(jnp.eye(3) * 0.5, jnp.array([0.1, 0.0, -0.1]))
    outs = []
    for k in range(3):
        outs.append(infer(model, jnp.full((2, 3), 0.25 * k)))
    return jnp.stack(outs)
