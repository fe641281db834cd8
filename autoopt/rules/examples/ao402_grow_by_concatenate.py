"""AO402 grow-by-concatenate: the cases tests/test_rule_examples.py runs.

The one INVALID case flagged `doc=True` is the example its documentation shows.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

VALID = (
    Valid(
        """
import jax.numpy as jnp

out = jnp.concatenate([a, b])
""",
        "not in a loop",
    ),
    Valid(
        """
import numpy as np

for t in range(10):
    out = np.concatenate([out, row[None]])
""",
        "numpy, not jax",
    ),
    Valid(
        """
import jax.numpy as jnp

for t in range(10):
    out = jnp.concatenate([row[None], out])
""",
        "prepending, not growing at the end",
    ),
    Valid(
        """
import jax.numpy as jnp

for t in range(10):
    y = jnp.concatenate([x, row[None]])
""",
        "not an accumulator: `x` does not change",
    ),
    Valid(
        """
import jax.numpy as jnp

for t in range(10):
    out = jnp.concatenate([out, *rows])
""",
        "a starred piece",
    ),
    Valid(
        """
import jax.numpy as jnp

parts = [out]
for t in range(10):
    parts.append(row)
out = jnp.concatenate(parts)
""",
        "already collected in a list",
    ),
    Valid(
        """
import jax.numpy as jnp

out = jnp.zeros((0, 3))
for t in range(10): out = jnp.concatenate([out, jnp.ones((1, 3)) * t])
""",
        "a one-line loop body: no statement line to rewrite",
    ),
)

INVALID = (
    Invalid(
        """
import jax.numpy as jnp

out = jnp.zeros((0, 3))
for t in range(10):
    out = jnp.concatenate([out, jnp.ones((1, 3)) * t])
""",
        """
import functools

import jax
import jax.numpy as jnp

out = jnp.zeros((0, 3))


@functools.partial(jax.jit, donate_argnames=("array",))
def out_write_rows(array, start, rows):
    if rows.shape[1:] != array.shape[1:]:
        raise TypeError(f"rows of shape {rows.shape} do not fit shape {array.shape}")
    return jax.lax.dynamic_update_slice_in_dim(array, rows, start, 0)


out = jnp.zeros((len(range(10)), *out.shape[1:]), out.dtype)
for t in range(10):
    out = out_write_rows(out, t, jnp.ones((1, 3)) * t)
""",
        message="write each step's rows in place",
    ),
    Invalid(
        """
import jax.numpy as jnp

def grow(n, width):
    acc = jnp.zeros((0, width), dtype=jnp.float32)
    for i in range(n):
        row = jnp.full((1, width), i, dtype=jnp.float32)
        acc = jnp.concatenate([acc, row])
    return acc
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def acc_write_rows(array, start, rows):
    if rows.shape[1:] != array.shape[1:]:
        raise TypeError(f"rows of shape {rows.shape} do not fit shape {array.shape}")
    return jax.lax.dynamic_update_slice_in_dim(array, rows, start, 0)


def grow(n, width):
    acc = jnp.zeros((0, width), dtype=jnp.float32)
    acc = jnp.zeros((len(range(n)), *acc.shape[1:]), acc.dtype)
    for i in range(n):
        row = jnp.full((1, width), i, dtype=jnp.float32)
        acc = acc_write_rows(acc, i, row)
    return acc
""",
    ),
    Invalid(
        """
import functools
import jax
import jax.numpy as jnp

def pairs(n):
    out = jnp.empty((0, 3), "float32")
    for t in range(2, n):
        out = jnp.concatenate((out, jnp.ones((2, 3), jnp.float32) * t), axis=0)
    return out
""",
        """
import functools
import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def out_write_rows(array, start, rows):
    if rows.shape[1:] != array.shape[1:]:
        raise TypeError(f"rows of shape {rows.shape} do not fit shape {array.shape}")
    return jax.lax.dynamic_update_slice_in_dim(array, rows, start, 0)


def pairs(n):
    out = jnp.empty((0, 3), "float32")
    out = jnp.zeros((len(range(2, n)) * 2, *out.shape[1:]), out.dtype)
    for t in range(2, n):
        out = out_write_rows(out, (t - 2) * 2, jnp.ones((2, 3), jnp.float32) * t)
    return out
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

def counts(n):
    table = jnp.zeros((0, 4), jnp.int32)
    for k in range(1, n + 1):
        table = jnp.append(table, jnp.expand_dims(jnp.full((4,), k, jnp.int32), 0), axis=0)
    return table
""",
        """
import functools

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, donate_argnames=("array",))
def table_write_rows(array, start, rows):
    if rows.shape[1:] != array.shape[1:]:
        raise TypeError(f"rows of shape {rows.shape} do not fit shape {array.shape}")
    return jax.lax.dynamic_update_slice_in_dim(array, rows, start, 0)


def counts(n):
    table = jnp.zeros((0, 4), jnp.int32)
    table = jnp.zeros((len(range(1, n + 1)), *table.shape[1:]), table.dtype)
    for k in range(1, n + 1):
        table = table_write_rows(
            table, k - 1, jnp.expand_dims(jnp.full((4,), k, jnp.int32), 0)
        )
    return table
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

def collect(xs):
    acc = jnp.zeros((0, 3))
    for x in xs:
        acc = jnp.concatenate([acc, jnp.ones((1, 3)) * 2.0])
    return acc
""",
        """
import jax.numpy as jnp


def collect(xs):
    acc = jnp.zeros((0, 3))
    acc_parts = [acc]
    for x in xs:
        acc_parts.append(jnp.ones((1, 3)) * 2.0)
    acc = jnp.concatenate(acc_parts)
    return acc
""",
        message="not preallocated: the trip count is not known",
    ),
    Invalid(
        """
import jax.numpy as jnp

def collect(n, k):
    acc = jnp.zeros((0, 3))
    for i in range(n):
        acc = jnp.concatenate([acc, jnp.ones((k, 3))])
    return acc
""",
        """
import jax.numpy as jnp


def collect(n, k):
    acc = jnp.zeros((0, 3))
    acc_parts = [acc]
    for i in range(n):
        acc_parts.append(jnp.ones((k, 3)))
    acc = jnp.concatenate(acc_parts)
    return acc
""",
        message="cannot prove how many rows `jnp.ones((k, 3))` has",
    ),
    Invalid(
        """
import jax.numpy as jnp

def collect(n):
    acc = jnp.zeros((0, 3))
    for i in range(n):
        if i % 2:
            acc = jnp.concatenate([acc, jnp.ones((1, 3)) * i])
    return acc
""",
        """
import jax.numpy as jnp


def collect(n):
    acc = jnp.zeros((0, 3))
    acc_parts = [acc]
    for i in range(n):
        if i % 2:
            acc_parts.append(jnp.ones((1, 3)) * i)
    acc = jnp.concatenate(acc_parts)
    return acc
""",
        message="`acc` does not grow on every iteration",
    ),
    Invalid(
        """
import jax.numpy as jnp

def collect(n):
    acc = jnp.ones((1, 3))
    for i in range(n):
        acc = jnp.concatenate([acc, jnp.ones((1, 3)) * i])
    return acc
""",
        """
import jax.numpy as jnp


def collect(n):
    acc = jnp.ones((1, 3))
    acc_parts = [acc]
    for i in range(n):
        acc_parts.append(jnp.ones((1, 3)) * i)
    acc = jnp.concatenate(acc_parts)
    return acc
""",
        message="`acc` is not a fresh empty array",
    ),
    Invalid(
        """
import jax.numpy as jnp

def collect(n):
    acc = jnp.zeros((0, 3), dtype=jnp.int32)
    for i in range(n):
        acc = jnp.concatenate([acc, jnp.full((1, 3), i, dtype=jnp.int8)])
    return acc
""",
        """
import jax.numpy as jnp


def collect(n):
    acc = jnp.zeros((0, 3), dtype=jnp.int32)
    acc_parts = [acc]
    for i in range(n):
        acc_parts.append(jnp.full((1, 3), i, dtype=jnp.int8))
    acc = jnp.concatenate(acc_parts)
    return acc
""",
        message="is int8 and `acc` int32: concatenation promotes",
    ),
    Invalid(
        """
import jax.numpy as jnp

def collect(n, stop):
    acc = jnp.zeros((0, 3))
    for i in range(n):
        acc = jnp.concatenate([acc, jnp.ones((1, 3)) * i])
        if i == stop:
            break
    return acc
""",
        """
import jax.numpy as jnp


def collect(n, stop):
    acc = jnp.zeros((0, 3))
    acc_parts = [acc]
    for i in range(n):
        acc_parts.append(jnp.ones((1, 3)) * i)
        if i == stop:
            break
    acc = jnp.concatenate(acc_parts)
    return acc
""",
        message="the loop has a `break`",
    ),
    Invalid(
        """
import jax.numpy as jnp

def collect(n):
    acc = jnp.zeros((0, 3))
    for i in range(n):
        acc = jnp.vstack([acc, jnp.ones(3) * i])
    return acc
""",
        """
import jax.numpy as jnp


def collect(n):
    acc = jnp.zeros((0, 3))
    acc_parts = [acc]
    for i in range(n):
        acc_parts.append(jnp.ones(3) * i)
    acc = jnp.vstack(acc_parts)
    return acc
""",
        message="cannot prove the rank of `jnp.ones(3) * i`, which `vstack` would change",
    ),
    Invalid(
        """
import jax.numpy as jnp

def history(xs):
    hist = xs[:1]
    for x in xs:
        y = jnp.tanh(x)
        hist = jnp.concatenate((hist, y[None]), axis=0)
    return hist
""",
        """
import jax.numpy as jnp


def history(xs):
    hist = xs[:1]
    hist_parts = [hist]
    for x in xs:
        y = jnp.tanh(x)
        hist_parts.append(y[None])
    hist = jnp.concatenate(hist_parts, axis=0)
    return hist
""",
        fix=Applicability.UNSAFE,
    ),
    Invalid(
        """
import jax.numpy as jnp

for t in range(5):
    acc = jnp.vstack([acc, row])
""",
        """
import jax.numpy as jnp

acc_parts = [acc]
for t in range(5):
    acc_parts.append(row)
acc = jnp.vstack(acc_parts)
""",
        doc=True,
    ),
    Invalid(
        """
import jax.numpy as np

for t in range(5):
    acc = np.hstack([acc, v, w])
""",
        """
import jax.numpy as np

acc_parts = [acc]
for t in range(5):
    acc_parts.extend((v, w))
acc = np.hstack(acc_parts)
""",
        fix=Applicability.UNSAFE,
    ),
    Invalid(
        """
import jax.numpy as jnp

def run(x, n):
    trace = jnp.zeros((0, 2))
    for i in range(n):
        x = jnp.tanh(x) * 0.5
        trace = jnp.append(trace, x[None], axis=0)
    return x, trace
""",
        """
import jax.numpy as jnp


def run(x, n):
    trace = jnp.zeros((0, 2))
    trace_parts = [trace]
    for i in range(n):
        x = jnp.tanh(x) * 0.5
        trace_parts.append(x[None])
    trace = jnp.concatenate(trace_parts, axis=0)
    return x, trace
""",
    ),
    Invalid(
        """
import jax

def run(x, n):
    out = x[None]
    while n > 0:
        n -= 1
        if n % 2:
            out = jax.numpy.concatenate([out, x[None] * n], 0)
    return out
""",
        """
import jax


def run(x, n):
    out = x[None]
    out_parts = [out]
    while n > 0:
        n -= 1
        if n % 2:
            out_parts.append(x[None] * n)
    out = jax.numpy.concatenate(out_parts, 0)
    return out
""",
    ),
    Invalid(
        """
from jax.numpy import concatenate

for epoch in range(3):
    losses = []
    for b in batches:
        log = concatenate([log, b.mean()[None]])
""",
        """
from jax.numpy import concatenate

for epoch in range(3):
    losses = []
    log_parts = [log]
    for b in batches:
        log_parts.append(b.mean()[None])
    log = concatenate(log_parts)
""",
        fix=Applicability.UNSAFE,
    ),
    Invalid(
        """
import jax.numpy as jnp

vals = jnp.array([])
for t in range(4):
    vals = jnp.append(vals, t * 2.0)
""",
        """
import jax.numpy as jnp

vals = jnp.array([])
vals_parts = [jnp.ravel(vals)]
for t in range(4):
    vals_parts.append(jnp.ravel(t * 2.0))
vals = jnp.concatenate(vals_parts)
""",
        fix=Applicability.UNSAFE,
        message="flattens",
    ),
    Invalid(
        """
import jax.numpy as jnp

for t in range(10):
    out = jnp.concatenate([out, row[None]])
    print(out.shape)
""",
        fix=Applicability.NONE,
        message="the loop reads `out`",
    ),
    Invalid(
        """
import jax.numpy as jnp

while out.shape[0] < 10:
    out = jnp.concatenate([out, row[None]])
""",
        fix=Applicability.NONE,
        message="the loop reads `out`",
    ),
    Invalid(
        """
import jax.numpy as jnp

for t in range(10):
    out = jnp.concatenate([out, out[-1:] + 1])
""",
        fix=Applicability.NONE,
        message="the loop reads `out`",
    ),
    Invalid(
        """
import jax.numpy as jnp

for t in range(10):
    out = jnp.concatenate([out, row[None]])
else:
    done(out)
""",
        fix=Applicability.NONE,
        message="`else`",
    ),
    Invalid(
        """
import jax.numpy as jnp

try:
    for t in range(10):
        out = jnp.concatenate([out, step(t)])
except ValueError:
    pass
""",
        fix=Applicability.NONE,
        message="`try`",
    ),
    Invalid(
        """
import jax.numpy as jnp

def last():
    return out[-1]

for t in range(10):
    out = jnp.concatenate([out, last()[None]])
""",
        fix=Applicability.NONE,
        message="`last` reads `out`",
    ),
    Invalid(
        """
import jax.numpy as jnp

for t in range(10):
    out = jnp.concatenate([out, row[None]])
    if t == 5:
        out = out[:1]
""",
        fix=Applicability.NONE,
        message="also written elsewhere",
    ),
    Invalid(
        """
import jax.numpy as jnp

def collect(n):
    acc = jnp.zeros((0, 3))
    size = lambda: acc.shape[0]
    for i in range(n):
        acc = jnp.concatenate([acc, jnp.ones((1, 3)) * size()])
    return acc
""",
        fix=Applicability.NONE,
        message="a lambda or generator expression reads `acc`",
    ),
    Invalid(
        """
import jax.numpy as jnp
import numpy as np

def trajectory():
    row = np.zeros(3, np.float32)
    log = jnp.zeros((0, 3), jnp.float32)
    for t in range(12):
        row[:] = (t, 2 * t, 3 * t)
        log = jnp.concatenate([log, row[None]])
    return log
""",
        fix=Applicability.NONE,
        message="holds `row`, which may change in place during the loop (`row` changes inside",
    ),
    Invalid(
        """
import jax.numpy as jnp
import numpy as np

def write_state(row, t):
    np.copyto(row, (t, 2 * t, 3 * t))

def trajectory(steps):
    row = np.zeros(3)
    log = jnp.zeros((0, 3))
    for t in steps:
        write_state(row, t)
        log = jnp.concatenate([log, row[None]])
    return log
""",
        fix=Applicability.NONE,
        message="(the loop passes `row` to `write_state`, which may change it)",
    ),
    Invalid(
        """
import jax.numpy as jnp
import numpy as np

def write_state(row, t):
    np.copyto(row, (t, 2 * t, 3 * t))

def trajectory(steps):
    row = np.zeros(3)
    log = jnp.zeros((0, 3))
    for t in steps:
        write_state(row, t)
        log = jnp.concatenate([log, jnp.asarray(row)[None]])
    return log
""",
        """
import jax.numpy as jnp
import numpy as np

def write_state(row, t):
    np.copyto(row, (t, 2 * t, 3 * t))

def trajectory(steps):
    row = np.zeros(3)
    log = jnp.zeros((0, 3))
    log_parts = [log]
    for t in steps:
        write_state(row, t)
        log_parts.append(jnp.asarray(row)[None])
    log = jnp.concatenate(log_parts)
    return log
""",
        message="collect the pieces in a list",
        fix=Applicability.UNSAFE,
    ),
    Invalid(
        """
import jax.numpy as jnp

def track(x, n):
    out = jnp.zeros((1,), dtype=jnp.bfloat16)
    for t in range(n):
        if t < 3:
            piece = jnp.asarray(0.1 * t)[None]
        else:
            piece = jnp.asarray(x)[None]
        out = jnp.concatenate([out, piece])
    return out
""",
        """
import jax.numpy as jnp


def track(x, n):
    out = jnp.zeros((1,), dtype=jnp.bfloat16)
    out_parts = [out]
    for t in range(n):
        if t < 3:
            piece = jnp.asarray(0.1 * t)[None]
        else:
            piece = jnp.asarray(x)[None]
        out_parts.append(piece)
    out = jnp.concatenate(out_parts)
    return out
""",
        fix=Applicability.UNSAFE,
        message="cannot prove `piece` keeps the dtype of `out` (bfloat16) or has one dtype",
    ),
)
