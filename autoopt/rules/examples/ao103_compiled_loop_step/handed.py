"""AO103 examples, steps that hand a function to a transform (`jax.grad(loss_fn)`), whose
outside reads are judged as a direct call's, and steps given a Python float: one that
a Python sum cancels (`1.0 - keep`) is float64 eagerly and float32 traced."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

_NONE = Applicability.NONE

#: `loss_fn`, handed to `jax.value_and_grad`, reads a global a helper rebinds after each
#: step: compiled, the step would keep the first decay. The premise fails outright, so
#: the loop is left to the other rules (no AO103 finding).
HANDED_GLOBAL = Valid(
    """
import jax
import jax.numpy as jnp

WEIGHT_DECAY = 0.5


def loss_fn(w, x):
    return jnp.mean((x @ w) ** 2) + WEIGHT_DECAY * jnp.sum(w**2)


def anneal():
    global WEIGHT_DECAY
    WEIGHT_DECAY = WEIGHT_DECAY * 0.25


def main():
    x = jnp.ones((3, 2))
    w = jnp.ones(2)
    for _ in range(5):
        loss, g = jax.value_and_grad(loss_fn)(w, x)
        w = w - 0.1 * g
        anneal()
    return w
""",
    why="`loss_fn`, handed to `jax.value_and_grad`, reads `WEIGHT_DECAY`, which `anneal` rebinds",
)

#: The same through an attribute of a module-level object a method changes: a host object
#: read from outside, the finding names it, no fix.
HANDED_ATTRIBUTE = Invalid(
    """
import jax
import jax.numpy as jnp


class Schedule:
    def __init__(self):
        self.weight = 0.0

    def advance(self):
        self.weight = self.weight + 0.3


SCHED = Schedule()


def loss_fn(mu, x):
    return jnp.sum((mu - x) ** 2) + SCHED.weight * jnp.sum(mu**2)


def main():
    x = jnp.ones(2)
    mu = jnp.zeros(2)
    for _ in range(5):
        g = jax.grad(loss_fn)(mu, x)
        mu = mu - 0.1 * g
        SCHED.advance()
    return mu
""",
    fix=_NONE,
    message="not compiled as one step: `loss_fn` reads `SCHED` (a host object) from outside; "
    "jit would freeze its value",
)

VALID = (HANDED_GLOBAL,)

#: `keep` is a Python float the step would take as a float32: `1.0 - keep` cancels.
FLOAT_CANCELS = Invalid(
    """
import jax.numpy as jnp


def main():
    tau = 1e-5
    keep = 1.0 - tau
    online = jnp.ones(3)
    target = jnp.zeros(3)
    for _ in range(5):
        online = online * 1.01
        target = keep * target + (1.0 - keep) * online
    return target
""",
    fix=_NONE,
    message="not compiled as one step: `keep` is a Python float and `(1.0 - keep)` is "
    "computed in float64 eagerly, float32 traced, where cancellation may lose its digits",
)
