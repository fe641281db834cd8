"""Distillation from the starting weights: the batches are a lazy
`map(functools.partial(teacher_targets, params), xs)`, the partial holding the params as
they were before training. Trap for AO201: each batch is made when the loop asks for
it, from the partial's params; donating `params` at the first step deletes them."""

import functools

import jax
import jax.numpy as jnp


def teacher_targets(teacher, x):
    return x, jax.nn.softmax(x @ teacher)


@jax.jit
def distill_step(params, x, target):
    def loss(p):
        return -jnp.sum(target * jax.nn.log_softmax(x @ p))

    return params - 0.1 * jax.grad(loss)(params)


def main():
    params = jnp.array([[0.2, -0.1, 0.0], [0.1, 0.3, -0.2]])
    xs = [jnp.array([[1.0, 0.5]]) * (k + 1) for k in range(4)]
    batches = map(functools.partial(teacher_targets, params), xs)
    for x, target in batches:
        params = distill_step(params, x, target)
    return params
