"""The loop logs the parameters with `log.info("step %d w=%s", i, w)` through a
`logging.handlers.MemoryHandler`, which keeps the records and formats them only when it
flushes, after training. Trap for AO201: the buffered records hold every step's `w`;
donating `w` deletes them before they are formatted."""

import logging
import logging.handlers
import sys

import jax
import jax.numpy as jnp

log = logging.getLogger("h1232")


@jax.jit
def step(w, x):
    return w * 0.5 + x


def main():
    target = logging.StreamHandler(sys.stdout)
    target.setFormatter(logging.Formatter("%(message)s"))
    handler = logging.handlers.MemoryHandler(capacity=100, target=target)
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    w = jnp.array([1.0, 2.0])
    x = jnp.array([0.25, -0.5])
    for i in range(4):
        w = step(w, x)
        log.info("step %d w=%s", i, w)
    handler.flush()
    log.removeHandler(handler)
    return w
