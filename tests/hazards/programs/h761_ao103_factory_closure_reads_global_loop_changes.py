"""A fit whose loss comes from a factory, `loss_fn = make_loss(xs, ys)`, the closure it
returns reading the module global `TEMPERATURE`, which the module-level loop cools after
every step. Trap for AO103 following a factory's closure: compiled, the step would
freeze `TEMPERATURE` at its first value; eagerly every step reads the new one."""

import jax
import jax.numpy as jnp

TEMPERATURE = 2.0


def make_loss(xs, ys):
    def loss(w):
        pred = xs @ w
        return jnp.mean((pred - ys) ** 2) / TEMPERATURE

    return loss


xs = jnp.linspace(0.0, 1.0, 12, dtype=jnp.float32).reshape(4, 3)
ys = jnp.arange(4.0, dtype=jnp.float32)
loss_fn = make_loss(xs, ys)
value_and_grad_fn = jax.value_and_grad(loss_fn)
w = jnp.zeros(3, dtype=jnp.float32)
for _ in range(10):
    loss, grads = value_and_grad_fn(w)
    w = jax.tree.map(lambda p, g: p - 0.3 * g, w, grads)
    TEMPERATURE = TEMPERATURE * 0.7


def main():
    return w, loss, TEMPERATURE
