"""A schedule object whose `__init__`, besides its fields, records the model's output
bias in a module list, `HISTORY.append(model.out.bias[...])`; the `nnx.jit` step is given
`schedule.rates` (new buffers) with the model, and the list is read after training.
Trap for AO201 (`analysis/facts/unkept_arguments.py`, `construction_keeps_nothing`): the
constructor keeps the model's array outside the object: donating the model deletes it."""

import jax.numpy as jnp
import optax
from flax import nnx

HISTORY = []


class MLP(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(3, 8, rngs=rngs)
        self.out = nnx.Linear(8, 3, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


class Schedule:
    def __init__(self, model, steps, start):
        self.model = model
        HISTORY.append(model.out.bias[...])
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
    return loss, schedule.noisy(data, 2), HISTORY[0], model.out.bias[...]
