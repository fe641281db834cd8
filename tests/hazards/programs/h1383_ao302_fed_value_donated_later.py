"""The device loss, under another name (`kept = loss`), is donated later in the step by
a jitted update with `donate_argnums=(0,)` whose output reuses its buffer. Trap for
AO302's fed form: a pending list holding `loss` would hold a deleted array at the flush."""

import functools

import jax
import jax.numpy as jnp


@jax.jit
def step_fn(w, x):
    return w - 0.1 * x * (w * x - 1.0), jnp.mean((w * x - 1.0) ** 2)


@functools.partial(jax.jit, donate_argnums=(0,))
def absorb(v, w):
    return w + 0.01 * v, v + 1.0


def main():
    w = jnp.ones(3)
    losses = []
    for step in range(8):
        w, loss = step_fn(w, jnp.cos(w + step))
        print("step", step, flush=True)
        kept = loss
        loss = float(loss)
        losses.append(loss)
        w, _ = absorb(kept, w)
        if step % 4 == 3:
            print(f"step {step}: {sum(losses[-4:]) / 4:.6f}")
    return w, losses
