"""AO201 cases for values built from the model that hold it (a closure, a generator a
factory or a method makes, a `functools.partial`, what calling one of them returns), a
property whose setter runs on assignment, and `locals()`; and loaders holding only data,
which keep their safe fix. `ao201_missing_donation` lists them after its own."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_UNSAFE, _NONE = Applicability.UNSAFE, Applicability.NONE

INVALID: tuple[Invalid, ...] = (
    # none: a generator function a factory makes closes over the model; called again
    # after the first call, it yields the donated buffer
    Invalid(
        """
import jax
import jax.numpy as jnp


def make_loader(xs, prior):
    def loader():
        for x in xs:
            yield x, prior

    return loader


@jax.jit
def step(params, x, prior):
    return params - 0.1 * (x * params - prior)


def main():
    xs = jnp.ones((4, 2))
    params = jnp.zeros(2)
    loader = make_loader(xs, params)
    for epoch in range(2):
        for x, prior in loader():
            params = step(params, x, prior)
    return params
""",
        fix=_NONE,
        message="`loader` may hold the buffers of `params` and is read at line 24",
    ),
    # unsafe: `functools.partial` binds the model into the batches it yields
    Invalid(
        """
import functools

import jax
import jax.numpy as jnp


def teacher_batches(xs, teacher):
    for x in xs:
        yield x, teacher


@jax.jit
def step(params, x, teacher):
    return params - 0.1 * (x * params - teacher)


def main():
    xs = jnp.ones((4, 2))
    params = jnp.zeros(2)
    batches = functools.partial(teacher_batches, teacher=params)
    for x, teacher in batches(xs):
        params = step(params, x, teacher)
    return params
""",
        """
import functools

import jax
import jax.numpy as jnp


def teacher_batches(xs, teacher):
    for x in xs:
        yield x, teacher


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, x, teacher):
    return params - 0.1 * (x * params - teacher)


def main():
    xs = jnp.ones((4, 2))
    params = jnp.zeros(2)
    batches = functools.partial(teacher_batches, teacher=params)
    for x, teacher in batches(xs):
        params = step(params, x, teacher)
    return params
""",
        fix=_UNSAFE,
        message="`teacher` may hold the buffers of `params` and is passed in the same call",
    ),
    # unsafe: a method returns a nested generator closing over its argument, the model
    Invalid(
        """
import jax
import jax.numpy as jnp


class DataModule:
    def __init__(self, xs):
        self.xs = xs

    def train_loader(self, prior):
        def batches():
            for x in self.xs:
                yield x, prior

        return batches


@jax.jit
def step(w, x, prior):
    return w - 0.1 * (x * w - prior)


def main():
    dm = DataModule(jnp.ones((4, 2)))
    w = jnp.zeros(2)
    loader = dm.train_loader(prior=w)
    for x, prior in loader():
        w = step(w, x, prior)
    return w
""",
        """
import functools

import jax
import jax.numpy as jnp


class DataModule:
    def __init__(self, xs):
        self.xs = xs

    def train_loader(self, prior):
        def batches():
            for x in self.xs:
                yield x, prior

        return batches


@functools.partial(jax.jit, donate_argnames=("w",))
def step(w, x, prior):
    return w - 0.1 * (x * w - prior)


def main():
    dm = DataModule(jnp.ones((4, 2)))
    w = jnp.zeros(2)
    loader = dm.train_loader(prior=w)
    for x, prior in loader():
        w = step(w, x, prior)
    return w
""",
        fix=_UNSAFE,
        message="`prior` may hold the buffers of `w` and is passed in the same call",
    ),
    # unsafe: assigning a property runs its setter, which keeps every state
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    return w + 0.5 * (x - w)


class Trainer:
    def __init__(self, w):
        self.history = []
        self._w = w

    @property
    def state(self):
        return self._w

    @state.setter
    def state(self, value):
        self.history.append(value)
        self._w = value

    def fit(self, xs):
        for x in xs:
            self.state = step(self.state, x)


def main():
    trainer = Trainer(jnp.zeros(2))
    trainer.fit([jnp.ones(2)] * 3)
    return trainer.history
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("w",))
def step(w, x):
    return w + 0.5 * (x - w)


class Trainer:
    def __init__(self, w):
        self.history = []
        self._w = w

    @property
    def state(self):
        return self._w

    @state.setter
    def state(self, value):
        self.history.append(value)
        self._w = value

    def fit(self, xs):
        for x in xs:
            self.state = step(self.state, x)


def main():
    trainer = Trainer(jnp.zeros(2))
    trainer.fit([jnp.ones(2)] * 3)
    return trainer.history
""",
        fix=_UNSAFE,
        message=(
            "`Trainer.state` (line 17) is a property: assigning `self.state` may run a setter "
            "that keeps the value"
        ),
    ),
    # unsafe: `dict(locals())` takes every local's value, the model's too
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def update(params, x):
    return params - 0.1 * x


def main():
    x = jnp.ones(2)
    params = jnp.zeros(2)
    start = dict(locals())
    for _ in range(3):
        params = update(params, x)
    return params - start["params"]
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("params",))
def update(params, x):
    return params - 0.1 * x


def main():
    x = jnp.ones(2)
    params = jnp.zeros(2)
    start = dict(locals())
    for _ in range(3):
        params = update(params, x)
    return params - start["params"]
""",
        fix=_UNSAFE,
        message="`params` is a local of `main`, and `locals()` at line 14 takes it",
    ),
    # safe: a factory's loader closes over the data only, made before the model
    Invalid(
        """
import jax
import jax.numpy as jnp


def make_loader(xs, ys):
    def loader():
        for x, y in zip(xs, ys):
            yield x, y

    return loader


@jax.jit
def step(params, x, y):
    return params - 0.1 * (x * params - y)


def main():
    xs = jnp.ones((4, 2))
    ys = jnp.zeros((4, 2))
    loader = make_loader(xs, ys)
    params = jnp.zeros(2)
    for epoch in range(2):
        for x, y in loader():
            params = step(params, x, y)
    return params
""",
        """
import functools

import jax
import jax.numpy as jnp


def make_loader(xs, ys):
    def loader():
        for x, y in zip(xs, ys):
            yield x, y

    return loader


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, x, y):
    return params - 0.1 * (x * params - y)


def main():
    xs = jnp.ones((4, 2))
    ys = jnp.zeros((4, 2))
    loader = make_loader(xs, ys)
    params = jnp.zeros(2)
    for epoch in range(2):
        for x, y in loader():
            params = step(params, x, y)
    return params
""",
    ),
    # safe: a partial binding a number yields new batches
    Invalid(
        """
import functools

import jax
import jax.numpy as jnp


def scaled_batches(xs, scale):
    for x in xs:
        yield x * scale


@jax.jit
def step(params, x):
    return params - 0.1 * (x * params)


def main():
    xs = jnp.ones((4, 2))
    params = jnp.zeros(2)
    batches = functools.partial(scaled_batches, scale=2.0)
    for x in batches(xs):
        params = step(params, x)
    return params
""",
        """
import functools

import jax
import jax.numpy as jnp


def scaled_batches(xs, scale):
    for x in xs:
        yield x * scale


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, x):
    return params - 0.1 * (x * params)


def main():
    xs = jnp.ones((4, 2))
    params = jnp.zeros(2)
    batches = functools.partial(scaled_batches, scale=2.0)
    for x in batches(xs):
        params = step(params, x)
    return params
""",
    ),
)
