"""Expert version of style_optax_mlp.py: data moved to the device once, each epoch one
jitted `lax.scan` over its minibatches with the parameters and optimizer state donated,
the per-step losses summed on the device and read once per epoch."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax

SIZES = (32, 256, 256, 10)
N_TRAIN = 4096
N_TEST = 1024
BATCH = 32
EPOCHS = 6
LR = 1e-3


def make_data(rng):
    teacher = rng.normal(size=(SIZES[0], SIZES[-1])).astype(np.float32)
    x = rng.normal(size=(N_TRAIN + N_TEST, SIZES[0])).astype(np.float32)
    y = np.argmax(np.tanh(x @ teacher) + 0.3 * rng.normal(size=(len(x), SIZES[-1])), axis=1)
    return x[:N_TRAIN], y[:N_TRAIN], x[N_TRAIN:], y[N_TRAIN:]


def init_params(key):
    params = []
    keys = jax.random.split(key, len(SIZES) - 1)
    for k, n_in, n_out in zip(keys, SIZES[:-1], SIZES[1:], strict=True):
        w = jax.random.normal(k, (n_in, n_out)) * jnp.sqrt(2.0 / n_in)
        params.append({"w": w, "b": jnp.zeros(n_out)})
    return params


def forward(params, x):
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def loss_fn(params, x, y):
    logits = forward(params, x)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


optimizer = optax.adam(LR)


@functools.partial(jax.jit, donate_argnums=(0, 1))
def train_epoch(params, opt_state, x_train, y_train, batches):
    def step(carry, idx):
        params, opt_state = carry
        loss, grads = jax.value_and_grad(loss_fn)(params, x_train[idx], y_train[idx])
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), loss

    (params, opt_state), losses = jax.lax.scan(step, (params, opt_state), batches)
    return params, opt_state, losses


@jax.jit
def accuracy(params, x, y):
    return jnp.mean(jnp.argmax(forward(params, x), axis=-1) == y)


def main():
    rng = np.random.default_rng(0)
    x_train, y_train, x_test, y_test = jax.device_put(make_data(rng))
    params = init_params(jax.random.PRNGKey(0))
    opt_state = optimizer.init(params)
    steps_per_epoch = N_TRAIN // BATCH

    history = []
    for epoch in range(EPOCHS):
        perm = rng.permutation(N_TRAIN)[: steps_per_epoch * BATCH]
        batches = perm.reshape(steps_per_epoch, BATCH)
        params, opt_state, losses = train_epoch(params, opt_state, x_train, y_train, batches)
        history.append(float(np.asarray(losses, dtype=np.float64).sum()) / steps_per_epoch)
        test_acc = float(accuracy(params, x_test, y_test))
        print(f"epoch {epoch}: loss {history[-1]:.4f}, test accuracy {test_acc:.3f}")
    return {"params": params, "history": np.array(history), "test_acc": test_acc}


if __name__ == "__main__":
    print(main())
