"""plain jax: an int8 counter array updated by a jitted step with the loop index
(`counts = step(counts, i)`, `counts + (i % 3)`). Python's `i` is weakly typed, so the
sum stays int8. Trap for AO103 (whole loop): a scan feeds `i` as a strong int32 array,
so `counts + (i % 3)` becomes int32 and the carry's dtype changes (a scan refuses it;
the counts come back as int32 if it is forced)."""

import jax
import jax.numpy as jnp


@jax.jit
def step(counts, i):
    return counts + (i % 3)


def main():
    counts = jnp.zeros(4, dtype=jnp.int8)
    for i in range(7):
        counts = step(counts, i)
    return counts
