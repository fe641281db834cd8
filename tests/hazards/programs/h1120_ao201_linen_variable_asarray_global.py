"""A linen module keeps a global array as a variable: `self.variable(..., jnp.asarray,
TABLE)` returns `TABLE` itself, so `init` gives its very buffer. Trap for AO201 (fresh
`init` of a linen module): donating the variables deletes `TABLE`, read after training."""

import flax.linen as nn
import jax
import jax.numpy as jnp

TABLE = jnp.linspace(0.0, 1.0, 3)


class Shifted(nn.Module):
    @nn.compact
    def __call__(self, x):
        shift = self.variable("consts", "shift", jnp.asarray, TABLE)
        return nn.Dense(3)(x) + shift.value


@jax.jit
def train_step(variables, x):
    grads = jax.grad(lambda v: jnp.sum(Shifted().apply(v, x) ** 2))(variables)
    return jax.tree.map(lambda v, g: v - 0.1 * g, variables, grads)


def main():
    variables = Shifted().init(jax.random.PRNGKey(0), jnp.ones(3))
    for _ in range(3):
        variables = train_step(variables, jnp.ones(3))
    return jnp.sum(TABLE), jax.tree.map(jnp.sum, variables)
