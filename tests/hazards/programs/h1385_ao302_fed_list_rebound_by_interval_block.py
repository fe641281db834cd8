"""The interval block keeps only the last 2 values (`losses = losses[-2:]`). Trap for
AO302's fed form: the list it rebinds holds values, so the later flushes would append to
a list that the pending values no longer follow in order."""

import jax
import jax.numpy as jnp


@jax.jit
def step_fn(w, x):
    return w - 0.1 * x * (w * x - 1.0), jnp.mean((w * x - 1.0) ** 2)


def main():
    w = jnp.ones(3)
    losses = []
    for step in range(10):
        w, loss = step_fn(w, jnp.cos(w + step))
        loss = float(loss)
        losses.append(loss)
        if step % 3 == 2:
            print(f"step {step}: {sum(losses) / len(losses):.6f}")
            losses = losses[-2:]
    return w, losses
