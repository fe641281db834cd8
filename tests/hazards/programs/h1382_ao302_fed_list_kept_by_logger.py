"""The fed list is handed, every 3 steps, to a logger of another module that keeps it and
prints its length and sum every step. Trap for AO302's fed form: flushed only before the
hand-over, the kept list would lack the values of the steps between."""

import jax
import jax.numpy as jnp
from hazlib_h1382_log import Log


@jax.jit
def step_fn(w, x):
    return w - 0.1 * x * (w * x - 1.0), jnp.mean((w * x - 1.0) ** 2)


def main():
    w = jnp.ones(3)
    log = Log()
    losses = []
    for step in range(9):
        w, loss = step_fn(w, jnp.cos(w + step))
        loss = float(loss)
        losses.append(loss)
        if step % 3 == 0:
            log.keep(losses)
        log.tick()
    return w, losses
