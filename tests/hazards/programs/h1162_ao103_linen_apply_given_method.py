"""The loss function calls `model.apply(params, x, method=forward)`, and `forward`, a
function of the program, counts its calls in a global list. Trap for AO103's held
layers: `apply` runs the method it is given, which a jitted step would run once, at
trace time (the count is printed)."""

import jax
import jax.numpy as jnp
from flax import linen as nn

CALLS = []
xs = jnp.linspace(-1.0, 1.0, 16, dtype=jnp.float32).reshape(8, 2)
ys = jnp.sum(xs, axis=1, keepdims=True) + 0.5
model = nn.Dense(features=3)


def forward(module, x):
    CALLS.append(1)
    return module(x)


def loss_fn(params):
    pred = model.apply(params, xs, method=forward)
    return jnp.mean((pred - ys) ** 2)


grad_fn = jax.value_and_grad(loss_fn)
model = nn.Dense(features=1)
params = model.init(jax.random.key(0), xs)
for _ in range(5):
    loss, grads = grad_fn(params)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.3 * g, params, grads)


def main():
    print(len(CALLS))
    return params, loss
