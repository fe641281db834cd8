"""Knowledge distillation where the teacher is the student's own starting weights:
the batch generator is `functools.partial(teacher_batches, teacher=params)` and yields
`(x, teacher)` pairs. Trap for AO201: the teacher is the parameter buffer; donating
`params` at the first step deletes it, and the generator yields it again."""

import functools

import jax
import jax.numpy as jnp


def teacher_batches(xs, teacher):
    for x in xs:
        yield x, teacher


@jax.jit
def distill_step(params, x, teacher):
    def loss(p):
        return jnp.mean((jnp.tanh(x @ p) - jnp.tanh(x @ teacher) * 0.5) ** 2)

    return params - 0.3 * jax.grad(loss)(params)


def main():
    xs = jnp.linspace(-1.0, 1.0, 24).reshape(4, 3, 2)
    params = jnp.array([[0.5, -0.2], [0.1, 0.4]])
    batches = functools.partial(teacher_batches, teacher=params)
    for x, teacher in batches(xs):
        params = distill_step(params, x, teacher)
    return params
