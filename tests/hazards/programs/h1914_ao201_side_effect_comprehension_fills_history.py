"""plain JAX: after each jitted step the loop records every parameter in a history dict
of lists with a side-effect list comprehension,
`[history[k].append(v) for k, v in params.items()]` (its value thrown away), then
returns the history. Trap for AO201 (`donate_argnames`): donating `params` at the next
step deletes the arrays the history lists hold."""

import jax
import jax.numpy as jnp


@jax.jit
def step(params, x, y):
    def loss_fn(p):
        return jnp.mean((x * p["w"] + p["b"] - y) ** 2)

    grads = jax.grad(loss_fn)(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def main():
    x = jnp.array([1.0, 2.0, 3.0])
    y = jnp.array([2.0, 4.0, 6.5])
    params = {"w": jnp.zeros(()), "b": jnp.zeros(())}
    history = {"w": [], "b": []}
    for _ in range(4):
        params = step(params, x, y)
        [history[k].append(v) for k, v in params.items()]
    return history
