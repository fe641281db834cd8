"""AO401 inplace-update: the cases tests/test_rule_examples.py runs.

The one INVALID case flagged `doc=True` is the example its documentation shows.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

VALID = (
    Valid(
        """
import jax.numpy as jnp

x = jnp.zeros(10)
x = x.at[3].set(1.0)
""",
        "not in a loop",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

@jax.jit
def fill(x):
    for i in range(4):
        x = x.at[i].set(i)
    return x
""",
        "inside jit the update is already in place",
    ),
    Valid(
        """
import jax.numpy as jnp

for i in range(4):
    y = x.at[i].set(0.0)
""",
        "not an accumulating update",
    ),
    Valid(
        """
import jax.numpy as jnp

for i in range(4):
    x = x.at[i].get()
""",
        "a read, not an update",
    ),
    Valid(
        """
import jax.numpy as jnp

for i in range(4):
    x = x.at[i].set(1.0, mode="drop")
""",
        "options the helper would have to forward",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def fill(x):
    for i in range(4):
        x = x.at[i].set(i)
    return x

fast = jax.jit(fill)
""",
        "jitted where it is used",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

@jax.jit
def outer(x):
    def body(x):
        for i in range(4):
            x = x.at[i].set(i)
        return x
    return body(x)
""",
        "nested in a jitted function",
    ),
    Valid(
        """
import jax.numpy as jnp

for i in range(4):
    x = x.at[i].apply(jnp.sin)
""",
        "`apply` takes a function",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

def body(i, x):
    return x.at[i].set(1.0)

y = jax.lax.fori_loop(0, 4, body, jnp.zeros(4))
""",
        "already a fori_loop body",
    ),
    Valid(
        """
import jax.numpy as jnp

def widen(x, n):
    for i in range(n):
        x = jnp.concatenate([x[:i], jnp.zeros(2), x[i + 1:]])
    return x
""",
        "a value of 2 rows over 1 removed row resizes the array: not an update",
    ),
    Valid(
        """
import jax.numpy as jnp

def insert(x, row, n):
    for i in range(n):
        x = jnp.concatenate([x[:i], row[None], x[i:]])
    return x
""",
        "inserts without removing a row: the array grows",
    ),
    Valid(
        """
import jax.numpy as jnp

def mix(x, y, row):
    for i in range(4):
        x = jnp.concatenate([x[:i], row[None], y[i + 1:]])
    return x
""",
        "the pieces come from different arrays",
    ),
    Valid(
        """
import jax.numpy as jnp

def shift(x, row):
    for i in range(4):
        j = i + 1
        x = jnp.concatenate([x[:i], row[None], x[j + 1:]])
    return x
""",
        "the two slices use different indices",
    ),
    Valid(
        """
import jax.numpy as jnp

def cols(x, col):
    for i in range(4):
        x = jnp.concatenate([x[:i], col[None], x[i + 1:]], axis=1)
    return x
""",
        "joined on axis 1 while the slices cut axis 0",
    ),
    Valid(
        """
import jax.numpy as jnp

def cols(x, col):
    for i in range(4):
        x = jnp.concatenate([x[:, :i], col[:, None], x[:, i + 1:]], axis=1)
    return x
""",
        "a splice on axis 1 is not handled",
    ),
    Valid(
        """
import jax.numpy as jnp

def pick(t):
    return t % 3

def ring(x, row):
    for t in range(9):
        x = jnp.concatenate([x[:pick(t)], row[None], x[pick(t) + 1:]])
    return x
""",
        "the start calls a function, which the two slices call twice",
    ),
    Valid(
        """
import numpy as np

x = np.zeros(5)
for i in range(5):
    x = np.concatenate([x[:i], np.ones(1), x[i + 1:]])
""",
        "NumPy, not JAX",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

@jax.jit
def fill(x):
    for i in range(x.shape[0]):
        x = jnp.concatenate([x[:i], jnp.ones(1), x[i + 1:]])
    return x
""",
        "inside jit the splice is already in place",
    ),
    Valid(
        """
import jax.numpy as jnp

def fill(n):
    x = jnp.zeros(n)
    for i in range(n):
        x = jnp.concatenate([x[:i], jnp.ones(1), x[i + 1:]], dtype=jnp.float16)
    return x
""",
        "`dtype=` the helper would have to forward",
    ),
)

INVALID = (
    Invalid(
        """
import jax.numpy as jnp

def smooth(xs):
    out = jnp.zeros(xs.shape)
    h = jnp.zeros(xs.shape[1:])
    for t in range(xs.shape[0]):
        h = 0.9 * h + 0.1 * xs[t]
        out = out.at[t].set(h)
    return out

result = smooth(jnp.arange(24.0).reshape(8, 3))
""",
        """
import jax
import jax.numpy as jnp


@jax.jit
def smooth(xs):
    out = jnp.zeros(xs.shape)
    h = jnp.zeros(xs.shape[1:])

    def body(t, carry):
        h, out = carry
        h = 0.9 * h + 0.1 * xs[t]
        out = out.at[t].set(h)
        return h, out

    h, out = jax.lax.fori_loop(0, xs.shape[0], body, (h, out))
    return out

result = smooth(jnp.arange(24.0).reshape(8, 3))
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def extremes(xs):
    lo = jnp.zeros(xs.shape[0])
    hi = jnp.zeros(xs.shape[0])
    for i in range(xs.shape[0]):
        row = xs[i]
        lo = lo.at[i].set(row.min())
        hi = hi.at[i].set(row.max())
    return lo, hi
""",
        """
import jax
import jax.numpy as jnp


@jax.jit
def extremes(xs):
    lo = jnp.zeros(xs.shape[0])
    hi = jnp.zeros(xs.shape[0])

    def body(i, carry):
        lo, hi = carry
        row = xs[i]
        lo = lo.at[i].set(row.min())
        hi = hi.at[i].set(row.max())
        return lo, hi

    lo, hi = jax.lax.fori_loop(0, xs.shape[0], body, (lo, hi))
    return lo, hi
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

def fill(n):
    out = jnp.zeros((n, 3))
    for t in range(n):
        out = out.at[t].set(jnp.ones(3) * t)
    return out
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_set_at(array, index, value):
    return array.at[index].set(value)


def fill(n):
    out = jnp.zeros((n, 3))
    for t in range(n):
        out = out_set_at(out, t, jnp.ones(3) * t)
    return out
""",
        doc=True,
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

grid = jnp.zeros((8, 8))
for i in range(8):
    for j in range(8):
        grid = grid.at[i, 7 - j].add(i * j)
""",
        """
import functools

import jax
import jax.numpy as jnp

grid = jnp.zeros((8, 8))


@functools.partial(jax.jit, donate_argnames=("array",))
def grid_add_at(array, index, value):
    return array.at[index].add(value)


for i in range(8):
    for j in range(8):
        grid = grid_add_at(grid, (i, 7 - j), i * j)
""",
    ),
    Invalid(
        """
import functools
import jax
import jax.numpy as jnp

def decay(n):
    w = jnp.ones(n)
    for k in range(1, n):
        w = w.at[k].multiply(0.5)
    total = w.sum()
    return w, total
""",
        """
import functools
import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def w_multiply_at(array, index, value):
    return array.at[index].multiply(value)


def decay(n):
    w = jnp.ones(n)
    for k in range(1, n):
        w = w_multiply_at(w, k, 0.5)
    total = w.sum()
    return w, total
""",
    ),
    Invalid(
        """
import functools
import jax
import jax.numpy as jnp

def running_max(xs):
    best = jnp.full((4,), -jnp.inf)
    for i in range(12):
        best = best.at[i % 4].max(xs[i])
    return best
""",
        """
import functools
import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def best_max_at(array, index, value):
    return array.at[index].max(value)


def running_max(xs):
    best = jnp.full((4,), -jnp.inf)
    for i in range(12):
        best = best_max_at(best, i % 4, xs[i])
    return best
""",
    ),
    Invalid(
        """
import functools
import jax
import jax.numpy as jnp

def write(x, rows):
    for i in range(len(rows)):
        x = x.at[i].set(rows[i])
    return x
""",
        """
import functools
import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def x_set_at(array, index, value):
    return array.at[index].set(value)


def write(x, rows):
    for i in range(len(rows)):
        x = x_set_at(x, i, rows[i])
    return x
""",
        fix=Applicability.UNSAFE,
        message="`x` is not created in this scope",
    ),
    Invalid(
        """
import functools
import jax
import jax.numpy as jnp

def scatter(idx, vals):
    out = jnp.zeros(100)
    for k in range(10):
        out = out.at[idx[k]].set(vals[k])
    return out
""",
        """
import functools
import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_set_at(array, index, value):
    return array.at[index].set(value)


def scatter(idx, vals):
    out = jnp.zeros(100)
    for k in range(10):
        out = out_set_at(out, idx[k], vals[k])
    return out
""",
        fix=Applicability.UNSAFE,
        message="cannot prove the index",
    ),
    Invalid(
        """
import functools
import jax
import jax.numpy as jnp

def blocks(n, k):
    out = jnp.zeros((n * k, 2))
    for b in range(n):
        out = out.at[b * k:(b + 1) * k].set(jnp.ones((k, 2)) * b)
    return out
""",
        """
import functools
import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_update_slice(array, start, value):
    return jax.lax.dynamic_update_slice_in_dim(
        array, jnp.asarray(value, array.dtype), start, 0
    )


def blocks(n, k):
    out = jnp.zeros((n * k, 2))
    for b in range(n):
        out = out_update_slice(out, b * k, jnp.ones((k, 2)) * b)
    return out
""",
        fix=Applicability.UNSAFE,
        message="clamps",
    ),
    Invalid(
        """
import functools
import jax
import jax.numpy as jnp

def fill(n):
    out = jnp.zeros(n)
    first = out
    for i in range(n):
        out = out.at[i].set(i)
    return first, out
""",
        """
import functools
import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_set_at(array, index, value):
    return array.at[index].set(value)


def fill(n):
    out = jnp.zeros(n)
    first = out
    for i in range(n):
        out = out_set_at(out, i, i)
    return first, out
""",
        fix=Applicability.UNSAFE,
        message="read before the loop",
    ),
    Invalid(
        """
import jax.numpy as jnp

def fill(n):
    out = jnp.zeros(n)
    for i in range(n):
        out = out.at[i].set(i)
        snapshot = out
    return snapshot
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_set_at(array, index, value):
    return array.at[index].set(value)


def fill(n):
    out = jnp.zeros(n)
    for i in range(n):
        out = out_set_at(out, i, i)
        snapshot = out
    return snapshot
""",
        fix=Applicability.UNSAFE,
        message="read elsewhere in the loop",
    ),
    Invalid(
        """
import jax.numpy as jnp

def strided(n):
    out = jnp.zeros(n)
    for i in range(n):
        out = out.at[::2].add(i)
    return out
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_add_at(array, value):
    return array.at[::2].add(value)


def strided(n):
    out = jnp.zeros(n)
    for i in range(n):
        out = out_add_at(out, i)
    return out
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

def strided(n, k):
    out = jnp.zeros(n)
    for i in range(n):
        out = out.at[::k].add(i)
    return out
""",
        fix=Applicability.NONE,
        message="a stepped slice whose bounds are not integer literals",
    ),
    Invalid(
        """
import jax.numpy as jnp

def cols(n):
    out = jnp.zeros((n, n))
    for i in range(n):
        out = out.at[:, i].set(1.0)
    return out
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_set_at(array, index, value):
    return array.at[:, index].set(value)


def cols(n):
    out = jnp.zeros((n, n))
    for i in range(n):
        out = out_set_at(out, i, 1.0)
    return out
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def pixels(b, h, w, c, p):
    img = jnp.zeros((b, h, w, c), dtype=jnp.int32)
    for i in range(h):
        for j in range(w):
            for k in range(c):
                img = img.at[:, i, j, k].set(jnp.argmax(p[:, i, j, k], -1))
    return img
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def img_set_at(array, index, value):
    return array.at[:, index[0], index[1], index[2]].set(value)


def pixels(b, h, w, c, p):
    img = jnp.zeros((b, h, w, c), dtype=jnp.int32)
    for i in range(h):
        for j in range(w):
            for k in range(c):
                img = img_set_at(img, (i, j, k), jnp.argmax(p[:, i, j, k], -1))
    return img
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

def rows(n):
    out = jnp.zeros((n, n))
    for i in range(n):
        out = out.at[i].set(1.0)
    return out

def cols(n):
    out = jnp.zeros((n, n))
    for i in range(n):
        out = out.at[..., 1:-1, i].set(2.0)
    return out
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_set_at(array, index, value):
    return array.at[index].set(value)


def rows(n):
    out = jnp.zeros((n, n))
    for i in range(n):
        out = out_set_at(out, i, 1.0)
    return out


@functools.partial(jax.jit, donate_argnames=("array",))
def out_set_at_2(array, index, value):
    return array.at[..., 1:-1, index].set(value)


def cols(n):
    out = jnp.zeros((n, n))
    for i in range(n):
        out = out_set_at_2(out, i, 2.0)
    return out
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

def cols(n, m):
    out = jnp.zeros((n, n))
    for i in range(n):
        out = out.at[:m, i].set(1.0)
    return out
""",
        fix=Applicability.NONE,
        message="a multi-axis slice whose bounds are not integer literals has no dynamic form",
    ),
    Invalid(
        """
import jax.numpy as jnp

def randomize(speeds):
    cars = jnp.zeros((8, 4), dtype=jnp.int32)
    for i in range(8):
        cars = cars.at[i, :].set(speeds[i])
    return cars

class Env:
    def step(self, speeds):
        return randomize(speeds)
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def cars_set_at(array, index, value):
    return array.at[index, :].set(value)


def randomize(speeds):
    cars = jnp.zeros((8, 4), dtype=jnp.int32)
    for i in range(8):
        cars = cars_set_at(cars, i, speeds[i])
    return cars

class Env:
    def step(self, speeds):
        return randomize(speeds)
""",
        fix=Applicability.UNSAFE,
        message="`randomize` is called only from `Env.step`, which autoopt cannot prove to run",
    ),
    Invalid(
        """
import jax.numpy as jnp

def corners(n, idx):
    out = jnp.zeros((n, n, n))
    for i in range(n):
        out = out.at[:, *idx].add(1.0)
    return out
""",
        fix=Applicability.NONE,
        message="a starred index has no dynamic form",
    ),
    Invalid(
        """
import jax.numpy as jnp

def cols(img, n):
    for i in range(n):
        img = img.at[:, i].set(1.0)
    return img
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def img_set_at(array, index, value):
    return array.at[:, index].set(value)


def cols(img, n):
    for i in range(n):
        img = img_set_at(img, i, 1.0)
    return img
""",
        fix=Applicability.UNSAFE,
        message="not created in this scope by a fresh constructor",
    ),
    Invalid(
        """
import jax.numpy as jnp

def clip_cols(n, keep):
    out = jnp.ones((n, n))
    for i in range(n):
        out = out.at[:, keep].set(0.0)
    return out
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_set_at(array, index, value):
    return array.at[:, index].set(value)


def clip_cols(n, keep):
    out = jnp.ones((n, n))
    for i in range(n):
        out = out_set_at(out, keep, 0.0)
    return out
""",
        fix=Applicability.UNSAFE,
        message="cannot prove the index is an integer",
    ),
    Invalid(
        """
import jax.numpy as jnp

def fill(n):
    out = jnp.zeros((n, 3))
    for t in range(n):
        out = jnp.concatenate([out[:t], (jnp.ones(3) * t)[None], out[t + 1:]])
    return out
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_splice(array, start, value):
    dtype = jnp.result_type(array, value)
    array, value = array.astype(dtype), value.astype(dtype)
    return jax.lax.dynamic_update_slice_in_dim(array, value, start, 0)


def fill(n):
    out = jnp.zeros((n, 3))
    for t in range(n):
        out = out_splice(out, t, (jnp.ones(3) * t)[None])
    return out
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

buf = jnp.zeros(8)
for i in range(len(buf) - 1):
    buf = jnp.concatenate([buf[:i], jnp.ones(2) * i, buf[i + 2:]])
""",
        """
import functools

import jax
import jax.numpy as jnp

buf = jnp.zeros(8)


@functools.partial(jax.jit, donate_argnames=("array",))
def buf_splice(array, start, value):
    dtype = jnp.result_type(array, value)
    array, value = array.astype(dtype), value.astype(dtype)
    return jax.lax.dynamic_update_slice_in_dim(array, value, start, 0)


for i in range(len(buf) - 1):
    buf = buf_splice(buf, i, jnp.ones(2) * i)
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def squash(xs):
    out = jnp.zeros(xs.shape, dtype=xs.dtype)
    for i in range(out.shape[0]):
        row = jnp.tanh(xs[i])[None, :]
        out = jnp.concatenate((out[:i], row, out[i + 1:]), axis=0)
    return out
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_splice(array, start, value):
    dtype = jnp.result_type(array, value)
    array, value = array.astype(dtype), value.astype(dtype)
    return jax.lax.dynamic_update_slice_in_dim(array, value, start, 0)


def squash(xs):
    out = jnp.zeros(xs.shape, dtype=xs.dtype)
    for i in range(out.shape[0]):
        row = jnp.tanh(xs[i])[None, :]
        out = out_splice(out, i, row)
    return out
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

def ring(xs):
    buf = jnp.zeros((4, 2))
    for t in range(xs.shape[0]):
        buf = jnp.concatenate([buf[:t % 4], xs[t][None], buf[t % 4 + 1:]])
    return buf
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def buf_splice(array, start, value):
    dtype = jnp.result_type(array, value)
    array, value = array.astype(dtype), value.astype(dtype)
    return jax.lax.dynamic_update_slice_in_dim(array, value, start, 0)


def ring(xs):
    buf = jnp.zeros((4, 2))
    for t in range(xs.shape[0]):
        buf = buf_splice(buf, t % 4, xs[t][None])
    return buf
""",
        fix=Applicability.UNSAFE,
        message="clamps a start out of range",
    ),
    Invalid(
        """
import jax.numpy as jnp

def put(n, rows):
    out = jnp.zeros((n, 2))
    for i in range(n):
        out = jnp.concatenate([out[:i], rows[i], out[i + 1:]])
    return out
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_splice(array, start, value):
    dtype = jnp.result_type(array, value)
    array, value = array.astype(dtype), value.astype(dtype)
    return jax.lax.dynamic_update_slice_in_dim(array, value, start, 0)


def put(n, rows):
    out = jnp.zeros((n, 2))
    for i in range(n):
        out = out_splice(out, i, rows[i])
    return out
""",
        fix=Applicability.UNSAFE,
        message="cannot prove the spliced value has 1 row",
    ),
    Invalid(
        """
import jax.numpy as jnp

def fill(n):
    out = jnp.zeros(n)
    first = out
    for i in range(n):
        out = jnp.concatenate([out[:i], jnp.ones(1) * i, out[i + 1:]])
    return first, out
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_splice(array, start, value):
    dtype = jnp.result_type(array, value)
    array, value = array.astype(dtype), value.astype(dtype)
    return jax.lax.dynamic_update_slice_in_dim(array, value, start, 0)


def fill(n):
    out = jnp.zeros(n)
    first = out
    for i in range(n):
        out = out_splice(out, i, jnp.ones(1) * i)
    return first, out
""",
        fix=Applicability.UNSAFE,
        message="read before the loop",
    ),
    Invalid(
        """
import jax.numpy as jnp

def trace(n):
    out = jnp.zeros(n)
    seen = []
    for i in range(n):
        out = jnp.concatenate([out[:i], jnp.ones(1) * i, out[i + 1:]])
        seen.append(out)
    return seen
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_splice(array, start, value):
    dtype = jnp.result_type(array, value)
    array, value = array.astype(dtype), value.astype(dtype)
    return jax.lax.dynamic_update_slice_in_dim(array, value, start, 0)


def trace(n):
    out = jnp.zeros(n)
    seen = []
    for i in range(n):
        out = out_splice(out, i, jnp.ones(1) * i)
        seen.append(out)
    return seen
""",
        fix=Applicability.UNSAFE,
        message="read elsewhere in the loop",
    ),
    Invalid(
        """
import jax.numpy as jnp

def fill(n):
    out = jnp.full(n, 0.0)
    for i in range(n):
        out = jnp.concatenate([out[:i], jnp.ones(1), out[i + 1:]])
    return out
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_splice(array, start, value):
    dtype = jnp.result_type(array, value)
    array, value = array.astype(dtype), value.astype(dtype)
    return jax.lax.dynamic_update_slice_in_dim(array, value, start, 0)


def fill(n):
    out = jnp.full(n, 0.0)
    for i in range(n):
        out = out_splice(out, i, jnp.ones(1))
    return out
""",
        fix=Applicability.UNSAFE,
        message="weakly typed",
    ),
)
