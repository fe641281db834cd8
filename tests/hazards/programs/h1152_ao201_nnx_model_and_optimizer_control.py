"""control (for h1144-h1146): `nnx.ModelAndOptimizer(model, optax.adam(...))` and its
model, both updated in place by an `nnx.jit` step: `nnx.jit` passes the model's variables
once, the optimizer state is new buffers; both donated safely, results unchanged."""

import jax.numpy as jnp
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(3, 8, rngs=rngs)
        self.out = nnx.Linear(8, 2, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


@nnx.jit
def step(model, optimizer, x):
    loss, grads = nnx.value_and_grad(lambda m: jnp.mean(m(x) ** 2))(model)
    optimizer.update(grads)
    return loss


def main():
    model = MLP(rngs=nnx.Rngs(0))
    optimizer = nnx.ModelAndOptimizer(model, optax.adam(0.01))
    x = jnp.arange(6.0).reshape(2, 3) / 6.0
    for _ in range(3):
        loss = step(model, optimizer, x)
    return loss, model.out.kernel[...]
