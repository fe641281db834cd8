"""AO201 cases on a global that shadows a module (issue 26): a notebook imports
`train_state` from flax, defines `create_train_state` reading `train_state.TrainState`,
then rebinds the name to the state it donates. The function reads the global, but only
while it still holds the module when every call of it comes before the rebinding; called
after it, in a loop with it or from a function, it may read the donated state. A module
that imports `signature` from `inspect` does not hand out its namespace; `inspect` itself,
or `signature(f, eval_str=True)`, may. `ao201_missing_donation` lists them after its
own."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE
_READS = "the function `create_train_state` reads `train_state`"

_HEAD = """
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


@jax.jit
def train_step(state, x):
    grads = jax.tree.map(lambda p: p * x.mean(), state.params)
    return state.apply_gradients(grads=grads)


def create_train_state(lr):
    params = {"w": jnp.zeros(3)}
    return train_state.TrainState.create(apply_fn=None, params=params, tx=optax.sgd(lr))

"""

#: The notebook's shape: made once, before the name is rebound, then trained.
SHADOWED = (
    _HEAD
    + """
train_state = create_train_state(0.1)
for _ in range(3):
    train_state = train_step(train_state, jnp.ones(3))
print(train_state.params)
"""
)
#: Made again after training: the function then reads the donated state (and fails).
AGAIN = (
    _HEAD
    + """
train_state = create_train_state(0.1)
for _ in range(3):
    train_state = train_step(train_state, jnp.ones(3))
train_state = create_train_state(0.2)
"""
)
#: Made in the loop that rebinds the name: the second iteration reads the state.
IN_LOOP = (
    _HEAD
    + """
for lr in (0.1, 0.2):
    train_state = create_train_state(lr)
    train_state = train_step(train_state, jnp.ones(3))
"""
)
#: Called from a function, which may run at any time.
FROM_FUNCTION = (
    _HEAD
    + """
def restart():
    return create_train_state(0.3)


train_state = create_train_state(0.1)
for _ in range(3):
    train_state = train_step(train_state, jnp.ones(3))
restart()
"""
)
#: A function declares the name `global`: it may bind it to anything before a call.
DECLARED = (
    _HEAD
    + """
def reset(value):
    global train_state
    train_state = value


train_state = create_train_state(0.1)
for _ in range(3):
    train_state = train_step(train_state, jnp.ones(3))
reset(None)
"""
)
#: `signature` of `inspect` reads only the function it is given.
_SIGNATURE = "from inspect import signature\n\nprint(signature(jnp.zeros))\n"
#: `eval_str=True` evaluates string annotations in the function's globals.
_EVALUATED = "from inspect import signature\n\nprint(signature(jnp.zeros, eval_str=True))\n"


def _donated(code: str) -> str:
    """`code` as AO201 rewrites it: `train_step` donates `state`."""
    code = code.replace("@jax.jit", '@functools.partial(jax.jit, donate_argnames=("state",))')
    return "\nimport functools\n" + code


def _with(extra: str) -> str:
    """`SHADOWED` with `extra` before the state is made."""
    made = "\ntrain_state = create_train_state"
    return SHADOWED.replace(made, "\n" + extra + made)


INVALID = (
    Invalid(SHADOWED, _donated(SHADOWED)),
    Invalid(AGAIN, None, _NONE, _READS),
    Invalid(IN_LOOP, None, _NONE, _READS),
    Invalid(FROM_FUNCTION, None, _NONE, _READS),
    Invalid(DECLARED, None, _NONE, _READS),
    Invalid(_with(_SIGNATURE), _donated(_with(_SIGNATURE))),
    Invalid(
        _with(_EVALUATED),
        _donated(_with(_EVALUATED)),
        _UNSAFE,
        "the module may hand out its own namespace (`inspect`)",
    ),
    Invalid(
        _with("import inspect\n\nprint(inspect.signature(jnp.zeros))\n"),
        _donated(_with("import inspect\n\nprint(inspect.signature(jnp.zeros))\n")),
        _UNSAFE,
        "the module may hand out its own namespace (`inspect`)",
    ),
)
