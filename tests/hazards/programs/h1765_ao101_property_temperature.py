"""A sampler reads `self.temperature`, a property computed from a step counter that the
loop advances.
"""

import jax
import jax.numpy as jnp


class Annealer:
    def __init__(self):
        self.step = 0

    @property
    def temperature(self):
        return 1.0 / (1.0 + self.step)


ANNEAL = Annealer()


def soft(logits):
    return jax.nn.softmax(logits / ANNEAL.temperature)


def main():
    logits = jnp.array([1.0, 2.0, 0.5])
    out = []
    for _ in range(4):
        out.append(soft(logits))
        ANNEAL.step += 1
    return jnp.stack(out)
