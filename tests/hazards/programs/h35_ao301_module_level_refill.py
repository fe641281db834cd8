"""Control loop reading sensors: `read_sensors()` refreshes the module-level OBS array
in place (`np.copyto`), and the controller transfers OBS each step. Trap for AO301:
the refill happens in a module function the loop calls, writing a module global."""

import jax.numpy as jnp
import numpy as np

OBS = np.zeros(3)
CLOCK = {"t": 0}


def read_sensors():
    CLOCK["t"] += 1
    t = 0.1 * CLOCK["t"]
    np.copyto(OBS, [np.sin(t), np.cos(t), t])


def controller(state, obs):
    return 0.9 * state + 0.1 * jnp.tanh(obs)


def main():
    CLOCK["t"] = 0
    state = jnp.zeros(3)
    trace = []
    for _ in range(20):
        read_sensors()
        state = controller(state, jnp.asarray(OBS))
        trace.append(state)
    return jnp.stack(trace)
