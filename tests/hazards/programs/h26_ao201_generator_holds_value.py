"""Fine-tuning report: a lazy generator of baseline predictions is created from the
initial parameters before training and consumed after it. Trap for AO201: the
generator holds the initial buffer, which donation to the first step deletes."""

import jax
import jax.numpy as jnp
import numpy as np


def model(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


def predictions(params, batches):
    for xb in batches:
        yield model(params, xb)


@jax.jit
def sgd_step(params, x, y):
    grads = jax.grad(lambda p: jnp.mean((model(p, x) - y) ** 2))(params)
    return jax.tree.map(lambda p, g: p - 0.2 * g, params, grads)


def main():
    rng = np.random.default_rng(11)
    x = jnp.asarray(rng.normal(size=(24, 4)), jnp.float32)
    y = jnp.sin(x[:, :2])
    params = {"w": jnp.zeros((4, 2)), "b": jnp.zeros(2)}
    val_batches = [x[:8], x[8:16]]
    baseline = predictions(params, val_batches)
    for _ in range(15):
        params = sgd_step(params, x, y)
    before = jnp.concatenate(list(baseline))
    after = jnp.concatenate([model(params, xb) for xb in val_batches])
    return before, after
