"""A hand-registered pytree layer rebuilt from its leaves with
`jax.tree_util.tree_unflatten` and called; its `__call__` records each call's input
norm in a module-level list (a poor man's profiler). Trap for AO101: jitting `apply`
would record one tracer at trace time instead of one number per call."""

import jax
import jax.numpy as jnp

CALL_LOG = []


@jax.tree_util.register_pytree_node_class
class Scale:
    def __init__(self, gain):
        self.gain = gain

    def __call__(self, x):
        CALL_LOG.append(float(jnp.linalg.norm(x)))
        return self.gain * x

    def tree_flatten(self):
        return (self.gain,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def apply(treedef, leaves, x):
    return jax.tree_util.tree_unflatten(treedef, leaves)(x)


def main():
    leaves, treedef = jax.tree_util.tree_flatten(Scale(jnp.array(0.5)))
    x = jnp.ones(3)
    for _ in range(4):
        x = apply(treedef, leaves, x) + 1.0
    print("log", [round(v, 4) for v in CALL_LOG])
    return x
