"""An eager RNN loop that records hidden states through `record = history.append`, a
bound method taken before the loop. Trap for AO103: a compiled step calling `record`
appends a tracer once at trace time (or a scan stacks nothing into `history`)."""

import jax.numpy as jnp


def main():
    w = jnp.array([[0.9, -0.2], [0.1, 0.7]])
    xs = jnp.arange(10.0).reshape(5, 2) / 10
    history = []
    record = history.append
    h = jnp.zeros(2)
    for t in range(5):
        h = jnp.tanh(h @ w + xs[t])
        record(h)
        h = h * 0.9
    return h, jnp.stack(history)
