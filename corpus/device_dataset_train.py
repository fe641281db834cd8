"""A small MLP regressor trained with optax Adam on minibatches sliced from NumPy arrays.

The dataset is generated (as if loaded) into NumPy arrays; every step slices its minibatch
from them in order, converts it and calls a jitted training step. The mean loss of every
epoch is recorded.
"""

import jax
import jax.numpy as jnp
import numpy as np
import optax

N_SAMPLES = 8192
N_FEATURES = 32
HIDDEN = 64
BATCH = 64
N_BATCHES = 128  # N_SAMPLES // BATCH
EPOCHS = 20
LEARNING_RATE = 1e-3

optimizer = optax.adam(LEARNING_RATE)


def make_data(rng):
    x = rng.normal(size=(N_SAMPLES, N_FEATURES)).astype(np.float32)
    w = rng.normal(size=(N_FEATURES, 1)) / np.sqrt(N_FEATURES)
    y = (np.tanh(x @ w) + 0.1 * rng.normal(size=(N_SAMPLES, 1))).astype(np.float32)
    return x, y


def init_params(key):
    k1, k2 = jax.random.split(key)
    return {
        "w1": jax.random.normal(k1, (N_FEATURES, HIDDEN)) / jnp.sqrt(N_FEATURES),
        "b1": jnp.zeros(HIDDEN),
        "w2": jax.random.normal(k2, (HIDDEN, 1)) / jnp.sqrt(HIDDEN),
        "b2": jnp.zeros(1),
    }


def mse(params, x, y):
    h = jnp.tanh(x @ params["w1"] + params["b1"])
    return jnp.mean((h @ params["w2"] + params["b2"] - y) ** 2)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(mse)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    rng = np.random.default_rng(0)
    x_train, y_train = make_data(rng)

    params = init_params(jax.random.PRNGKey(0))
    opt_state = optimizer.init(params)
    epoch_loss = []
    for _epoch in range(EPOCHS):
        losses = []
        for i in range(N_BATCHES):
            xb = jnp.asarray(x_train[i * BATCH : (i + 1) * BATCH])
            yb = jnp.asarray(y_train[i * BATCH : (i + 1) * BATCH])
            params, opt_state, loss = train_step(params, opt_state, xb, yb)
            losses.append(loss)
        epoch_loss.append(jnp.mean(jnp.stack(losses)))
    return {"params": params, "epoch_loss": jnp.stack(epoch_loss)}


if __name__ == "__main__":
    print(main())
