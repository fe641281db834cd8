"""A reporter made before the loop with `functools.partial(report, losses)` and called
every five steps. Trap for AO302: the partial holds the list, so the call at the
interval reads it; deferring conversions would show it short."""

import functools

import jax
import jax.numpy as jnp


def report(history, step):
    tail = history[-5:]
    print(f"step {step}: n={len(history)} mean={sum(tail) / len(tail):.6f}")


@jax.jit
def step_fn(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.sum((x * v - y) ** 2))(w)
    return w - 0.05 * g, loss


def main():
    x = jnp.array([1.0, 2.0, 3.0])
    y = jnp.array([2.0, 1.0, 0.0])
    w = jnp.ones(3)
    losses = []
    log = functools.partial(report, losses)
    for i in range(15):
        w, loss = step_fn(w, x, y)
        losses.append(loss.item())
        if (i + 1) % 5 == 0:
            log(i + 1)
    return w, losses
