"""AO302 host-sync-in-loop: the cases tests/test_rule_examples.py runs.

The one INVALID case flagged `doc=True` is the example its documentation shows.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE

VALID = (
    Valid(
        """
import jax.numpy as jnp

losses = []
for x in xs:
    loss = jnp.sum(x)
    losses.append(loss)
""",
        "the device value is collected already",
    ),
    Valid(
        """
import numpy as np
import jax

values = []
for row in table:
    values.append(float(np.sum(row)))
""",
        "a NumPy value: no device sync",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

total = jnp.sum(jnp.ones(3))
value = float(total)
""",
        "not in a loop",
    ),
    Valid(
        """
import jax
import jax.numpy as jnp

@jax.jit
def step(x):
    for i in range(3):
        x = x * 2
    return x

for _ in range(3):
    x = step(x)
result = float(x)
""",
        "the conversion is after the loop",
    ),
    Valid(
        """
import jax.numpy as jnp

for t in range(100):
    x = jnp.tanh(x)
    if t % 10 == 0:
        print(float(x.mean()))
""",
        "printing every 10 steps is already amortized",
    ),
    Valid(
        """
import jax.numpy as jnp

losses = [float(jnp.sum(x)) for x in xs]
""",
        "a comprehension, not a loop statement",
    ),
)

INVALID = (
    # the list is set empty before an outer loop that reads it between runs of this one:
    # the device values are collected apart and added to it after each run, in order
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.9, jnp.sum(w)


def run(w, epochs):
    losses = []
    for epoch in range(epochs):
        for i in range(3):
            w, loss = step(w)
            losses.append(float(loss))
        print(epoch, losses[-1])
    return losses
""",
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.9, jnp.sum(w)


def run(w, epochs):
    losses = []
    for epoch in range(epochs):
        losses_parts = []
        for i in range(3):
            w, loss = step(w)
            losses_parts.append(loss)
        losses.extend([float(value) for value in jax.device_get(losses_parts)])
        print(epoch, losses[-1])
    return losses
""",
    ),
    # appended to between its reset and the loop: what it holds is kept, the values added
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.9, jnp.sum(w)


def run(w, epochs):
    losses = []
    losses.append("start")
    for epoch in range(epochs):
        for i in range(3):
            w, loss = step(w)
            losses.append(float(loss))
        print(epoch, losses[-1])
    return losses
""",
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.9, jnp.sum(w)


def run(w, epochs):
    losses = []
    losses.append("start")
    for epoch in range(epochs):
        losses_parts = []
        for i in range(3):
            w, loss = step(w)
            losses_parts.append(loss)
        losses.extend([float(value) for value in jax.device_get(losses_parts)])
        print(epoch, losses[-1])
    return losses
""",
    ),
    # a list the caller's values fill (`list(w)`) is not proven a list set empty only
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.9, jnp.sum(w)


def run(w, epochs):
    losses = list(w)
    for epoch in range(epochs):
        for i in range(3):
            w, loss = step(w)
            losses.append(float(loss))
        print(epoch, losses[-1])
    return losses
""",
        fix=_NONE,
        message="`losses` is not an empty list",
    ),
    # an alias (`history`) could read it during the loop
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.9, jnp.sum(w)


def run(w, epochs):
    losses = []
    history = losses
    for epoch in range(epochs):
        for i in range(3):
            w, loss = step(w)
            losses.append(float(loss))
        print(epoch, losses[-1])
    return losses
""",
        fix=_NONE,
        message="`losses` is not an empty list",
    ),
    # an exception the `try` catches would print it without the loop's values
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.9, jnp.sum(w)


def run(w, epochs):
    losses = []
    try:
        pass
    except ValueError:
        pass
    try:
        for epoch in range(epochs):
            for i in range(3):
                w, loss = step(w)
                losses.append(float(loss))
            print(epoch, losses[-1])
    except KeyboardInterrupt:
        print(losses)
    return losses
""",
        fix=_NONE,
        message="`losses` is not an empty list",
    ),
    # bound to a list that is not empty on some path
    Invalid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def step(w):
    return w * 0.9, jnp.sum(w)


def run(w, epochs):
    losses = []
    if epochs > 3:
        losses = [0.0]
    for epoch in range(epochs):
        for i in range(3):
            w, loss = step(w)
            losses.append(float(loss))
        print(epoch, losses[-1])
    return losses
""",
        fix=_NONE,
        message="`losses` is not an empty list",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(w, x):
    return w - 0.1 * x, (w * x).sum()

def main(w, xs):
    losses = []
    for x in xs:
        w, loss = step(w, x)
        losses.append(float(loss))
    return w, losses
""",
        """
import jax

@jax.jit
def step(w, x):
    return w - 0.1 * x, (w * x).sum()

def main(w, xs):
    losses = []
    for x in xs:
        w, loss = step(w, x)
        losses.append(loss)
    losses = [float(value) for value in jax.device_get(losses)]
    return w, losses
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

@jax.jit
def energy(x):
    return jnp.sum(x**2)

def main(x, steps):
    energies = []
    for t in range(steps):
        x = x * 0.9
        energies.append(energy(x).item())
    return energies
""",
        """
import jax
import jax.numpy as jnp

@jax.jit
def energy(x):
    return jnp.sum(x**2)

def main(x, steps):
    energies = []
    for t in range(steps):
        x = x * 0.9
        energies.append(energy(x))
    energies = [value.item() for value in jax.device_get(energies)]
    return energies
""",
    ),
    Invalid(
        """
import jax.numpy as jnp
import numpy as np

def main(xs):
    norms, means = [], []
    for x in xs:
        y = jnp.tanh(x)
        norms.append(np.asarray(jnp.linalg.norm(y), dtype=np.float64))
        means.append(float(y.mean()))
    return norms, means
""",
        """
import jax
import jax.numpy as jnp
import numpy as np


def main(xs):
    norms, means = [], []
    for x in xs:
        y = jnp.tanh(x)
        norms.append(jnp.linalg.norm(y))
        means.append(y.mean())
    norms = [np.asarray(value, dtype=np.float64) for value in jax.device_get(norms)]
    means = [float(value) for value in jax.device_get(means)]
    return norms, means
""",
        fix=_UNSAFE,
        message="device memory",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(w):
    return w * 0.5, (w**2).sum()

def main(w):
    total = 0.0
    for _ in range(10):
        w, loss = step(w)
        total += float(loss)
    return w, total
""",
        """
import jax

@jax.jit
def step(w):
    return w * 0.5, (w**2).sum()

def main(w):
    total = 0.0
    total_parts = []
    for _ in range(10):
        w, loss = step(w)
        total_parts.append(loss)
    for value in jax.device_get(total_parts):
        total += float(value)
    return w, total
""",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(w):
    return w * 0.5, (w**2).sum()

hist = []
w = jax.numpy.ones(3)
i = 0
while i < 5:
    w, loss = step(w)
    hist.append(jax.device_get(loss))
    i += 1
""",
        """
import jax

@jax.jit
def step(w):
    return w * 0.5, (w**2).sum()

hist = []
w = jax.numpy.ones(3)
i = 0
while i < 5:
    w, loss = step(w)
    hist.append(loss)
    i += 1
hist = jax.device_get(hist)
""",
        fix=_UNSAFE,
    ),
    Invalid(
        """
import jax.numpy as jnp

def main(xs):
    rows = []
    for epoch in range(3):
        for x in xs:
            rows.append(jnp.cumsum(x).tolist())
    return rows
""",
        """
import jax
import jax.numpy as jnp


def main(xs):
    rows = []
    for epoch in range(3):
        for x in xs:
            rows.append(jnp.cumsum(x))
    rows = [value.tolist() for value in jax.device_get(rows)]
    return rows
""",
        fix=_UNSAFE,
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

def main(xs):
    count = 0
    for x in xs:
        count += jnp.sum(x > 0).item()
    return count
""",
        """
import jax
import jax.numpy as jnp


def main(xs):
    count = 0
    count_parts = []
    for x in xs:
        count_parts.append(jnp.sum(x > 0))
    for value in jax.device_get(count_parts):
        count += value.item()
    return count
""",
        doc=True,
    ),
    Invalid(
        """
import jax

@jax.jit
def step(w):
    return w * 0.5, (w**2).sum()

def main(w):
    logged = []
    for t in range(100):
        w, loss = step(w)
        if t % 10 == 0:
            logged.append(float(loss))
    return logged
""",
        """
import jax

@jax.jit
def step(w):
    return w * 0.5, (w**2).sum()

def main(w):
    logged = []
    for t in range(100):
        w, loss = step(w)
        if t % 10 == 0:
            logged.append(loss)
    logged = [float(value) for value in jax.device_get(logged)]
    return logged
""",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(theta):
    return theta * 0.9, (theta**2).sum()

def main(theta):
    for i in range(100):
        theta, loss = step(theta)
        if float(loss) < 1e-3:
            break
    return theta
""",
        fix=_NONE,
        message="control flow",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(theta):
    return theta * 0.9, (theta**2).sum()

def main(theta):
    losses = []
    for i in range(100):
        theta, loss = step(theta)
        loss = float(loss)
        losses.append(loss)
        if loss < 1e-3:
            break
    return theta, losses
""",
        fix=_NONE,
        message="control flow",
    ),
    Invalid(
        """
import jax.numpy as jnp

def main(x):
    for t in range(10):
        x = jnp.tanh(x)
        print(f"step {t}: {x.mean().item():.4f}")
    return x
""",
        """
import jax
import jax.numpy as jnp


def main(x):
    printed = []
    for t in range(10):
        x = jnp.tanh(x)
        printed.append((t, x.mean()))
    for t_printed, value in jax.device_get(printed):
        print(f"step {t_printed}: {value.item():.4f}")
    return x
""",
        fix=_UNSAFE,
        message="print the same lines after the loop",
    ),
    Invalid(
        """
import jax.numpy as jnp

def main(x, lr):
    for t in range(10):
        x = jnp.tanh(x) * lr
        lr = lr * 0.9
        print(f"lr {lr}: {x.mean().item():.4f}")
    return x
""",
        fix=_NONE,
        message="the print also reads `lr`",
    ),
    Invalid(
        """
import jax.numpy as jnp

def main(x):
    for t in range(10):
        x = jnp.tanh(x)
        print(f"step {t}: {x.mean().item():.4f}")
        print("done with", t)
    return x
""",
        fix=_NONE,
        message="prints other lines",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(x):
    return x * 0.5

def main(x):
    x = jax.device_put(x)
    for t in range(10):
        print(float(x[0]))
        x = step(x)
    return x
""",
        fix=_NONE,
        message="could donate",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(x, v):
    return x + v, v * 0.9

def main(x, v):
    x, v = jax.device_put((x, v))
    snapshots = []
    for t in range(10):
        snapshots.append(float(x[0]))
        x, v = step(x, v)
    return snapshots
""",
        fix=_NONE,
        message="donat",
    ),
    Invalid(
        """
import jax.numpy as jnp

def main(xs, log):
    losses = []
    log["loss"] = losses
    for x in xs:
        losses.append(float(jnp.sum(x)))
    return log
""",
        fix=_NONE,
        message="`losses`",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import numpy as np

STEPS = 100


@jax.jit
def update(w, x, y):
    loss, grad = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * grad, loss


def main(data, targets):
    xs, ys = jnp.asarray(data), jnp.asarray(targets)
    w = jnp.zeros(xs.shape[-1])
    losses = []
    for i in range(STEPS):
        w, loss = update(w, xs[i], ys[i])
        losses.append(float(loss))
    return w, losses
""",
        """
import functools

import jax
import jax.numpy as jnp
import numpy as np

STEPS = 100


@jax.jit
def update(w, x, y):
    loss, grad = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.1 * grad, loss


@functools.partial(jax.jit, donate_argnames=("w",))
def main_loop(w, xs, ys, steps):
    def body(carry, i):
        w = carry
        w, loss = update(w, xs[i], ys[i])
        return w, loss

    return jax.lax.scan(body, w, steps)


def main(data, targets):
    xs, ys = jnp.asarray(data), jnp.asarray(targets)
    w = jnp.zeros(xs.shape[-1])
    losses = []
    w, losses = main_loop(w, xs, ys, jnp.arange(STEPS))
    losses = [float(value) for value in jax.device_get(losses)]
    return w, losses
""",
        message="lax.scan",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

STEPS = 50


@jax.jit
def relax(u):
    return 0.5 * (jnp.roll(u, 1) + jnp.roll(u, -1))


@jax.jit
def energy(u):
    return jnp.sum(u**2)


def main():
    u = jnp.linspace(0.0, 1.0, 64)
    energies = []
    for t in range(STEPS):
        energies.append(energy(u).item())
        u = relax(u)
    return u, energies
""",
        """
import functools

import jax
import jax.numpy as jnp

STEPS = 50


@jax.jit
def relax(u):
    return 0.5 * (jnp.roll(u, 1) + jnp.roll(u, -1))


@jax.jit
def energy(u):
    return jnp.sum(u**2)


@functools.partial(jax.jit, donate_argnames=("u",))
def main_loop(u, steps):
    def body(carry, t):
        u = carry
        collected = energy(u)
        u = relax(u)
        return u, collected

    return jax.lax.scan(body, u, steps)


def main():
    u = jnp.linspace(0.0, 1.0, 64)
    energies = []
    u, energies = main_loop(u, jnp.arange(STEPS))
    energies = [value.item() for value in jax.device_get(energies)]
    return u, energies
""",
        message="lax.scan",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import numpy as np

N = 8


@jax.jit
def score(params, x):
    return jnp.tanh(x @ params).sum()


def main(params):
    batches = jnp.ones((N, 4, 3))
    scores = []
    for b in range(2, N):
        scores.append(float(score(params, batches[b]) * 2.0))
    return scores
""",
        """
import jax
import jax.numpy as jnp
import numpy as np

N = 8


@jax.jit
def score(params, x):
    return jnp.tanh(x @ params).sum()


@jax.jit
def main_loop(batches, params, steps):
    def body(_carry, b):
        collected = score(params, batches[b]) * 2.0
        return (), collected

    return jax.lax.scan(body, (), steps)


def main(params):
    batches = jnp.ones((N, 4, 3))
    scores = []
    scores = main_loop(batches, params, jnp.arange(2, N))[1]
    scores = [float(value) for value in jax.device_get(scores)]
    return scores
""",
        message="lax.scan",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

STEPS = 50


@jax.jit
def step(x):
    return x * 0.9 + 0.1 * jnp.sin(x), jnp.sum(x**2)


def main():
    x = jnp.linspace(-1.0, 1.0, 8)
    energies, peaks = [], []
    for t in range(STEPS):
        x, energy = step(x)
        energies.append(float(energy))
        if t % 10 == 0:
            peaks.append(jnp.max(x).item())
    return x, energies, peaks
""",
        """
import functools

import jax
import jax.numpy as jnp

STEPS = 50


@jax.jit
def step(x):
    return x * 0.9 + 0.1 * jnp.sin(x), jnp.sum(x**2)


@functools.partial(jax.jit, donate_argnames=("x",))
def main_loop(x, steps):
    def body(carry, t):
        x = carry
        x, energy = step(x)
        collected = jnp.max(x)
        return x, (energy, collected)

    return jax.lax.scan(body, x, steps)


def main():
    x = jnp.linspace(-1.0, 1.0, 8)
    energies, peaks = [], []
    x, (energies, peaks) = main_loop(x, jnp.arange(STEPS))
    energies = [float(value) for value in jax.device_get(energies)]
    peaks = [value.item() for t, value in zip(range(STEPS), jax.device_get(peaks)) if t % 10 == 0]
    return x, energies, peaks
""",
        message="lax.scan",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(w):
    return w * 0.8, (w * w).sum()

def main(w):
    flags = []

    def check():
        flags.append(isinstance(losses[-1], float))

    losses = []
    for _ in range(10):
        w, loss = step(w)
        losses.append(float(loss))
        check()
    return losses, flags
""",
        fix=Applicability.NONE,
        message="the function `check` reads `losses` and could run during the loop",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(w):
    return w * 0.9, (w * w).sum()

class Monitor:
    def __call__(self):
        return type(history[-1]).__name__

monitor = Monitor()
w = jax.numpy.ones(2)
history = []
for _ in range(5):
    w, loss = step(w)
    history.append(float(loss))
    monitor()
""",
        fix=Applicability.NONE,
        message="the function `__call__` reads `history`",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(w):
    return w * 0.9, (w * w).sum()

def main(w):
    seen = []
    hooks = []
    total = 0.0

    def log_total():
        seen.append(type(total))

    hooks.append(log_total)
    for _ in range(5):
        w, loss = step(w)
        total += float(loss)
        for hook in hooks:
            hook()
    return total, seen
""",
        fix=Applicability.NONE,
        message="the function `log_total` reads `total`",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

@jax.jit
def step(w):
    return w * 0.5, jnp.sum(w)

consume = jax.jit(lambda x: x * 2.0, donate_argnums=0)

def main(w):
    losses = []
    total = 0.0
    for _ in range(5):
        w, loss = step(w)
        losses.append(float(loss))
        total = total + consume(loss)
    return losses, total
""",
        fix=Applicability.NONE,
        message="`loss` is also passed to a call at line 17 that may donate it",
    ),
    Invalid(
        """
import jax

@jax.jit
def step(w):
    return w * 0.9, (w * w).sum()

def main(w, report):
    losses = []
    last = lambda: losses[-1]
    for _ in range(5):
        w, loss = step(w)
        losses.append(float(loss))
        report(last)
    return losses
""",
        fix=Applicability.NONE,
        message="a lambda or generator expression reads `losses` when it runs",  # `last`
    ),
    Invalid(
        """
import jax

@jax.jit
def step(w):
    return w * 0.8, (w * w).sum()

def main(w):
    def summary():
        return max(losses)

    losses = []
    for _ in range(10):
        w, loss = step(w)
        losses.append(float(loss))
    return w, summary()
""",
        """
import jax

@jax.jit
def step(w):
    return w * 0.8, (w * w).sum()

def main(w):
    def summary():
        return max(losses)

    losses = []
    for _ in range(10):
        w, loss = step(w)
        losses.append(loss)
    losses = [float(value) for value in jax.device_get(losses)]
    return w, summary()
""",
        message="after the loop",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

@jax.jit
def train_step(params, batch):
    return params * 0.9 + 0.1 * batch, jnp.sum((params - batch) ** 2)

def main(params, batch, n):
    total = 0.0
    for step in range(n):
        params, loss = train_step(params, batch)
        total += loss.item()
        if step % 100 == 99:
            print(f"step {step}: mean loss {total / 100:.4f}")
            total = 0.0
    return params, total
""",
        """
import jax
import jax.numpy as jnp

@jax.jit
def train_step(params, batch):
    return params * 0.9 + 0.1 * batch, jnp.sum((params - batch) ** 2)

def main(params, batch, n):
    total = 0.0
    total_pending = []
    for step in range(n):
        params, loss = train_step(params, batch)
        total_pending.append(loss)
        if step % 100 == 99:
            for value in jax.device_get(total_pending):
                total += value.item()
            total_pending.clear()
            print(f"step {step}: mean loss {total / 100:.4f}")
            total = 0.0
    for value in jax.device_get(total_pending):
        total += value.item()
    return params, total
""",
        message="convert them into `total` just before it is read",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

@jax.jit
def train_step(params, batch):
    return params * 0.9 + 0.1 * batch, jnp.sum((params - batch) ** 2)
import numpy as np

def main(params, batch, n):
    losses = []
    seen = 0
    params = jnp.asarray(params)
    for step in range(n):
        params, loss = train_step(params, batch)
        losses.append(float(loss))
        if step % 20 == 19:
            print(np.mean(losses[-20:]))
    return params, losses
""",
        """
import jax
import jax.numpy as jnp

@jax.jit
def train_step(params, batch):
    return params * 0.9 + 0.1 * batch, jnp.sum((params - batch) ** 2)
import numpy as np


def main(params, batch, n):
    losses = []
    seen = 0
    params = jnp.asarray(params)
    losses_pending = []
    for step in range(n):
        params, loss = train_step(params, batch)
        losses_pending.append(loss)
        if step % 20 == 19:
            losses.extend(float(value) for value in jax.device_get(losses_pending))
            losses_pending.clear()
            print(np.mean(losses[-20:]))
    losses.extend(float(value) for value in jax.device_get(losses_pending))
    return params, losses
""",
        message="`losses_pending`",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

@jax.jit
def train_step(params, batch):
    return params * 0.9 + 0.1 * batch, jnp.sum((params - batch) ** 2)

def main(params, batch, n):
    total = 0.0
    for step in range(n):
        params, loss = train_step(params, batch)
        total += loss.item()
        if total > 100.0:
            break
    return params, total
""",
        fix=_NONE,
        message="control flow",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

@jax.jit
def train_step(params, batch):
    return params * 0.9 + 0.1 * batch, jnp.sum((params - batch) ** 2)

def main(params, batch, n):
    total = 0.0

    def report():
        print(f"running loss {total:.4f}")

    for step in range(n):
        params, loss = train_step(params, batch)
        total += loss.item()
        if step % 100 == 99:
            report()
    return params, total
""",
        fix=_NONE,
        message="the function `report` reads `total` and could run during the loop",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

@jax.jit
def train_step(params, batch):
    return params * 0.9 + 0.1 * batch, jnp.sum((params - batch) ** 2)

def main(params, batch, n):
    total = 0.0
    for step in range(n):
        params, loss = train_step(params, batch)
        total += loss.item()
        print(f"running loss {total:.4f}")
    return params, total
""",
        fix=_NONE,
        message="`total` is read at line 14 on every step the loop collects it",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

@jax.jit
def train_step(params, batch):
    return params * 0.9 + 0.1 * batch, jnp.sum((params - batch) ** 2)

def main(params, batch, n):
    total = 0.0
    try:
        for step in range(n):
            params, loss = train_step(params, batch)
            total += loss.item()
            if step % 100 == 99:
                print(total)
    except KeyboardInterrupt:
        print(f"stopped at {total:.4f}")
    return params, total
""",
        fix=_NONE,
        message="an exception leaving the loop would skip the flush before an enclosing `try`",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp

@jax.jit
def train_step(params, batch):
    return params * 0.9 + 0.1 * batch, jnp.sum((params - batch) ** 2)

params, batch = jnp.ones(3), jnp.zeros(3)
losses = []
for step in range(200):
    params, loss = train_step(params, batch)
    losses.append(float(loss))
    if step % 20 == 19:
        print(sum(losses[-20:]) / 20)
""",
        """
import jax
import jax.numpy as jnp

@jax.jit
def train_step(params, batch):
    return params * 0.9 + 0.1 * batch, jnp.sum((params - batch) ** 2)

params, batch = jnp.ones(3), jnp.zeros(3)
losses = []
losses_pending = []
for step in range(200):
    params, loss = train_step(params, batch)
    losses_pending.append(loss)
    if step % 20 == 19:
        losses.extend(float(value) for value in jax.device_get(losses_pending))
        losses_pending.clear()
        print(sum(losses[-20:]) / 20)
losses.extend(float(value) for value in jax.device_get(losses_pending))
""",
        fix=_UNSAFE,
        message="unsafe: an exception (Ctrl-C) leaving the loop leaves `losses`",
    ),
    # none: the collected `loss` is a leaf of `state`, which the next step may donate
    Invalid(
        """
import time
from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    w: jax.Array
    loss: jax.Array


@jax.jit
def train_step(state, x):
    loss = jnp.sum((state.w - x) ** 2)
    return State(state.w - 0.1 * (state.w - x), loss)


def main():
    x = jnp.ones(2)
    state = State(jnp.zeros(2), jnp.array(0.0))
    losses = []
    seconds = 0.0
    for i in range(4):
        started = time.perf_counter()
        state = train_step(state, x)
        w, loss = state
        losses.append(float(loss))
        seconds += time.perf_counter() - started
    return state.w, losses
""",
        fix=_NONE,
        message="`loss` may hold the buffers of `state`, which a call in the loop replaces",
    ),
    # safe: a loss the step returns apart from the weights shares none of their buffers
    Invalid(
        """
import time

import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    loss = jnp.sum((w - x) ** 2)
    return w - 0.1 * (w - x), loss


def main():
    x = jnp.ones(2)
    w = jnp.zeros(2)
    losses = []
    seconds = 0.0
    for i in range(4):
        started = time.perf_counter()
        w, loss = train_step(w, x)
        losses.append(float(loss))
        seconds += time.perf_counter() - started
    return w, losses
""",
        """
import time

import jax
import jax.numpy as jnp


@jax.jit
def train_step(w, x):
    loss = jnp.sum((w - x) ** 2)
    return w - 0.1 * (w - x), loss


def main():
    x = jnp.ones(2)
    w = jnp.zeros(2)
    losses = []
    seconds = 0.0
    for i in range(4):
        started = time.perf_counter()
        w, loss = train_step(w, x)
        losses.append(loss)
        seconds += time.perf_counter() - started
    losses = [float(value) for value in jax.device_get(losses)]
    return w, losses
""",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def train_step(params, batch):
    return params * 0.9 + 0.1 * batch, jnp.sum((params - batch) ** 2)


def main(params, batch, n):
    losses = []
    for step in range(n):
        params, loss = train_step(params, batch)
        loss = float(loss)
        losses.append(loss)
        if step % 20 == 19:
            print(np.mean(losses[-20:]))
    return params, losses
""",
        """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def train_step(params, batch):
    return params * 0.9 + 0.1 * batch, jnp.sum((params - batch) ** 2)


def main(params, batch, n):
    losses = []
    losses_pending = []
    for step in range(n):
        params, loss = train_step(params, batch)
        losses_pending.append(loss)
        if step % 20 == 19:
            losses.extend(float(value) for value in jax.device_get(losses_pending))
            losses_pending.clear()
            print(np.mean(losses[-20:]))
    losses.extend(float(value) for value in jax.device_get(losses_pending))
    return params, losses
""",
        message="only to feed lists read at an interval: drop the copy",
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import numpy as np

@jax.jit
def train_step(params, batch):
    return params * 0.9 + 0.1 * batch, {"loss": jnp.sum((params - batch) ** 2)}


def main(params, batch, n):
    losses = []
    for step in range(n):
        params, out = train_step(params, batch)
        out = jax.device_get(out)
        losses.append(out["loss"])
        if step % 20 == 19:
            print(np.mean(losses[-20:]))
        if out["loss"] < 0.1:
            break
    return params, losses
""",
        fix=_NONE,
        message="the host value is used for control flow in the loop",
    ),
)
