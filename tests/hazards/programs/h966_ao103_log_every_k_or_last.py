"""An eager counted loop that logs every 3rd step and always the last one, `if i % 3 ==
0 or i == n - 1:`. Trap for AO103's whole-loop scan with interval appends: the
condition is not the plain `i % k == 0` form; keeping the rows of `i % 3 == 0` only, or
every row, changes the returned log."""

import jax.numpy as jnp


def main():
    n = 8
    x = jnp.array([1.0, -2.0])
    log = []
    for i in range(n):
        x = 0.9 * x + 0.1
        x = jnp.sin(x)
        if i % 3 == 0 or i == n - 1:
            log.append(x)
    return x, jnp.stack(log)
