"""Loss curve collected into `losses`, which the script also keeps under the name
`curve` for its report. Trap for AO302: the rewrite converts `losses` after the loop by
rebinding the name, while `curve` still holds the unconverted device arrays (aliasing
through a list)."""

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((jnp.tanh(x @ w) - 0.5) ** 2))(w)
    return w - 0.5 * g, loss


def main():
    x = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    w = jnp.zeros(3)
    losses = []
    curve = losses
    for _ in range(10):
        w, loss = step(w, x)
        losses.append(float(loss))
    return curve, w
