"""Wide MLP regression trained with SGD + momentum; the whole train state is one dict.

About 5M parameters (20 MB f32) plus the same again for the momentum buffers.
"""

import jax
import jax.numpy as jnp
import numpy as np

SIZES = (256, 2048, 2048, 64)
LR = 1e-2
MOMENTUM = 0.9
BATCH = 16
STEPS = 30


def init_state(rng):
    params = {}
    for i in range(len(SIZES) - 1):
        n_in, n_out = SIZES[i], SIZES[i + 1]
        w = rng.normal(size=(n_in, n_out)).astype(np.float32) / np.sqrt(n_in)
        params[f"w{i}"] = jnp.asarray(w)
        params[f"b{i}"] = jnp.zeros(n_out)
    momentum = jax.tree_util.tree_map(jnp.zeros_like, params)
    return {"params": params, "momentum": momentum, "step": jnp.array(0)}


def predict(params, x):
    n_layers = len(SIZES) - 1
    h = x
    for i in range(n_layers):
        h = h @ params[f"w{i}"] + params[f"b{i}"]
        if i < n_layers - 1:
            h = jax.nn.silu(h)
    return h


def loss_fn(params, batch):
    x, y = batch
    return jnp.mean((predict(params, x) - y) ** 2)


@jax.jit
def train_step(state, batch):
    loss, grads = jax.value_and_grad(loss_fn)(state["params"], batch)
    momentum = jax.tree_util.tree_map(lambda m, g: MOMENTUM * m + g, state["momentum"], grads)
    params = jax.tree_util.tree_map(lambda p, m: p - LR * m, state["params"], momentum)
    new_state = {"params": params, "momentum": momentum, "step": state["step"] + 1}
    return new_state, loss


def main():
    rng = np.random.default_rng(0)
    state = init_state(rng)
    teacher = rng.normal(size=(SIZES[0], SIZES[-1])).astype(np.float32) / 16.0
    x_np = rng.normal(size=(STEPS, BATCH, SIZES[0])).astype(np.float32)
    xs = jnp.asarray(x_np)
    ys = jnp.asarray(np.tanh(x_np @ teacher))

    losses = []
    for i in range(STEPS):
        state, loss = train_step(state, (xs[i], ys[i]))
        losses.append(loss)
    return {"state": state, "losses": jnp.stack(losses)}


if __name__ == "__main__":
    print(main())
