"""Setting `env.action = a` runs a property setter that steps the environment and
refills its observation buffer in place; the loop transfers the observation.
"""

import jax
import jax.numpy as jnp
import numpy as np


class Env:
    def __init__(self):
        self.obs = np.zeros(3, dtype=np.float64)
        self._action = 0.0

    @property
    def action(self):
        return self._action

    @action.setter
    def action(self, a):
        self._action = a
        self.obs[:] = self.obs * 0.5 + np.array([a, -a, 2.0 * a])


@jax.jit
def value(o):
    return jnp.tanh(o).sum()


def main():
    env = Env()
    obs = env.obs
    vals = []
    for a in [1.0, 0.5, -1.0, 2.0]:
        env.action = a
        vals.append(value(jnp.asarray(obs)))
    return jnp.stack(vals)
