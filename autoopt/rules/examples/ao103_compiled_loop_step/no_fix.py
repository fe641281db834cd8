"""AO103 examples, steps with a premise not proven: the finding names it, no fix."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

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
