"""Full-batch softmax regression on random Fourier features (hand-optimized: data moved once).

Random features are fixed (sampled once); we track train and validation loss every epoch.
"""

import jax
import jax.numpy as jnp
import numpy as np

N_TRAIN, N_VAL = 8192, 4096
D_IN, D_FEAT, N_CLASSES = 128, 64, 10
LR = 1.0
EPOCHS = 100


def features(x, proj):
    # random Fourier features: cos(x @ W + b)
    return jnp.cos(x @ proj[:-1] + proj[-1])


def xent(w, phi, y):
    logits = phi @ w
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))


@jax.jit
def train_step(w, x, y, proj):
    loss, g = jax.value_and_grad(xent)(w, features(x, proj), y)
    return w - LR * g, loss


@jax.jit
def evaluate(w, x, y, proj):
    phi = features(x, proj)
    acc = jnp.mean(jnp.argmax(phi @ w, axis=1) == y)
    return xent(w, phi, y), acc


def make_data(rng):
    centers = rng.normal(size=(N_CLASSES, D_IN)).astype(np.float32)
    y = rng.integers(0, N_CLASSES, size=N_TRAIN + N_VAL)
    x = centers[y] + 2.0 * rng.normal(size=(N_TRAIN + N_VAL, D_IN)).astype(np.float32)
    return x[:N_TRAIN], y[:N_TRAIN], x[N_TRAIN:], y[N_TRAIN:]


def main():
    rng = np.random.default_rng(0)
    x_train, y_train, x_val, y_val = make_data(rng)
    proj = np.concatenate(
        [0.05 * rng.normal(size=(D_IN, D_FEAT)), rng.uniform(0, 2 * np.pi, size=(1, D_FEAT))]
    ).astype(np.float32)

    # everything the loop reads is loop-invariant: one host->device copy up front
    x_train, y_train, x_val, y_val, proj = jax.device_put((x_train, y_train, x_val, y_val, proj))

    w = jnp.zeros((D_FEAT, N_CLASSES))
    train_losses, val_losses, val_accs = [], [], []
    for _ in range(EPOCHS):
        w, loss = train_step(w, x_train, y_train, proj)
        val_loss, val_acc = evaluate(w, x_val, y_val, proj)
        train_losses.append(loss)
        val_losses.append(val_loss)
        val_accs.append(val_acc)
    return {
        "w": w,
        "train_loss": jnp.stack(train_losses),
        "val_loss": jnp.stack(val_losses),
        "val_acc": jnp.stack(val_accs),
    }


if __name__ == "__main__":
    print(main())
