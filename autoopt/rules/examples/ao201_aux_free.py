"""AO201 cases where an eager compiled call is given the parameters a step replaces:
haiku's `init`, an optax state, a named tuple of the module and the step's own output
hold no aux data, so that call's body sees none of the caller's objects
(`analysis/facts/aux_free.py`; dm-haiku's LSTM and VAE examples); a record with a
static field, a compiled output returning one, and a named tuple the module registers
do. `ao201_missing_donation` lists them after its own."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_UNSAFE = Applicability.UNSAFE

#: dm-haiku's LSTM example: the loss is given the parameters and a batch of the user's
#: loader, whose kind autoopt cannot see.
LOOP = """
import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    return hk.Linear(1)(x)


model = hk.transform(forward)
opt = optax.adam(1e-3)


@jax.jit
def _loss(params, x):
    return jnp.mean(model.apply(params, None, x))


@jax.jit
def _update(params, opt_state, x):
    grads = jax.grad(_loss)(params, x)
    grads, opt_state = opt.update(grads, opt_state)
    params = optax.apply_updates(params, grads)
    return params, opt_state


def train(loader):
    x = next(loader)
    params = model.init(jax.random.key(0), x)
    opt_state = opt.init(params)
    for step in range(4):
        x = next(loader)
        print(_loss(params, x))
        params, opt_state = _update(params, opt_state, x)
    print(params["linear"]["w"])
"""
#: dm-haiku's VAE example: a named tuple state; the loss is given two of its fields.
STATE = """
from typing import NamedTuple

import haiku as hk
import jax
import jax.numpy as jnp
import optax


class TrainingState(NamedTuple):
    params: dict
    opt_state: tuple


def forward(x):
    return hk.Linear(1)(x)


model = hk.transform(forward)
opt = optax.adam(1e-3)


@jax.jit
def _loss(params, x):
    return jnp.mean(model.apply(params, None, x))


@jax.jit
def _update(state, x):
    grads = jax.grad(_loss)(state.params, x)
    updates, opt_state = opt.update(grads, state.opt_state)
    return TrainingState(optax.apply_updates(state.params, updates), opt_state)


def train(loader):
    params = model.init(jax.random.key(0), next(loader))
    state = TrainingState(params, opt.init(params))
    for step in range(4):
        state = _update(state, next(loader))
        print(_loss(state.params, next(loader)))
    print(state.params["linear"]["w"])
"""
#: The parameters reach the loss inside a `flax.struct` record with a static field.
RECORD = (
    LOOP.replace(
        "import optax\n",
        "import optax\nfrom flax import struct\n\n\n@struct.dataclass\nclass Record:\n"
        "    params: dict\n    tag: object = struct.field(pytree_node=False)\n",
    )
    .replace("return jnp.mean(model.apply(params, None, x))", "return jnp.mean(x)")
    .replace("print(_loss(params, x))", "print(_loss(Record(params, x), x))")
)
#: The parameters a compiled pass returns as it was given them, in such a record.
PASSED = (
    RECORD.replace(
        "def train(loader):",
        "@jax.jit\ndef passthrough(tree):\n    return tree\n\n\ndef train(loader):",
    )
    .replace(
        "params = model.init(jax.random.key(0), x)",
        "params = passthrough(Record(model.init(jax.random.key(0), x), x))",
    )
    .replace("print(_loss(Record(params, x), x))", "print(_loss(params, x))")
)
#: The named tuple is registered as a pytree of its own: its aux data is what that makes.
REGISTERED = STATE.replace(
    "\n\ndef forward(x):",
    "\n\njax.tree_util.register_pytree_node(\n    TrainingState, lambda s: (tuple(s), None), "
    "lambda _, c: TrainingState(*c)\n)\n\n\ndef forward(x):",
)


def _donated(code: str, names: str) -> str:
    first = "from typing" if "from typing" in code else "import haiku"
    imported = "\nimport functools\n" + ("" if first == "from typing" else "\n")
    return code.replace(f"\n{first}", f"{imported}{first}", 1).replace(
        "@jax.jit\ndef _update(",
        f"@functools.partial(jax.jit, donate_argnames={names})\ndef _update(",
    )


INVALID = (
    Invalid(LOOP, _donated(LOOP, '("params", "opt_state")')),
    Invalid(STATE, _donated(STATE, '("state",)')),
    Invalid(
        RECORD,
        _donated(RECORD, '("params", "opt_state")'),
        fix=_UNSAFE,
        message="unsafe: `x` may hold the buffers of `params` and is passed in the same call",
    ),
    Invalid(
        PASSED,
        _donated(PASSED, '("params", "opt_state")'),
        fix=_UNSAFE,
        message="unsafe: `x` may hold the buffers of `params` and is passed in the same call",
    ),
    Invalid(
        REGISTERED,
        _donated(REGISTERED, '("state",)'),
        fix=_UNSAFE,
        message="unsafe: `loader` may hold the buffers of `state`",
    ),
)
