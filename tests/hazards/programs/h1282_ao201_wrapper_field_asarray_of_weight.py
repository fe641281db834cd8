"""A schedule object stores `self.rates = jnp.asarray(rates)` of the array it is given,
and is built with the model's own output bias; the `nnx.jit` step is given
`schedule.rates` with the model. Trap for AO201 (`analysis/facts/wrapper_fields.py`):
`jnp.asarray` of a JAX array returns that very array, so the field is the model's
bias: donating the model deletes it."""

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
    def __init__(self, model, steps, start, rates):
        self.model = model
        self.steps = steps
        self.beta = self._betas(steps, start)
        self.alpha = jnp.cumprod(1 - self.beta)
        self.rates = jnp.asarray(rates)

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
    schedule = Schedule(model, 10, 0.01, model.out.bias[...])
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))
    for _ in range(4):
        loss = train_step(model, optimizer, data, schedule.rates)
    return loss, schedule.noisy(data, 2), schedule.rates, model.out.bias[...]
