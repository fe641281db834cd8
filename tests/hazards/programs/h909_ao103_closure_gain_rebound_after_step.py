"""An eager recurrent loop whose activation is a nested function closing over `gain`;
the loop halves `gain` at the end of each iteration, after the device work. Trap for
AO103: a jitted step made of the leading statements calls `act`, which reads `gain`
from the closure at trace time; compiled once, every step uses the first gain."""

import jax.numpy as jnp


def run(w, xs):
    gain = 1.0

    def act(v):
        return jnp.tanh(v) * gain

    h = jnp.zeros(w.shape[0])
    for t in range(xs.shape[0]):
        h = act(h @ w)
        h = h + xs[t]
        gain = gain * 0.5
    return h


def main():
    w = jnp.array([[0.5, 0.2], [-0.3, 0.8]])
    xs = jnp.linspace(0.0, 1.0, 10).reshape(5, 2)
    return run(w, xs)
