"""AO501 loop-to-vmap: the cases tests/test_rule_examples.py runs.

The one INVALID case flagged `doc=True` is the example its documentation shows.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

VALID = (
    Valid(
        """
import jax.numpy as jnp

def f(h, x):
    return jnp.tanh(h + x)

def run(h, xs):
    outs = []
    for x in xs:
        h = f(h, x)
        outs.append(h)
    return jnp.stack(outs)
""",
        "a carry: each iteration depends on the previous one",
    ),
    Valid(
        """
import jax.numpy as jnp

def f(x):
    return jnp.tanh(x)

outs = []
for x in xs:
    outs.append(f(x))
    outs.append(f(-x))
ys = jnp.stack(outs)
""",
        "two results per example",
    ),
    Valid(
        """
import jax.numpy as jnp

def f(x):
    return jnp.tanh(x)

outs = []
for x in xs:
    outs.append(f(x))
total = len(outs)
ys = jnp.stack(outs)
""",
        "the list is read elsewhere",
    ),
    Valid(
        """
import jax.numpy as jnp

def f(x):
    return jnp.tanh(x)

ys = jnp.stack([f(x) for x in xs], axis=1)
""",
        "stacked along another axis",
    ),
    Valid(
        """
import jax.numpy as jnp

def f(x, i):
    return jnp.tanh(x) * i

ys = jnp.stack([f(xs[i], i) for i in range(xs.shape[0])])
""",
        "the index itself is an argument",
    ),
    Valid(
        """
import jax.numpy as jnp

ys = jnp.stack([model.apply(x) for x in xs])
""",
        "a method, not a module function",
    ),
    Valid(
        """
import numpy as np

def f(x):
    return np.tanh(x)

ys = np.stack([f(x) for x in xs])
""",
        "numpy stack",
    ),
    Valid(
        """
import jax.numpy as jnp

def f(x):
    return jnp.tanh(x)

ys = jnp.stack([f(x) for x in xs if x.sum() > 0])
""",
        "a filtered comprehension",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def noisy(x):
    print("item", x)
    return jnp.tanh(x)

def run(key, w: jax.Array, n):
    keys = jax.random.split(key, n)
    out = []
    for k in keys:
        h = jax.random.normal(k, (3,)) @ w
        out.append(noisy(h))
    return jnp.stack(out)
""",
        "a body of several statements whose callee prints",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp
import numpy as np

def f(x, w):
    return jnp.tanh(x @ w)

def run(xs: jax.Array, w: jax.Array):
    out = []
    for x in xs:
        noise = np.random.normal(size=x.shape)
        out.append(f(x + noise, w))
    return jnp.stack(out)
""",
        "a host RNG draw in the body",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

calls = 0

def count():
    global calls
    calls += 1

def g(x):
    count()
    return jnp.sin(x)

def f(x):
    return g(x) * 2

def run(xs: jax.Array):
    out = []
    for x in xs:
        y = f(x)
        out.append(jnp.cos(y))
    return jnp.stack(out)
""",
        "a global counter bumped two calls deep",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def run(xs: jax.Array):
    out = []
    for x in xs:
        prev = out[-1] if out else jnp.zeros_like(x)
        out.append(jnp.tanh(x + prev))
    return jnp.stack(out)
""",
        "the list is read inside the loop",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def run(key, x: jax.Array):
    keys = jax.random.split(key, 4)
    out = []
    for i in range(8):
        noise = jax.random.normal(keys[i], x.shape)
        out.append(jnp.tanh(x + noise))
    return jnp.stack(out)
""",
        "the loop runs more times than the array has rows",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def run(xs: jax.Array):
    out = []
    for x in xs:
        y = jnp.tanh(x)
        if y.sum() > 10:
            break
        out.append(y * 2)
    return jnp.stack(out)
""",
        "a `break`",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def embed(key, table):
    return jax.random.normal(key, (table.shape[0],)) @ table

def run(keys: jax.Array, table: jax.Array):
    profile = jnp.zeros(table.shape[1])
    out = []
    for k in keys:
        profile = 0.8 * profile + 0.2 * embed(k, table)
        out.append(profile)
    return jnp.stack(out)
""",
        "each item reads the profile the previous one wrote",
    ),
)

INVALID = (
    # a comprehension in a method: the names it reads are looked up past the class body
    Invalid(
        """import jax.numpy as jnp


class Recorder:
    def __init__(self):
        self.kept = [jnp.ones(3), jnp.ones(3)]

    def total(self):
        return jnp.stack([jnp.sum(v) for v in self.kept])


def main():
    r = Recorder()
    return r.total()
""",
        """import jax
import jax.numpy as jnp


@jax.jit
@jax.vmap
def _total_per_item(v):
    return jnp.sum(v)


class Recorder:
    def __init__(self):
        self.kept = [jnp.ones(3), jnp.ones(3)]

    def total(self):
        return _total_per_item(jnp.stack(self.kept))


def main():
    r = Recorder()
    return r.total()
""",
        fix=Applicability.UNSAFE,
        message="cannot prove `self.kept` is one array",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def predict(x, w):
    return jnp.tanh(w @ x)

def run(xs, w):
    xs = jnp.asarray(xs)
    outs = []
    for x in xs:
        outs.append(predict(x, w))
    return jnp.stack(outs)
""",
        """
import jax
import jax.numpy as jnp

def predict(x, w):
    return jnp.tanh(w @ x)

def run(xs, w):
    xs = jnp.asarray(xs)
    return jax.vmap(predict, in_axes=(0, None))(xs, w)
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

def f(x):
    return (x ** 2).sum()

xs = jnp.ones((8, 3))
ys = jnp.stack([f(x) for x in xs])
""",
        """
import jax
import jax.numpy as jnp


def f(x):
    return (x ** 2).sum()

xs = jnp.ones((8, 3))
ys = jax.vmap(f)(xs)
""",
        doc=True,
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def f(x):
    return (x ** 2).sum()

def scores(data):
    xs = jnp.asarray(data)
    try:
        return jnp.stack([f(x) for x in xs])
    except ValueError:
        return jnp.zeros(1)
""",
        """
import jax
import jax.numpy as jnp

def f(x):
    return (x ** 2).sum()

def scores(data):
    xs = jnp.asarray(data)
    try:
        return jax.vmap(f)(xs)
    except ValueError:
        return jnp.zeros(1)
""",
        fix=Applicability.UNSAFE,
        message="the stack is inside a `try`: with no examples `jnp.stack` raises",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)

def per_example(w, xs, ys):
    return jnp.array([loss(w, xs[i], ys[i]) for i in range(xs.shape[0])])
""",
        """
import jax
import jax.numpy as jnp

def loss(w, x, y):
    return jnp.mean((x @ w - y) ** 2)

def per_example(w, xs, ys):
    return jax.vmap(loss, in_axes=(None, 0, 0))(w, xs, ys)
""",
        fix=Applicability.UNSAFE,
        message="cannot prove `ys` has as many rows as `xs`",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def sample(key, mu):
    return mu + jax.random.normal(key, (3,))

def draws(key, mu, n):
    keys = jax.random.split(key, n)
    # one draw per key
    out = []
    for k in keys:
        out.append(sample(k, mu))
    samples = jnp.stack(out)
    return samples.mean(0)
""",
        """
import jax
import jax.numpy as jnp

def sample(key, mu):
    return mu + jax.random.normal(key, (3,))

def draws(key, mu, n):
    keys = jax.random.split(key, n)
    # one draw per key
    samples = jax.vmap(sample, in_axes=(0, None))(keys, mu)
    return samples.mean(0)
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def f(x: jax.Array, scale):
    return jnp.sin(x) * scale

def run(xs: jax.Array):
    outs = []
    for i in range(xs.shape[0]):
        outs.append(f(xs[i], 2.0))
    return jnp.stack(outs)
""",
        """
import jax
import jax.numpy as jnp

def f(x: jax.Array, scale):
    return jnp.sin(x) * scale

def run(xs: jax.Array):
    return jax.vmap(f, in_axes=(0, None))(xs, 2.0)
""",
    ),
    Invalid(
        """
import jax as J
import jax.numpy as jnp

def norm(x):
    y = x - x.mean()
    return y / jnp.sqrt((y * y).mean() + 1e-5)

def run(xs: J.Array):
    return jnp.stack([norm(x) for x in xs[:4]])
""",
        """
import jax as J
import jax.numpy as jnp

def norm(x):
    y = x - x.mean()
    return y / jnp.sqrt((y * y).mean() + 1e-5)

def run(xs: J.Array):
    return J.vmap(norm)(xs[:4])
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def f(x, n):
    for _ in range(n):
        x = jnp.tanh(x)
    return x

def run(xs):
    return jnp.stack([f(x, 3) for x in xs])
""",
        """
import jax
import jax.numpy as jnp

def f(x, n):
    for _ in range(n):
        x = jnp.tanh(x)
    return x

def run(xs):
    return jax.vmap(f, in_axes=(0, None))(jnp.stack(xs), 3)
""",
        fix=Applicability.UNSAFE,
        message="cannot prove `xs` is one array",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def g(x):
    return jax.lax.cummax(x, 0)

def run(xs: jax.Array):
    return jnp.stack([g(x) for x in xs])
""",
        """
import jax
import jax.numpy as jnp

def g(x):
    return jax.lax.cummax(x, 0)

def run(xs: jax.Array):
    return jax.vmap(g)(xs)
""",
        fix=Applicability.UNSAFE,
        message="cannot prove `g` returns one array",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

N = 16

def f(x, w):
    return jnp.tanh(x @ w)

def run(xs, w):
    ys = []
    for i in range(N):
        ys.append(f(xs[i], w))
    ys = jnp.stack(ys)
    return ys.mean(0), ys
""",
        """
import jax
import jax.numpy as jnp

N = 16

def f(x, w):
    return jnp.tanh(x @ w)

def run(xs, w):
    ys = jax.vmap(f, in_axes=(0, None))(jnp.stack(xs[:N]), w)
    return ys.mean(0), ys
""",
        fix=Applicability.UNSAFE,
        message="cannot prove `N` is at most the rows of `xs`",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

N = 64

def resample(key, x, y):
    idx = jnp.floor(jax.random.uniform(key, x.shape) * x.shape[0]).astype(jnp.int32)
    return x[idx], y[idx]

def fit(x, y):
    return jnp.stack([x.mean(), (x * y).mean() / (x * x).mean()])

def bootstrap(x, y):
    keys = jax.random.split(jax.random.PRNGKey(0), N)
    fits = []
    for i in range(N):
        xb, yb = resample(keys[i], x, y)
        fits.append(fit(xb, yb))
    return jnp.stack(fits)

fits = bootstrap(jnp.linspace(0.0, 1.0, 32), jnp.linspace(1.0, 3.0, 32))
""",
        """
import functools

import jax
import jax.numpy as jnp

N = 64

def resample(key, x, y):
    idx = jnp.floor(jax.random.uniform(key, x.shape) * x.shape[0]).astype(jnp.int32)
    return x[idx], y[idx]

def fit(x, y):
    return jnp.stack([x.mean(), (x * y).mean() / (x * x).mean()])


@jax.jit
@functools.partial(jax.vmap, in_axes=(0, None, None))
def _bootstrap_per_item(key, x, y):
    xb, yb = resample(key, x, y)
    return fit(xb, yb)


def bootstrap(x, y):
    keys = jax.random.split(jax.random.PRNGKey(0), N)
    return _bootstrap_per_item(keys, x, y)

fits = bootstrap(jnp.linspace(0.0, 1.0, 32), jnp.linspace(1.0, 3.0, 32))
""",
        message="computes them in one call",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def embed(x, w):
    return jnp.tanh(w @ x)

def run(xs: jax.Array, w: jax.Array, b: jax.Array):
    # one row per example
    out = []
    for x in xs:
        h = embed(x, w) + b
        out.append(h / jnp.linalg.norm(h))
    return jnp.stack(out)
""",
        """
import functools

import jax
import jax.numpy as jnp

def embed(x, w):
    return jnp.tanh(w @ x)


@jax.jit
@functools.partial(jax.vmap, in_axes=(0, None, None))
def _run_per_item(x, w, b):
    h = embed(x, w) + b
    return h / jnp.linalg.norm(h)


def run(xs: jax.Array, w: jax.Array, b: jax.Array):
    # one row per example
    return _run_per_item(xs, w, b)
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

def f(x):
    return jnp.tanh(x)

xs = jnp.ones((8, 3))
ys = jnp.stack([jnp.sum(f(x) ** 2) for x in xs])
""",
        """
import jax
import jax.numpy as jnp


def f(x):
    return jnp.tanh(x)

xs = jnp.ones((8, 3))


@jax.jit
@jax.vmap
def _per_item(x):
    return jnp.sum(f(x) ** 2)


ys = _per_item(xs)
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def f(x, w):
    return jnp.tanh(x @ w)

def run(xs: jax.Array, w: jax.Array, n):
    outs = []
    for i in range(n):
        h = f(xs[i], w)
        outs.append(h * h)
    return jnp.stack(outs)
""",
        """
import functools

import jax
import jax.numpy as jnp

def f(x, w):
    return jnp.tanh(x @ w)


@jax.jit
@functools.partial(jax.vmap, in_axes=(0, None))
def _run_per_item(x, w):
    h = f(x, w)
    return h * h


def run(xs: jax.Array, w: jax.Array, n):
    return _run_per_item(xs[:n], w)
""",
        fix=Applicability.UNSAFE,
        message="cannot prove `n` is at most the rows of `xs`",
    ),
    Invalid(
        """
import jax.numpy as jnp

def f(x):
    print(x)
    return jnp.tanh(x)

ys = jnp.stack([f(x) for x in jnp.ones((4, 2))])
""",
        fix=Applicability.NONE,
        message="not pure",
    ),
    Invalid(
        """
import jax.numpy as jnp

def f(x):
    if x.sum() > 0:
        return x
    return -x

ys = jnp.stack([f(x) for x in jnp.ones((4, 2))])
""",
        fix=Applicability.NONE,
        message="Python control flow",
    ),
    Invalid(
        """
import jax.numpy as jnp

def f(x):
    return jnp.tanh(x)

xs = [jnp.ones(3), jnp.ones(4)]
ys = jnp.stack([f(x) for x in xs])
""",
        fix=Applicability.NONE,
        message="a Python list",
    ),
    Invalid(
        """
import jax.numpy as jnp

def f(x):
    return jnp.sin(x), jnp.cos(x)

ys = jnp.stack([f(x) for x in jnp.ones((4, 2))])
""",
        fix=Applicability.NONE,
        message="returns a tuple",
    ),
    Invalid(
        """
import jax.numpy as jnp

def positives(sig):
    return sig[sig > 0]

def pos_mean(sig):
    return jnp.mean(positives(sig))

sigs = jnp.ones((6, 8))
means = jnp.stack([pos_mean(s) for s in sigs])
""",
        fix=Applicability.NONE,
        message="`positives`, which indexes with the boolean mask `sig > 0`",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def score(x):
    s = jnp.sum(jnp.tanh(x))
    jax.debug.print("score {s:.4f}", s=s)
    return s * 2.0

xs = jnp.ones((4, 3))
scores = jnp.stack([score(x) for x in xs])
""",
        """
import jax
import jax.numpy as jnp

def score(x):
    s = jnp.sum(jnp.tanh(x))
    jax.debug.print("score {s:.4f}", s=s)
    return s * 2.0

xs = jnp.ones((4, 3))
scores = jax.vmap(score)(xs)
""",
        fix=Applicability.UNSAFE,
        message="`score` prints from the trace (`jax.debug.print`): under vmap every example's",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def trace(h):
    jax.debug.print("h {}", h.sum())
    return h

def run(xs: jax.Array, w: jax.Array):
    out = []
    for x in xs:
        h = trace(jnp.tanh(w @ x))
        out.append(h * 2.0)
    return jnp.stack(out)
""",
        """
import functools

import jax
import jax.numpy as jnp

def trace(h):
    jax.debug.print("h {}", h.sum())
    return h


@jax.jit
@functools.partial(jax.vmap, in_axes=(0, None))
def _run_per_item(x, w):
    h = trace(jnp.tanh(w @ x))
    return h * 2.0


def run(xs: jax.Array, w: jax.Array):
    return _run_per_item(xs, w)
""",
        fix=Applicability.UNSAFE,
        message="calls `trace`, which prints from the trace",
    ),
)
