"""The list form's version of h1383: `losses.append(float(loss))`, with `kept = loss`
donated later in the step (an alias of the kept value, not the name itself). Trap for
AO302's list form: keeping `loss` in the list until the loop ends, the conversion after it
would read a deleted array."""

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
    for step in range(6):
        w, loss = step_fn(w, jnp.cos(w + step))
        print("step", step, flush=True)
        kept = loss
        losses.append(float(loss))
        w, _ = absorb(kept, w)
    return w, losses
