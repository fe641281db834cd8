"""AO201 missing-donation: the cases tests/test_rule_examples.py runs.

The one INVALID case flagged `doc=True` is the example its documentation shows.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE

#: A project module that keeps every array it checkpoints, returning the same buffer.
_REGISTRY = """\
import jax
import jax.numpy as jnp

_SEEN = {}


def checkpoint(name: str, value: jax.Array) -> jax.Array:
    _SEEN[name] = value
    return jnp.asarray(value)
"""

VALID = (
    Valid(
        """
import jax

@jax.jit
def step(u, f):
    return u + f

def main(u, f):
    for _ in range(3):
        u_new = step(u, f)
        change = abs(u_new - u).max()
        u = u_new
    return u, change
""",
        "the old value is read after the call",
    ),
    Valid(
        """
import functools
import jax

@functools.partial(jax.jit, donate_argnums=(0,))
def step(x):
    return x * 2

def main(x):
    for _ in range(3):
        x = step(x)
    return x
""",
        "already donated",
    ),
    Valid(
        """
import jax

@jax.jit
def loss(w, x):
    return (w * x).sum()

def main(w, xs):
    for x in xs:
        l = loss(w, x)
    return l
""",
        "no output replaces the input",
    ),
    Valid(
        """
import jax.numpy as jnp

def step(x):
    print(x)
    return jnp.tanh(x)

def main(x):
    for _ in range(3):
        x = step(x)
    return x
""",
        "not jitted, and AO101 cannot jit it (it prints)",
    ),
    Valid(
        """
import jax

@jax.jit
def step(x, y):
    return x + y

def main(x, ys):
    for y in ys:
        x = step(x, y)
    z = step(x, 1.0)
    return x, z
""",
        "one call site does not rebind the argument",
    ),
    Valid(
        """
import jax

@jax.jit
def step(x, y):
    return x + y

def main(x, y):
    for _ in range(3):
        y = step(*(x, y))
    return y
""",
        "a starred call: the parameters cannot be matched to the arguments",
    ),
    Valid(
        """
import jax

class eqx:
    @staticmethod
    def filter_jit(f):
        return f

@eqx.filter_jit
def step(state):
    return state * 2

def main():
    state = jax.numpy.ones(4)
    for _ in range(3):
        state = step(state)
    return state
""",
        "`eqx` is a class of the module, not equinox: its `filter_jit` is no jit",
    ),
    Valid(
        """
import equinox as eqx
import jax

@eqx.filter_jit(donate="all-except-first")
def step(table, state):
    return state + table

def main():
    table = jax.numpy.arange(4.0)
    state = jax.numpy.zeros(4)
    for _ in range(3):
        state = step(table, state)
    return state, table
""",
        "`eqx.filter_jit` already donates (`donate=`)",
    ),
    Valid(
        """
import equinox as eqx
import jax

@eqx.filter_jit
def step(model, x, n):
    return model * x * n

def main(xs):
    model = jax.numpy.ones(4)
    for x in xs:
        out = step(model, x, 3)
    return out
""",
        "a filter_jit whose static non-array `n` and `model` are never replaced: nothing to donate",
    ),
)

INVALID = (
    Invalid(
        """
import jax

@jax.jit
def train_step(state, batch):
    return state - 0.1 * batch, (state * batch).sum()

def main(batches):
    state = jax.numpy.zeros(4)
    for batch in batches:
        state, loss = train_step(state, batch)
    return state
""",
        """
import functools

import jax


@functools.partial(jax.jit, donate_argnames=("state",))
def train_step(state, batch):
    return state - 0.1 * batch, (state * batch).sum()

def main(batches):
    state = jax.numpy.zeros(4)
    for batch in batches:
        state, loss = train_step(state, batch)
    return state
""",
    ),
    Invalid(
        """
from functools import partial
import jax
import jax.numpy as jnp

@partial(jax.jit, static_argnames=("lr",))
def update(params, opt, grads, lr):
    opt = 0.9 * opt + grads
    return params - lr * opt, opt

def main(grads_list):
    params, opt = jnp.ones(3), jnp.zeros(3)
    for g in grads_list:
        params, opt = update(params, opt, g, lr=0.1)
    return params
""",
        """
from functools import partial
import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("lr",), donate_argnames=("params", "opt"))
def update(params, opt, grads, lr):
    opt = 0.9 * opt + grads
    return params - lr * opt, opt

def main(grads_list):
    params, opt = jnp.ones(3), jnp.zeros(3)
    for g in grads_list:
        params, opt = update(params, opt, g, lr=0.1)
    return params
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def _step(x, k):
    return x * k

step = jax.jit(_step)

def main(n):
    x = jnp.ones(8)
    for k in range(n):
        x = step(x=x, k=k)
    return x
""",
        """
import jax
import jax.numpy as jnp

def _step(x, k):
    return x * k

step = jax.jit(_step, donate_argnames=("x",))

def main(n):
    x = jnp.ones(8)
    for k in range(n):
        x = step(x=x, k=k)
    return x
""",
        doc=True,
    ),
    Invalid(
        """
import jax.numpy as jnp

def relax(u):
    return 0.5 * (jnp.roll(u, 1) + jnp.roll(u, -1))

def main():
    u = jnp.linspace(0.0, 1.0, 16)
    for _ in range(100):
        u = relax(u)
    return u
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("u",))
def relax(u):
    return 0.5 * (jnp.roll(u, 1) + jnp.roll(u, -1))

def main():
    u = jnp.linspace(0.0, 1.0, 16)
    for _ in range(100):
        u = relax(u)
    return u
""",
    ),
    Invalid(
        """
import functools
import jax

@functools.partial(jax.jit, donate_argnames=("a",))
def step(a, b):
    return a + b, b * 2

def main(a, b):
    a, b = jax.numpy.ones(2), jax.numpy.ones(2)
    for _ in range(4):
        a, b = step(a, b)
    return a, b
""",
        """
import functools
import jax


@functools.partial(jax.jit, donate_argnames=("a", "b"))
def step(a, b):
    return a + b, b * 2

def main(a, b):
    a, b = jax.numpy.ones(2), jax.numpy.ones(2)
    for _ in range(4):
        a, b = step(a, b)
    return a, b
""",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(state, x):
    return state + x

def train(state, xs):
    for x in xs:
        state = step(state, x)
    return state
""",
        """
import functools

import jax


@functools.partial(jax.jit, donate_argnames=("state",))
def step(state, x):
    return state + x

def train(state, xs):
    for x in xs:
        state = step(state, x)
    return state
""",
        fix=_UNSAFE,
        message="caller",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(state, x):
    return state + x

def main(xs):
    state = jax.numpy.zeros(3)
    for x in xs:
        state = step(state, x)
    return state
""",
        """
import functools

import jax


@functools.partial(jax.jit, donate_argnames=("state",))
def step(state, x):
    return state + x

def main(xs):
    state = jax.numpy.zeros(3)
    for x in xs:
        state = step(state, x)
    return state
""",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(state, x):
    return state + x

def run(xs):
    state = jax.numpy.zeros(3)
    for x in xs:
        state = step(state, x)
    return state
""",
        """
import functools

import jax


@functools.partial(jax.jit, donate_argnames=("state",))
def step(state, x):
    return state + x

def run(xs):
    state = jax.numpy.zeros(3)
    for x in xs:
        state = step(state, x)
    return state
""",
        fix=_UNSAFE,
        message="public",
    ),
    Invalid(
        """
import jax

@jax.jit
def sgd(coef, g):
    return coef - 0.1 * g

def main(grads):
    coef = jax.numpy.zeros(3)
    best = coef
    for g in grads:
        coef = sgd(coef, g)
        if coef.sum() < best.sum():
            best = coef
    return best
""",
        fix=_NONE,
        message="`best`",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(p, g):
    return p - g

def main(grads):
    p = avg = jax.numpy.zeros(3)
    for g in grads:
        p = step(p, g)
    return p, avg
""",
        fix=_NONE,
        message="`avg`",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(a, b):
    return a + b

def main(x):
    for _ in range(3):
        x = step(x, x)
    return x
""",
        fix=_NONE,
        message="twice",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(state):
    return {"w": state["w"] * 2, "v": state["v"] + 1}

def main():
    state = {"w": jax.numpy.ones(2), "v": jax.numpy.ones(2)}
    history = []
    for _ in range(3):
        history.append(state["w"])
        state = step(state)
    return state, history
""",
        fix=_NONE,
        message="`history`",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(p):
    return p * 0.5

def main(threads):
    p = jax.numpy.ones(4)
    def report():
        return p.sum()
    threads.submit(report)
    for _ in range(3):
        p = step(p)
    return p
""",
        fix=_NONE,
        message="nested function",
    ),
    Invalid(
        """
import equinox as eqx
import jax

@eqx.filter_jit
def step(state, n):
    return state * n

def main():
    state = jax.numpy.ones(4)
    for _ in range(3):
        state = step(state, 2)
    return state
""",
        """
import equinox as eqx
import jax


@eqx.filter_jit(donate="all")
def step(state, n):
    return state * n

def main():
    state = jax.numpy.ones(4)
    for _ in range(3):
        state = step(state, 2)
    return state
""",
        message='donate="all"',
    ),
    Invalid(
        """
import equinox as eqx
import jax

def _step(x, rate):
    return x * rate

step = eqx.filter_jit(_step)

def main():
    x = jax.numpy.ones(4)
    for _ in range(3):
        x = step(x, 0.5)
    return x
""",
        """
import equinox as eqx
import jax

def _step(x, rate):
    return x * rate

step = eqx.filter_jit(_step, donate="all")

def main():
    x = jax.numpy.ones(4)
    for _ in range(3):
        x = step(x, 0.5)
    return x
""",
    ),
    Invalid(
        """
import equinox as eqx
import jax

@eqx.filter_jit
def step(table, state):
    return state + table

def main():
    table = jax.numpy.arange(4.0)
    state = jax.numpy.zeros(4)
    for _ in range(3):
        state = step(table, state)
    return state, table
""",
        """
import equinox as eqx
import jax


@eqx.filter_jit(donate="all-except-first")
def step(table, state):
    return state + table

def main():
    table = jax.numpy.arange(4.0)
    state = jax.numpy.zeros(4)
    for _ in range(3):
        state = step(table, state)
    return state, table
""",
        message='donate="all-except-first"',
    ),
    Invalid(
        """
import equinox as eqx
import jax

@eqx.filter_jit
def step(state, batch):
    return state - 0.1 * batch

def main(batches):
    state = jax.numpy.zeros(4)
    for batch in batches:
        state = step(state, batch)
    return state
""",
        None,
        fix=_NONE,
        message="`batch` is not replaced",
    ),
    Invalid(
        """
import jax
from flax import nnx

@nnx.jit
def step(state, x):
    return state + x

def main():
    state = jax.numpy.zeros(4)
    x = jax.numpy.ones(4)
    for _ in range(3):
        state = step(state, x)
    return state
""",
        """
import functools

import jax
from flax import nnx


@functools.partial(nnx.jit, donate_argnames=("state",))
def step(state, x):
    return state + x

def main():
    state = jax.numpy.zeros(4)
    x = jax.numpy.ones(4)
    for _ in range(3):
        state = step(state, x)
    return state
""",
    ),
    Invalid(
        """
import jax
from flax import nnx

@nnx.jit
def step(model, x):
    model.bias.value = model.bias.value + x.sum()
    return model

def main(x):
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))
    for _ in range(3):
        model = step(model, x)
    return model
""",
        """
import functools

import jax
from flax import nnx


@functools.partial(nnx.jit, donate_argnames=("model",))
def step(model, x):
    model.bias.value = model.bias.value + x.sum()
    return model

def main(x):
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))
    for _ in range(3):
        model = step(model, x)
    return model
""",
        fix=_UNSAFE,
        message="may be an nnx module",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

class Run:
    start = None

def remember(p):
    Run.start = p
    return p

@jax.jit
def step(p):
    return p * 0.9 + 0.05

def main():
    p = remember(jnp.arange(4.0))
    for _ in range(20):
        p = step(p)
    return p, Run.start
""",
        """
import functools

import jax
import jax.numpy as jnp

class Run:
    start = None

def remember(p):
    Run.start = p
    return p

@functools.partial(jax.jit, donate_argnames=("p",))
def step(p):
    return p * 0.9 + 0.05

def main():
    p = remember(jnp.arange(4.0))
    for _ in range(20):
        p = step(p)
    return p, Run.start
""",
        fix=_UNSAFE,
        message="unsafe: `p` is stored in `Run.start`, which keeps a reference to it",
    ),
    Invalid(
        """
import functools
import jax
import jax.numpy as jnp

@functools.lru_cache(maxsize=None)
def initial_params():
    return jnp.linspace(0.0, 1.0, 8)

@jax.jit
def step(p):
    return p * 0.9 + 0.05

def main():
    p = initial_params()
    for _ in range(20):
        p = step(p)
    return p, initial_params()
""",
        """
import functools
import jax
import jax.numpy as jnp

@functools.lru_cache(maxsize=None)
def initial_params():
    return jnp.linspace(0.0, 1.0, 8)

@functools.partial(jax.jit, donate_argnames=("p",))
def step(p):
    return p * 0.9 + 0.05

def main():
    p = initial_params()
    for _ in range(20):
        p = step(p)
    return p, initial_params()
""",
        fix=_UNSAFE,
        message="unsafe: `p` comes from `initial_params`, which may keep a reference to it",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import registry

@jax.jit
def step(p):
    return p * 0.9 + 0.05

def main():
    p = registry.checkpoint("init", jnp.zeros(4))
    for _ in range(20):
        p = step(p)
    return p
""",
        """
import functools

import jax
import jax.numpy as jnp
import registry


@functools.partial(jax.jit, donate_argnames=("p",))
def step(p):
    return p * 0.9 + 0.05

def main():
    p = registry.checkpoint("init", jnp.zeros(4))
    for _ in range(20):
        p = step(p)
    return p
""",
        fix=_UNSAFE,
        message="unsafe: `p` is held by `registry._SEEN` too",
        files={"pyproject.toml": "", "registry.py": _REGISTRY},
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def prepared(p):
    seen = [p]
    return p * 1.0 + len(seen)

@jax.jit
def step(p):
    return p * 0.9 + 0.05

def main():
    p = prepared(jnp.zeros(4))
    for _ in range(20):
        p = step(p)
    return p
""",
        """
import functools

import jax
import jax.numpy as jnp

def prepared(p):
    seen = [p]
    return p * 1.0 + len(seen)

@functools.partial(jax.jit, donate_argnames=("p",))
def step(p):
    return p * 0.9 + 0.05

def main():
    p = prepared(jnp.zeros(4))
    for _ in range(20):
        p = step(p)
    return p
""",
        message="`p` is dead after every call of `step`",
    ),
)
