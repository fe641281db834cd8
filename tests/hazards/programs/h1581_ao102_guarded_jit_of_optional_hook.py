"""An optional post-processing hook is jitted inside the loop only when one is given;
without one it is `None`, and `jax.jit(None)` raises.
"""

import jax
import jax.numpy as jnp


def run(xs, post=None):
    total = 0.0
    for x in xs:
        if post is not None:
            x = jax.jit(post)(x)
        total = total + jnp.sum(x)
    return total


def main():
    xs = [jnp.ones(3), jnp.arange(3.0)]
    return run(xs), run(xs, post=jnp.tanh)
