"""A layer kept as a registered pytree class (`jax.tree_util.register_pytree_node_class`)
whose `__call__` prints its output norm with `jax.debug.print`; the layers' leaves are
stacked and a `lax.scan` body rebuilds each layer with `jax.tree_util.tree_unflatten`
and calls it, under `jax.grad`. Trap for AO601: the effect is reached through a call of
the rebuilt object; a checkpointed body prints every line again."""

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Dense:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    def __call__(self, h):
        out = jnp.tanh(h @ self.w + self.b)
        jax.debug.print("dense {n:.4f}", n=jnp.linalg.norm(out))
        return out

    def tree_flatten(self):
        return (self.w, self.b), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def loss(leaves, treedef, x):
    def body(h, layer_leaves):
        return jax.tree_util.tree_unflatten(treedef, layer_leaves)(h), None

    h, _ = jax.lax.scan(body, x, leaves)
    return jnp.sum(h**2)


grad_fn = jax.jit(jax.grad(loss), static_argnums=1)


def main():
    layers = [Dense(jnp.eye(3) * (0.5 + 0.1 * k), jnp.full(3, 0.1 * k)) for k in range(4)]
    per_layer = [jax.tree_util.tree_flatten(layer)[0] for layer in layers]
    treedef = jax.tree_util.tree_structure(layers[0])
    leaves = [jnp.stack(column) for column in zip(*per_layer, strict=True)]
    grads = grad_fn(leaves, treedef, jnp.linspace(0.0, 1.0, 3))
    jax.effects_barrier()
    return grads
