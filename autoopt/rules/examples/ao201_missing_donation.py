"""AO201 missing-donation: the cases tests/test_rule_examples.py runs.

The one INVALID case flagged `doc=True` is the example its documentation shows.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid
from autoopt.rules.examples import (
    ao201_aux_free,
    ao201_callers,
    ao201_cross_alias,
    ao201_data_values,
    ao201_escape,
    ao201_framework_leaves,
    ao201_fresh_leaves,
    ao201_holders,
    ao201_jit_calls,
    ao201_keep_first,
    ao201_loop_batches,
    ao201_module_classes,
    ao201_nnx_factories,
    ao201_rendered,
    ao201_shadowed,
    ao201_static_self,
    ao201_tiny,
    ao201_trainers,
    ao201_visible_keepers,
    ao201_wrapper_fields,
)

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
import functools

import jax

STATIC = (1,)


@functools.partial(jax.jit, static_argnums=STATIC)
def update(params, scale):
    return params * scale


def main(params):
    for _ in range(3):
        params = update(params, 2.0)
    return params
""",
        "static positions not read: a parameter donated and static raises",
    ),
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
    Valid(
        """
import jax
import jax.numpy as jnp
from flax import nnx

@jax.jit
def step(model, x):
    return model.bias.value.sum()

def main():
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))
    x = jnp.ones(2)
    for _ in range(3):
        total = step(model, x)
    return total, model.bias.value
""",
        "`jax.jit` writes nothing back into a module argument: `model`, not rebound, stays live",
    ),
    Valid(
        """
import jax.numpy as jnp
from flax import nnx

def build():
    return nnx.Linear(2, 2, rngs=nnx.Rngs(0))

@nnx.jit
def step(model, x):
    model.bias.value = model.bias.value + x.sum()
    return model.bias.value.sum()

def main():
    model = build()
    x = jnp.ones(2)
    for _ in range(3):
        total = step(model, x)
    return total, model.bias.value
""",
        "`model` comes from a function: not proven an nnx module that `nnx.jit` writes back",
    ),
    Valid(
        """
import jax.numpy as jnp
from flax import nnx

@nnx.jit
def step(model, x):
    model.bias.value = model.bias.value + x.sum()
    return model.bias.value.sum()

def main(model):
    x = jnp.ones(2)
    for _ in range(3):
        total = step(model, x)
    return total, model.bias.value
""",
        "`model` is the caller's: not proven an nnx module, and the caller may hold its arrays",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)
        self.losses = []
        self.start = jnp.ones(size)

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            self.best, _ = train_step(self.start, batch)
            self.losses.append(loss)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    return trainer.losses
""",
        "a second call passes `self.start`, which no output replaces: `state` stays undonated",
    ),
    *ao201_static_self.VALID,
)

INVALID: tuple[Invalid, ...] = (
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
        """
import equinox as eqx
import jax


@eqx.filter_jit(donate="all-except-first")
def step(batch, state):
    return state - 0.1 * batch

def main(batches):
    state = jax.numpy.zeros(4)
    for batch in batches:
        state = step(batch, state)
    return state
""",
        message="keep `batch` from donation by passing it first",
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
    Invalid(
        """
import jax.numpy as jnp
from flax import nnx

@nnx.jit
def step(model, x):
    model.bias.value = model.bias.value + x.sum()
    return model.bias.value.sum()

def main():
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))
    x = jnp.ones(2)
    for _ in range(3):
        total = step(model, x)
    return total, model.bias.value
""",
        """
import functools

import jax.numpy as jnp
from flax import nnx


@functools.partial(nnx.jit, donate_argnames=("model",))
def step(model, x):
    model.bias.value = model.bias.value + x.sum()
    return model.bias.value.sum()

def main():
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))
    x = jnp.ones(2)
    for _ in range(3):
        total = step(model, x)
    return total, model.bias.value
""",
        message="a module: written back in place",
    ),
    Invalid(
        """
import jax.numpy as jnp
from flax import nnx

class Counter(nnx.Module):
    def __init__(self):
        self.count = nnx.Variable(jnp.zeros(4))

@nnx.jit
def step(counter, x):
    counter.count.value = counter.count.value + x

def main():
    counter = Counter()
    x = jnp.ones(4)
    for _ in range(3):
        step(counter, x)
    return counter.count.value
""",
        """
import functools

import jax.numpy as jnp
from flax import nnx

class Counter(nnx.Module):
    def __init__(self):
        self.count = nnx.Variable(jnp.zeros(4))

@functools.partial(nnx.jit, donate_argnames=("counter",))
def step(counter, x):
    counter.count.value = counter.count.value + x

def main():
    counter = Counter()
    x = jnp.ones(4)
    for _ in range(3):
        step(counter, x)
    return counter.count.value
""",
    ),
    Invalid(
        """
import jax.numpy as jnp
import optax
from flax import nnx

@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss

def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x, y = jnp.ones((8, 3)), jnp.ones((8, 1))
    for _ in range(10):
        loss = train_step(model, optimizer, x, y)
    return loss
""",
        """
import functools

import jax.numpy as jnp
import optax
from flax import nnx


@functools.partial(nnx.jit, donate_argnames=("model", "optimizer"))
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss

def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x, y = jnp.ones((8, 3)), jnp.ones((8, 1))
    for _ in range(10):
        loss = train_step(model, optimizer, x, y)
    return loss
""",
    ),
    Invalid(
        """
import jax.numpy as jnp
from flax import nnx

@nnx.jit
def step(model, x):
    model.bias.value = model.bias.value + x.sum()
    return model.bias.value.sum()

def main():
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))
    start = model.bias.value
    x = jnp.ones(2)
    for _ in range(3):
        total = step(model, x)
    return total, start
""",
        None,
        fix=_NONE,
        message="`start` may hold the buffers of `model`",
    ),
    Invalid(
        """
import jax.numpy as jnp
from flax import nnx

@nnx.jit
def step(model, x):
    model.bias.value = model.bias.value + x.sum()
    return model.bias.value.sum()

def main():
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))
    saved = nnx.state(model)
    x = jnp.ones(2)
    for _ in range(3):
        total = step(model, x)
    return total, saved
""",
        None,
        fix=_NONE,
        message="`saved` may hold the buffers of `model`",
    ),
    Invalid(
        """
import jax.numpy as jnp
from flax import nnx

@nnx.jit
def step(model, other):
    return model.bias.value.sum() + other.bias.value.sum()

def main():
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))
    for _ in range(3):
        total = step(model, model)
    return total
""",
        None,
        fix=_NONE,
        message="`model` is passed twice",
    ),
    Invalid(
        """
import equinox as eqx
import jax
import jax.numpy as jnp

@eqx.filter_jit
def step(state, batch):
    return state - 0.1 * batch

def main():
    key = jax.random.PRNGKey(0)
    state = jnp.zeros(4)
    for _ in range(3):
        key, sub = jax.random.split(key)
        batch = jax.random.normal(sub, (4,))
        state = step(state, batch)
    return state
""",
        """
import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit(donate="all")
def step(state, batch):
    return state - 0.1 * batch

def main():
    key = jax.random.PRNGKey(0)
    state = jnp.zeros(4)
    for _ in range(3):
        key, sub = jax.random.split(key)
        batch = jax.random.normal(sub, (4,))
        state = step(state, batch)
    return state
""",
        message='donate (`donate="all"`)',
    ),
    Invalid(
        """
import equinox as eqx
import jax
import jax.numpy as jnp

@eqx.filter_jit
def step(state, batch):
    return state - 0.1 * batch

def main():
    key = jax.random.PRNGKey(0)
    state = jnp.zeros(4)
    total = jnp.zeros(4)
    for _ in range(3):
        key, sub = jax.random.split(key)
        batch = jax.random.normal(sub, (4,))
        state = step(state, batch)
        total = total + batch
    return state, total
""",
        """
import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit(donate="all-except-first")
def step(batch, state):
    return state - 0.1 * batch

def main():
    key = jax.random.PRNGKey(0)
    state = jnp.zeros(4)
    total = jnp.zeros(4)
    for _ in range(3):
        key, sub = jax.random.split(key)
        batch = jax.random.normal(sub, (4,))
        state = step(batch, state)
        total = total + batch
    return state, total
""",
        message="keep `batch` from donation by passing it first",
    ),
    Invalid(
        """
import equinox as eqx
import jax
import jax.numpy as jnp

@eqx.filter_jit
def step(state, batch):
    return state - 0.1 * batch

def main():
    key = jax.random.PRNGKey(0)
    state = jnp.zeros(4)
    seen = []
    for _ in range(3):
        key, sub = jax.random.split(key)
        batch = jax.random.normal(sub, (4,))
        seen.append(batch)
        state = step(state, batch)
    return state, seen
""",
        """
import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit(donate="all-except-first")
def step(batch, state):
    return state - 0.1 * batch

def main():
    key = jax.random.PRNGKey(0)
    state = jnp.zeros(4)
    seen = []
    for _ in range(3):
        key, sub = jax.random.split(key)
        batch = jax.random.normal(sub, (4,))
        seen.append(batch)
        state = step(batch, state)
    return state, seen
""",
        message="keep `batch` from donation by passing it first",
    ),
    # fires: a trainer class's method replaces `self.state` with the jitted step's output
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)
        self.losses = []

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            self.losses.append(loss)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    return trainer.losses
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("state",))
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)
        self.losses = []

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            self.losses.append(loss)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    return trainer.losses
""",
    ),
    # fires: the step is jitted into an attribute, `self.update = jax.jit(update)`
    Invalid(
        """
import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, size):
        self.make_steps()
        self.params = jnp.ones(size)

    def make_steps(self):
        def update(params, grads):
            return params - 0.1 * grads

        self.update = jax.jit(update)

    def fit(self, grads):
        for g in grads:
            self.params = self.update(self.params, g)


def main(grads):
    trainer = Trainer(4)
    trainer.fit(grads)
""",
        """
import jax
import jax.numpy as jnp


class Trainer:
    def __init__(self, size):
        self.make_steps()
        self.params = jnp.ones(size)

    def make_steps(self):
        def update(params, grads):
            return params - 0.1 * grads

        self.update = jax.jit(update, donate_argnames=("params",))

    def fit(self, grads):
        for g in grads:
            self.params = self.update(self.params, g)


def main(grads):
    trainer = Trainer(4)
    trainer.fit(grads)
""",
        message="`self.update`",
    ),
    # fires: `opt.init(params)` of an optax optimizer makes new buffers
    Invalid(
        """
import jax
import jax.numpy as jnp
import optax

opt = optax.adam(1e-3)


@jax.jit
def update(params, opt_state, grads):
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main(grads):
    params = {"w": jnp.ones(3)}
    opt_state = opt.init(params)
    for g in grads:
        params, opt_state = update(params, opt_state, g)
    return params
""",
        """
import functools

import jax
import jax.numpy as jnp
import optax

opt = optax.adam(1e-3)


@functools.partial(jax.jit, donate_argnames=("params", "opt_state"))
def update(params, opt_state, grads):
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main(grads):
    params = {"w": jnp.ones(3)}
    opt_state = opt.init(params)
    for g in grads:
        params, opt_state = update(params, opt_state, g)
    return params
""",
    ),
    # fires: haiku's `init` makes new buffers
    Invalid(
        """
import haiku as hk
import jax
import jax.numpy as jnp

net = hk.transform(lambda x: hk.Linear(2)(x))


@jax.jit
def sgd(params, x):
    grads = jax.grad(lambda p: jnp.sum(net.apply(p, None, x)))(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def main(x):
    params = net.init(jax.random.key(0), x)
    for _ in range(3):
        params = sgd(params, x)
    return params
""",
        """
import functools

import haiku as hk
import jax
import jax.numpy as jnp

net = hk.transform(lambda x: hk.Linear(2)(x))


@functools.partial(jax.jit, donate_argnames=("params",))
def sgd(params, x):
    grads = jax.grad(lambda p: jnp.sum(net.apply(p, None, x)))(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def main(x):
    params = net.init(jax.random.key(0), x)
    for _ in range(3):
        params = sgd(params, x)
    return params
""",
    ),
    # fires: `TrainState.create` holds `model.init`'s new buffers and a new optimizer state
    Invalid(
        """
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(x)


@jax.jit
def step(state, x):
    grads = jax.grad(lambda p: jnp.sum(state.apply_fn({"params": p}, x)))(state.params)
    return state.apply_gradients(grads=grads)


def main(x):
    model = MLP()
    params = model.init(jax.random.key(0), x)["params"]
    tx = optax.sgd(0.1, momentum=0.9)
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    for _ in range(3):
        state = step(state, x)
    return state.params
""",
        """
import functools

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(x)


@functools.partial(jax.jit, donate_argnames=("state",))
def step(state, x):
    grads = jax.grad(lambda p: jnp.sum(state.apply_fn({"params": p}, x)))(state.params)
    return state.apply_gradients(grads=grads)


def main(x):
    model = MLP()
    params = model.init(jax.random.key(0), x)["params"]
    tx = optax.sgd(0.1, momentum=0.9)
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)
    for _ in range(3):
        state = step(state, x)
    return state.params
""",
    ),
    # no safe fix: the old state is kept in `self.prev`, read later
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)
        self.losses = []

    def previous(self):
        return self.prev

    def fit(self, batches):
        for batch in batches:
            self.prev = self.state
            self.state, loss = train_step(self.state, batch)
            self.losses.append(loss)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    return trainer.losses
""",
        fix=_NONE,
        message="`self.prev`",
    ),
    # no safe fix: the old state is handed to a list method that keeps it
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)
        self.losses = []
        self.history = []

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            self.losses.append(loss)
            self.history.append(self.state)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    return trainer.losses
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("state",))
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)
        self.losses = []
        self.history = []

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            self.losses.append(loss)
            self.history.append(self.state)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    return trainer.losses
""",
        fix=_UNSAFE,
        message="self.history.append",
    ),
    # no safe fix: a property hands the state to its callers, here before training
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)
        self.losses = []

    @property
    def current(self):
        return self.state

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            self.losses.append(loss)


def main(batches):
    trainer = Trainer(4)
    start = trainer.current
    trainer.fit(batches)
    return start, trainer.losses
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("state",))
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)
        self.losses = []

    @property
    def current(self):
        return self.state

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            self.losses.append(loss)


def main(batches):
    trainer = Trainer(4)
    start = trainer.current
    trainer.fit(batches)
    return start, trainer.losses
""",
        fix=_UNSAFE,
        message="return self.state",
    ),
    # no safe fix: a chain with a user's transformation, whose `init` returns `params`
    Invalid(
        """
import jax
import jax.numpy as jnp
import optax

keep = optax.GradientTransformation(lambda params: params, lambda u, s, p=None: (u, s))
opt = optax.chain(keep, optax.adam(1e-3))


@jax.jit
def update(params, opt_state, grads):
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main(grads):
    params = {"w": jnp.ones(3)}
    opt_state = opt.init(params)
    for g in grads:
        params, opt_state = update(params, opt_state, g)
    return params
""",
        """
import functools

import jax
import jax.numpy as jnp
import optax

keep = optax.GradientTransformation(lambda params: params, lambda u, s, p=None: (u, s))
opt = optax.chain(keep, optax.adam(1e-3))


@functools.partial(jax.jit, donate_argnames=("params", "opt_state"))
def update(params, opt_state, grads):
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


def main(grads):
    params = {"w": jnp.ones(3)}
    opt_state = opt.init(params)
    for g in grads:
        params, opt_state = update(params, opt_state, g)
    return params
""",
        fix=_UNSAFE,
        message="`opt_state` may hold the buffers of `params`",
    ),
    # no safe fix: the first state is also held by `self.initial`
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.initial = jnp.zeros(size)
        self.state = self.initial
        self.losses = []

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            self.losses.append(loss)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    return trainer.losses
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("state",))
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.initial = jnp.zeros(size)
        self.state = self.initial
        self.losses = []

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)
            self.losses.append(loss)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    return trainer.losses
""",
        fix=_UNSAFE,
        message="another attribute of `self`",
    ),
    # fires: an equinox layer's constructor makes new buffers
    Invalid(
        """
import equinox as eqx
import jax
import jax.numpy as jnp


@jax.jit
def step(model, x):
    grads = jax.grad(lambda m: jnp.sum(m(x) ** 2))(model)
    return jax.tree.map(lambda p, g: p - 0.1 * g, model, grads)


def main():
    x = jnp.arange(3.0)
    model = eqx.nn.Linear(3, 2, key=jax.random.key(0))
    for _ in range(3):
        model = step(model, x)
    return model.weight
""",
        """
import functools

import equinox as eqx
import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("model",))
def step(model, x):
    grads = jax.grad(lambda m: jnp.sum(m(x) ** 2))(model)
    return jax.tree.map(lambda p, g: p - 0.1 * g, model, grads)


def main():
    x = jnp.arange(3.0)
    model = eqx.nn.Linear(3, 2, key=jax.random.key(0))
    for _ in range(3):
        model = step(model, x)
    return model.weight
""",
    ),
    # no safe fix: the first model is kept as `first`, read after the loop
    Invalid(
        """
import equinox as eqx
import jax
import jax.numpy as jnp


@jax.jit
def step(model, x):
    grads = jax.grad(lambda m: jnp.sum(m(x) ** 2))(model)
    return jax.tree.map(lambda p, g: p - 0.1 * g, model, grads)


def main():
    x = jnp.arange(3.0)
    model = eqx.nn.Linear(3, 2, key=jax.random.key(0))
    first = model
    for _ in range(3):
        model = step(model, x)
    return model.weight, first.weight
""",
        fix=_NONE,
        message="`first`",
    ),
    # safe: a trainer read from outside only after its last step (an eval, returned)
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    return trainer.state.sum(), trainer
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("state",))
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    return trainer.state.sum(), trainer
""",
        fix=_SAFE,
    ),
    # safe: a method that keeps `self.state` runs only after the last step
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)

    def save(self, store):
        store.append(self.state)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    store = []
    trainer.save(store)
    return store
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("state",))
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)

    def save(self, store):
        store.append(self.state)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    store = []
    trainer.save(store)
    return store
""",
        fix=_SAFE,
    ),
    # no safe fix: `saved = trainer.state` is kept while the trainer trains again
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    saved = trainer.state
    trainer.fit(batches)
    return saved.sum(), trainer.state.sum()
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("state",))
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    saved = trainer.state
    trainer.fit(batches)
    return saved.sum(), trainer.state.sum()
""",
        fix=_UNSAFE,
        message="and a step may run on that instance after it",
    ),
    # no safe fix: a copy made before training shares `.state`
    Invalid(
        """
import copy

import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)


def main(batches):
    trainer = Trainer(4)
    before = copy.copy(trainer)
    trainer.fit(batches)
    return before.state.sum()
""",
        """
import copy
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("state",))
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)


def main(batches):
    trainer = Trainer(4)
    before = copy.copy(trainer)
    trainer.fit(batches)
    return before.state.sum()
""",
        fix=_UNSAFE,
        message="code it reaches may copy it, sharing `.state`",
    ),
    # no safe fix: a copy of the trained trainer is trained too
    Invalid(
        """
import copy

import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    twin = copy.copy(trainer)
    twin.fit(batches)
    return trainer.state.sum()
""",
        """
import copy
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("state",))
def train_step(state, batch):
    return state - 0.1 * batch, jnp.sum(state * batch)


class Trainer:
    def __init__(self, size):
        self.state = jnp.zeros(size)

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)


def main(batches):
    trainer = Trainer(4)
    trainer.fit(batches)
    twin = copy.copy(trainer)
    twin.fit(batches)
    return trainer.state.sum()
""",
        fix=_UNSAFE,
        message="`twin.fit` at line 26 may run the step of `Trainer`",
    ),
    # no safe fix: the batch was made before the model and holds none of its buffers,
    # but the model is handed to `nnx.display`, which may keep it
    Invalid(
        """
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx

images = jnp.asarray(np.linspace(0.0, 1.0, 8, dtype=np.float32).reshape(4, 2))
model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
nnx.display(model)


@nnx.jit
def train_step(model, optimizer, x):
    grads = nnx.grad(lambda m: ((m(x) - x) ** 2).mean())(model)
    optimizer.update(model, grads)


for _ in range(3):
    train_step(model, optimizer, images)
print(model.kernel.value.sum())
""",
        """
import functools

import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx

images = jnp.asarray(np.linspace(0.0, 1.0, 8, dtype=np.float32).reshape(4, 2))
model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
nnx.display(model)


@functools.partial(nnx.jit, donate_argnames=("model", "optimizer"))
def train_step(model, optimizer, x):
    grads = nnx.grad(lambda m: ((m(x) - x) ** 2).mean())(model)
    optimizer.update(model, grads)


for _ in range(3):
    train_step(model, optimizer, images)
print(model.kernel.value.sum())
""",
        fix=_UNSAFE,
        message="`model` is handed to `nnx.display`, which may keep it",
    ),
    *ao201_fresh_leaves.INVALID,
    *ao201_module_classes.INVALID,
    *ao201_framework_leaves.INVALID,
    *ao201_holders.INVALID,
    *ao201_callers.INVALID,
    *ao201_loop_batches.INVALID,
    *ao201_keep_first.INVALID,
    *ao201_trainers.INVALID,
    *ao201_cross_alias.INVALID,
    *ao201_escape.INVALID,
    *ao201_visible_keepers.INVALID,
    *ao201_nnx_factories.INVALID,
    *ao201_rendered.INVALID,
    *ao201_data_values.INVALID,
    *ao201_static_self.INVALID,
    *ao201_tiny.INVALID,
    *ao201_shadowed.INVALID,
    *ao201_wrapper_fields.INVALID,
    *ao201_jit_calls.INVALID,
    *ao201_aux_free.INVALID,
)
