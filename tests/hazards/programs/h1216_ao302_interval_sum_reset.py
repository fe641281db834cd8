"""A running-loss sum printed and reset every five steps:
`running += loss.item(); if step % 5 == 4: print(running / 5); running = 0.0`. Trap for
AO302: the sum is reset at the interval; deferring the additions to after the loop
would print other means and end with the sum of every step."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.1 * g, loss


def main():
    x = jnp.array([[1.0, 0.5], [0.0, 1.0], [1.0, 1.0]])
    y = jnp.array([1.0, 2.0, 0.5])
    w = jnp.zeros(2)
    running = 0.0
    for i in range(15):
        w, loss = step(w, x, y)
        running += loss.item()
        if i % 5 == 4:
            print(f"step {i + 1}: mean loss {running / 5:.6f}")
            running = 0.0
    return w, running
