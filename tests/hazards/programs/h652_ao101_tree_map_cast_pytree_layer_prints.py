"""A hand-rolled pytree layer class (registered with `register_pytree_node_class`) whose
`__call__` logs each call with a plain `print`; `forward(w, b, x)` builds the layer,
casts its leaves to float32 with `jax.tree.map` (the weights may come in as integers
from a quantised checkpoint) and calls the cast layer, in an eager loop. Trap for AO101:
the print is in the method of the object `jax.tree.map` returns; jitted, `forward`
prints once at trace time instead of once per call."""

import jax
import jax.numpy as jnp


@jax.tree_util.register_pytree_node_class
class Dense:
    def __init__(self, w, b):
        self.w = w
        self.b = b

    def __call__(self, x):
        print("dense: batch of", x.shape[0])
        return x @ self.w + self.b

    def tree_flatten(self):
        return (self.w, self.b), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children)


def forward(w, b, x):
    layer = jax.tree.map(lambda a: a.astype(jnp.float32), Dense(w, b))
    return jnp.tanh(layer(x))


def main():
    w = jnp.eye(3) * 0.5
    b = jnp.array([0.1, 0.0, -0.1])
    x = jnp.linspace(-1.0, 1.0, 6).reshape(2, 3)
    for _ in range(3):
        x = forward(w, b, x)
    return x
