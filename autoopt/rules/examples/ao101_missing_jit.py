"""AO101 missing-jit: the cases tests/test_rule_examples.py runs.

The one INVALID case flagged `doc=True` is the example its documentation shows.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

_NONE = Applicability.NONE

VALID = (
    Valid(
        """
import jax

@jax.jit
def step(x):
    return x * 2

for _ in range(3):
    x = step(x)
""",
        "already jitted",
    ),
    Valid(
        """
import jax.numpy as jnp

def step(x):
    return jnp.sin(x)

y = step(jnp.ones(3))
""",
        "called once, not in a loop",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def loss(w, x):
    return jnp.sum((x @ w) ** 2)

grad = jax.grad(loss)
for _ in range(3):
    w = w - 0.1 * grad(w, x)
""",
        "only passed to jax.grad",
    ),
    Valid(
        """
import jax.numpy as jnp

def batches(x):
    for i in range(0, len(x), 8):
        yield jnp.asarray(x[i : i + 8])

for _ in range(3):
    for b in batches(data):
        pass
""",
        "a generator",
    ),
    Valid(
        """
import jax.numpy as jnp

async def fetch(x):
    return jnp.sin(x)

async def main(xs):
    for x in xs:
        await fetch(x)
""",
        "an async function",
    ),
    Valid(
        """
import jax.numpy as jnp

class Model:
    def __init__(self):
        self.scale = 2.0

    def apply(self, x):
        return jnp.tanh(x) * self.scale

    def run(self, xs):
        return [self.apply(x) for x in xs]
""",
        "a method using self state",
    ),
    Valid(
        """
import numpy as np

def step(x):
    return np.sin(x)

for _ in range(3):
    x = step(x)
""",
        "no JAX in the function",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def step(x):
    return jnp.sin(x)

fast = jax.jit(step)
for _ in range(3):
    x = fast(x)
""",
        "wrapped with jax.jit elsewhere",
    ),
)

INVALID = (
    Invalid(
        """
import jax.numpy as jnp

def step(u, alpha):
    return u + alpha * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))

for _ in range(100):
    u = step(u, 0.1)
""",
        """
import jax
import jax.numpy as jnp

@jax.jit
def step(u, alpha):
    return u + alpha * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))

for _ in range(100):
    u = step(u, 0.1)
""",
        doc=True,
    ),
    Invalid(
        """
import jax
from jax import numpy as jnp

def init(key, n):
    return jax.random.normal(key, (n,)) + jnp.zeros(n)

keys = jax.random.split(jax.random.PRNGKey(0), 4)
xs = [init(k, 8) for k in keys]
""",
        """
import jax
from jax import numpy as jnp
import functools

@functools.partial(jax.jit, static_argnames=("n",))
def init(key, n):
    return jax.random.normal(key, (n,)) + jnp.zeros(n)

keys = jax.random.split(jax.random.PRNGKey(0), 4)
xs = [init(k, 8) for k in keys]
""",
    ),
    Invalid(
        """
import jax as J
import jax.numpy as jnp
from functools import partial

def unroll(x, steps):
    for _ in range(steps):
        x = jnp.tanh(x)
    return x

for i in range(5):
    x = unroll(x, 3)
""",
        """
import jax as J
import jax.numpy as jnp
from functools import partial

@partial(J.jit, static_argnames=("steps",))
def unroll(x, steps):
    for _ in range(steps):
        x = jnp.tanh(x)
    return x

for i in range(5):
    x = unroll(x, 3)
""",
    ),
    Invalid(
        """
from jax import jit
import jax.numpy as jnp

def predict(w, x):
    # a linear model
    return jnp.dot(x, w)  # keep this comment

for x in xs:
    y = predict(w, x)
""",
        """
from jax import jit
import jax.numpy as jnp

@jit
def predict(w, x):
    # a linear model
    return jnp.dot(x, w)  # keep this comment

for x in xs:
    y = predict(w, x)
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

def head(x, k):
    return jnp.abs(x[:k])

def main(x, k):
    while True:
        x = head(x, k)
""",
        """
import jax
import jax.numpy as jnp
import functools

@functools.partial(jax.jit, static_argnames=("k",))
def head(x, k):
    return jnp.abs(x[:k])

def main(x, k):
    while True:
        x = head(x, k)
""",
        fix=Applicability.UNSAFE,
        message="cannot prove",
    ),
    Invalid(
        """
import multiprocessing
import jax.numpy as jnp

def work(x):
    return jnp.cos(x) ** 2

def main(xs):
    with multiprocessing.Pool(2) as pool:
        pool.map(work, xs)
    for x in xs:
        y = work(x)
""",
        """
import multiprocessing
import jax
import jax.numpy as jnp

def work(x):
    return jnp.cos(x) ** 2

def main(xs):
    with multiprocessing.Pool(2) as pool:
        pool.map(work, xs)
    work_jit = jax.jit(work)
    for x in xs:
        y = work_jit(x)
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

def step(x):
    print("step", x)
    return jnp.tanh(x) * 2

for _ in range(3):
    x = step(x)
""",
        fix=_NONE,
        message="prints",
    ),
    Invalid(
        """
import jax.numpy as jnp

count = 0

def step(x):
    global count
    count += 1
    return jnp.tanh(x)

for _ in range(3):
    x = step(x)
""",
        fix=_NONE,
        message="writes the global `count`",
    ),
    Invalid(
        """
import jax.numpy as jnp

history = []

def step(x):
    history.append(x)
    return jnp.tanh(x)

for _ in range(3):
    x = step(x)
""",
        fix=_NONE,
        message="mutates `history`",
    ),
    Invalid(
        """
import numpy as np
import jax.numpy as jnp

def step(x):
    noise = np.random.normal(size=x.shape)
    return x + jnp.asarray(noise)

for _ in range(3):
    x = step(x)
""",
        fix=_NONE,
        message="host random numbers",
    ),
    Invalid(
        """
import jax.numpy as jnp

def step(x):
    if jnp.max(x) > 1.0:
        return x / 2
    return x * 2

for _ in range(3):
    x = step(x)
""",
        fix=_NONE,
        message="`if` condition depends on the array argument `x`",
    ),
    Invalid(
        """
import jax.numpy as jnp

def grow(x, n):
    return jnp.concatenate([x, jnp.zeros(n)])

for i in range(10):
    x = grow(x, i)
""",
        fix=_NONE,
        message="recompile",
    ),
    Invalid(
        """
import jax.numpy as jnp

def describe(x):
    return f"mean={jnp.mean(x)}"

for x in xs:
    s = describe(x)
""",
        fix=_NONE,
        message="not an array",
    ),
)
