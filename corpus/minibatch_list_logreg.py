"""Multinomial logistic regression on a synthetic 5-class Gaussian mixture.

The training set is cut into a Python list of (x, y) minibatches once; each epoch walks the
list with plain SGD plus weight decay, and the full-data loss is recorded after every epoch.
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


def main():
    rng = np.random.default_rng(0)
    features, labels = make_data(rng)
    x_all, y_all = jnp.asarray(features), jnp.asarray(labels)
    batches = [
        (x_all[start : start + BATCH_SIZE], y_all[start : start + BATCH_SIZE])
        for start in range(0, N_SAMPLES, BATCH_SIZE)
    ]

    weights = jnp.zeros((N_FEATURES, N_CLASSES))
    bias = jnp.zeros(N_CLASSES)
    epoch_loss = []
    for _ in range(N_EPOCHS):
        for xb, yb in batches:
            weights, bias = sgd_update(weights, bias, xb, yb)
        epoch_loss.append(cross_entropy(weights, bias, x_all, y_all))

    accuracy = jnp.mean(jnp.argmax(x_all @ weights + bias, axis=1) == y_all)
    return {"weights": weights, "bias": bias, "loss": jnp.stack(epoch_loss), "accuracy": accuracy}


if __name__ == "__main__":
    print(main())
