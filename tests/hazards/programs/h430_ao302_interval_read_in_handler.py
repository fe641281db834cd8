"""A training loop that prints its running loss every 5 steps and stops with an error at
step 13, caught around the loop, whose handler prints the running loss. Trap for AO302's
interval form: the values collected since the last print would still wait on the device
when the handler reads the sum (the flush after the loop is skipped)."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.9, jnp.sum(w**2)


def main():
    w = jnp.array([1.0, 0.5, -0.25])
    total = 0.0
    try:
        for t in range(40):
            w, loss = step(w)
            total += loss.item()
            if t % 5 == 4:
                print(f"step {t}: {total:.6f}")
            if t == 13:
                raise RuntimeError("diverged")
    except RuntimeError:
        print(f"stopped with {total:.6f}")
    return w, total
