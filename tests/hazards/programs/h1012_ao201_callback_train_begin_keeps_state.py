"""Keras-style `fit(state, data, callbacks)` with a `DriftMonitor` callback whose
`on_train_begin(state)` records the starting state and whose `on_train_end(state)`
reports how far the parameters moved. Trap for AO201: `state = train_step(state, x, y)`
inside `fit` looks dead after every call, but the callback holds the first state,
which the first step would donate."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, x, y):
    w, step = state
    g = jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return (w - 0.1 * g, step + 1)


class DriftMonitor:
    def __init__(self):
        self.start = None
        self.drift = None

    def on_train_begin(self, state):
        self.start = state

    def on_train_end(self, state):
        self.drift = jnp.linalg.norm(state[0] - self.start[0])


def fit(state, data, callbacks):
    for cb in callbacks:
        cb.on_train_begin(state)
    for x, y in data:
        state = train_step(state, x, y)
    for cb in callbacks:
        cb.on_train_end(state)
    return state


def main():
    xs = jnp.linspace(0.0, 1.0, 30).reshape(5, 3, 2)
    data = [(x, x @ jnp.array([2.0, -1.0])) for x in xs]
    monitor = DriftMonitor()
    state = fit((jnp.zeros(2), jnp.array(0)), data, [monitor])
    return state, monitor.drift
