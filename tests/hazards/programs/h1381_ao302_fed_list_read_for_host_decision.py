"""The fed list's last value decides, every step, whether to keep a best copy
(`if losses[-1] < best`). Trap for AO302's fed form: with the values pending on the
device, `losses[-1]` would be a stale (or missing) value every step but the flushed ones."""

import jax
import jax.numpy as jnp


@jax.jit
def step_fn(w, x):
    return w - 0.1 * x * (w * x - 1.0), jnp.mean((w * x - 1.0) ** 2)


def main():
    w = jnp.ones(3)
    losses = []
    best, best_step = 1e9, -1
    for step in range(10):
        w, loss = step_fn(w, jnp.cos(w + step))
        loss = float(loss)
        losses.append(loss)
        if losses[-1] < best:
            best, best_step = losses[-1], step
        if step % 4 == 3:
            print(f"step {step}: best {best:.6f} at {best_step}")
    return w, losses, best
