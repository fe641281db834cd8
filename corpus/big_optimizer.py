"""Low-rank matrix completion (user/item embeddings) trained with a hand-written Adam.

~5M parameters; the optimizer keeps two moment buffers of the same size.
"""

import math

import jax
import jax.numpy as jnp
import numpy as np

N_USERS, N_ITEMS, RANK = 20_000, 20_000, 64
BATCH = 4096
STEPS = 30
LR, B1, B2, EPS = 1e-2, 0.9, 0.999, 1e-8


def loss_fn(params, users, items, ratings):
    pred = jnp.sum(params["U"][users] * params["V"][items], axis=-1) + params["bias"]
    return jnp.mean((pred - ratings) ** 2)


grad_fn = jax.jit(jax.value_and_grad(loss_fn))


def adam_init(params):
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return {"m": zeros, "v": jax.tree_util.tree_map(jnp.zeros_like, params), "t": jnp.array(0)}


@jax.jit
def update(params, opt_state, grads):
    t = opt_state["t"] + 1
    m = jax.tree_util.tree_map(lambda m, g: B1 * m + (1 - B1) * g, opt_state["m"], grads)
    v = jax.tree_util.tree_map(lambda v, g: B2 * v + (1 - B2) * g**2, opt_state["v"], grads)
    lr_t = LR * jnp.sqrt(1 - B2**t) / (1 - B1**t)
    params = jax.tree_util.tree_map(
        lambda p, m, v: p - lr_t * m / (jnp.sqrt(v) + EPS), params, m, v
    )
    return params, {"m": m, "v": v, "t": t}


def main():
    rng = np.random.default_rng(0)
    # ground-truth low-rank ratings, observed through random (user, item) pairs
    true_u = rng.normal(size=(N_USERS, 8)).astype(np.float32)
    true_v = rng.normal(size=(N_ITEMS, 8)).astype(np.float32)
    users = rng.integers(0, N_USERS, size=(STEPS, BATCH)).astype(np.int32)
    items = rng.integers(0, N_ITEMS, size=(STEPS, BATCH)).astype(np.int32)
    ratings = np.einsum("sbk,sbk->sb", true_u[users], true_v[items]) / math.sqrt(8)
    users, items, ratings = jax.device_put((users, items, ratings.astype(np.float32)))

    params = {
        "U": jnp.asarray(0.1 * rng.normal(size=(N_USERS, RANK)), dtype=jnp.float32),
        "V": jnp.asarray(0.1 * rng.normal(size=(N_ITEMS, RANK)), dtype=jnp.float32),
        "bias": jnp.zeros(()),
    }
    opt_state = adam_init(params)

    losses = []
    for step in range(STEPS):
        loss, grads = grad_fn(params, users[step], items[step], ratings[step])
        params, opt_state = update(params, opt_state, grads)
        losses.append(loss)
    return {"params": params, "opt_state": opt_state, "losses": jnp.stack(losses)}


if __name__ == "__main__":
    print(main())
