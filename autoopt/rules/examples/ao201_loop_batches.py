"""AO201 cases for `eqx.filter_jit` modes that donate arguments no call replaces: a
new batch a generator of the module yields, a NumPy array, a function or an optimizer;
appended to `ao201_missing_donation`'s."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_UNSAFE, _NONE = Applicability.UNSAFE, Applicability.NONE

_HEAD = """
import itertools

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


def dataloader(arrays, size):
    perm = np.random.permutation(arrays[0].shape[0])
    for start in range(0, arrays[0].shape[0], size):
        part = perm[start : start + size]
        yield tuple(array[part] for array in arrays)

"""
_STEP = """
@eqx.filter_jit
def step(state, x, y):
    return state - 0.1 * (x * y).sum(0)
"""
_DONATING_STEP = _STEP.replace("@eqx.filter_jit", '@eqx.filter_jit(donate="all")')


def _case(body: str, rewritten: bool = True, **kw) -> Invalid:
    code = _HEAD + _STEP + body
    after = _HEAD + _DONATING_STEP + body if rewritten else None
    return Invalid(code, after, **kw)


_PACKED_STEP = """
@eqx.filter_jit(donate="all-except-first")
def step(undonated, state):
    x, y = undonated
    return state - 0.1 * (x * y).sum(0)
"""
_X_FIRST_STEP = """
@eqx.filter_jit(donate="all-except-first")
def step(x, state, y):
    return state - 0.1 * (x * y).sum(0)
"""


def _kept(body: str, step: str, call: str, old: str = "step(state, x, y)", **kw) -> Invalid:
    """A case whose kept arguments are passed first: `step` the new step, `call` the new
    form of the call `old`."""
    after = _HEAD + step + body.replace(old, call)
    return Invalid(_HEAD + _STEP + body, after, **kw)


def _rewritten(code: str, **kw) -> Invalid:
    after = code.replace("@eqx.filter_jit\n", '@eqx.filter_jit(donate="all")\n', 1)
    return Invalid(code, after, **kw)


_MAIN = """
def main():
    xs, ys = jnp.ones((8, 4)), jnp.ones((8, 4))
    state = jnp.zeros(4)
    for _, (x, y) in zip(range(4), dataloader((xs, ys), 2)):
        state = step(state, x, y)
    return state
"""

INVALID = (
    # fires, safe: `x`, `y` are new gathers the module's generator yields each iteration
    _case(_MAIN, message='donate (`donate="all"`)'),
    # fires, safe: through a name bound once to the generator
    _case(
        _MAIN.replace(
            "    for _, (x, y) in zip(range(4), dataloader((xs, ys), 2)):",
            "    batches = dataloader((xs, ys), 2)\n    for x, y in batches:",
        ),
        message='donate (`donate="all"`)',
    ),
    # fires, safe: a NumPy array read again each step (jit donates its device copy)
    _case(
        _MAIN.replace("jnp.ones((8, 4)), jnp.ones((8, 4))", "np.ones((8, 4)), np.ones((8, 4))")
        .replace("for _, (x, y) in zip(range(4), dataloader((xs, ys), 2)):", "for _ in range(4):")
        .replace("step(state, x, y)", "step(state, xs, ys)"),
        message='donate (`donate="all"`)',
    ),
    # fires, safe: a function and an optimizer hold no array
    _rewritten(
        _HEAD
        + """
@eqx.filter_jit
def step(state, x, f, opt):
    return state - f(x.sum(0))

def scale(v):
    return 0.1 * v

def main():
    opt = optax.sgd(0.1)
    state = jnp.zeros(4)
    for (x,) in dataloader((jnp.ones((8, 4)),), 2):
        state = step(state, x, scale, opt)
    return state, opt, scale
""",
        message='donate (`donate="all"`)',
    ),
    # fires, safe: the state is kept for later, so all but it is donated
    Invalid(
        _HEAD
        + """
@eqx.filter_jit
def step(state, total, x, y):
    return state - 0.1 * (x * y).sum(0), total + x.sum()

def main():
    xs, ys = jnp.ones((8, 4)), jnp.ones((8, 4))
    state, total = jnp.zeros(4), jnp.zeros(())
    start = state
    for x, y in dataloader((xs, ys), 2):
        state, total = step(state, total, x, y)
    return state, total, start
""",
        _HEAD
        + """
@eqx.filter_jit(donate="all-except-first")
def step(state, total, x, y):
    return state - 0.1 * (x * y).sum(0), total + x.sum()

def main():
    xs, ys = jnp.ones((8, 4)), jnp.ones((8, 4))
    state, total = jnp.zeros(4), jnp.zeros(())
    start = state
    for x, y in dataloader((xs, ys), 2):
        state, total = step(state, total, x, y)
    return state, total, start
""",
        message="not donated: `start` may hold the buffers of `state` and is read at line",
    ),
    # fires, safe: the whole dataset is passed every step and read by the next one, so it
    # is kept (passed first, packed) and the state alone donated
    _kept(
        _MAIN.replace(
            "_, (x, y) in zip(range(4), dataloader((xs, ys), 2))", "_ in range(4)"
        ).replace("step(state, x, y)", "step(state, xs, ys)"),
        _PACKED_STEP,
        "step((xs, ys), state)",
        "step(state, xs, ys)",
        message="keep `x`, `y` from donation by passing them first in a tuple",
    ),
    # fires, safe: the loop's target is named like the dataset the generator is given,
    # read once, before the first batch is bound (score_based_diffusion's `data`)
    _case(
        _MAIN.replace(
            "xs, ys = jnp.ones((8, 4)), jnp.ones((8, 4))",
            "x, y = jnp.ones((8, 4)), jnp.ones((8, 4))",
        ).replace("dataloader((xs, ys), 2)", "dataloader((x, y), 2)"),
        message='donate (`donate="all"`)',
    ),
    # fires, safe: as above, but an outer loop makes the next loader of the last batch,
    # which donating it would delete: the batch is kept (passed first)
    _kept(
        _MAIN.replace(
            "xs, ys = jnp.ones((8, 4)), jnp.ones((8, 4))",
            "x, y = jnp.ones((8, 4)), jnp.ones((8, 4))",
        ).replace(
            "    for _, (x, y) in zip(range(4), dataloader((xs, ys), 2)):\n"
            "        state = step(state, x, y)\n",
            "    for _ in range(2):\n        for x, y in dataloader((x, y), 2):\n"
            "            state = step(state, x, y)\n",
        ),
        _PACKED_STEP,
        "step((x, y), state)",
        message="keep `x`, `y` from donation by passing them first in a tuple",
    ),
    # unsafe: a generator that yields one array twice is not proven to yield new buffers
    _case(
        _MAIN.replace("dataloader((xs, ys), 2)", "twice(xs)")
        + "\ndef twice(xs):\n    for i in range(4):\n"
        + "        b = xs[jnp.arange(2) + i]\n        yield b, b\n",
        fix=_UNSAFE,
        message="cannot prove `twice` yields new buffers (`b, b`)",
    ),
    # fires, safe: the arrays given as two tuples joined with `+`, a tuple of arrays
    _case(
        _MAIN.replace("dataloader((xs, ys), 2)", "dataloader((xs,) + (ys,), 2)"),
        message='donate (`donate="all"`)',
    ),
    # unsafe: a basic slice is no copy (`xs[0:8]` of 8 rows is `xs` itself)
    _case(
        _MAIN.replace("dataloader((xs, ys), 2)", "sliced((xs, ys), 8)")
        + "\ndef sliced(arrays, size):\n    for start in range(0, 8, size):\n"
        + "        yield tuple(array[start : start + size] for array in arrays)\n",
        fix=_UNSAFE,
        message="cannot prove `sliced` yields new buffers (`tuple(array[start : start + size] "
        "for array in arrays)`): its index is no array (a basic slice may return the array "
        "itself)",
    ),
    # unsafe: new batches, but gathered from the state the call donates, which the
    # generator reads again at the next step
    _case(
        _MAIN.replace("dataloader((xs, ys), 2)", "dataloader((state, ys), 2)").replace(
            "jnp.zeros(4)", "jnp.zeros((8, 4))"
        ),
        fix=_UNSAFE,
        message="`state` is handed to `dataloader`, which may keep it",
    ),
    # fires, safe: the batch `x` is kept in a list read after the loop, so it is kept
    _kept(
        _MAIN.replace("        state = step(", "        kept.append(x)\n        state = step(")
        .replace("    state = jnp.zeros(4)\n", "    state = jnp.zeros(4)\n    kept = []\n")
        .replace("    return state\n", "    return state, kept\n"),
        _X_FIRST_STEP,
        "step(x, state, y)",
        message="keep `x` from donation by passing it first",
    ),
    # fires, safe: the batch is read after the call, so it is kept (passed first)
    _kept(
        _MAIN.replace("step(state, x, y)\n", "step(state, x, y)\n        print(x.sum())\n"),
        _X_FIRST_STEP,
        "step(x, state, y)",
        message="keep `x` from donation by passing it first",
    ),
    # fires, safe: `itertools.repeat` yields the same arrays every time, so they are kept
    _kept(
        _MAIN.replace(
            "zip(range(4), dataloader((xs, ys), 2))", "itertools.repeat((xs, ys), 4)"
        ).replace("for _, (x, y) in", "for x, y in"),
        _PACKED_STEP,
        "step((x, y), state)",
        message="keep `x`, `y` from donation by passing them first in a tuple",
    ),
    # fires, safe: a loader of a library autoopt does not read may keep what it yields, so
    # the batch is kept
    _kept(
        _MAIN.replace("zip(range(4), dataloader((xs, ys), 2))", "torch_loader")
        .replace("for _, (x, y) in", "for x, y in")
        .replace("def main():", "def main(torch_loader):"),
        _PACKED_STEP,
        "step((x, y), state)",
        message="keep `x`, `y` from donation by passing them first in a tuple",
    ),
    # safe: `opt.update` is a function of an optimizer the overlay lists: no array to donate
    Invalid(
        """
import equinox as eqx
import jax.numpy as jnp
import optax


@eqx.filter_jit
def step(params, opt_state, opt_update):
    updates, opt_state = opt_update({"w": params["w"] * 0.1}, opt_state)
    return optax.apply_updates(params, updates), opt_state


def main():
    opt = optax.adabelief(1e-3)
    params = {"w": jnp.ones(3)}
    opt_state = opt.init(params)
    for _ in range(3):
        params, opt_state = step(params, opt_state, opt.update)
    return params
""",
        """
import equinox as eqx
import jax.numpy as jnp
import optax


@eqx.filter_jit(donate="all")
def step(params, opt_state, opt_update):
    updates, opt_state = opt_update({"w": params["w"] * 0.1}, opt_state)
    return optax.apply_updates(params, updates), opt_state


def main():
    opt = optax.adabelief(1e-3)
    params = {"w": jnp.ones(3)}
    opt_state = opt.init(params)
    for _ in range(3):
        params, opt_state = step(params, opt_state, opt.update)
    return params
""",
    ),
    # unsafe: `opt.update` of an object autoopt cannot see may hold arrays (a bound method),
    # so it is kept (passed first); `opt` may share the params' buffers
    Invalid(
        """
import equinox as eqx
import jax.numpy as jnp
import optax


@eqx.filter_jit
def step(params, opt_state, opt_update):
    updates, opt_state = opt_update({"w": params["w"] * 0.1}, opt_state)
    return optax.apply_updates(params, updates), opt_state


def main():
    opt = make_optimizer()
    params = {"w": jnp.ones(3)}
    opt_state = opt.init(params)
    for _ in range(3):
        params, opt_state = step(params, opt_state, opt.update)
    return params
""",
        """
import equinox as eqx
import jax.numpy as jnp
import optax


@eqx.filter_jit(donate="all-except-first")
def step(opt_update, params, opt_state):
    updates, opt_state = opt_update({"w": params["w"] * 0.1}, opt_state)
    return optax.apply_updates(params, updates), opt_state


def main():
    opt = make_optimizer()
    params = {"w": jnp.ones(3)}
    opt_state = opt.init(params)
    for _ in range(3):
        params, opt_state = step(opt.update, params, opt_state)
    return params
""",
        fix=_UNSAFE,
        message="keep `opt_update` from donation by passing it first",
    ),
)
