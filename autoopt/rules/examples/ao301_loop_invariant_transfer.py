"""AO301 loop-invariant-transfer: the cases tests/test_rule_examples.py runs.

The one INVALID case flagged `doc=True` is the example its documentation shows.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

_UNSAFE = Applicability.UNSAFE

VALID = (
    Valid(
        """
import jax.numpy as jnp
import numpy as np

class Feed:
    def __init__(self):
        self.buf = np.zeros(3)

    def __len__(self):
        self.buf[:] = 1.0
        return 3

    def __contains__(self, k):
        self.buf[:] = k
        return True

    def __format__(self, spec):
        self.buf[:] = 2.0
        return "feed"

    @property
    def ready(self):
        self.buf[:] = 3.0
        return True

feed = Feed()
buf = feed.buf

for i in range(3):
    n = len(feed)
    x = jnp.asarray(buf)
""",
        "`len(feed)` calls `Feed.__len__`, which refills the buffer",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

class Feed:
    def __init__(self):
        self.buf = np.zeros(3)

    def __len__(self):
        self.buf[:] = 1.0
        return 3

    def __contains__(self, k):
        self.buf[:] = k
        return True

    def __format__(self, spec):
        self.buf[:] = 2.0
        return "feed"

    @property
    def ready(self):
        self.buf[:] = 3.0
        return True

feed = Feed()
buf = feed.buf

for i in range(3):
    hit = i in feed
    x = jnp.asarray(buf)
""",
        "`i in feed` calls `Feed.__contains__`, which refills the buffer",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

class Feed:
    def __init__(self):
        self.buf = np.zeros(3)

    def __len__(self):
        self.buf[:] = 1.0
        return 3

    def __contains__(self, k):
        self.buf[:] = k
        return True

    def __format__(self, spec):
        self.buf[:] = 2.0
        return "feed"

    @property
    def ready(self):
        self.buf[:] = 3.0
        return True

feed = Feed()
buf = feed.buf

for i in range(3):
    print(f"{feed}")
    x = jnp.asarray(buf)
""",
        "the f-string calls `Feed.__format__`, which refills the buffer",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

class Feed:
    def __init__(self):
        self.buf = np.zeros(3)

    def __len__(self):
        self.buf[:] = 1.0
        return 3

    def __contains__(self, k):
        self.buf[:] = k
        return True

    def __format__(self, spec):
        self.buf[:] = 2.0
        return "feed"

    @property
    def ready(self):
        self.buf[:] = 3.0
        return True

feed = Feed()
buf = feed.buf

for i in range(3):
    ok = feed.ready
    x = jnp.asarray(buf)
""",
        "the property `ready` refills the buffer",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

class Feed:
    def __init__(self):
        self.buf = np.zeros(3)

    def __len__(self):
        self.buf[:] = 1.0
        return 3

    def __contains__(self, k):
        self.buf[:] = k
        return True

    def __format__(self, spec):
        self.buf[:] = 2.0
        return "feed"

    @property
    def ready(self):
        self.buf[:] = 3.0
        return True

feed = Feed()
buf = feed.buf

while feed:
    x = jnp.asarray(buf)
    break
""",
        "`while feed:` calls `Feed.__len__` (truth), which refills the buffer",
    ),
    Valid(
        """
import jax.numpy as jnp

for batch in batches:
    x = jnp.asarray(batch)
""",
        "the data changes every iteration",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

data = np.ones(8)
for i in range(3):
    data[i] = 0.0
    x = jnp.asarray(data)
""",
        "the array is written in the loop",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

data = np.arange(8.0)
rng = np.random.default_rng(0)
for i in range(3):
    rng.shuffle(data)
    x = jnp.asarray(data)
""",
        "shuffled in place by a call",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

data = np.ones(8)
head = data[:4]
for i in range(3):
    head += 1.0
    x = jnp.asarray(data)
""",
        "a view of the array changes in the loop",
    ),
    Valid(
        """
import jax.numpy as jnp

x = jnp.asarray(data)
for i in range(3):
    y = x * i
""",
        "the transfer is already outside the loop",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

@jax.jit
def step(w):
    x = jnp.asarray(w)
    return x * 2

for i in range(3):
    w = step(w)
""",
        "the loop is not where the transfer is",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

w = jnp.ones(4)
for i in range(3):
    y = jnp.asarray(w) + i
""",
        "already a device array: no transfer",
    ),
    Valid(
        """
import numpy as np

def step(w, x):
    return w + x.sum()

data = np.ones(4)
for i in range(3):
    w = step(w, data)
""",
        "a NumPy array passed to a function that is not jitted",
    ),
    Valid(
        """
import jax.numpy as jnp

xs = [jnp.asarray(v) for v in values]
""",
        "a comprehension over different values",
    ),
    Valid(
        """
import jax
import numpy as np

@jax.jit
def f(w, x):
    return w + x

data = np.ones(4)
for i in range(3):
    data = data * 2
    w = f(w, data)
""",
        "the NumPy argument is rebound in the loop",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

TABLE = np.ones(4)

def recalibrate(step):
    globals()["TABLE"] = np.linspace(0.0, 1.0, 4) * step

def main():
    out = []
    for step in range(5):
        recalibrate(step)
        out.append(jnp.asarray(TABLE))
    return out
""",
        "`recalibrate` rebinds `TABLE` through `globals()`: every iteration transfers a new table",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

SRC = np.ones((4, 4))

def render(frame, gain):
    np.multiply(SRC, gain, frame)

def main():
    frame = np.empty((4, 4))
    for step in range(3):
        render(frame, 1.0 + step)
        img = jnp.array(frame)
""",
        "a ufunc's positional argument after its inputs is its `out`: the helper refills it",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

def main(src):
    frame = np.zeros(4)
    for step in range(3):
        np.clip(src, 0.0, step, frame)
        x = jnp.asarray(frame)
""",
        "`np.clip`'s fourth positional argument is its `out`",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

def main():
    bias = np.zeros(5)
    reset = bias.fill
    for step in range(3):
        reset(0.1 * step)
        x = jnp.asarray(bias)
""",
        "a bound method taken as a value refills the buffer",
    ),
    Valid(
        """
import functools
import jax.numpy as jnp
import numpy as np

def main(stream):
    reading = np.zeros(4)
    hooks = [functools.partial(np.copyto, reading)]
    for t in range(3):
        for hook in hooks:
            hook(stream[t])
        x = jnp.asarray(reading)
""",
        "a partial of `np.copyto` kept in a list refills the buffer",
    ),
    Valid(
        """
import jax.numpy as jnp

def push(queue, r):
    queue += [r]

def main():
    rewards = [0.0, 1.0]
    memory = rewards
    for t in range(3):
        push(memory, 0.5 * t)
        r = jnp.asarray(rewards)
""",
        "`+=` on a list parameter extends the caller's list, reached through an alias",
    ),
    Valid(
        """
import jax.numpy as jnp

def record(log, r):
    book = log
    book[len(book):] = [r]

def main():
    values = [1.0]
    state = (values, "running")
    for t in range(3):
        record(state[0], t)
        x = jnp.asarray(values)
""",
        "a slice assignment on an alias of a parameter extends the list inside a tuple",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

def main():
    buf = np.zeros(3)
    for t in range(3):
        np.ndarray.fill(buf, t)
        x = jnp.asarray(buf)
""",
        "an array method called through its class writes its first argument",
    ),
    Valid(
        """
import jax.numpy as jnp
import sensors

def main():
    for t in range(3):
        sensors.capture()
        x = jnp.asarray(sensors.FRAME)
""",
        "another module's attribute, which a function of that module may refill",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

def batches(buf):
    while True:
        buf[:] = buf + 1.0
        yield buf.sum()

def main():
    x = np.zeros(3)
    stream = batches(x)
    for t, _ in zip(range(3), stream):
        y = jnp.asarray(x)
""",
        "iterating a generator runs its code, which refills the buffer it was handed",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

class Cfg:
    BUF = np.zeros(3)

    @classmethod
    def refill(cls, t):
        cls.BUF[:] = t

def main():
    for t in range(3):
        Cfg.refill(t)
        x = jnp.asarray(Cfg.BUF)
""",
        "a class attribute refilled by a method of the class",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

BUF = np.zeros(3)

def refill(t, buf=BUF):
    buf[:] = t

def main():
    for t in range(3):
        refill(t)
        x = jnp.asarray(BUF)
""",
        "a helper refills the buffer it keeps as a parameter's default",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp
import numpy as np

TABLE = np.linspace(-1.0, 1.0, 6)

def refine(enabled):
    jax.config.update("jax_enable_x64", enabled)

def main():
    acc = jnp.zeros(6)
    for sweep in range(5):
        if sweep == 3:
            refine(True)
        acc = 0.9 * acc + jnp.asarray(TABLE)
    return acc
""",
        why="the loop turns on `jax_enable_x64`: the transfer's dtype changes mid-loop",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

def main(w):
    X = np.ones((64, 4), np.float32)
    for i in range(8):
        X[i] = 0.0
        w = w + jnp.asarray(X[i * 8 : (i + 1) * 8]).sum()
    return w
""",
        "the dataset is written in the loop: its slices cannot come from one copy",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

def main(w):
    X = np.arange(64.0).reshape(16, 4)
    for i in range(4):
        np.random.shuffle(X)
        w = w + jnp.asarray(X[i * 4 : (i + 1) * 4]).sum()
    return w
""",
        "the dataset is shuffled in place on every iteration",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np

def main(w):
    X = np.ones((64, 4), np.float32)
    for i in range(8):
        w = w + jnp.asarray(X[i * 8 : (i + 1) * 8]).sum()
        X = X * 0.5
    return w
""",
        "the dataset is rebound in the loop",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def step(w, x):
    return w + x.sum()

def main(w):
    X = np.ones((64, 4), np.float32)
    for i in range(8):
        xb = X[i * 8 : (i + 1) * 8]
        xb *= 2.0
        w = step(w, jnp.asarray(X[i * 8 : (i + 1) * 8]))
    return w
""",
        "the batch is a NumPy view changed in place, which writes the dataset",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def step(w, x):
    return w + x.sum()

def main(w):
    X = np.ones((64, 4), np.float32)
    for i in range(8):
        xb = X[i * 8 : (i + 1) * 8]
        np.add(xb, 1.0, out=xb)
        w = step(w, jnp.asarray(xb))
    return w
""",
        "the batch is transferred after NumPy changed it (and the dataset) in place",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def step(w, x):
    return w + x.sum()

def main(w):
    batches = [np.ones((8, 4), np.float32) for _ in range(8)]
    for i in range(8):
        w = step(w, jnp.asarray(batches[i]))
        w = step(w, batches[i][0:4])
    return w
""",
        "a list of arrays, not one NumPy array",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp
from loaders import load_dataset

@jax.jit
def step(w, x):
    return w + x.sum()

def main(w):
    X = load_dataset()
    for i in range(8):
        w = step(w, jnp.asarray(X[i * 8 : (i + 1) * 8]))
    return w
""",
        "a dataset from an unknown loader: not proven a NumPy array",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp
import numpy as np
from augment import jitter

@jax.jit
def step(w, x):
    return w + x.sum()

def main(w):
    X = np.ones((64, 4), np.float32)
    for i in range(8):
        jitter(X)
        w = step(w, jnp.asarray(X[i * 8 : (i + 1) * 8]))
    return w
""",
        "the dataset is passed to code autoopt cannot see, which may change it",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def step(w, x):
    return w + x.sum()

def main(w, starts):
    X = np.ones((64, 4), np.float32)
    for s in starts:
        w = step(w, jnp.asarray(X[s : s + 8]))
        w = step(w, jnp.asarray(X[s * 0 : 8], dtype=jnp.float16))
        w = step(w, jnp.asarray(X[0 : (s + 1) * 8 : 2]))
    return w
""",
        "slice bounds not proven Python ints, a dtype given, a slice step",
    ),
)

INVALID = (
    Invalid(
        """
import jax.numpy as jnp
import numpy as np

def main():
    table = np.ones(3)
    rows = np.zeros((4, 3))
    out = []
    for row in rows:
        if len(row) and row[0] in (0.0, 1.0):
            out.append(jnp.asarray(table) + f"{row}".count("0"))
    return out
""",
        """
import jax
import jax.numpy as jnp
import numpy as np


def main():
    table = np.ones(3)
    rows = np.zeros((4, 3))
    out = []
    table_dev = jax.device_put(table)
    for row in rows:
        if len(row) and row[0] in (0.0, 1.0):
            out.append(table_dev + f"{row}".count("0"))
    return out
""",
    ),
    Invalid(
        """
import jax
import numpy as np


@jax.jit
def step(w, x):
    return w + x.sum(0)


def main():
    X = np.ones((8, 4), np.float32)
    w = np.zeros(4, np.float32)
    for _ in range(3):
        w = step(w, X[:4])
    return w
""",
        """
import jax
import numpy as np


@jax.jit
def step(w, x):
    return w + x.sum(0)


def main():
    X = np.ones((8, 4), np.float32)
    w = np.zeros(4, np.float32)
    X_dev = jax.device_put(X[:4])
    for _ in range(3):
        w = step(w, X_dev)
    return w
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import numpy as np

BATCH = 16

@jax.jit
def step(w, x, y):
    return w - 0.1 * (x.T @ (x @ w - y)) / BATCH

def main():
    X = np.ones((128, 4), np.float32)
    Y = np.ones(128, np.float32)
    w = jnp.zeros(4)
    for epoch in range(3):
        for i in range(8):
            xb = jnp.asarray(X[i * BATCH : (i + 1) * BATCH])
            yb = jnp.asarray(Y[i * BATCH : (i + 1) * BATCH])
            w = step(w, xb, yb)
    return w
""",
        """
import jax
import jax.numpy as jnp
import numpy as np

BATCH = 16

@jax.jit
def step(w, x, y):
    return w - 0.1 * (x.T @ (x @ w - y)) / BATCH

def main():
    X = np.ones((128, 4), np.float32)
    Y = np.ones(128, np.float32)
    w = jnp.zeros(4)
    X_dev = jnp.asarray(X)
    Y_dev = jnp.asarray(Y)
    for epoch in range(3):
        for i in range(8):
            xb = X_dev[i * BATCH : (i + 1) * BATCH]
            yb = Y_dev[i * BATCH : (i + 1) * BATCH]
            w = step(w, xb, yb)
    return w
""",
        message="keeps the whole array in device memory",
    ),
    Invalid(
        """
import jax.numpy as jnp
import numpy as np

def main(w, rng):
    X = np.arange(64.0).reshape(16, 4)
    for epoch in range(3):
        rng.shuffle(X)
        for i in range(4):
            w = w + jnp.asarray(X[i * 4 : (i + 1) * 4]).sum()
    return w
""",
        """
import jax.numpy as jnp
import numpy as np


def main(w, rng):
    X = np.arange(64.0).reshape(16, 4)
    for epoch in range(3):
        rng.shuffle(X)
        X_dev = jnp.asarray(X)
        for i in range(4):
            w = w + X_dev[i * 4 : (i + 1) * 4].sum()
    return w
""",
    ),
    Invalid(
        """
import jax
import numpy as np

@jax.jit
def step(w, x):
    return w + x.sum(0)

def main(X):
    X = np.asarray(X, np.float32)
    w = np.zeros(4, np.float32)
    for i in range(10):
        w = step(w, X[i : i + 4, :4])
    return w
""",
        """
import jax
import numpy as np

@jax.jit
def step(w, x):
    return w + x.sum(0)

def main(X):
    X = np.asarray(X, np.float32)
    w = np.zeros(4, np.float32)
    X_dev = jax.numpy.asarray(X)
    for i in range(10):
        w = step(w, X_dev[i : i + 4, :4])
    return w
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def step(w, x):
    return w + x.sum()

def main(w):
    X = np.ones((64, 4), np.float32)
    order = np.random.permutation(80)
    for i in range(8):
        idx = order[i * 8 : (i + 1) * 8]
        w = step(w, jnp.asarray(X[idx]))
    return w
""",
        """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def step(w, x):
    return w + x.sum()

def main(w):
    X = np.ones((64, 4), np.float32)
    order = np.random.permutation(80)
    X_dev = jnp.asarray(X)
    for i in range(8):
        idx = order[i * 8 : (i + 1) * 8]
        w = step(w, X_dev[idx])
    return w
""",
        fix=_UNSAFE,
        message="NumPy raises for an index out of range, where a JAX array clamps it",
    ),
    Invalid(
        """
import jax
import numpy as np

def main(w):
    table = np.linspace(0.0, 1.0, 6)
    for i in range(10):
        w = w + jax.device_put(table[i])
    return w
""",
        """
import jax
import numpy as np


def main(w):
    table = np.linspace(0.0, 1.0, 6)
    table_dev = jax.device_put(table)
    for i in range(10):
        w = w + table_dev[i]
    return w
""",
        fix=_UNSAFE,
        message="`i` is not proven to index within `table`",
    ),
    Invalid(
        """
import jax
import numpy as np

@jax.jit
def step(w, x):
    return w - 0.1 * x.mean(0)

def main():
    x = np.ones((8, 4), np.float32)
    w = np.zeros(4, np.float32)
    for _ in range(10):
        w = step(w, x)
    return w
""",
        """
import jax
import numpy as np

@jax.jit
def step(w, x):
    return w - 0.1 * x.mean(0)

def main():
    x = np.ones((8, 4), np.float32)
    w = np.zeros(4, np.float32)
    x_dev = jax.device_put(x)
    for _ in range(10):
        w = step(w, x_dev)
    return w
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def score(w, x):
    return x @ w

x_val = np.ones((4, 2))
candidates = [np.ones(2), np.zeros(2)]
for w in candidates:
    s = score(w, jnp.asarray(x_val))
""",
        """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def score(w, x):
    return x @ w

x_val = np.ones((4, 2))
candidates = [np.ones(2), np.zeros(2)]
x_val_dev = jax.device_put(x_val)
for w in candidates:
    s = score(w, x_val_dev)
""",
    ),
    Invalid(
        """
import jax.numpy as jnp

def run(w, table, steps):
    for _ in range(steps):
        w = jnp.tanh(w @ jnp.asarray(table, dtype=jnp.float16))
    return w
""",
        """
import jax.numpy as jnp


def run(w, table, steps):
    table_dev = jnp.asarray(table, dtype=jnp.float16)
    for _ in range(steps):
        w = jnp.tanh(w @ table_dev)
    return w
""",
        fix=_UNSAFE,
        message="unsafe: the loop at line 5 may run zero times (over `range(steps)`)",
    ),
    Invalid(
        """
import jax
import numpy as np

mask = np.tri(4)
for epoch in range(3):
    for t in range(5):
        y = jax.device_put(mask) * t
""",
        """
import jax
import numpy as np

mask = np.tri(4)
mask_dev = jax.device_put(mask)
for epoch in range(3):
    for t in range(5):
        y = mask_dev * t
""",
        doc=True,
    ),
    Invalid(
        """
import jax.numpy as jnp
import numpy as np

def fit(w, data):
    for epoch in range(3):
        data = data + 1.0
        for _ in range(5):
            w = w + jnp.array(data).sum()
    return w
""",
        """
import jax.numpy as jnp
import numpy as np


def fit(w, data):
    for epoch in range(3):
        data = data + 1.0
        data_dev = jnp.array(data)
        for _ in range(5):
            w = w + data_dev.sum()
    return w
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import numpy as np

loss_fn = jax.jit(lambda w, x: jnp.sum(x @ w))

def main():
    x = np.ones((4, 2), np.float32)
    w = jnp.zeros(2)
    i = 0
    while i < 3:
        w = w - loss_fn(w, x) - loss_fn(w, jnp.asarray(x))
        i += 1
    return w
""",
        """
import jax
import jax.numpy as jnp
import numpy as np

loss_fn = jax.jit(lambda w, x: jnp.sum(x @ w))

def main():
    x = np.ones((4, 2), np.float32)
    w = jnp.zeros(2)
    i = 0
    x_dev = jax.device_put(x)
    while i < 3:
        w = w - loss_fn(w, x_dev) - loss_fn(w, x_dev)
        i += 1
    return w
""",
    ),
    Invalid(
        """
import functools
import jax
import numpy as np

@functools.partial(jax.jit, donate_argnums=(0,))
def step(w, x):
    return w + x

def main():
    x = np.ones(4, np.float32)
    w = np.zeros(4, np.float32)
    for _ in range(3):
        w = step(w, x)
    return w
""",
        """
import functools
import jax
import numpy as np

@functools.partial(jax.jit, donate_argnums=(0,))
def step(w, x):
    return w + x

def main():
    x = np.ones(4, np.float32)
    w = np.zeros(4, np.float32)
    x_dev = jax.device_put(x)
    for _ in range(3):
        w = step(w, x_dev)
    return w
""",
        fix=_UNSAFE,
        message="donat",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def step(state, x):
    return state + x

def main(init):
    for _ in range(3):
        state = jnp.asarray(init)
        state = step(state, 1.0)
    return state
""",
        """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def step(state, x):
    return state + x

def main(init):
    init_dev = jnp.asarray(init)
    for _ in range(3):
        state = init_dev
        state = step(state, 1.0)
    return state
""",
        fix=_UNSAFE,
        message="replaced by a call's output",
    ),
    Invalid(
        """
import jax.numpy as jnp
import numpy as np

SRC = np.ones((4, 4))

def render(frame, gain):
    return np.multiply(SRC, gain) + frame.sum()

def main():
    frame = np.ones((4, 4))
    bias = np.zeros(4)
    reset = SRC.sum
    total = 0.0
    for step in range(3):
        total = total + render(frame, 1.0 + step) + reset()
        img = jnp.array(frame) + jnp.asarray(bias)
    return total, img
""",
        """
import jax
import jax.numpy as jnp
import numpy as np

SRC = np.ones((4, 4))

def render(frame, gain):
    return np.multiply(SRC, gain) + frame.sum()

def main():
    frame = np.ones((4, 4))
    bias = np.zeros(4)
    reset = SRC.sum
    total = 0.0
    frame_dev = jax.device_put(frame)
    bias_dev = jax.device_put(bias)
    for step in range(3):
        total = total + render(frame, 1.0 + step) + reset()
        img = frame_dev + bias_dev
    return total, img
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import numpy as np

JIT_OPTS = {"donate_argnums": (0, 1)}

def apply_mask(w, mask):
    return w * mask, mask

masked_step = jax.jit(apply_mask, **JIT_OPTS)

def main(w):
    mask_np = np.ones(4, np.float32)
    for _ in range(5):
        w, _ = masked_step(w, jnp.asarray(mask_np))
    return w
""",
        """
import jax
import jax.numpy as jnp
import numpy as np

JIT_OPTS = {"donate_argnums": (0, 1)}

def apply_mask(w, mask):
    return w * mask, mask

masked_step = jax.jit(apply_mask, **JIT_OPTS)

def main(w):
    mask_np = np.ones(4, np.float32)
    mask_np_dev = jax.device_put(mask_np)
    for _ in range(5):
        w, _ = masked_step(w, mask_np_dev)
    return w
""",
        fix=_UNSAFE,
        message="`masked_step` is jitted with `**JIT_OPTS`, which may donate its arguments",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import numpy as np

def run(step_fn, w):
    mask_np = np.ones(4, np.float32)
    for _ in range(5):
        w = step_fn(w, jnp.asarray(mask_np))
    return w
""",
        """
import jax
import jax.numpy as jnp
import numpy as np


def run(step_fn, w):
    mask_np = np.ones(4, np.float32)
    mask_np_dev = jax.device_put(mask_np)
    for _ in range(5):
        w = step_fn(w, mask_np_dev)
    return w
""",
        fix=_UNSAFE,
        message="`step_fn` is a parameter of `run`: what the function it is given donates",
    ),
)
