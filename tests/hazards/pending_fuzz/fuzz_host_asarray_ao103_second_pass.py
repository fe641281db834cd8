# ruff: noqa
# fuzz failure: non-idempotent: second rewrite applied AO103
# seed 7, f7_00011
import jax
import jax.numpy as jnp
import numpy as np


def main():
    host1 = np.arange(12, dtype=np.float64).reshape(3, 4)
    acc1 = jnp.zeros(4)
    for i in range(5):
        d1 = jnp.asarray(host1)
        acc1 = acc1 + d1[0] * d1[2]
    return (acc1, host1)
