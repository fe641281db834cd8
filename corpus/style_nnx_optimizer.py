"""flax nnx, in the style of the nnx basics tutorial: a stateful `nnx.Module`, an
`nnx.Optimizer` updated in place inside an `@nnx.jit` step, minibatches sliced from
NumPy arrays, and `loss.item()` logged every step.
"""

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


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss


def main():
    rng = np.random.default_rng(0)
    x_train, y_train = make_data(rng)
    model = MLP(FEATURES, HIDDEN, 4, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adamw(LR, weight_decay=1e-4), wrt=nnx.Param)

    losses = []
    for epoch in range(EPOCHS):
        perm = rng.permutation(N_TRAIN)
        for i in range(N_TRAIN // BATCH):
            idx = perm[i * BATCH : (i + 1) * BATCH]
            loss = train_step(model, optimizer, x_train[idx], y_train[idx])
            losses.append(loss.item())
        print(f"epoch {epoch}: loss {np.mean(losses[-N_TRAIN // BATCH :]):.5f}")

    final = loss_fn(model, jnp.asarray(x_train), jnp.asarray(y_train))
    return {
        "params": nnx.state(model, nnx.Param).to_pure_dict(),
        "losses": np.array(losses),
        "final_loss": final,
    }


if __name__ == "__main__":
    print(main())
