"""AO103 examples, the step form with the carried arrays donated (`donate_argnames`)."""

from autoopt.rules.base import Invalid

RNN_CELL = Invalid(
    """
import jax.numpy as jnp


def cell(w, h, x):
    return jnp.tanh(h @ w + x)


def run(w, xs):
    h = jnp.zeros(8)
    out = jnp.zeros((xs.shape[0], 8))
    for t in range(xs.shape[0]):
        h = cell(w, h, xs[t])
        out = out.at[t].set(h)
    return out


def main():
    return run(jnp.eye(8), jnp.ones((5, 8)))
""",
    expected="""
import functools

import jax
import jax.numpy as jnp


def cell(w, h, x):
    return jnp.tanh(h @ w + x)


@functools.partial(jax.jit, donate_argnames=("h", "out"))
def _run_step(t, h, out, w, xs):
    h = cell(w, h, xs[t])
    out = out.at[t].set(h)
    return h, out


def run(w, xs):
    h = jnp.zeros(8)
    out = jnp.zeros((xs.shape[0], 8))
    for t in range(xs.shape[0]):
        h, out = _run_step(t, h, out, w, xs)
    return out


def main():
    return run(jnp.eye(8), jnp.ones((5, 8)))
""",
    message="donating `h`, `out`",
    doc=True,
)


MODULE_UNTYPED_TEMPORARY = Invalid(
    """
import jax.numpy as jnp

w = jnp.ones(3)
target = jnp.arange(3.0)
for _ in range(10):
    grad = 2 * (w - target)
    loss = jnp.sum(grad**2)
    w = w - 0.1 * grad
print(w, loss)
""",
    expected="""
import functools

import jax
import jax.numpy as jnp

w = jnp.ones(3)
target = jnp.arange(3.0)


@functools.partial(jax.jit, donate_argnames=("w",))
def _step(w):
    grad = 2 * (w - target)
    loss = jnp.sum(grad**2)
    w = w - 0.1 * grad
    return grad, loss, w


for _ in range(10):
    grad, loss, w = _step(w)
print(w, loss)
""",
    message="cannot prove `loss` has the shape and dtype of a carried name",
)


CENTER = Invalid(
    """
import jax.numpy as jnp


def center(data):
    total = jnp.zeros(4)
    for row in data:
        shifted = row - 1.0
        total = total + shifted * shifted
    return total


def main():
    return center(jnp.ones((6, 4)))
""",
    expected="""
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("total",))
def _center_step(row, total):
    shifted = row - 1.0
    total = total + shifted * shifted
    return total


def center(data):
    total = jnp.zeros(4)
    for row in data:
        total = _center_step(row, total)
    return total


def main():
    return center(jnp.ones((6, 4)))
""",
    message="donating `total`",
)
