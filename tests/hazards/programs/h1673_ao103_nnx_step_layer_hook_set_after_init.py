"""An eager loop step around an `nnx.jit` train step whose model calls a listed layer
built with keyword sizes, then given a printing `dot_general` after it is built. Trap
for AO103's nnx step: a layer some code changes is not read as the listed layer, so the
step is not compiled (where its trace runs `train_step` again, the hook would print again)."""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx


def loud_dot(*args, **kwargs):
    print("dot")
    return jax.lax.dot_general(*args, **kwargs)


class Net(nnx.Module):
    def __init__(self, features, *, rngs):
        self.features = features
        self.time_mlp = nnx.Linear(in_features=8, out_features=features, rngs=rngs)
        self.block = self._block(features, rngs)
        self.head = nnx.Linear(features, 4, rngs=rngs)

    def _block(self, channels, rngs):
        proj = nnx.Linear(in_features=channels, out_features=channels, rngs=rngs)

        def forward(x):
            h = proj(x)
            h = h.reshape(x.shape)
            return x + nnx.gelu(h)

        return forward

    def _encode(self, t):
        return jnp.sin(t[:, None] * jnp.arange(8.0))

    def __call__(self, x, t):
        h = self.time_mlp(self._encode(t)) + x
        h = self.block(h)
        return self.head(h)


def loss_fn(model, x, t, y):
    pred = model(x, t)
    grad = jax.grad(lambda v: model(v, t).mean())(x)
    return jnp.mean((pred - y) ** 2) + 0.01 * jnp.mean(grad**2)


@nnx.jit
def train_step(model, optimizer, x, t, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, t, y)
    optimizer.update(model, grads)
    return loss


def main():
    np.random.seed(0)
    key = jax.random.key(0)
    model = Net(16, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
    x = jax.random.normal(jax.random.key(1), (32, 16))
    y = jax.random.normal(jax.random.key(2), (32, 4))
    model.time_mlp.dot_general = loud_dot
    train_step(model, optimizer, x, jnp.zeros(32), y)  # traced here, before the loop
    for epoch in range(9):
        key, sub = jax.random.split(key)
        t = jax.random.uniform(sub, (32,))
        loss = train_step(model, optimizer, x, t, y)
        if epoch % 4 == 0:
            print(f"epoch {epoch}: {loss:.4f}")
    return loss, nnx.state(model)
