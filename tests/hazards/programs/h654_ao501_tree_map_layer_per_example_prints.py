"""Per-example scoring with a hand-rolled pytree layer (registered with
`register_pytree_node_class`) whose `__call__` logs every example with a plain
`print`; `score(w, x)` builds the layer, casts its leaves to float32 with `jax.tree.map`
and calls it, one example at a time. Trap for AO501: vmapped, the print runs once at
trace time instead of once per example; it is in the method of the object
`jax.tree.map` returns."""

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Dense:
    def __init__(self, w):
        self.w = w

    def __call__(self, x):
        print("scoring one example")
        return jnp.tanh(x @ self.w)

    def tree_flatten(self):
        return (self.w,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def score(w, x):
    layer = jax.tree.map(lambda a: a.astype(jnp.float32), Dense(w))
    return jnp.sum(layer(x))


def main():
    w = jnp.eye(2) * 0.5
    xs = jnp.linspace(0.0, 1.0, 8).reshape(4, 2)
    scores = []
    for x in xs:
        scores.append(score(w, x))
    return jnp.stack(scores)
