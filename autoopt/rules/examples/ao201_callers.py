"""AO201 cases on the caller's array (issue 26): a jitted step's first call inside a
function donates the array that function was given, which is safe only when every
caller of the function is known and lets the value go. `ao201_missing_donation` lists
them after its own."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_SAFE, _UNSAFE = Applicability.SAFE, Applicability.UNSAFE
_DONATES = "the first call donates `state`, the caller's array, which the caller may still read: "

_HEAD = """
import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, x):
    return state * 0.9 + x


def train_epoch(state, xs):
    for x in xs:
        state = train_step(state, x)
    print("epoch done")
    return state

"""


def _program(main: str) -> str:
    return _HEAD + main


def _donated(code: str) -> str:
    """`code` as AO201 rewrites it: `train_step` donates `state`."""
    code = code.replace("@jax.jit", '@functools.partial(jax.jit, donate_argnames=("state",))')
    return "\nimport functools\n" + code


#: Every caller rebinds the state from the call's result: the old one is dead.
REBOUND = _program(
    """
def main():
    state = jnp.zeros(4)
    for _ in range(3):
        state = train_epoch(state, jnp.ones((5, 4)))
    print(state)
"""
)
#: The old state is read after the call.
READ_AFTER = _program(
    """
def main():
    state = jnp.zeros(4)
    new = train_epoch(state, jnp.ones((5, 4)))
    print(state, new)
"""
)
#: `best` keeps the state passed in and is read afterwards.
KEPT = _program(
    """
def main():
    state = jnp.zeros(4)
    best = state
    state = train_epoch(state, jnp.ones((5, 4)))
    print(best, state)
"""
)
#: The function is handed out as a value: its callers are not all known.
PASSED = _program(
    """
def run(epoch, state):
    return epoch(state, jnp.ones((5, 4)))


def main():
    state = jnp.zeros(4)
    state = run(train_epoch, state)
    print(state)
"""
)
#: The same state passed to two calls.
TWICE = _program(
    """
def main():
    state = jnp.zeros(4)
    a = train_epoch(state, jnp.ones((5, 4)))
    b = train_epoch(state, jnp.ones((5, 4)))
    print(a, b)
"""
)
#: In a loop that passes the same old state again on every iteration.
LOOP = _program(
    """
def main():
    state = jnp.zeros(4)
    for _ in range(3):
        new = train_epoch(state, jnp.ones((5, 4)))
    print(new)
"""
)
#: Another file of the project imports the program and keeps what it passes.
_OTHER = """\
import jax.numpy as jnp

from main import train_epoch

start = jnp.zeros(4)
end = train_epoch(start, jnp.ones((5, 4)))
print(start, end)
"""


def _unsafe(code: str, why: str, files: dict[str, str] | None = None) -> Invalid:
    """A case whose donation is unsafe because of `why` (the caller's premise that fails)."""
    return Invalid(code, _donated(code), _UNSAFE, _DONATES + why, files=files or {})


INVALID = (
    Invalid(REBOUND, _donated(REBOUND)),
    _unsafe(
        READ_AFTER,
        "`state`, passed to `train_epoch` at line 20, may be read after the call, at line 21",
    ),
    _unsafe(
        KEPT,
        "at the call of `train_epoch` at line 21, `best` may hold the buffers of "
        "`state` and is read at line 22",
    ),
    _unsafe(PASSED, "`train_epoch` is used other than called, so its callers are not all known"),
    _unsafe(
        TWICE, "`state`, passed to `train_epoch` at line 20, may be read after the call, at line 21"
    ),
    _unsafe(
        LOOP, "`state`, passed to `train_epoch` at line 21, may be read after the call, at line 21"
    ),
    _unsafe(
        REBOUND,
        "`other.py` may import this module and call `train_epoch`",
        {"pyproject.toml": "", "other.py": _OTHER},
    ),
)
