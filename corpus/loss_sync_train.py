"""Small MLP fit to a noisy 1D function (sin plus a kink), minibatch SGD with momentum.

Loss curve is logged every step so we can plot it afterwards.
"""

import jax
import jax.numpy as jnp
import numpy as np

WIDTH = 64
BATCH = 32
STEPS = 2000
LR, BETA = 0.02, 0.9


def target_fn(x):
    return np.sin(3 * x) + 0.5 * np.abs(x)


def init(rng):
    return {
        "w1": jnp.asarray(rng.normal(size=(1, WIDTH)), dtype=jnp.float32),
        "b1": jnp.zeros(WIDTH),
        "w2": jnp.asarray(rng.normal(size=(WIDTH, WIDTH)) / 8.0, dtype=jnp.float32),
        "b2": jnp.zeros(WIDTH),
        "w3": jnp.asarray(rng.normal(size=(WIDTH, 1)) / 8.0, dtype=jnp.float32),
    }


def mse(params, x, y):
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    h = jnp.tanh(h @ params["w2"] + params["b2"])
    return jnp.mean((h @ params["w3"] - y) ** 2)


@jax.jit
def update(params, vel, x, y):
    loss, grads = jax.value_and_grad(mse)(params, x, y)
    vel = jax.tree_util.tree_map(lambda v, g: BETA * v + g, vel, grads)
    params = jax.tree_util.tree_map(lambda p, v: p - LR * v, params, vel)
    return params, vel, loss


def main():
    rng = np.random.default_rng(0)
    x_np = rng.uniform(-2, 2, size=(STEPS, BATCH, 1)).astype(np.float32)
    y_np = (target_fn(x_np) + 0.05 * rng.normal(size=x_np.shape)).astype(np.float32)
    xs, ys = jnp.asarray(x_np), jnp.asarray(y_np)

    params = init(rng)
    vel = jax.tree_util.tree_map(jnp.zeros_like, params)
    losses = []
    for step in range(STEPS):
        params, vel, loss = update(params, vel, xs[step], ys[step])
        losses.append(float(loss))

    return {"params": params, "losses": np.asarray(losses, dtype=np.float32)}


if __name__ == "__main__":
    print(main())
