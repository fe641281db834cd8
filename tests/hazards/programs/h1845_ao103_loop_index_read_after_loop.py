"""plain jax: `for i in range(5): w = step(w)` and the program returns `i` (the number
of the last step) after the loop. Trap for AO103 (whole loop): a scan that replaces the
loop must still bind `i` to 4, or the return raises `NameError`/`UnboundLocalError`."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return jnp.cos(w)


def main():
    w = jnp.array([0.5, 1.0])
    for i in range(5):  # noqa: B007  (`i` is read after the loop)
        w = step(w)
    return w, i
