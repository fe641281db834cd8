"""Equinox: the student gets the teacher's encoder with `eqx.tree_at`; the teacher is used after."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Net(eqx.Module):
    encoder: eqx.nn.Linear
    head: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.encoder = eqx.nn.Linear(3, 4, key=k1)
        self.head = eqx.nn.Linear(4, 1, key=k2)

    def __call__(self, x):
        return self.head(jnp.tanh(self.encoder(x)))[0]


@eqx.filter_jit
def step(model, x, y):
    def loss_fn(m):
        return jnp.mean((jax.vmap(m)(x) - y) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    return jax.tree.map(lambda p, g: p - 0.1 * g, model, grads), loss


def main():
    teacher = Net(jax.random.PRNGKey(0))
    student = Net(jax.random.PRNGKey(1))
    student = eqx.tree_at(lambda m: m.encoder, student, teacher.encoder)
    x = jax.random.normal(jax.random.PRNGKey(2), (10, 3))
    y = jax.vmap(teacher)(x)
    for _ in range(4):
        student, loss = step(student, x, y)
    return loss, jax.vmap(teacher)(x).sum()
