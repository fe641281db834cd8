"""plain jax: a jitted step that appends a row to its carry (`jnp.concatenate([buf,
new])`), so the carry's shape grows every iteration; the loop runs 3 steps. Trap for
AO103 (whole loop): a scan needs a fixed carry shape; only the loop of steps keeps the
result."""

import jax
import jax.numpy as jnp


@jax.jit
def step(buf, x):
    return jnp.concatenate([buf, (buf[-1:] + x)], axis=0)


def main():
    buf = jnp.zeros((1, 2))
    x = jnp.array([[1.0, 0.5]])
    for _ in range(3):
        buf = step(buf, x)
    return buf
