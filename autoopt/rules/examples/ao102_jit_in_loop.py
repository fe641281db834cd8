"""AO102 jit-in-loop: the cases tests/test_rule_examples.py runs.

The one INVALID case flagged `doc=True` is the example its documentation shows.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

VALID = (
    Valid(
        """
import jax

step = jax.jit(dynamics)
for t in range(10):
    x = step(x)
""",
        "built once",
    ),
    Valid(
        """
import jax

def make(f):
    return jax.jit(f)
""",
        "not in a loop",
    ),
    Valid(
        """
import jax

for t in range(10):
    x = jit(dynamics)(x)
""",
        "`jit` is not jax.jit here",
    ),
    Valid(
        """
import jax

for fn in (f, g):
    y = jax.jit(fn)(x)
""",
        "a different function every iteration",
    ),
    Valid(
        """
import jax

def outer():
    for t in range(3):
        pass

fast = jax.jit(f)
""",
        "jit outside the loop",
    ),
    Valid(
        """
import jax

for t in range(3):
    x = jax.vmap(f)(x)
""",
        "vmap is not jit",
    ),
    Valid(
        """
import jax

class eqx:
    @staticmethod
    def filter_jit(f):
        return f

for t in range(10):
    x = eqx.filter_jit(dynamics)(x, 0.1)
""",
        "`eqx` is a class of the module, not equinox: its `filter_jit` builds no jit",
    ),
)

INVALID = (
    Invalid(
        """
import jax

for t in range(10):
    x = jax.jit(dynamics)(x, 0.1)
""",
        """
import jax

dynamics_jit = jax.jit(dynamics)
for t in range(10):
    x = dynamics_jit(x, 0.1)
""",
    ),
    Invalid(
        """
import jax

def run(x):
    for t in range(10):
        step = jax.jit(dynamics, static_argnames=("n",))  # rebuilt each time
        x = step(x, n=3)
    return x
""",
        """
import jax


def run(x):
    step = jax.jit(dynamics, static_argnames=("n",))  # rebuilt each time
    for t in range(10):
        x = step(x, n=3)
    return x
""",
    ),
    Invalid(
        """
import jax

def plain_step(x):
    return x

def dynamics(x):
    return x * 0.5

x = 1.0
step = plain_step
for t in range(10):
    x = step(x)
    step = jax.jit(dynamics)
""",
        """
import jax

def plain_step(x):
    return x

def dynamics(x):
    return x * 0.5

x = 1.0
step = plain_step
dynamics_jit = jax.jit(dynamics)
for t in range(10):
    x = step(x)
    step = dynamics_jit
""",
    ),
    Invalid(
        """
from jax import jit

def update(x):
    return x / 2

def done(x):
    return x < 1e-3

x = 1.0
while not done(x):
    x = jit(update)(x)
""",
        """
from jax import jit

def update(x):
    return x / 2

def done(x):
    return x < 1e-3

x = 1.0
update_jit = jit(update)
while not done(x):
    x = update_jit(x)
""",
        doc=True,
    ),
    Invalid(
        """
import jax as J


def sgd(params, batch):
    return params


for epoch in range(3):
    for batch in batches:
        params = J.jit(sgd)(params, batch)
""",
        """
import jax as J


def sgd(params, batch):
    return params


sgd_jit = J.jit(sgd)
for epoch in range(3):
    for batch in batches:
        params = sgd_jit(params, batch)
""",
    ),
    Invalid(
        """
import jax


def sgd(params, batch, lr):
    return params


for epoch in range(3):
    lr = 0.1 / (epoch + 1)
    for batch in batches:
        params = jax.jit(sgd)(params, batch, lr)
""",
        """
import jax


def sgd(params, batch, lr):
    return params


sgd_jit = jax.jit(sgd)
for epoch in range(3):
    lr = 0.1 / (epoch + 1)
    for batch in batches:
        params = sgd_jit(params, batch, lr)
""",
    ),
    Invalid(
        """
import jax

def simulate(x, fns):
    out = []
    for i in range(4):
        out.append(jax.jit(fns.step)(x))
    return out
""",
        fix=Applicability.NONE,  # reading `fns.step` may run a property or `__getattr__`
        message="Python calls `fns.__getattr__` implicitly, which may change `fns`",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def shallow(x):
    return jnp.tanh(x)

def deep(x):
    return jnp.tanh(jnp.tanh(x))

model_fn = shallow

def maybe_grow(epoch):
    global model_fn
    if epoch == 2:
        model_fn = deep

def main():
    out = []
    for epoch in range(5):
        out.append(jax.jit(model_fn)(jnp.ones(3)))
        maybe_grow(epoch)
    return out
""",
        fix=Applicability.NONE,
        message="`maybe_grow` changes `model_fn`",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

class Thermostat:
    def __init__(self):
        self.k = 1.0

    def force(self, x):
        return -self.k * x

    def heat(self, dk):
        self.k += dk

def main():
    thermostat = Thermostat()
    x = jnp.ones(3)
    for _ in range(5):
        x = x + 0.1 * jax.jit(thermostat.force)(x)
        thermostat.heat(0.1)
    return x
""",
        fix=Applicability.NONE,
        message="`thermostat.heat(0.1)` may change `thermostat` in place",
    ),
    Invalid(
        """
import jax

for t in range(10):
    def f(x):
        return x * t
    x = jax.jit(f)(x)
""",
        fix=Applicability.NONE,
        message="defined inside the loop",
    ),
    Invalid(
        """
import jax

for t in range(10):
    x = jax.jit(lambda v: v * t)(x)
""",
        fix=Applicability.NONE,
        message="its lambda captures `t`, which changes inside the loop",
    ),
    Invalid(
        """
import equinox as eqx
import jax

for t in range(10):
    x = eqx.filter_jit(dynamics)(x, 0.1)
""",
        """
import equinox as eqx
import jax

dynamics_jit = eqx.filter_jit(dynamics)
for t in range(10):
    x = dynamics_jit(x, 0.1)
""",
        message="`eqx.filter_jit(dynamics)` is built on every iteration",
    ),
    Invalid(
        """
import jax
from flax import nnx

for t in range(10):
    x = nnx.jit(dynamics)(x, 0.1)
""",
        """
import jax
from flax import nnx

dynamics_jit = nnx.jit(dynamics)
for t in range(10):
    x = dynamics_jit(x, 0.1)
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def small(x):
    return x * 2.0

def big(x):
    return x * 3.0

model_fn = small

def maybe_grow(step):
    if step == 2:
        globals()["model_fn"] = big

def main():
    out = []
    for step in range(5):
        f = jax.jit(model_fn)
        out.append(f(jnp.ones(3)))
        maybe_grow(step)
    return out
""",
        fix=Applicability.NONE,
        message="`model_fn` may be rebound through `globals()`",
    ),
)
