"""An nnx layer whose `__call__` prints its output norm with `jax.debug.print`, split
with `nnx.split` and applied in a `lax.scan` body over layer-stacked states via
`nnx.merge`, under `jax.grad`. Trap for AO601: the effect is in an nnx module method
reached through `nnx.merge(graphdef, state)(h)`; a checkpointed body prints every line
again on the backward pass."""

import jax
import jax.numpy as jnp
from flax import nnx


class Layer(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(3, 3, rngs=rngs)

    def __call__(self, h):
        h = h + jnp.tanh(self.linear(h))
        jax.debug.print("layer out {n:.4f}", n=jnp.linalg.norm(h))
        return h


def loss(states, graphdef, x):
    def body(h, state):
        return nnx.merge(graphdef, state)(h), None

    h, _ = jax.lax.scan(body, x, states)
    return jnp.sum(h**2)


grad_fn = jax.jit(jax.grad(loss), static_argnums=1)


def main():
    layers = [Layer(nnx.Rngs(k)) for k in range(4)]
    graphdef = nnx.graphdef(layers[0])
    states = jax.tree.map(lambda *xs: jnp.stack(xs), *[nnx.state(layer) for layer in layers])
    grads = grad_fn(states, graphdef, jnp.linspace(0.0, 1.0, 3))
    jax.effects_barrier()
    return jax.tree.leaves(grads)
