"""One-hidden-layer MLP classifier on a synthetic Gaussian-blob dataset, trained with plain SGD.

Quick research baseline: hand-rolled layers, GELU activations, label smoothing.
"""

import jax
import jax.numpy as jnp
import numpy as np

N_CLASSES = 8
IN_DIM = 32
HIDDEN = 128
BATCH = 128
LR = 0.05
STEPS = 30


def init_layer(rng, n_in, n_out):
    w = rng.normal(size=(n_in, n_out)).astype(np.float32) * np.sqrt(2.0 / n_in)
    return {"w": jnp.asarray(w), "b": jnp.zeros(n_out)}


def init_params(rng):
    return [init_layer(rng, IN_DIM, HIDDEN), init_layer(rng, HIDDEN, N_CLASSES)]


def gelu(x):
    # tanh approximation, written out so it is easy to tweak
    c = jnp.sqrt(2.0 / jnp.pi)
    return 0.5 * x * (1.0 + jnp.tanh(c * (x + 0.044715 * x**3)))


def forward(params, x):
    h = x
    for layer in params[:-1]:
        h = gelu(h @ layer["w"] + layer["b"])
    out = params[-1]
    return h @ out["w"] + out["b"]


def smoothed_xent(logits, labels, eps=0.1):
    logp = jax.nn.log_softmax(logits)
    onehot = jax.nn.one_hot(labels, N_CLASSES)
    target = onehot * (1.0 - eps) + eps / N_CLASSES
    return -(target * logp).sum(axis=-1).mean()


def loss_fn(params, x, y):
    return smoothed_xent(forward(params, x), y)


def train_step(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    params = jax.tree_util.tree_map(lambda p, g: p - LR * g, params, grads)
    return params, loss


def make_batches(rng, n_batches):
    centers = rng.normal(size=(N_CLASSES, IN_DIM)) * 2.0
    labels = rng.integers(0, N_CLASSES, size=(n_batches, BATCH))
    x = centers[labels] + rng.normal(size=(n_batches, BATCH, IN_DIM))
    return jnp.asarray(x.astype(np.float32)), jnp.asarray(labels.astype(np.int32))


def main():
    rng = np.random.default_rng(0)
    n_batches = 16
    x_batches, y_batches = make_batches(rng, n_batches)
    params = init_params(rng)

    losses = []
    n_train = n_batches - 1  # the last batch is held out
    for step in range(STEPS):
        i = step % n_train
        params, loss = train_step(params, x_batches[i], y_batches[i])
        losses.append(loss)

    x_val, y_val = x_batches[-1], y_batches[-1]
    acc = (forward(params, x_val).argmax(-1) == y_val).mean()
    return {"losses": jnp.stack(losses), "accuracy": acc, "params": params}


if __name__ == "__main__":
    print(main())
