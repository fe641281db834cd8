"""A loop accumulates `total += float(loss)`; a nested `report()` closing over `total`
prints the running mean every 2 steps. Trap for AO302: with the sum deferred, `report`
reads `total` from the closure before the pending values are added."""

import jax
import jax.numpy as jnp


@jax.jit
def step_fn(w):
    loss = jnp.sum((w - 3.0) ** 2)
    return w - 0.1 * 2.0 * (w - 3.0), loss


def main():
    w = jnp.zeros(2)
    total = 0.0
    seen = 0

    def report():
        print(f"after {seen} steps: mean {total / seen:.5f}")

    for i in range(6):
        w, loss = step_fn(w)
        total += float(loss)
        seen += 1
        if i % 2 == 1:
            report()
    return w, total
