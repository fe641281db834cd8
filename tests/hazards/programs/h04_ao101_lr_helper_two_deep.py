"""Adam-like update that gets its step size through two helpers (`scaled` ->
`current_lr`), which read a module global the loop's warmup rebinds. Trap for AO101:
the global read is two calls deep, jit freezes it."""

import jax.numpy as jnp

_LR = 0.0


def current_lr():
    return _LR


def scaled(direction):
    return current_lr() * direction


def adam_like_step(w, m, v, g):
    m = 0.9 * m + 0.1 * g
    v = 0.99 * v + 0.01 * g * g
    w = w - scaled(m / (jnp.sqrt(v) + 1e-8))
    return w, m, v


def main():
    global _LR
    target = jnp.array([0.5, -1.0, 2.0, 0.0])
    w = jnp.zeros(4)
    m = jnp.zeros(4)
    v = jnp.zeros(4)
    for step in range(30):
        _LR = 0.05 * min(1.0, (step + 1) / 10)  # linear warmup
        g = 2.0 * (w - target)
        w, m, v = adam_like_step(w, m, v, g)
    return w, m, v
