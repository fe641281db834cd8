"""Epoch loop with logging hooks: the running `total` of the losses is read by a nested
`log_total`, registered in a list of hooks the loop calls by another name every step.
Trap for AO302: kept on the device, `total` would be a device array while the loop runs,
and the hook records its type and value as it goes."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w - 0.1 * w, jnp.sum(w * w)


def main():
    w = jnp.array([1.0, -2.0, 0.5])
    seen = []
    hooks = []
    total = 0.0

    def log_total():
        seen.append((type(total).__name__, round(total, 4)))

    hooks.append(log_total)
    for _ in range(6):
        w, loss = step(w)
        total += float(loss)
        for hook in hooks:
            hook()
    return total, seen
