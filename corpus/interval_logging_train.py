"""Softmax regression on synthetic 3-class blobs, momentum SGD over minibatches.

Progress is logged like most training scripts: the running mean loss every 50 steps
(reset after each report) and the mean accuracy of the last 100 steps every 100.
"""

import jax
import jax.numpy as jnp
import numpy as np

STEPS = 600
BATCH = 64
FEATURES, CLASSES = 16, 3
LR, BETA = 0.05, 0.9


def make_data(rng):
    centers = rng.normal(size=(CLASSES, FEATURES)).astype(np.float32)
    labels = rng.integers(0, CLASSES, size=(STEPS, BATCH))
    noise = rng.normal(size=(STEPS, BATCH, FEATURES)).astype(np.float32)
    return centers[labels] * 1.5 + noise, labels


def loss_fn(w, x, y):
    logits = x @ w
    logp = jax.nn.log_softmax(logits)
    loss = -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))
    return loss, jnp.mean(jnp.argmax(logits, axis=1) == y)


@jax.jit
def update(w, vel, x, y):
    (loss, acc), grad = jax.value_and_grad(loss_fn, has_aux=True)(w, x, y)
    vel = BETA * vel + grad
    return w - LR * vel, vel, loss, acc


def main():
    rng = np.random.default_rng(0)
    x_np, y_np = make_data(rng)
    xs, ys = jnp.asarray(x_np), jnp.asarray(y_np)
    w = jnp.zeros((FEATURES, CLASSES))
    vel = jnp.zeros_like(w)

    running = 0.0
    accuracies = []
    reports = 0
    for step in range(STEPS):
        w, vel, loss, acc = update(w, vel, xs[step], ys[step])
        running += loss.item()
        accuracies.append(float(acc))
        if step % 50 == 49:
            print(f"step {step + 1}: mean loss {running / 50:.4f}")
            running = 0.0
            reports += 1
        if step % 100 == 99:
            print(f"  accuracy over the last 100 steps: {np.mean(accuracies[-100:]):.3f}")

    return {
        "w": w,
        "accuracies": np.asarray(accuracies, dtype=np.float32),
        "running": np.float32(running),
        "reports": np.int32(reports),
    }


if __name__ == "__main__":
    print(main())
