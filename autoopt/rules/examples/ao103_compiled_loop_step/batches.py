"""AO103 examples, the batches a loop takes by its index from a dataset on the device:
`x[i * B : (i + 1) * B]` becomes `lax.dynamic_slice_in_dim(x, i * B, B)` in the step (and
the whole loop one `lax.scan`) where every batch is proven whole.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

# The loss and the jitted step every training example below shares.
_SGD_STEP = """\
def mse(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(mse)(w, x, y)
    return w - 0.1 * grad, loss
"""

# The whole loop over batch indices as one jitted `lax.scan`: every batch proven whole
# (48 rows, 6 batches of 8), taken by the traced index with `lax.dynamic_slice_in_dim`.
BATCHES_SCAN = Invalid(
    f"""
import jax
import jax.numpy as jnp
import numpy as np

N_SAMPLES = 48
BATCH = 8
N_BATCHES = 6


{_SGD_STEP}

def train():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(N_SAMPLES, 3)), jnp.float32)
    y = jnp.asarray(rng.normal(size=N_SAMPLES), jnp.float32)
    w = jnp.zeros(3)
    losses = []
    for i in range(N_BATCHES):
        xb = x[i * BATCH : (i + 1) * BATCH]
        yb = y[i * BATCH : (i + 1) * BATCH]
        w, loss = sgd_step(w, xb, yb)
        losses.append(loss)
    return w, jnp.stack(losses)


def main():
    return train()
""",
    expected=f"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

N_SAMPLES = 48
BATCH = 8
N_BATCHES = 6


{_SGD_STEP}

@functools.partial(jax.jit, donate_argnames=("w",))
def _train_loop(w, x, y):
    def body(w, i):
        xb = jax.lax.dynamic_slice_in_dim(x, i * BATCH, BATCH)
        yb = jax.lax.dynamic_slice_in_dim(y, i * BATCH, BATCH)
        w, loss = sgd_step(w, xb, yb)
        return w, loss

    return jax.lax.scan(body, w, xs=jnp.arange(N_BATCHES))


def train():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(N_SAMPLES, 3)), jnp.float32)
    y = jnp.asarray(rng.normal(size=N_SAMPLES), jnp.float32)
    w = jnp.zeros(3)
    losses = []
    w, losses = _train_loop(w, x, y)
    return w, losses


def main():
    return train()
""",
    message="run the whole loop as one jitted `lax.scan`, `_train_loop`",
)


# A print after the step stays in the loop: the step alone is compiled, its batches taken
# by the traced index (one compilation for every batch).
BATCHES_STEP = Invalid(
    """
import jax
import jax.numpy as jnp

BATCH = 4


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * grad, loss


def main():
    x = jnp.ones((16, 2))
    y = jnp.zeros(16)
    w = jnp.zeros(2)
    for i in range(4):
        xb = x[i * BATCH : (i + 1) * BATCH]
        yb = y[i * BATCH : (i + 1) * BATCH]
        w, loss = sgd_step(w, xb, yb)
        print(i, loss)
    return w
""",
    expected="""
import functools

import jax
import jax.numpy as jnp

BATCH = 4


@jax.jit
def sgd_step(w, x, y):
    loss, grad = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * grad, loss


@functools.partial(jax.jit, donate_argnames=("w",))
def _main_step(i, w, x, y):
    xb = jax.lax.dynamic_slice_in_dim(x, i * BATCH, BATCH)
    yb = jax.lax.dynamic_slice_in_dim(y, i * BATCH, BATCH)
    w, loss = sgd_step(w, xb, yb)
    return loss, w


def main():
    x = jnp.ones((16, 2))
    y = jnp.zeros(16)
    w = jnp.zeros(2)
    for i in range(4):
        loss, w = _main_step(i, w, x, y)
        print(i, loss)
    return w
""",
    message="compile it as one jitted step, `_main_step`",
)


# Windows `signal[t : t + WINDOW]` of one size, the last ending at row 60 of 60.
SLIDING_WINDOW = Invalid(
    """
import jax.numpy as jnp
import numpy as np

WINDOW = 5


def main():
    signal = jnp.asarray(np.sin(0.1 * np.arange(60)), jnp.float32)
    level = jnp.zeros(())
    means = []
    for t in range(60 - WINDOW + 1):
        window = signal[t : t + WINDOW]
        level = 0.9 * level + 0.1 * jnp.mean(window)
        means.append(level)
    return jnp.stack(means)
""",
    expected="""
import jax
import jax.numpy as jnp
import numpy as np

WINDOW = 5


@jax.jit
def _main_step(t, level, signal):
    window = jax.lax.dynamic_slice_in_dim(signal, t, WINDOW)
    level = 0.9 * level + 0.1 * jnp.mean(window)
    return level


def main():
    signal = jnp.asarray(np.sin(0.1 * np.arange(60)), jnp.float32)
    level = jnp.zeros(())
    means = []
    for t in range(60 - WINDOW + 1):
        level = _main_step(t, level, signal)
        means.append(level)
    return jnp.stack(means)
""",
    message="compile it as one jitted step, `_main_step`",
)


# A ragged last batch: `lax.dynamic_slice_in_dim` would shift it back to 8 other rows.
RAGGED_LAST_BATCH = Invalid(
    f"""
import jax
import jax.numpy as jnp
import numpy as np

BATCH = 8
N_BATCHES = 7  # 50 samples: the last batch holds 2


{_SGD_STEP}

def main():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(50, 3)), jnp.float32)
    y = jnp.asarray(rng.normal(size=50), jnp.float32)
    w = jnp.zeros(3)
    for i in range(N_BATCHES):
        xb = x[i * BATCH : (i + 1) * BATCH]
        yb = y[i * BATCH : (i + 1) * BATCH]
        w, loss = sgd_step(w, xb, yb)
    return w
""",
    fix=Applicability.NONE,
    message="runs past the 50 rows of `x` at `i = 6`",
)


# `x[-8:0]` is empty in Python; `lax.dynamic_slice_in_dim` would take a full batch there.
WINDOW_BEFORE_START = Invalid(
    f"""
import jax
import jax.numpy as jnp
import numpy as np

BATCH = 8
N_BATCHES = 7  # the first window, x[-8:0], is empty


{_SGD_STEP}

def main():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(50, 3)), jnp.float32)
    y = jnp.asarray(rng.normal(size=50), jnp.float32)
    w = jnp.zeros(3)
    for i in range(N_BATCHES - 1):
        xb = x[(i - 1) * BATCH : i * BATCH]
        yb = y[(i - 1) * BATCH : i * BATCH]
        w, loss = sgd_step(w, xb, yb)
    return w
""",
    fix=Applicability.NONE,
    message="starts before the first row of `x` at `i = 0`",
)


# The signal is an argument: how many rows it has is not proven.
ROWS_UNKNOWN = Invalid(
    """
import jax.numpy as jnp

WINDOW = 5


def smooth(signal):
    level = jnp.zeros(())
    means = []
    for t in range(60 - WINDOW + 1):
        window = signal[t : t + WINDOW]
        level = 0.9 * level + 0.1 * jnp.mean(window)
        means.append(level)
    return jnp.stack(means)


def main():
    return smooth(jnp.sin(jnp.linspace(0.0, 6.0, 60)))
""",
    fix=Applicability.NONE,
    message="cannot prove how many rows `signal` has",
)


# A Python int carried from step to step would come back from a jitted step as an array.
PYTHON_INT_CARRY = Invalid(
    f"""
import jax
import jax.numpy as jnp

BATCH = 4


{_SGD_STEP}

def main():
    x = jnp.ones((16, 2))
    y = jnp.zeros(16)
    w = jnp.zeros(2)
    seen = 0
    for i in range(4):
        xb = x[i * BATCH : (i + 1) * BATCH]
        yb = y[i * BATCH : (i + 1) * BATCH]
        w, loss = sgd_step(w, xb, yb)
        seen = seen + BATCH
    return w, seen
""",
    fix=Applicability.NONE,
    message="it returns `seen`, a Python number",
)


HOST_SHUFFLE = Valid(
    f"""
import jax
import jax.numpy as jnp
import numpy as np

BATCH = 4


{_SGD_STEP}

def main():
    rng = np.random.default_rng(0)
    x = jnp.ones((16, 2))
    y = jnp.zeros(16)
    w = jnp.zeros(2)
    for _epoch in range(3):
        perm = rng.permutation(16)
        for i in range(4):
            idx = perm[i * BATCH : (i + 1) * BATCH]
            w, loss = sgd_step(w, x[idx], y[idx])
    return w
""",
    why="the batches index the dataset through a permutation NumPy re-draws on the host "
    "every epoch: not a block of the dataset taken by the loop variable",
)

VALID = (HOST_SHUFFLE,)
INVALID = (
    BATCHES_SCAN,
    BATCHES_STEP,
    SLIDING_WINDOW,
    RAGGED_LAST_BATCH,
    WINDOW_BEFORE_START,
    ROWS_UNKNOWN,
    PYTHON_INT_CARRY,
)
