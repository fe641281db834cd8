"""Control for h824-h825 (style_haiku_transform): a haiku MLP of literal sizes and
`jnp.tanh`, trained by an `update` that is not jitted, with an optax optimizer and a
NumPy float32 batch. AO101 jits `update` safely; the results are unchanged."""

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax


def net_fn(x):
    return hk.nets.MLP([8, 1], activation=jnp.tanh)(x)


net = hk.without_apply_rng(hk.transform(net_fn))
opt = optax.sgd(0.02, momentum=0.9)


def loss(params, x, y):
    return jnp.mean((net.apply(params, x) - y) ** 2)


def update(params, opt_state, x, y):
    value, grads = jax.value_and_grad(loss)(params, x, y)
    updates, opt_state = opt.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, value


def main():
    rng = np.random.default_rng(0)
    x_all = rng.uniform(-1.0, 1.0, size=(64, 1)).astype(np.float32)
    y_all = np.sin(2.0 * x_all).astype(np.float32)
    params = net.init(jax.random.PRNGKey(1), x_all[:1])
    opt_state = opt.init(params)
    values = []
    for _ in range(10):
        idx = rng.integers(0, 64, size=16)
        params, opt_state, value = update(params, opt_state, x_all[idx], y_all[idx])
        values.append(value)
    return params, jnp.stack(values)
