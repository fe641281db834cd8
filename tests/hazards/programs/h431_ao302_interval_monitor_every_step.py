"""A running sum printed every 4 steps, and a monitor called every step that records the
sum as a free variable. Trap for AO302's interval form: only the print is flushed before;
the monitor would see the sum without the values waiting on the device."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.8 + 0.1, jnp.mean(w)


def main():
    w = jnp.arange(3.0)
    seen = []
    total = 0.0

    def monitor():
        seen.append(round(total, 5))

    for t in range(12):
        w, loss = step(w)
        total += float(loss)
        monitor()
        if t % 4 == 3:
            print(t, total)
    return total, seen
