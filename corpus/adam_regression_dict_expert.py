"""Two-layer softplus network regressing the Friedman #1 benchmark function, trained with a
hand-rolled Adam over a params dict.

Hand-optimized: the whole training run is one jitted lax.scan over the stacked minibatches,
params and optimiser state donated; the losses come back as one array.
"""

import functools

import jax
import jax.numpy as jnp
import numpy as np

N_FEATURES = 10
HIDDEN = 32
BATCH = 256
N_STEPS = 40
LEARNING_RATE = 1e-2
B1, B2, EPS = 0.9, 0.999, 1e-8


def friedman1(x):
    return (
        10 * np.sin(np.pi * x[:, 0] * x[:, 1])
        + 20 * (x[:, 2] - 0.5) ** 2
        + 10 * x[:, 3]
        + 5 * x[:, 4]
    )


def init_params(rng):
    scale1 = 1.0 / np.sqrt(N_FEATURES)
    scale2 = 1.0 / np.sqrt(HIDDEN)
    return {
        "dense1": {
            "kernel": jnp.asarray(rng.normal(0, scale1, (N_FEATURES, HIDDEN)), jnp.float32),
            "bias": jnp.zeros(HIDDEN),
        },
        "dense2": {
            "kernel": jnp.asarray(rng.normal(0, scale2, (HIDDEN, 1)), jnp.float32),
            "bias": jnp.zeros(1),
        },
    }


def predict(params, x):
    h = jax.nn.softplus(x @ params["dense1"]["kernel"] + params["dense1"]["bias"])
    return (h @ params["dense2"]["kernel"] + params["dense2"]["bias"])[:, 0]


def loss_fn(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


def train_step(params, moments, count, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    mu, nu = moments
    mu = jax.tree_util.tree_map(lambda m, g: B1 * m + (1 - B1) * g, mu, grads)
    nu = jax.tree_util.tree_map(lambda v, g: B2 * v + (1 - B2) * g * g, nu, grads)
    count = count + 1
    correction = jnp.sqrt(1 - B2**count) / (1 - B1**count)
    params = jax.tree_util.tree_map(
        lambda p, m, v: p - LEARNING_RATE * correction * m / (jnp.sqrt(v) + EPS), params, mu, nu
    )
    return params, (mu, nu), count, loss


@functools.partial(jax.jit, donate_argnums=(0, 1, 2))
def fit(params, moments, count, xs, ys):
    def body(carry, batch):
        params, moments, count, loss = train_step(*carry, *batch)
        return (params, moments, count), loss

    (params, moments, count), history = jax.lax.scan(body, (params, moments, count), (xs, ys))
    return params, moments, count, history


def main():
    rng = np.random.default_rng(0)
    x_all = rng.uniform(size=(N_STEPS * BATCH, N_FEATURES)).astype(np.float32)
    y_all = (friedman1(x_all) + rng.normal(size=N_STEPS * BATCH)).astype(np.float32)
    y_mean, y_std = y_all.mean(), y_all.std()
    xs = jnp.asarray(x_all.reshape(N_STEPS, BATCH, N_FEATURES))
    ys = jnp.asarray(((y_all - y_mean) / y_std).reshape(N_STEPS, BATCH))

    params = init_params(rng)
    moments = (
        jax.tree_util.tree_map(jnp.zeros_like, params),
        jax.tree_util.tree_map(jnp.zeros_like, params),
    )
    count = jnp.zeros((), jnp.int32)
    params, moments, count, history = fit(params, moments, count, xs, ys)
    return {"params": params, "loss": history, "steps": count}


if __name__ == "__main__":
    print(main())
