"""Control (for h1160-h1162): the notebook rebinds `model` cell after cell and its loss
function reads the global; the binding reaching the training loop is an `nn.Dense` of
plain values that nothing changes or aliases. AO103 compiles the loop body as a jitted
step (safe): the results are unchanged."""

import jax
import jax.numpy as jnp
import optax
from flax import linen as nn

xs = jnp.linspace(-1.0, 1.0, 16, dtype=jnp.float32).reshape(8, 2)
ys = jnp.sum(xs, axis=1, keepdims=True) + 0.5
model = nn.Dense(features=5)
print(model.apply(model.init(jax.random.key(1), xs), xs).shape)


def loss_fn(params):
    pred = model.apply(params, xs)
    return jnp.mean((pred - ys) ** 2)


grad_fn = jax.value_and_grad(loss_fn)
model = nn.Dense(features=1)
params = model.init(jax.random.key(0), xs)
opt = optax.sgd(0.3)
opt_state = opt.init(params)
for epoch in range(6):
    loss, grads = grad_fn(params)
    updates, opt_state = opt.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    if epoch % 2 == 0:
        print(epoch, loss.shape)


def main():
    return params, loss
