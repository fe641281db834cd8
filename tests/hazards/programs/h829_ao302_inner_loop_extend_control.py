"""Control for h827-h828 (style_nnx_optimizer's logging): `losses` is set empty before
the epoch loop, each epoch's inner loop appends `loss.item()`, and the epoch's mean is
printed from the list's tail. AO302 collects each run's device values apart and adds
them after the inner loop: the printed lines and the results are unchanged."""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def step(w, x):
    return w - 0.1 * x * jnp.sum(w * x), jnp.sum((w * x) ** 2)


def main():
    w = jnp.ones(3)
    xs = jnp.arange(12.0).reshape(4, 3) / 10.0
    losses = []
    for epoch in range(3):
        for i in range(4):
            w, loss = step(w, xs[i])
            losses.append(loss.item())
        print(f"epoch {epoch}: {np.mean(losses[-4:]):.6f}")
    return w, losses
