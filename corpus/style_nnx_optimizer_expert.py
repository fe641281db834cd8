"""Expert version of style_nnx_optimizer.py: the model and optimizer split once into a
graphdef and a state, each epoch one `jax.jit` `lax.scan` over its minibatches (state
donated, rows gathered on the device, `nnx.merge` inside the body), the losses read
back once per epoch and the state put back into the objects with `nnx.update`."""

import functools

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx

N_TRAIN = 2048
FEATURES = 16
HIDDEN = 256
BATCH = 32
EPOCHS = 8
LR = 3e-3


class MLP(nnx.Module):
    def __init__(self, din, dhidden, dout, *, rngs: nnx.Rngs):
        self.linear1 = nnx.Linear(din, dhidden, rngs=rngs)
        self.linear2 = nnx.Linear(dhidden, dhidden, rngs=rngs)
        self.linear3 = nnx.Linear(dhidden, dout, rngs=rngs)

    def __call__(self, x):
        x = nnx.gelu(self.linear1(x))
        x = nnx.gelu(self.linear2(x))
        return self.linear3(x)


def make_data(rng):
    x = rng.uniform(-2.0, 2.0, size=(N_TRAIN, FEATURES)).astype(np.float32)
    freqs = rng.normal(size=(FEATURES, 2)).astype(np.float32)
    y = np.concatenate([np.sin(x @ freqs), np.cos(x @ freqs)], axis=1)
    return x, y.astype(np.float32)


def loss_fn(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


@functools.partial(jax.jit, static_argnums=0, donate_argnums=1)
def train_epoch(graphdef, state, x_train, y_train, batches):
    def body(state, idx):
        model, optimizer = nnx.merge(graphdef, state)
        loss, grads = nnx.value_and_grad(loss_fn)(model, x_train[idx], y_train[idx])
        optimizer.update(model, grads)
        return nnx.state((model, optimizer)), loss

    return jax.lax.scan(body, state, batches)


def main():
    rng = np.random.default_rng(0)
    x_train, y_train = jax.device_put(make_data(rng))
    model = MLP(FEATURES, HIDDEN, 4, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adamw(LR, weight_decay=1e-4), wrt=nnx.Param)
    graphdef, state = nnx.split((model, optimizer))

    losses = []
    steps = N_TRAIN // BATCH
    for epoch in range(EPOCHS):
        batches = rng.permutation(N_TRAIN)[: steps * BATCH].reshape(steps, BATCH)
        state, epoch_losses = train_epoch(graphdef, state, x_train, y_train, batches)
        losses.extend(np.asarray(epoch_losses).tolist())
        print(f"epoch {epoch}: loss {np.mean(losses[-steps:]):.5f}")

    nnx.update((model, optimizer), state)
    final = loss_fn(model, x_train, y_train)
    return {
        "params": nnx.state(model, nnx.Param).to_pure_dict(),
        "losses": np.array(losses),
        "final_loss": final,
    }


if __name__ == "__main__":
    print(main())
