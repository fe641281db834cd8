"""AO103 examples, a step after the body's prelude (analysis/plans/prelude.py): the lines
binding Python floats from the loop variable and constants stay in the loop, the step
taking them, and the arithmetic it does on them, as arguments."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

_NONE = Applicability.NONE
_PRELUDE = "compile it but for the Python numbers `progress`, which the loop computes before it,"
_RETURNED = (
    "it returns `progress`, a Python number the loop leaves to the code after it, which the "
    "jitted step would return as an array"
)

#: An nnx model decayed by a jitted step, the program the cases below vary.
_DECAY = """
import jax
import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def decay(model, optimizer, scale):
    grads = jax.tree.map(lambda p: p * scale, nnx.state(model, nnx.Param))
    optimizer.update(model, grads)
    return jnp.sum(model.kernel[...])


n = 10
model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
x = jnp.ones(3)
"""

#: At module level the step would return `progress`, which the code after the loop reads,
#: as an array: the loop computes it before the `nnx.jit` step, which takes it.
NNX_PROGRESS = Invalid(
    _DECAY
    + """for epoch in range(n):
    progress = epoch / n
    scale = jnp.cos(x[0]) * progress
    total = decay(model, optimizer, scale)
    x = jnp.sin(x) * total
print(x, progress)
""",
    expected="""
import jax
import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def decay(model, optimizer, scale):
    grads = jax.tree.map(lambda p: p * scale, nnx.state(model, nnx.Param))
    optimizer.update(model, grads)
    return jnp.sum(model.kernel[...])


n = 10
model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
x = jnp.ones(3)


@nnx.jit
def _step(x, progress, model, optimizer):
    scale = jnp.cos(x[0]) * progress
    total = decay(model, optimizer, scale)
    x = jnp.sin(x) * total
    return scale, total, x


for epoch in range(n):
    progress = epoch / n
    scale, total, x = _step(x, progress, model, optimizer)
print(x, progress)
""",
    message=f"{_PRELUDE} as one `nnx.jit` step, `_step`",
)

#: `progress` follows a key split, and raises nothing (`n` a nonzero constant, `epoch`
#: bounded): the loop computes it first, and `1.0 - progress` too, in float64, as eagerly.
MOVED_AND_COMPUTED = Invalid(
    """
import jax
import jax.numpy as jnp

n = 8
key = jax.random.key(0)
x = jnp.ones(3)
for epoch in range(n + 1):
    key, sub = jax.random.split(key)
    progress = epoch / n
    noise = jax.random.normal(sub, (3,)) * (1.0 - progress)
    x = jnp.tanh(x + noise) * progress
print(progress)


def main():
    return x, progress
""",
    expected="""
import functools

import jax
import jax.numpy as jnp

n = 8
key = jax.random.key(0)
x = jnp.ones(3)


@functools.partial(jax.jit, donate_argnames=("key",))
def _step(key, x, progress, progress_value):
    key, sub = jax.random.split(key)
    noise = jax.random.normal(sub, (3,)) * progress_value
    x = jnp.tanh(x + noise) * progress
    return key, sub, noise, x


for epoch in range(n + 1):
    progress = epoch / n
    progress_value = 1.0 - progress
    key, sub, noise, x = _step(key, x, progress, progress_value)
print(progress)


def main():
    return x, progress
""",
    message=f"{_PRELUDE} as one jitted step, `_step`, donating `key`",
)

#: The loop prints `progress` after the step; `n`, a parameter every call passes a bounded
#: int.
PRINTED_IN_LOOP = Invalid(
    """
import jax.numpy as jnp


def run(w, n):
    x = jnp.ones(3)
    for epoch in range(n):
        progress = epoch / n
        y = jnp.sin(x) * progress
        x = jnp.tanh(y @ w) + x
        print(progress)
    return x


def main():
    return run(jnp.eye(3), 5)
""",
    expected="""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("x",))
def _run_step(x, progress, w):
    y = jnp.sin(x) * progress
    x = jnp.tanh(y @ w) + x
    return x


def run(w, n):
    x = jnp.ones(3)
    for epoch in range(n):
        progress = epoch / n
        x = _run_step(x, progress, w)
        print(progress)
    return x


def main():
    return run(jnp.eye(3), 5)
""",
    message=f"{_PRELUDE} as one jitted step, `_run_step`",
)

#: jax-ai-stack's digits diffusion loop: the timestep weights' schedule is computed by the
#: loop, `0.1 * (1.0 - progress)` in float64 as eagerly; `epoch` is read by no other line.
DIFFUSION_SCHEDULE = Invalid(
    """
import jax
import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, images, t, noise):
    scale = jnp.mean(images + noise) * jnp.mean(t)
    grads = jax.tree.map(lambda p: p * scale * 1e-3, nnx.state(model, nnx.Param))
    optimizer.update(model, grads)
    return jnp.sum(model.kernel[...])


key = jax.random.PRNGKey(42)
num_steps = 50
num_epochs = 20
images_train = jnp.ones((16, 4))
model = nnx.Linear(4, 1, rngs=nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.sgd(0.01), wrt=nnx.Param)
losses = []
moving_avg_loss = None
beta = 0.99

for epoch in range(num_epochs + 1):
    key, subkey1 = jax.random.split(key)
    key, subkey2 = jax.random.split(key)

    # the schedule
    progress = epoch / num_epochs
    t_weights = jnp.linspace(1.0, 0.1 * (1.0 - progress), num_steps)
    t = jax.random.choice(
        subkey1, num_steps, shape=(images_train.shape[0],), p=t_weights / t_weights.sum()
    )
    noise = jax.random.normal(subkey2, images_train.shape)
    loss = train_step(model, optimizer, images_train, t, noise)
    if moving_avg_loss is None:
        moving_avg_loss = loss
    else:
        moving_avg_loss = beta * moving_avg_loss + (1 - beta) * loss
    losses.append(moving_avg_loss)
    if epoch % 5 == 0:
        print(f"Epoch {epoch}, Loss: {moving_avg_loss:.4f}")


def main():
    return losses, progress, t_weights, key
""",
    expected="""
import jax
import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, images, t, noise):
    scale = jnp.mean(images + noise) * jnp.mean(t)
    grads = jax.tree.map(lambda p: p * scale * 1e-3, nnx.state(model, nnx.Param))
    optimizer.update(model, grads)
    return jnp.sum(model.kernel[...])


key = jax.random.PRNGKey(42)
num_steps = 50
num_epochs = 20
images_train = jnp.ones((16, 4))
model = nnx.Linear(4, 1, rngs=nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.sgd(0.01), wrt=nnx.Param)
losses = []
moving_avg_loss = None
beta = 0.99


@nnx.jit
def _step(key, progress_value, model, optimizer):
    key, subkey1 = jax.random.split(key)
    key, subkey2 = jax.random.split(key)
    t_weights = jnp.linspace(1.0, progress_value, num_steps)
    t = jax.random.choice(
        subkey1, num_steps, shape=(images_train.shape[0],), p=t_weights / t_weights.sum()
    )
    noise = jax.random.normal(subkey2, images_train.shape)
    loss = train_step(model, optimizer, images_train, t, noise)
    return key, subkey1, subkey2, t_weights, t, noise, loss


for epoch in range(num_epochs + 1):
    # the schedule
    progress = epoch / num_epochs
    progress_value = 0.1 * (1.0 - progress)
    key, subkey1, subkey2, t_weights, t, noise, loss = _step(
        key, progress_value, model, optimizer
    )
    if moving_avg_loss is None:
        moving_avg_loss = loss
    else:
        moving_avg_loss = beta * moving_avg_loss + (1 - beta) * loss
    losses.append(moving_avg_loss)
    if epoch % 5 == 0:
        print(f"Epoch {epoch}, Loss: {moving_avg_loss:.4f}")


def main():
    return losses, progress, t_weights, key
""",
    message="as one `nnx.jit` step, `_step`",
)

#: `progress` is computed by a function of the module: not builtin arithmetic, so no prelude.
CALLS_A_FUNCTION = Invalid(
    _DECAY
    + """

def schedule(epoch):
    return epoch / n


for epoch in range(n):
    progress = schedule(epoch)
    scale = jnp.cos(x[0]) * progress
    total = decay(model, optimizer, scale)
    x = jnp.sin(x) * total
print(x, progress)
""",
    fix=_NONE,
    message=_RETURNED,
)

#: `n` is rebound later in the loop: `progress` is not computed from constants.
READS_REBOUND = Invalid(
    _DECAY
    + """for epoch in range(n):
    progress = epoch / n
    scale = jnp.cos(x[0]) * progress
    total = decay(model, optimizer, scale)
    x = jnp.sin(x) * total
    n = n + 1
print(x, progress)
""",
    fix=_NONE,
    message=_RETURNED,
)

#: `epoch / d` follows a step line and `d` is not proven nonzero: computed first, a zero
#: division would leave `x` unchanged.
MAY_RAISE = Invalid(
    _DECAY
    + """d = float(n)
for epoch in range(n):
    x = jnp.sin(x)
    progress = epoch / d
    scale = jnp.cos(x[0]) * progress
    total = decay(model, optimizer, scale)
    x = jnp.sin(x) * total
print(x, progress)
""",
    fix=_NONE,
    message=_RETURNED,
)

#: A step line before `progress = ...` reads the value of the iteration before: it cannot
#: be computed first.
LAST_VALUE_READ = Invalid(
    _DECAY
    + """progress = 0.5
for epoch in range(n):
    scale = jnp.cos(x[0]) * progress
    progress = epoch / n
    total = decay(model, optimizer, scale * progress)
    x = jnp.sin(x) * total
print(x, progress)
""",
    fix=_NONE,
    message=_RETURNED,
)

#: `jnp.arange` needs its bound concrete: the number the loop computes would have to be
#: static, compiled again every iteration.
NEEDED_STATIC = Invalid(
    _DECAY
    + """for epoch in range(n):
    progress = epoch / n
    pad = jnp.arange(progress * 4.0 + 1.0)
    total = decay(model, optimizer, jnp.sum(pad))
    x = jnp.sin(x) * total
print(x, progress)
""",
    fix=_NONE,
    message="(`progress_value` is `progress * 4.0 + 1.0`, which the loop computes for it)",
)

#: Arithmetic inside a lambda is not computed by the loop (the first lambda's `progress` is
#: its own parameter): the step takes `progress`, whose `1.0 - progress` would cancel in
#: float32.
SHADOWED_IN_LAMBDA = Invalid(
    """
import jax
import jax.numpy as jnp

n = 8
params = {"a": jnp.ones(3), "b": jnp.ones(2)}
for epoch in range(n):
    progress = epoch / n
    params = jax.tree.map(lambda progress: progress * (1.0 - 0.5), params)
    params = jax.tree.map(lambda p: p * (1.0 - progress), params)
print(progress)


def main():
    return params, progress
""",
    fix=_NONE,
    message="`progress` is a Python float and `(1.0 - progress)` is computed in float64 "
    "eagerly, float32 traced",
)

VALID = (
    Valid(
        """
import jax.numpy as jnp


def run(x, d):
    for epoch in range(4):
        x = jnp.sin(x) + 1.0
        progress = epoch / d
        x = jnp.tanh(x) * progress
        print(progress)
    return x


def main():
    return run(jnp.ones(3), 2.0)
""",
        "`epoch / d` follows a step line and may raise (`d` not proven nonzero): no prelude",
    ),
)
