# ruff: noqa
# fuzz failure: non-idempotent: second rewrite applied AO103
# seed 7, f7_00006
import jax
import jax.numpy as jnp
import numpy as np


def loss1(w):
    return jnp.sum(w * w)


def main():
    losses1 = []
    w1 = jnp.arange(3.0)
    for i in range(4):
        w1 = w1 * 0.9 + i
        losses1.append(float(loss1(w1)))
    return (losses1,)
