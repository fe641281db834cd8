"""Multi-output ridge regression (a linear probe on frozen features) by momentum SGD.

Hand-optimized: gradient and momentum update are one jitted step, and each logging window of
LOG_EVERY steps is one jitted lax.scan with the state donated; only the window's losses are
fetched, when the progress line is printed.
"""

import functools

import jax
import jax.numpy as jnp
import numpy as np

N_FEATURES = 48
N_OUTPUTS = 8
BATCH = 32
N_STEPS = 3000
LOG_EVERY = 250
LR, MOMENTUM = 0.02, 0.9
RIDGE = 1e-2


def probe_loss(params, x, y):
    pred = x @ params["w"] + params["b"]
    penalty = RIDGE * jnp.sum(params["w"] ** 2)
    return jnp.mean(jnp.sum((pred - y) ** 2, axis=1)) + penalty


def train_step(params, velocity, x, y):
    loss, grads = jax.value_and_grad(probe_loss)(params, x, y)
    velocity = jax.tree_util.tree_map(lambda v, g: MOMENTUM * v - LR * g, velocity, grads)
    params = jax.tree_util.tree_map(lambda p, v: p + v, params, velocity)
    return (params, velocity), loss


@functools.partial(jax.jit, donate_argnums=(0, 1))
def train_window(params, velocity, xs, ys):
    return jax.lax.scan(lambda carry, xy: train_step(*carry, *xy), (params, velocity), (xs, ys))


def main():
    rng = np.random.default_rng(0)
    w_true = rng.normal(size=(N_FEATURES, N_OUTPUTS)) / np.sqrt(N_FEATURES)
    scales = np.linspace(1.5, 0.3, N_FEATURES)
    features = rng.normal(size=(N_STEPS, BATCH, N_FEATURES)) * scales
    targets = features @ w_true + 0.1 * rng.normal(size=(N_STEPS, BATCH, N_OUTPUTS)) + 0.3
    xs = jnp.asarray(features, dtype=jnp.float32)
    ys = jnp.asarray(targets, dtype=jnp.float32)

    params = {"w": jnp.zeros((N_FEATURES, N_OUTPUTS)), "b": jnp.zeros(N_OUTPUTS)}
    velocity = jax.tree_util.tree_map(jnp.zeros_like, params)
    losses = []
    for start in range(0, N_STEPS, LOG_EVERY):
        window = slice(start, start + LOG_EVERY)
        (params, velocity), window_losses = train_window(params, velocity, xs[window], ys[window])
        losses.append(np.asarray(window_losses))
        print(f"step {start + LOG_EVERY:4d}  loss {np.mean(losses[-1]):.4f}")

    return {"params": params, "losses": np.concatenate(losses)}


if __name__ == "__main__":
    print(main())
