"""An eager outer loop that runs an inner `jax.lax.scan` of `body`, which reads the
global `DT`; `refine()` halves `DT` after each outer iteration. Trap for AO103: a
compiled outer step traces the scan once with the first `DT`."""

import jax
import jax.numpy as jnp

DT = 0.2


def body(x, _):
    x = x + DT * (-x)
    return x, x


def refine():
    global DT
    DT = DT / 2


def main():
    x = jnp.array([1.0, 2.0])
    finals = []
    for _ in range(4):
        x, traj = jax.lax.scan(body, x, None, length=3)
        x = x + 0.1
        finals.append(traj[-1])
        refine()
    return x, jnp.stack(finals)
