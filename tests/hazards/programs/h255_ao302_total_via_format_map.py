"""Running total of the loss, reported with a template filled from `vars()`:
`TEMPLATE.format_map(vars())` reads `total` without naming it."""

import jax
import jax.numpy as jnp

TEMPLATE = "step {t}: total {total:.4f}"


@jax.jit
def step(x):
    return 0.8 * x, jnp.sum(x**2)


def main():
    x = jnp.arange(3.0)
    total = 0.0
    for t in range(6):  # noqa: B007 (read through vars())
        x, loss = step(x)
        total += loss.item()
        print(TEMPLATE.format_map(vars()))
    return total
