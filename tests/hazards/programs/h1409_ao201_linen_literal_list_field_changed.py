"""A linen module built from a literal list keeps that very list, which the code holding
the module then changes: it appends a layer whose initializer returns `TABLE`, which
`init` then makes a parameter of. Trap for AO201 (fresh `init` of a linen module):
donating the variables deletes `TABLE`, read after training."""

import flax.linen as nn
import jax
import jax.numpy as jnp

TABLE = jnp.linspace(0.0, 1.0, 9).reshape(3, 3)


class Stack(nn.Module):
    layers: list

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


@jax.jit
def train_step(variables, x):
    return jax.tree.map(lambda v: v - 0.1 * jnp.sum(x), variables)


def main():
    x = jnp.ones(3)
    model = Stack([])
    model.layers.append(nn.Dense(3, kernel_init=lambda *_: TABLE))
    variables = model.init(jax.random.PRNGKey(0), x)
    for _ in range(3):
        variables = train_step(variables, x)
    return jnp.sum(TABLE), jax.tree.map(jnp.sum, variables)
