"""An equinox module whose `__init__` stores an array of the module, trained by a jitted
step whose output replaces it; the array is read after the loop. Trap for AO201: the
object holds that global's very buffer, so donating it deletes the global (a safe fix
once did: `__init__`'s global was not linked to the object)."""

import equinox as eqx
import jax
import jax.numpy as jnp

TABLE = jnp.arange(4.0)


class Table(eqx.Module):
    table: jax.Array

    def __init__(self):
        self.table = TABLE


@jax.jit
def step(model):
    return jax.tree.map(lambda p: p * 0.5, model)


def main():
    model = Table()
    for _ in range(3):
        model = step(model)
    return model.table, TABLE + 1.0
