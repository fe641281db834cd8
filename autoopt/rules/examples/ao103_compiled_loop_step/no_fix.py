"""AO103 examples, steps with a premise not proven: the finding names it, no fix."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

_NONE = Applicability.NONE


NUMPY_ROWS = Invalid(
    """
import jax.numpy as jnp
import numpy as np


def run(x, n):
    acc = jnp.zeros(3)
    for t in range(n):
        row = x[t] * 2
        acc = acc + row
    return acc


def main():
    return run(np.ones((4, 3)), 4)
""",
    fix=_NONE,
    message="not proven a JAX array, may raise",
)


NUMPY_ARGUMENT = Invalid(
    """
import jax.numpy as jnp
import numpy as np


def run(table, steps):
    s = jnp.zeros(3)
    for _ in range(steps):
        d = jnp.sin(s) + table
        s = s + 0.5 * d
    return s


def main():
    return run(np.ones(3), 5)
""",
    fix=_NONE,
    message="receives a NumPy array",
)


#: The step's one obstacle is a method autoopt cannot see into (an object of another
#: library): whether it is pure is unproven, so no fix, and the finding names the call.
UNSEEN_METHOD = Invalid(
    """
import jax
import jax.numpy as jnp
from evolib import Problem

problem = Problem(3)
key = jax.random.key(0)
x = jnp.zeros(3)
for _ in range(10):
    key, sub = jax.random.split(key)
    fitness = problem.eval(sub, x)
    x = x - 0.1 * fitness
""",
    fix=_NONE,
    message="not compiled as one step (`_step`): it is not pure: it calls `problem.eval`, "
    "code autoopt cannot see",
)


_ABSL_MAIN = """
import jax
import jax.numpy as jnp
from absl import app


@jax.jit
def update(w, x):
    return w - 0.1 * jnp.tanh(x @ w)


def main(argv):
    w = jnp.ones(3)
    x = jnp.ones((4, 3))
    for step in range(100):
        if step % 10 == 0:
            print(step)
        w = update(w, x)
        x = jnp.roll(x, 1, axis=0) * 0.5
    return w


if __name__ == "__main__":
    app.run(main)
"""

#: The device work follows an `if` block that replaces the carry it reads: the step
#: would read (and donate) the block's value, which a step after a block is never
#: allowed, so no fix, that premise named (`main` runs eagerly: absl's `app.run` calls it).
LATE_DEVICE_WORK = Invalid(
    _ABSL_MAIN.replace("            print(step)\n", "            w = w * 0.5\n"),
    fix=_NONE,
    message="not compiled as one step of its device work, from line 18, after "
    "`if step % 10 == 0:` (line 16): `w`, which the step would read, is changed by line 17 "
    "before its lines, in the body",
)

VALID = (
    Valid(
        _ABSL_MAIN.replace("        x = jnp.roll(x, 1, axis=0) * 0.5\n", ""),
        "one statement of device work after the `if` block: AO101's to jit, no step",
    ),
    Valid(
        _ABSL_MAIN.replace("from absl import app", "from tools import app"),
        "`main` is handed to a runner autoopt does not know: not proven eager",
    ),
)

#: At module level the step returns every name it binds, for the code after the loop;
#: `progress` is a Python number there, which the jitted step would return as an array
#: (the nnx step names every premise it fails). It is carried, `progress + 1 / n`, so it
#: is no prelude the loop could compute before the step (prelude.py: one that is).
PYTHON_NUMBER_LEFT = Invalid(
    """
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
progress = 0.0
for epoch in range(n):
    progress = progress + 1 / n
    scale = jnp.cos(x[0]) * progress
    total = decay(model, optimizer, scale)
    x = jnp.sin(x) * total
print(x, progress)
""",
    fix=_NONE,
    message="not compiled as one `nnx.jit` step (`_step`), which would write back the nnx "
    "modules it changes: it returns `progress`, a Python number the loop leaves to the code "
    "after it, which the jitted step would return as an array",
)
