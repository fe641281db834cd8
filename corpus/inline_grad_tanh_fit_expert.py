"""Expert version of inline_grad_tanh_fit.py: one jitted `lax.scan` over logging blocks."""

import jax
import jax.numpy as jnp
import numpy as np

N_POINTS = 512
HIDDEN = 32
STEPS = 100
LR = 0.05
L2 = 1e-4
LOG_EVERY = 10


def make_data(seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-2.0, 2.0, size=(N_POINTS, 2)).astype(np.float32)
    y = np.sin(x[:, :1] * 1.5) * np.cos(x[:, 1:] * 0.8) + 0.05 * rng.standard_normal((N_POINTS, 1))
    return x, y.astype(np.float32)


def init_params(seed=1):
    rng = np.random.default_rng(seed)
    w1 = rng.standard_normal((2, HIDDEN)) / np.sqrt(2.0)
    b1 = np.zeros(HIDDEN)
    w2 = rng.standard_normal((HIDDEN, 1)) / np.sqrt(HIDDEN)
    b2 = np.zeros(1)
    return tuple(jnp.asarray(p, jnp.float32) for p in (w1, b1, w2, b2))


def predict(params, x):
    w1, b1, w2, b2 = params
    h = jnp.tanh(x @ w1 + b1)
    return h @ w2 + b2


def loss_fn(params, x, y):
    mse = jnp.mean((predict(params, x) - y) ** 2)
    return mse + L2 * (jnp.sum(params[0] ** 2) + jnp.sum(params[2] ** 2))


@jax.jit
def train(params, x, y):
    def gd_step(params):
        grads = jax.grad(loss_fn)(params, x, y)
        return tuple(p - LR * g for p, g in zip(params, grads, strict=True))

    def block(params, _):
        params = gd_step(params)
        logged = loss_fn(params, x, y)
        params = jax.lax.fori_loop(0, LOG_EVERY - 1, lambda _, p: gd_step(p), params)
        return params, logged

    return jax.lax.scan(block, params, None, length=STEPS // LOG_EVERY)


def main():
    x_np, y_np = make_data()
    x, y = jax.device_put((x_np, y_np))
    params, history = train(init_params(), x, y)
    return {
        "w1": params[0],
        "b1": params[1],
        "w2": params[2],
        "b2": params[3],
        "history": np.asarray(history),
    }


if __name__ == "__main__":
    print(main())
