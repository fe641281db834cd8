"""AO201 cases for another argument of the same call that may hold the donated
argument's buffers: a name that only ever holds a number, a shape or a string holds
none (`analysis/facts/bufferless.py`), and two values a third holds share nothing
through it unless something changes one in place (`Sharing.may_share` in
`analysis/facts/aliases.py`); appended to `ao201_missing_donation`'s."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_SAFE, _NONE = Applicability.SAFE, Applicability.NONE

INVALID: tuple[Invalid, ...] = (
    # safe: `t1` is a Python number the state holds too; a number holds no buffer
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(state, t1):
    return {"w": state["w"] * state["t"] / t1, "t": state["t"]}


def main(t1=10.0):
    state = {"w": jnp.ones(3), "t": t1}
    for _ in range(3):
        state = step(state, t1)
    return state


main()
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("state",))
def step(state, t1):
    return {"w": state["w"] * state["t"] / t1, "t": state["t"]}


def main(t1=10.0):
    state = {"w": jnp.ones(3), "t": t1}
    for _ in range(3):
        state = step(state, t1)
    return state


main()
""",
    ),
    # safe: two states built from one size share no buffer through it
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(state, other):
    return {"w": state["w"] + other["w"].sum(), "n": state["n"]}


def build(size, scale):
    return {"w": jnp.ones(size) * scale, "n": size}


def main():
    size = 3
    state = build(size, 2.0)
    other = build(size, 3.0)
    for _ in range(3):
        state = step(state, other)
    return state, other
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("state",))
def step(state, other):
    return {"w": state["w"] + other["w"].sum(), "n": state["n"]}


def build(size, scale):
    return {"w": jnp.ones(size) * scale, "n": size}


def main():
    size = 3
    state = build(size, 2.0)
    other = build(size, 3.0)
    for _ in range(3):
        state = step(state, other)
    return state, other
""",
    ),
    # no fix: `scale` is a number on one path and an array of the state on the other
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(state, scale):
    return {"w": state["w"] * scale}


def main(flag):
    state = {"w": jnp.ones(3)}
    scale = 2.0
    if flag:
        scale = state["w"]
    for _ in range(3):
        state = step(state, scale)
    return state
""",
        None,
        fix=_NONE,
        message="`scale` may hold the buffers of `state` and is passed in the same call",
    ),
    # no fix: a comprehension reuses the number's name for the state's arrays
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(state, extra):
    return [w + extra[0].sum() for w in state]


def main():
    w = 2.0
    state = [jnp.ones(3), jnp.zeros(3)]
    extra = [w for w in state]
    for _ in range(3):
        state = step(state, extra)
    return state
""",
        None,
        fix=_NONE,
        message="`extra` may hold the buffers of `state` and is passed in the same call",
    ),
    # safe: a list holds both models; neither holds the other's buffers
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(gen, disc):
    return {"w": gen["w"] - 0.1 * disc["w"]}


def main(fill):
    gen = {"w": jnp.ones(3)}
    disc = {"w": jnp.zeros(3)}
    models = [gen, disc]
    print(len(models))
    for _ in range(3):
        gen = step(gen, disc)
    return gen, disc
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("gen",))
def step(gen, disc):
    return {"w": gen["w"] - 0.1 * disc["w"]}


def main(fill):
    gen = {"w": jnp.ones(3)}
    disc = {"w": jnp.zeros(3)}
    models = [gen, disc]
    print(len(models))
    for _ in range(3):
        gen = step(gen, disc)
    return gen, disc
""",
    ),
    # no fix: a store through the list puts `gen`'s array into `disc`
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(gen, disc):
    return {"w": gen["w"] - 0.1 * disc["w"]}


def main(fill):
    gen = {"w": jnp.ones(3)}
    disc = {"w": jnp.zeros(3)}
    models = [gen, disc]
    models[1]["w"] = gen["w"]
    print(len(models))
    for _ in range(3):
        gen = step(gen, disc)
    return gen, disc
""",
        None,
        fix=_NONE,
        message="`disc` may hold the buffers of `gen` and is passed in the same call",
    ),
    # no fix: code autoopt cannot see is given both and may put one into the other
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(gen, disc):
    return {"w": gen["w"] - 0.1 * disc["w"]}


def main(fill):
    gen = {"w": jnp.ones(3)}
    disc = {"w": jnp.zeros(3)}
    models = [gen, disc]
    fill(models)
    print(len(models))
    for _ in range(3):
        gen = step(gen, disc)
    return gen, disc
""",
        None,
        fix=_NONE,
        message="`disc` may hold the buffers of `gen` and is passed in the same call",
    ),
)
