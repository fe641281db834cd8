"""AO103 examples, the step form: the leading device lines of the body as one jitted step
function.
"""

from autoopt.rules.base import Invalid

DIFFUSE = Invalid(
    """
import jax.numpy as jnp


def laplacian(u):
    return jnp.roll(u, 1) + jnp.roll(u, -1) - 2 * u


def diffuse(u, steps):
    for _ in range(steps):
        du = laplacian(u)
        u = u + 0.1 * du
    return u


def main():
    return diffuse(jnp.zeros(64).at[32].set(1.0), 100)
""",
    expected="""
import jax
import jax.numpy as jnp


def laplacian(u):
    return jnp.roll(u, 1) + jnp.roll(u, -1) - 2 * u


@jax.jit
def _diffuse_step(u):
    du = laplacian(u)
    u = u + 0.1 * du
    return u


def diffuse(u, steps):
    for _ in range(steps):
        u = _diffuse_step(u)
    return u


def main():
    return diffuse(jnp.zeros(64).at[32].set(1.0), 100)
""",
    message="`_diffuse_step`",
)


SIMULATE = Invalid(
    """
from typing import NamedTuple

import jax.numpy as jnp


class State(NamedTuple):
    pos: jnp.ndarray
    vel: jnp.ndarray


def simulate(state, steps):
    for _ in range(steps):
        vel = state.vel - 0.01 * state.pos
        state = State(state.pos + 0.01 * vel, vel)
    return state


def main():
    return simulate(State(jnp.ones(3), jnp.zeros(3)), 50)
""",
    expected="""
from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    pos: jnp.ndarray
    vel: jnp.ndarray


@jax.jit
def _simulate_step(state):
    vel = state.vel - 0.01 * state.pos
    state = State(state.pos + 0.01 * vel, vel)
    return state


def simulate(state, steps):
    for _ in range(steps):
        state = _simulate_step(state)
    return state


def main():
    return simulate(State(jnp.ones(3), jnp.zeros(3)), 50)
""",
    message="`_simulate_step`",
)


SMOOTH = Invalid(
    """
import jax.numpy as jnp


def smooth(x, steps):
    history = [x]
    for _ in range(steps):
        dx = jnp.roll(x, 1) - x
        x = x + 0.5 * dx
    history.append(x)
    return history


def main():
    return smooth(jnp.arange(8.0), 10)
""",
    expected="""
import jax
import jax.numpy as jnp


@jax.jit
def _smooth_step(x):
    dx = jnp.roll(x, 1) - x
    x = x + 0.5 * dx
    return x


def smooth(x, steps):
    history = [x]
    for _ in range(steps):
        x = _smooth_step(x)
    history.append(x)
    return history


def main():
    return smooth(jnp.arange(8.0), 10)
""",
    message="`_smooth_step`",
)


RELAX = Invalid(
    """
import jax.numpy as jnp


def relax(x, tol):
    for step in range(100):
        dx = jnp.sin(x)
        x = x - 0.1 * dx
        if float(jnp.abs(dx).max()) < tol:
            break
    return x


def main():
    return relax(jnp.ones(3), 1e-3)
""",
    expected="""
import jax
import jax.numpy as jnp


@jax.jit
def _relax_step(x):
    dx = jnp.sin(x)
    x = x - 0.1 * dx
    return dx, x


def relax(x, tol):
    for step in range(100):
        dx, x = _relax_step(x)
        if float(jnp.abs(dx).max()) < tol:
            break
    return x


def main():
    return relax(jnp.ones(3), 1e-3)
""",
    message="`_relax_step`",
)


TRAIN = Invalid(
    """
import jax.numpy as jnp


def train(w, x, y, steps):
    losses = []
    for step in range(steps):
        err = x @ w - y
        loss = jnp.mean(err**2)
        w = w - 0.01 * x.T @ err
        losses.append(loss)
        if step % 10 == 0:
            print(step, float(loss))
    return w, losses


def main():
    return train(jnp.zeros(3), jnp.ones((8, 3)), jnp.ones(8), 30)
""",
    expected="""
import jax
import jax.numpy as jnp


@jax.jit
def _train_step(w, x, y):
    err = x @ w - y
    loss = jnp.mean(err**2)
    w = w - 0.01 * x.T @ err
    return loss, w


def train(w, x, y, steps):
    losses = []
    for step in range(steps):
        loss, w = _train_step(w, x, y)
        losses.append(loss)
        if step % 10 == 0:
            print(step, float(loss))
    return w, losses


def main():
    return train(jnp.zeros(3), jnp.ones((8, 3)), jnp.ones(8), 30)
""",
    message="`_train_step`",
)
