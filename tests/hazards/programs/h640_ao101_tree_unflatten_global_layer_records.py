"""A hand-registered pytree layer kept flattened at module level and rebuilt with
`jax.tree_util.tree_unflatten` inside `apply`; its `__call__` records each call's input
norm in a module-level list. Trap for AO101: jitting `apply` would record once, at
trace time (and `float` of a tracer raises); the effect is in the method of the object
that `tree_unflatten` returns."""

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


LEAVES, TREEDEF = jax.tree_util.tree_flatten(Scale(jnp.array(0.5)))


def apply(x):
    return jnp.asarray(jax.tree_util.tree_unflatten(TREEDEF, LEAVES)(x)) + 1.0


def main():
    x = jnp.ones(3)
    for _ in range(4):
        x = apply(x)
    print("log", [round(v, 4) for v in CALL_LOG])
    return x
