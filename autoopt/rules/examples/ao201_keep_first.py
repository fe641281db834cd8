"""AO201 cases for an `eqx.filter_jit` step that must keep some arguments: they are passed
first (packed in a tuple when several) and `donate="all-except-first"` donates the rest;
appended to `ao201_missing_donation`'s."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_UNSAFE, _NONE = Applicability.UNSAFE, Applicability.NONE

_STEP = """import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit
def step(model, xs, ys):
    grad = jax.grad(lambda w: jnp.mean((xs @ w - ys) ** 2))(model)
    return model - 0.1 * grad
"""
_MOVED = """import equinox as eqx
import jax
import jax.numpy as jnp


@eqx.filter_jit(donate="all-except-first")
def step(undonated, model):
    xs, ys = undonated
    grad = jax.grad(lambda w: jnp.mean((xs @ w - ys) ** 2))(model)
    return model - 0.1 * grad
"""
_MAIN = """

def main():
    xs, ys = jnp.ones((4, 3)), jnp.ones(4)
    model = jnp.zeros(3)
    for _ in range(3):
        model = step(model, xs, ys)
    return model
"""
_KEPT = "cannot be passed first: "


def _moved(main: str, call: str, old: str = "step(model, xs, ys)", **kw) -> Invalid:
    """`_STEP` with `main`, rewritten to `_MOVED` and the call `old` to `call`."""
    after = main.replace(old, call)
    return Invalid(_STEP + main, _MOVED + after, **kw)


def _refused(code: str, why: str) -> Invalid:
    return Invalid(code, None, fix=_NONE, message=_KEPT + why)


INVALID = (
    # fires, safe: the dataset is read by every step, so it is kept: packed, passed first
    _moved(
        _MAIN,
        "step((xs, ys), model)",
        message="keep `xs`, `ys` from donation by passing them first in a tuple",
    ),
    # fires, safe: keyword arguments, kept ones among them, are passed first by position
    _moved(
        _MAIN.replace("step(model, xs, ys)", "step(model, ys=ys, xs=xs)"),
        "step((xs, ys), model)",
        "step(model, ys=ys, xs=xs)",
        message='donate the rest (`donate="all-except-first"`)',
    ),
    # fires, safe: one kept argument moves first as it is (annotation and all); the layout
    # of a call written one argument a line is kept
    Invalid(
        """import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def step(
    state: jnp.ndarray,
    table: jnp.ndarray,
    scale: float,
):
    \"\"\"One update.\"\"\"
    return state + scale * table.sum(0)


def main():
    table = jnp.ones((4, 3))
    state = jnp.zeros(3)
    for _ in range(3):
        state = step(
            state,
            table,
            0.5,
        )
    return state, table
""",
        """import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit(donate="all-except-first")
def step(
    table: jnp.ndarray,
    state: jnp.ndarray,
    scale: float,
):
    \"\"\"One update.\"\"\"
    return state + scale * table.sum(0)


def main():
    table = jnp.ones((4, 3))
    state = jnp.zeros(3)
    for _ in range(3):
        state = step(
            table,
            state,
            0.5,
        )
    return state, table
""",
        message="keep `table` from donation by passing it first and donate the rest",
    ),
    # fires, unsafe: the unpacking goes after the docstring; every call is updated (the
    # state a first call returns is not proven to share no buffer with its `key`)
    Invalid(
        """import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit
def step(state, key, x):
    \"\"\"One update.\"\"\"
    return state + x * key.sum()


def main():
    key = jnp.ones(2)
    x = jnp.ones(3)
    state = jnp.zeros(3)
    for _ in range(3):
        state = step(state, key, x)
    state = step(state, key, x)
    return state
""",
        """import equinox as eqx
import jax.numpy as jnp


@eqx.filter_jit(donate="all-except-first")
def step(undonated, state):
    \"\"\"One update.\"\"\"
    key, x = undonated
    return state + x * key.sum()


def main():
    key = jnp.ones(2)
    x = jnp.ones(3)
    state = jnp.zeros(3)
    for _ in range(3):
        state = step((key, x), state)
    state = step((key, x), state)
    return state
""",
        fix=_UNSAFE,
        # `key` is proven apart from `state` (facts/escape.py); the premise left is the
        # second call's input, an output of the `filter_jit` step
        message="unsafe: cannot prove the leaves of `state` are distinct buffers "
        "(`step(state, key, x)`)",
    ),
    # fires, safe: the kept `images.sum(0)` moves before the local name `model`, which no
    # evaluation can rebind
    Invalid(
        _STEP
        + """

def main(images):
    ys = jnp.ones(4)
    model = jnp.zeros(3)
    for _ in range(3):
        model = step(model, images.sum(0), ys)
    return model, ys
""",
        _MOVED
        + """

def main(images):
    ys = jnp.ones(4)
    model = jnp.zeros(3)
    for _ in range(3):
        model = step((images.sum(0), ys), model)
    return model, ys
""",
        message="keep `xs`, `ys` from donation",
    ),
    # no fix: `step` is called from another module too, which would pass its old order
    Invalid(
        _STEP + _MAIN,
        None,
        fix=_NONE,
        message=_KEPT + "`train.py` may import this module and call `step`",
        files={"train.py": "from main import step\n"},
    ),
    # no fix: `step` is handed to other code as a value
    _refused(
        _STEP + _MAIN.replace("    return model\n", "    return model, run(step)\n"),
        "`step` is used other than called",
    ),
    # no fix: `functools.partial` of `step` binds its arguments by position
    _refused(
        "import functools\n"
        + _STEP
        + _MAIN.replace("    return model\n", "    return functools.partial(step, model)\n"),
        "`step` is used other than called",
    ),
    # no fix: `step.lower(...)` reads the jitted function's attribute
    _refused(
        _STEP + _MAIN.replace("    return model\n", "    return step.lower(model, xs, ys)\n"),
        "`step` is used other than called",
    ),
    # no fix: a kept argument is returned: the output replacing the donated model may be it
    _refused(
        _STEP.replace("return model - 0.1 * grad", "return model - 0.1 * grad, ys")
        + _MAIN.replace("model = step(model, xs, ys)", "model, last = step(model, xs, ys)").replace(
            "    return model\n", "    return model, last\n"
        ),
        "`step` returns `ys`, which it keeps",
    ),
    # no fix: a call spreads `*args`, which bind by position
    _refused(
        _STEP + _MAIN.replace("step(model, xs, ys)", "step(model, *(xs, ys))"),
        "the call at line 16 passes `*args`, `**kwargs` or too many arguments",
    ),
    # no fix: two calls made as arguments would run in another order
    _refused(
        _STEP.replace("def step(model, ", "def step(model, n, ")
        + _MAIN.replace("step(model, xs, ys)", "step(model, float(len(xs)), next(it), ys)").replace(
            "    model = jnp.zeros(3)\n", "    model = jnp.zeros(3)\n    it = iter([xs] * 3)\n"
        ),
        "the call at line 17 evaluates `float(len(xs))` before `next(it)`",
    ),
    # no fix: a kept parameter with a default cannot go first
    _refused(
        _STEP.replace("def step(model, xs, ys)", "def step(model, xs, ys=None)") + _MAIN,
        "`ys` is keyword-only or has a default",
    ),
    # no fix: a comment between the arguments would be detached from its argument
    _refused(
        _STEP
        + _MAIN.replace(
            "step(model, xs, ys)",
            "step(\n            model,  # the weights\n            xs,\n            ys,\n        )",
        ),
        "a comment sits between the arguments of the call at line 16",
    ),
)
