"""A module-level training script with a monitor object: `EarlyStop.__call__` reads the
global `history` every step to decide whether the loss has plateaued, and records the
type of what it saw. Trap for AO302: the monitor runs as a method call of an instance,
never by name, and reads the list the rewrite would keep on the device."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.9, jnp.sum(w**2)


class EarlyStop:
    def __init__(self):
        self.seen = []

    def __call__(self):
        last = history[-1]
        self.seen.append(type(last).__name__)
        return len(history) > 3 and history[-3] - last < 1e-3


stopper = EarlyStop()
w = jnp.array([1.0, 2.0])
history = []
for _ in range(12):
    w, loss = step(w)
    history.append(float(loss))
    if stopper():
        break


def main():
    return history, stopper.seen
