"""plain jax: the loop appends `float(loss)` to `history["loss"]`, and a helper
`should_stop(history)` (a function of the program) reads the last values each
iteration to stop early. Trap for AO302: the list is read every iteration through a
helper; deferring the conversions would hand it device arrays it compares to a float
(a different stop step, or an error)."""

import jax
import jax.numpy as jnp


def should_stop(history, patience=2):
    losses = history["loss"]
    if len(losses) <= patience:
        return False
    return min(losses[-patience:]) > losses[-patience - 1] - 0.05


@jax.jit
def step(w):
    loss = jnp.sum(w**2)
    return w * 0.8, loss


def main():
    w = jnp.array([1.0, -2.0])
    history = {"loss": []}
    for i in range(20):  # noqa: B007  (`i` is read after the loop)
        w, loss = step(w)
        history["loss"].append(float(loss))
        if should_stop(history):
            break
    return i, history["loss"]
