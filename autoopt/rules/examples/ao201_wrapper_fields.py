"""AO201 cases for an object of a plain class built with the model and passed, as a field,
to the `nnx.jit` step with it (`diffusion.rates`; digits_diffusion_model): the field holds
none of the model's buffers where `__init__` alone stores it, as new arrays, and nothing
can change it (`analysis/facts/wrapper_fields.py`); the object holds the model only as the
very module `nnx.jit` writes back, and its constructor keeps what it is given nowhere
else (`analysis/facts/unkept_arguments.py`, `construction_keeps_nothing`). Appended to
`ao201_missing_donation`'s. Each case edits one program, the rewrite the same way."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_NONE = Applicability.NONE

#: A diffusion schedule holding the model and arrays of its noise schedule, its `rates`
#: passed with the model every step, at the top level of a script (a notebook's cells).
SCHEDULE = """
import jax.numpy as jnp
import optax
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(3, 8, rngs=rngs)
        self.out = nnx.Linear(8, 3, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))


class Diffusion:
    def __init__(self, model: MLP, steps: int):
        self.model = model
        self.steps = steps
        self.beta = self._schedule(steps)
        self.alpha = jnp.cumprod(1 - self.beta)
        self.rates = jnp.sqrt(self.alpha)

    def _schedule(self, steps):
        betas = jnp.linspace(0.0, 0.5, steps)
        return jnp.concatenate([betas[0:1], betas])

    def noisy(self, x, t):
        return self.rates[t] * x + self.model(x)


@nnx.jit
def train_step(model, optimizer, data, rates):
    def loss_fun(model):
        return jnp.mean((model(data) * rates[1]) ** 2)

    optimizer.update(nnx.grad(loss_fun)(model))


data = jnp.ones((4, 3))
model = MLP(rngs=nnx.Rngs(0))
diffusion = Diffusion(model, 10)
optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))
for _ in range(4):
    train_step(model, optimizer, data, diffusion.rates)
print(diffusion.noisy(data, 2).sum(), diffusion.rates.sum())
"""
DONATED = "\nimport functools\n" + SCHEDULE.replace(
    "@nnx.jit\n", '@functools.partial(nnx.jit, donate_argnames=("model", "optimizer"))\n'
)
#: The field passed is the model's own bias.
WEIGHT = SCHEDULE.replace(
    "        self.rates = jnp.sqrt(self.alpha)\n",
    "        self.rates = jnp.sqrt(self.alpha)\n        self.shift = model.out.bias[...]\n",
).replace("diffusion.rates)\n", "diffusion.shift)\n")

INVALID = (
    Invalid(SCHEDULE, DONATED),
    Invalid(
        WEIGHT,
        fix=_NONE,
        message=(
            "`diffusion` may hold the buffers of `model` and is passed in the same call (as "
            "`diffusion.shift`, not proven to hold none of them: `self.shift` (line 23): "
            "`model.out.bias` is not proven an array or a number)"
        ),
    ),
)
