"""AO201 cases whose every donated value is proven tiny (`analysis/facts/tiny.py`): the
finding stays, with no fix, since donating a 0-d array or a PRNG key saves nothing;
appended to `ao201_missing_donation`'s."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_NONE = Applicability.NONE
_WORTHLESS = "saves nothing: every array leaf is a 0-d array or a PRNG key"

_STEADY_STATE = """\
import equinox as eqx
import jax.numpy as jnp
import optax


class Decay(eqx.Module):
    steady_state: float

    def __call__(self, y):
        return self.steady_state - y


def loss(model, target):
    return (model(1.0) - target) ** 2


model = Decay(jnp.array(0.0))
target = jnp.array(0.76)
optim = optax.sgd(1e-2, momentum=0.7, nesterov=True)
opt_state = optim.init(model)


@eqx.filter_jit
def make_step(model, opt_state, target):
    grads = eqx.filter_grad(loss)(model, target)
    updates, opt_state = optim.update(grads, opt_state)
    model = eqx.apply_updates(model, updates)
    return model, opt_state


for step in range(100):
    model, opt_state = make_step(model, opt_state, target)
print(target)
"""

_KEY = """\
import jax


@jax.jit
def step(key):
    key, sub = jax.random.split(key)
    return key


key = jax.random.PRNGKey(0)
for _ in range(3):
    key = step(key)
print(key)
"""

_KEY_AND_STATE = """\
import jax
import jax.numpy as jnp


@jax.jit
def step(state, key):
    key, sub = jax.random.split(key)
    return state + jax.random.normal(sub, state.shape), key


state = STATE
key = jax.random.PRNGKey(0)
for _ in range(3):
    state, key = step(state, key)
print(state, key)
"""


def _donated(code: str) -> str:
    """`code` with both arguments of its step donated."""
    return "import functools\n\n" + code.replace(
        "@jax.jit\n", '@functools.partial(jax.jit, donate_argnames=("state", "key"))\n'
    )


_GROWS = """\
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return x + jnp.zeros(1000)


x = jnp.array(0.0)
for _ in range(3):
    x = step(x)
print(x)
"""

INVALID = (
    # fires, no fix: a one-scalar equinox module and its optax state, kept-first donation
    Invalid(
        _STEADY_STATE,
        fix=_NONE,
        message=f"but donating `model`, `opt_state` {_WORTHLESS}",
    ),
    # fires, no fix: an 8-byte PRNG key
    Invalid(_KEY, fix=_NONE, message=f"but donating `key` {_WORTHLESS}"),
    # fires, safe: a key donated with a big state stays donated
    Invalid(
        _KEY_AND_STATE.replace("STATE", "jnp.zeros(1000)"),
        _donated(_KEY_AND_STATE.replace("STATE", "jnp.zeros(1000)")),
        message="donate them (`donate_argnames`)",
    ),
    # fires, safe: a state the size fact does not follow (`linspace`) is not tiny
    Invalid(
        _KEY_AND_STATE.replace("STATE", "jnp.linspace(0.0, 1.0, 7)"),
        _donated(_KEY_AND_STATE.replace("STATE", "jnp.linspace(0.0, 1.0, 7)")),
        message="donate them (`donate_argnames`)",
    ),
    # fires, safe: the step's output is big though its first input is 0-d
    Invalid(
        _GROWS,
        "import functools\n\n"
        + _GROWS.replace("@jax.jit\n", '@functools.partial(jax.jit, donate_argnames=("x",))\n'),
        message="donate it (`donate_argnames`)",
    ),
)
