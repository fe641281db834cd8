"""Mixed-precision habit: a float32 "master copy" made with `optax.tree_utils.tree_cast`
of params that are float32 already (the same arrays), compared after training.
"""

import jax
import jax.numpy as jnp
import optax

opt = optax.sgd(0.05, momentum=0.9)


def loss_fn(params, x, y):
    pred = jnp.tanh(x @ params["w1"]) @ params["w2"]
    return jnp.mean((pred[:, 0] - y) ** 2)


@jax.jit
def update(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    params = {"w1": jax.random.normal(k1, (3, 6)) * 0.5, "w2": jax.random.normal(k2, (6, 1)) * 0.5}
    master = optax.tree_utils.tree_cast(params, jnp.float32)
    opt_state = opt.init(params)
    x = jax.random.normal(k3, (12, 3))
    y = x[:, 0] * x[:, 1]
    for _ in range(6):
        params, opt_state, loss = update(params, opt_state, x, y)
    moved = sum(jnp.linalg.norm(params[k] - master[k]) for k in params)
    return loss, moved
