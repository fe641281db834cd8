"""Logging every fifth recorded loss, with the condition written on the list itself:
`if len(losses) % 5 == 0: print(mean of the last five)`. Trap for AO302: the condition
reads `losses` outside the `if` body; with the conversions deferred the list's length
would not grow step by step and the print would fire at other steps, or never."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x, y):
    loss, g = jax.value_and_grad(lambda v: jnp.mean((jnp.tanh(x @ v) - y) ** 2))(w)
    return w - 0.5 * g, loss


def main():
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    y = jnp.array([0.5, -0.5, 0.25, 0.0])
    w = jnp.zeros(3)
    losses = []
    for step in range(15):  # noqa: B007
        w, loss = train_step(w, x, y)
        losses.append(loss.item())
        if len(losses) % 5 == 0:
            print(f"{len(losses)} losses, recent mean {sum(losses[-5:]) / 5:.6f}")
    return losses
