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
