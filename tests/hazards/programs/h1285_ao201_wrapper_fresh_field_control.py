"""A diffusion schedule object holds the model it was built with and arrays computed
from its noise schedule (`jnp.sqrt`, `jnp.cumprod`, a method returning
`jnp.concatenate`); an `nnx.jit` step is given the model, its optimizer and the
schedule's `rates` every step. Control for AO201 (`analysis/facts/wrapper_fields.py`):
`rates` holds new buffers, none of the model's, and the schedule holds the model only as
the very object `nnx.jit` writes back, so donating the model and the optimizer keeps
the results; the schedule is read after training."""

import jax.numpy as jnp
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(3, 8, rngs=rngs)
        self.out = nnx.Linear(8, 3, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


class Schedule:
    def __init__(self, model, steps, start):
        self.model = model
        self.steps = steps
        self.beta = self._betas(steps, start)
        self.alpha = jnp.cumprod(1 - self.beta)
        self.rates = jnp.sqrt(self.alpha)

    def _betas(self, steps, start):
        betas = jnp.linspace(start, 0.5, steps)
        return jnp.concatenate([betas[0:1], betas])

    def noisy(self, x, t):
        return self.rates[t] * x + self.model(x)


@nnx.jit
def train_step(model, optimizer, data, rates):
    def loss_fun(model):
        return jnp.mean((model(data) * rates[1] - 1.0) ** 2)

    loss, grads = nnx.value_and_grad(loss_fun)(model)
    optimizer.update(grads)
    return loss


def main():
    data = jnp.ones((4, 3))
    model = MLP(rngs=nnx.Rngs(0))
    schedule = Schedule(model, 10, 0.01)
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))
    for _ in range(4):
        loss = train_step(model, optimizer, data, schedule.rates)
    return loss, schedule.noisy(data, 2), schedule.rates, model.out.bias[...]
