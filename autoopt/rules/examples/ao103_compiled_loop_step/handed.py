"""AO103 examples, steps that hand a function to a transform (`jax.grad(loss_fn)`), whose
outside reads are judged as a direct call's, and steps given a Python float: one that
a Python sum cancels (`1.0 - keep`), a remainder takes of a large value, or a
conversion to an integer dtype truncates is float64 eagerly and float32 traced."""

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


#: `t0` is a Unix time the step would take as a float32: off by up to 8 seconds, so its
#: remainder, the phase, would be noise (tests/hazards h1898).
FLOAT_REMAINDER = Invalid(
    """
import math

import jax.numpy as jnp

CONFIG = {"start": "1700000017.0"}


def main():
    t0 = float(CONFIG["start"])
    offsets = jnp.linspace(0.0, 50.0, 8)
    total = jnp.zeros(8)
    for _ in range(5):
        phase = (t0 / 60.0) % (2 * math.pi) + offsets
        total = total + jnp.sin(phase)
    return total
""",
    fix=_NONE,
    message="`t0` is a Python float and `(t0 / 60.0) % (2 * math.pi)` is computed in float64 "
    "eagerly, float32 traced, where a remainder or floor of a large value keeps its rounding "
    "error",
)

#: `frac * 100` is 28.999999999999996 eagerly, truncated to 28; the step would compute it
#: in float32 as 29.0 (tests/hazards h1655).
FLOAT_TO_INT = Invalid(
    """
import jax
import jax.numpy as jnp

CONFIG = {"keep": "0.29"}


@jax.jit
def masked_mean(x, count):
    keep = jnp.arange(x.shape[0]) < count
    return jnp.sum(jnp.where(keep, x, 0.0)) / count


def main():
    x = jnp.linspace(0.0, 1.0, 100)
    frac = float(CONFIG["keep"])
    total = jnp.zeros(())
    for step in range(5):
        count = jnp.asarray(frac * 100, dtype=jnp.int32)
        total = total + masked_mean(x * (step + 1), count)
    return total
""",
    fix=_NONE,
    message="`frac` is a Python float and `jnp.asarray(frac * 100, dtype=jnp.int32)` is computed "
    "in float64 eagerly, float32 traced, where converting it to a dtype not proven float32 "
    "starts from float32 traced",
)
