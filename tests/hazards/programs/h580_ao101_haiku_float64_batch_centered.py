"""haiku + optax with a float64 NumPy batch centred inside the step. Trap for AO101:
the eager `update` centres the batch in float64 on the host (`x - x.mean(axis=0)` of
values near 1e4 keeps their small spread); jitted, the batch becomes a float32 device
array first and the spread is mostly rounding. The parameters come from `hk.transform`'s
`init` (proven arrays), so only the batch's dtype stands between jit and the results.
"""

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax

STEPS = 6


def net_fn(x):
    return hk.Linear(1)(x)


net = hk.without_apply_rng(hk.transform(net_fn))
opt = optax.sgd(0.05)


def loss(params, x, y):
    return jnp.mean((net.apply(params, x) - y) ** 2)


def update(params, opt_state, x, y):
    centred = x - x.mean(axis=0)
    value, grads = jax.value_and_grad(loss)(params, centred * 1000.0, y)
    updates, opt_state = opt.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, value


def main():
    rng = np.random.default_rng(0)
    x = 1.0e4 + 1.0e-3 * rng.standard_normal((32, 2))
    y = jnp.asarray((x - x.mean(axis=0)).sum(axis=1, keepdims=True) * 1000.0, jnp.float32)
    params = net.init(jax.random.PRNGKey(0), jnp.zeros((1, 2)))
    opt_state = opt.init(params)
    losses = []
    for _ in range(STEPS):
        params, opt_state, value = update(params, opt_state, x, y)
        losses.append(value)
    return {"losses": jnp.stack(losses), "params": params}
