"""AO201 cases for data values that may hold a model's buffers only through code autoopt
cannot see or a value holding both: a keeper counts only where it holds a value that may
share the model's objects (`Sharing.may_share` in `analysis/facts/aliases.py`), and a
namespace word counts in code and strings, not in comments
(`analysis/facts/reflection.py`); appended to `ao201_missing_donation`'s."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid
from autoopt.rules.examples.ao201_escape import LOOP_THEN_SHOW, LOOP_THEN_SHOW_DONATED

_SAFE, _UNSAFE = Applicability.SAFE, Applicability.UNSAFE


def _commented(code: str) -> str:
    """`code` with a comment naming the namespace readers above its module-level names."""
    return code.replace("loader = Loader(8)", f"{_COMMENT}\nloader = Loader(8)")


_COMMENT = "# Nothing here calls globals(), vars() or sys.modules."

INVALID: tuple[Invalid, ...] = (
    # unsafe: the score holds the model and a batch from unseen code; the jitted `score`
    # sees the batch and the model's non-array leaves as they are and may store one into
    # the other (tests/hazards h1260): neither is proven to hold no buffer outside its
    # array leaves
    Invalid(
        """
import equinox as eqx
import jax
import jax.numpy as jnp
from data import load


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


@eqx.filter_jit
def score(params, batch):
    return jnp.sum(params["w"] * batch)


def main():
    batch = load()
    params = {"w": jnp.ones(3)}
    for _ in range(3):
        total = score(params, batch)
        print(total)
        params = step(params, batch)
    return params
""",
        """
import functools

import equinox as eqx
import jax
import jax.numpy as jnp
from data import load


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


@eqx.filter_jit
def score(params, batch):
    return jnp.sum(params["w"] * batch)


def main():
    batch = load()
    params = {"w": jnp.ones(3)}
    for _ in range(3):
        total = score(params, batch)
        print(total)
        params = step(params, batch)
    return params
""",
        fix=_UNSAFE,
        message="`batch` may hold the buffers of `params` and is passed in the same call",
    ),
    # unsafe: a keeper holds a value two joins away that may hold the model's buffers
    Invalid(
        """
import jax
import jax.numpy as jnp
from data import load, record


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


def main():
    batch = load()
    params = {"w": jnp.ones(3)}
    for _ in range(3):
        views = [params] + [0]
        history = [views] + [0]
        record(history)
        params = step(params, batch)
    return params
""",
        """
import functools

import jax
import jax.numpy as jnp
from data import load, record


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


def main():
    batch = load()
    params = {"w": jnp.ones(3)}
    for _ in range(3):
        views = [params] + [0]
        history = [views] + [0]
        record(history)
        params = step(params, batch)
    return params
""",
        fix=_UNSAFE,
        message=(
            "`history`, which may hold the buffers of `params`, is handed to `record`, "
            "which may keep it"
        ),
    ),
    # safe: namespace words in a comment only; no code reads the module's namespace
    Invalid(_commented(LOOP_THEN_SHOW), _commented(LOOP_THEN_SHOW_DONATED)),
    # unsafe: a word in a string still counts (`getattr(builtins, "globals")`)
    Invalid(
        """
import builtins

import jax
import jax.numpy as jnp
from data import Loader, show

SPACE = getattr(builtins, "globals")()
loader = Loader(8)
params = {"w": jnp.ones(3)}


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
show(params["w"])
""",
        """
import builtins
import functools

import jax
import jax.numpy as jnp
from data import Loader, show

SPACE = getattr(builtins, "globals")()
loader = Loader(8)
params = {"w": jnp.ones(3)}


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
show(params["w"])
""",
        fix=_UNSAFE,
        message="`params` is a global and the module may hand out its own namespace (`globals`)",
    ),
)
