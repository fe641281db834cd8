"""A linen module class of the user's defines `init_with_output`, which linen's `init`
calls: it returns the example input as a parameter. Trap for AO201 (fresh `init` of a
linen module): donating the variables deletes `x`, read after training."""

import flax.linen as nn
import jax
import jax.numpy as jnp


class Echo(nn.Module):
    def init_with_output(self, rngs, x, **kwargs):
        return x, {"params": {"w": x}}

    def __call__(self, x):
        return x


@jax.jit
def train_step(variables, x):
    return jax.tree.map(lambda v: v - 0.1 * x, variables)


def main():
    x = jnp.ones(3)
    variables = Echo().init(jax.random.PRNGKey(0), x)
    for _ in range(3):
        variables = train_step(variables, x)
    return jnp.sum(x), jax.tree.map(jnp.sum, variables)
