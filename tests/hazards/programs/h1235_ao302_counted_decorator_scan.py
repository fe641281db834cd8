"""The step is jitted and wrapped by a project decorator that counts calls for a
throughput report. Trap for AO302: a loop made "only of jitted calls" becomes one
`lax.scan`, which calls the wrapper once while tracing, so the count printed after the
loop changes."""

import functools

import jax
import jax.numpy as jnp

CALLS = {"n": 0}


def counted(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        CALLS["n"] += 1
        return fn(*args, **kwargs)

    return wrapper


@counted
@jax.jit
def train_step(w, x):
    loss, g = jax.value_and_grad(lambda v: jnp.sum((v - x) ** 2))(w)
    return w - 0.1 * g, loss


def main():
    w = jnp.zeros(3)
    x = jnp.array([1.0, 2.0, 3.0])
    losses = []
    for _ in range(8):
        w, loss = train_step(w, x)
        losses.append(float(loss))
    print("steps run:", CALLS["n"])
    return w, losses, CALLS["n"]
