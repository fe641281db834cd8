"""flax linen + TrainState, in the structure of the flax MNIST example.

A `nn.Module` MLP, `TrainState.create(apply_fn=..., params=..., tx=optax.sgd(...))`, a
jitted `train_step(state, batch)` returning the new state and a metrics dict, batches
gathered from NumPy dicts each step, metrics fetched with `jax.device_get` per epoch and
a jitted `eval_step` on the NumPy test set after each epoch.
"""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state

N_TRAIN = 4096
N_TEST = 1024
FEATURES = 64
CLASSES = 10
BATCH = 32
EPOCHS = 5
LR = 0.05
MOMENTUM = 0.9


class MLP(nn.Module):
    hidden: int = 512

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(self.hidden)(x))
        x = nn.relu(nn.Dense(self.hidden)(x))
        return nn.Dense(CLASSES)(x)


def make_datasets(rng):
    centers = rng.normal(size=(CLASSES, FEATURES)).astype(np.float32)
    labels = rng.integers(0, CLASSES, size=N_TRAIN + N_TEST)
    noise = 2.0 * rng.normal(size=(N_TRAIN + N_TEST, FEATURES)).astype(np.float32)
    images = centers[labels] + noise
    train_ds = {"image": images[:N_TRAIN], "label": labels[:N_TRAIN]}
    test_ds = {"image": images[N_TRAIN:], "label": labels[N_TRAIN:]}
    return train_ds, test_ds


def create_train_state(key):
    model = MLP()
    params = model.init(key, jnp.ones([1, FEATURES]))["params"]
    tx = optax.sgd(LR, MOMENTUM)
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)


def compute_metrics(logits, labels):
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
    accuracy = jnp.mean(jnp.argmax(logits, -1) == labels)
    return {"loss": loss, "accuracy": accuracy}


@jax.jit
def train_step(state, batch):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, batch["image"])
        loss = optax.softmax_cross_entropy_with_integer_labels(logits, batch["label"]).mean()
        return loss, logits

    (_, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    state = state.apply_gradients(grads=grads)
    return state, compute_metrics(logits, batch["label"])


@jax.jit
def eval_step(params, batch):
    logits = MLP().apply({"params": params}, batch["image"])
    return compute_metrics(logits, batch["label"])


def train_epoch(state, train_ds, rng):
    steps_per_epoch = N_TRAIN // BATCH
    perms = rng.permutation(N_TRAIN)[: steps_per_epoch * BATCH]
    perms = perms.reshape((steps_per_epoch, BATCH))
    batch_metrics = []
    for perm in perms:
        batch = {k: v[perm, ...] for k, v in train_ds.items()}
        state, metrics = train_step(state, batch)
        batch_metrics.append(metrics)
    batch_metrics_np = jax.device_get(batch_metrics)
    epoch_metrics = {k: np.mean([m[k] for m in batch_metrics_np]) for k in batch_metrics_np[0]}
    return state, epoch_metrics


def main():
    rng = np.random.default_rng(0)
    train_ds, test_ds = make_datasets(rng)
    state = create_train_state(jax.random.PRNGKey(0))
    train_losses, test_accuracies = [], []
    for epoch in range(1, EPOCHS + 1):
        state, train_metrics = train_epoch(state, train_ds, rng)
        test_metrics = eval_step(state.params, test_ds)
        train_losses.append(train_metrics["loss"])
        test_accuracies.append(float(test_metrics["accuracy"]))
        print(
            f"epoch {epoch}: train loss {train_metrics['loss']:.4f}, "
            f"test accuracy {test_accuracies[-1]:.3f}"
        )
    return {
        "params": state.params,
        "train_loss": np.array(train_losses),
        "test_accuracy": np.array(test_accuracies),
    }


if __name__ == "__main__":
    print(main())
