"""AO201 cases on what a call of a compiled function may join: its body sees the array
leaves of its arguments as tracers, but every other leaf (`eqx.filter_jit`) or static
argument (`jax.jit`) as the caller's very object, which may hold a buffer and be stored
on another (`analysis/facts/jit_arguments.py`; tests/hazards h1260-h1262).
`ao201_missing_donation` lists them after its own."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_UNSAFE = Applicability.UNSAFE

_PROBE = """
import functools

import equinox as eqx
import jax
import jax.numpy as jnp


class Holder:
    pass


class Box:
    def __init__(self):
        self.kept = None


JIT
def probe(holder, box, x):
    box.kept = holder.w
    return x + 1.0


@jax.jit
def step(params, x):
    return params * 0.5 + x


def main():
    params = jnp.arange(3.0)
    holder = Holder()
    holder.w = params
    box = Box()
    CALL
    seen = []
    for _ in range(3):
        params = step(params, 1.0)
        seen.append(float(box.kept.sum()))
    return params, seen
"""
_BOX_READ = "`box` may hold the buffers of `params` and is read at line 38"


def _probe(jit: str, call: str = "probe(holder, box, 1.0)") -> str:
    return _PROBE.replace("JIT", jit).replace("CALL", call)


def _donated(code: str) -> str:
    return code.replace(
        "@jax.jit\ndef step", '@functools.partial(jax.jit, donate_argnames=("params",))\ndef step'
    )


#: The probe given arrays only: its body sees tracers, and its result is a new buffer.
_ARRAYS = (
    _probe("@eqx.filter_jit", "probe(holder, box, 1.0)")
    .replace("    box.kept = holder.w\n", "")
    .replace("probe(holder, box, 1.0)", "total = probe(params, jnp.ones(3), 1.0)")
    .replace(
        "def probe(holder, box, x):\n    return x + 1.0",
        "def probe(w, v, x):\n    return jnp.sum(w * v) + x",
    )
    .replace("seen.append(float(box.kept.sum()))", "seen.append(float(total))")
)

_EQX = _probe("@eqx.filter_jit")
_BY_POSITION = _probe("@functools.partial(jax.jit, static_argnums=(0, 1))")
_BY_NAME = _probe(
    '@functools.partial(jax.jit, static_argnames=("holder", "box"))',
    "probe(holder=holder, box=box, x=1.0)",
)
_UNREAD = _probe("@functools.partial(jax.jit, static_argnums=STATIC)").replace(
    "class Holder", "STATIC = (0, 1)\n\n\nclass Holder"
)

#: The jitted body stores a global, the array the caller hands `train`, on its argument:
#: a global is the real object in the body, not a tracer.
_GLOBAL = """
import equinox as eqx
import jax
import jax.numpy as jnp


class Box:
    def __init__(self):
        self.kept = None


@eqx.filter_jit
def peek(box, x):
    box.kept = START
    return x + 1


@eqx.filter_jit
def step(model, x):
    return jax.tree.map(lambda p: p * 0.5 + x, model)


def train(model, box):
    for _ in range(3):
        model = step(model, 1.0)
        peek(box, 1.0)
        print(box.kept["w"])
    return model


START = {"w": jnp.ones(3)}
final = train(START, Box())
"""

INVALID: tuple[Invalid, ...] = (
    # unsafe: `eqx.filter_jit` passes the plain objects as they are; the body stores the
    # parameters' buffer, held by `holder`, on `box`
    Invalid(_EQX, _donated(_EQX), fix=_UNSAFE, message=_BOX_READ),
    # unsafe: the same through `jax.jit`'s static arguments, by position and by name
    Invalid(_BY_POSITION, _donated(_BY_POSITION), fix=_UNSAFE, message=_BOX_READ),
    Invalid(_BY_NAME, _donated(_BY_NAME), fix=_UNSAFE, message=_BOX_READ),
    # unsafe: a static option autoopt cannot read leaves every argument as it is
    Invalid(
        _UNREAD,
        _donated(_UNREAD),
        fix=_UNSAFE,
        message="`box` may hold the buffers of `params` and is read at line 41",
    ),
    # unsafe: the body stores the global the first step donates on `box`
    Invalid(
        _GLOBAL,
        _GLOBAL.replace("@eqx.filter_jit\ndef step", '@eqx.filter_jit(donate="all")\ndef step'),
        fix=_UNSAFE,
        message="at the call of `train` at line 32, the function `peek` reads `START`",
    ),
    # safe: the probe is given arrays and a number only
    Invalid(_ARRAYS, _donated(_ARRAYS)),
)
