"""Control (issue 26 framework hazards): haiku + optax, where `jax.jit` is fine.

A pure eager `update(params, opt_state, x, y)` of a `hk.transform`ed MLP: params and
optimizer state are pytrees of arrays, the optimizer is a module global that is
never rebound, nothing is read on the host inside the step. Jitting it (and
donating the dead params/opt_state) keeps the results.
"""

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import optax

STEPS = 15


def net_fn(x):
    return hk.nets.MLP([16, 1])(x)


net = hk.without_apply_rng(hk.transform(net_fn))
opt = optax.adam(0.01)


def loss(params, x, y):
    return jnp.mean((net.apply(params, x) - y) ** 2)


def update(params, opt_state, x, y):
    value, grads = jax.value_and_grad(loss)(params, x, y)
    updates, opt_state = opt.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, value


def main():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.uniform(-1, 1, size=(64, 2)).astype(np.float32))
    y = jnp.prod(x, axis=1, keepdims=True)
    params = net.init(jax.random.PRNGKey(3), x[:1])
    opt_state = opt.init(params)
    losses = []
    for _ in range(STEPS):
        params, opt_state, value = update(params, opt_state, x, y)
        losses.append(value)
    return {"losses": jnp.stack(losses), "params": params}
