"""Multi-output ridge regression (a linear probe on frozen features) by momentum SGD.

`loss_and_grad` is jitted, the momentum update is applied eagerly in the loop, and every
LOG_EVERY steps the mean loss of the last window is printed, the way most training scripts
report progress.
"""

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


loss_and_grad = jax.jit(jax.value_and_grad(probe_loss))


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
    for step in range(N_STEPS):
        loss, grads = loss_and_grad(params, xs[step], ys[step])
        velocity = jax.tree_util.tree_map(lambda v, g: MOMENTUM * v - LR * g, velocity, grads)
        params = jax.tree_util.tree_map(lambda p, v: p + v, params, velocity)
        losses.append(loss)
        if (step + 1) % LOG_EVERY == 0:
            print(f"step {step + 1:4d}  loss {np.mean(losses[-LOG_EVERY:]):.4f}")

    return {"params": params, "losses": np.array(losses)}


if __name__ == "__main__":
    print(main())
