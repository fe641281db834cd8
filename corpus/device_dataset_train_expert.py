"""A small MLP regressor trained with optax Adam on minibatches sliced from NumPy arrays.

Hand-optimized: the dataset goes to the device once; one jitted `lax.scan` per epoch takes
each minibatch with `lax.dynamic_slice_in_dim` and runs the training step. The mean loss of
every epoch is recorded.
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


@jax.jit
def train_epoch(params, opt_state, x, y):
    def body(carry, i):
        xb = jax.lax.dynamic_slice_in_dim(x, i * BATCH, BATCH)
        yb = jax.lax.dynamic_slice_in_dim(y, i * BATCH, BATCH)
        params, opt_state, loss = train_step(*carry, xb, yb)
        return (params, opt_state), loss

    (params, opt_state), losses = jax.lax.scan(body, (params, opt_state), jnp.arange(N_BATCHES))
    return params, opt_state, jnp.mean(losses)


def main():
    rng = np.random.default_rng(0)
    x_train, y_train = make_data(rng)

    params = init_params(jax.random.PRNGKey(0))
    opt_state = optimizer.init(params)
    x_dev, y_dev = jax.device_put((x_train, y_train))  # the loop only reads them
    epoch_loss = []
    for _epoch in range(EPOCHS):
        params, opt_state, loss = train_epoch(params, opt_state, x_dev, y_dev)
        epoch_loss.append(loss)
    return {"params": params, "epoch_loss": jnp.stack(epoch_loss)}


if __name__ == "__main__":
    print(main())
