"""A schedule object built with the model keeps, besides `rates` (new buffers, given to
the `nnx.jit` step every step), the model's own output bias as a field it is never
given, `self.start = model.out.bias[...]`; `schedule.noisy(...)` after training reads
it. Trap for AO201 (`analysis/facts/wrapper_fields.py`, `holds_whole`): the object is
read after the call and holds the model's array, not only the model object `nnx.jit`
writes back: donating the model deletes it."""

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
        self.start = model.out.bias[...]

    def _betas(self, steps, start):
        betas = jnp.linspace(start, 0.5, steps)
        return jnp.concatenate([betas[0:1], betas])

    def noisy(self, x, t):
        return self.rates[t] * x + self.model(x) + self.start


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
