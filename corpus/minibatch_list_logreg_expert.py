"""Multinomial logistic regression on a synthetic 5-class Gaussian mixture.

Hand-optimized: the minibatches are stacked into two arrays and all epochs run as one jitted
nested lax.scan, the per-epoch loss coming back as one array.
"""

import jax
import jax.numpy as jnp
import numpy as np

N_CLASSES = 5
N_FEATURES = 16
N_SAMPLES = 2048
BATCH_SIZE = 128
N_EPOCHS = 8
LR = 0.5
WEIGHT_DECAY = 1e-4


def make_data(rng):
    centers = rng.normal(scale=2.0, size=(N_CLASSES, N_FEATURES))
    labels = rng.integers(0, N_CLASSES, size=N_SAMPLES)
    features = centers[labels] + rng.normal(size=(N_SAMPLES, N_FEATURES))
    return features.astype(np.float32), labels.astype(np.int32)


def cross_entropy(weights, bias, x, y):
    logits = x @ weights + bias
    log_probs = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.take_along_axis(log_probs, y[:, None], axis=1))


def sgd_update(weights, bias, x, y):
    gw, gb = jax.grad(cross_entropy, argnums=(0, 1))(weights, bias, x, y)
    weights = weights - LR * (gw + WEIGHT_DECAY * weights)
    bias = bias - LR * gb
    return weights, bias


@jax.jit
def train(weights, bias, x_batches, y_batches, x_all, y_all):
    def one_batch(params, batch):
        return sgd_update(*params, *batch), None

    def one_epoch(params, _):
        params, _ = jax.lax.scan(one_batch, params, (x_batches, y_batches))
        return params, cross_entropy(*params, x_all, y_all)

    return jax.lax.scan(one_epoch, (weights, bias), None, length=N_EPOCHS)


def main():
    rng = np.random.default_rng(0)
    features, labels = make_data(rng)
    x_all, y_all = jnp.asarray(features), jnp.asarray(labels)
    x_batches = x_all.reshape(-1, BATCH_SIZE, N_FEATURES)
    y_batches = y_all.reshape(-1, BATCH_SIZE)

    weights = jnp.zeros((N_FEATURES, N_CLASSES))
    bias = jnp.zeros(N_CLASSES)
    (weights, bias), epoch_loss = train(weights, bias, x_batches, y_batches, x_all, y_all)

    accuracy = jnp.mean(jnp.argmax(x_all @ weights + bias, axis=1) == y_all)
    return {"weights": weights, "bias": bias, "loss": epoch_loss, "accuracy": accuracy}


if __name__ == "__main__":
    print(main())
