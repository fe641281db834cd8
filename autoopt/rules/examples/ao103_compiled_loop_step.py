"""AO103 compiled-loop-step: the cases tests/test_rule_examples.py runs.

The one INVALID case flagged `doc=True` is the example its documentation shows.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

_NONE = Applicability.NONE

#: a CG loop of one call that keeps a value under `{block}`'s condition; `{head}` goes
#: above `main`: the shape of corpus/cg_poisson_bc.py, for the kept appends' premises
_KEPT = """
import jax.numpy as jnp
import numpy as np

ITERS = 30
EVERY = 10


def cg_iteration(x, r, p, rs):
    alpha = rs / jnp.sum(p * p)
    x = x + alpha * p
    r = r - alpha * p
    rs_new = jnp.sum(r * r)
    return x, r, r + (rs_new / rs) * p, rs_new
{head}

def main():
    r = jnp.ones(8)
    x, p, rs = jnp.zeros(8), r, jnp.sum(r * r)
    norms = []
    for it in {loop}:
        x, r, p, rs = cg_iteration(x, r, p, rs)
{block}
    return x, norms
"""


def _kept(block: str, head: str = "", loop: str = "range(ITERS)") -> str:
    return _KEPT.format(block=block, head=head, loop=loop)


VALID = (
    Valid(
        """
import jax
import jax.numpy as jnp


@jax.jit
def rollout(x):
    for _ in range(4):
        dx = jnp.sin(x)
        x = x + 0.1 * dx
    return x
""",
        "a loop inside a jitted function already runs traced",
    ),
    Valid(
        """
import jax.numpy as jnp


def step(x):
    return x + 0.1 * jnp.sin(x)


def run(x):
    for _ in range(10):
        x = step(x)
    return x
""",
        "one call whose step is not proven (nothing shows what `x` receives): a loop of "
        "one call is taken only as a proven scan, else AO101 jits the function it calls",
    ),
    Valid(
        """
import jax.numpy as jnp


def step(x, w):
    return jnp.tanh(w @ x)


def run(x, w, n):
    for _ in range(n):
        x = step(x, w)
    return x


def main():
    return run(jnp.ones(4), jnp.eye(4), 10)
""",
        "one call in a loop of unknown count: no scan, and a step of one call would only "
        "be AO101's jit of it",
    ),
    Valid(
        """
import jax.numpy as jnp

N_STEPS = 10


def step(x, w):
    return jnp.tanh(w @ x)


def main():
    x, w = jnp.ones(4), jnp.eye(4)
    for _ in range(N_STEPS):
        x = step(x, w)
        print(x[0])
    return x
""",
        "one call and a print: the step is not the whole body, so no scan",
    ),
    Valid(
        """
import jax.numpy as jnp


def run(x):
    for t in range(10):
        d = jnp.sin(x)
        print(t, float(d.sum()))
        x = x + 0.1 * d
    return x


def main():
    return run(jnp.ones(3))
""",
        "a print between the device statements leaves one statement to compile",
    ),
    Valid(
        """
import jax.numpy as jnp


def run(x):
    it = 0
    while it < 10:
        it += 1
        d = jnp.sin(x)
        x = x + 0.1 * d
    return x


def main():
    return run(jnp.ones(3))
""",
        "the body starts with host bookkeeping (`it += 1`)",
    ),
    Valid(
        """
import jax.numpy as jnp
import numpy as np


def run(x, seed):
    rng = np.random.default_rng(seed)
    for _ in range(10):
        noise = rng.normal(size=3)
        x = x + 0.1 * jnp.asarray(noise)
    return x


def main():
    return run(jnp.zeros(3), 0)
""",
        "a host RNG draw in the body: the step would freeze it",
    ),
    Valid(
        """
import jax.numpy as jnp


def run(x):
    out = jnp.zeros((0, 3))
    for _ in range(5):
        x = x * 2
        out = jnp.concatenate([out, x[None]])
    return out


def main():
    return run(jnp.ones(3))
""",
        "a carried array that grows every iteration (AO402's)",
    ),
    Valid(
        """
import jax.numpy as jnp


def run(x, n):
    for t in range(1, n):
        z = jnp.zeros(t)
        x = x + z.sum()
    return x


def main():
    return run(jnp.ones(3), 5)
""",
        "the loop variable sizes an array: static, it would recompile every iteration",
    ),
    Valid(
        """
import jax.numpy as jnp

LOG = []


def record(value):
    LOG.append(value)
    return value


def update(x):
    return record(x * 0.5)


def run(x):
    for _ in range(5):
        y = update(x)
        x = x + y
    return x


def main():
    return run(jnp.ones(3))
""",
        "a side effect two calls deep",
    ),
    Valid(
        """
import jax.numpy as jnp


def fill(xs):
    acc = jnp.zeros((4, 3))
    for i in range(xs.shape[0]):
        row = xs[i] * 2
        acc = acc.at[i].set(row)
    return acc


def main():
    return fill(jnp.ones((4, 3)))
""",
        "AO401 runs this loop as lax.fori_loop (one owner per loop)",
    ),
    Valid(
        """
import jax.numpy as jnp


def relax(x):
    if x.sum() > 0:
        return x * 0.5
    return x


def run(x):
    for _ in range(5):
        y = relax(x)
        x = x + y
    return x


def main():
    return run(jnp.ones(3))
""",
        "Python control flow on a traced value in a callee",
    ),
    Valid(
        """
import jax.numpy as jnp


def run(x):
    count = 0
    for _ in range(5):
        x = jnp.sin(x)
        count = count + 1
    return x, count


def main():
    return run(jnp.ones(3))
""",
        "a carried Python counter would come back as an array",
    ),
    Valid(
        _kept("        if rs > 1e-3:\n            norms.append(jnp.sqrt(rs))"),
        "the condition of a kept append reads a carried device value",
    ),
    Valid(
        _kept(
            "        if keep(it):\n            norms.append(jnp.sqrt(rs))",
            "\n\ndef keep(i):\n    return i % 3 == 0\n",
        ),
        "the condition of a kept append calls a function",
    ),
    Valid(
        _kept(
            "        if it % EVERY == 0:\n            norms.append(jnp.sqrt(rs))\n"
            "        else:\n            norms.append(rs)"
        ),
        "a kept append with an `else`",
    ),
    Valid(
        _kept(
            "        if it % EVERY == 0:\n"
            "            norms.append(jnp.sqrt(rs))\n"
            "            print(it)"
        ),
        "a kept block that does more than append",
    ),
    Valid(
        _kept("        if it % EVERY == 0:\n            norms.append(jnp.sqrt(rs) + len(norms))"),
        "the kept value reads its list",
    ),
    Valid(
        _kept(
            "        if it % EVERY == 0:\n            alias = norms\n            alias.append(rs)"
        ),
        "the list is aliased inside the loop",
    ),
    Valid(
        _kept("        if it % EVERY == 0:\n            norms.append(np.sqrt(2.0) * np.ones(3))"),
        "the kept value is a NumPy array",
    ),
    Valid(
        _kept("        if it % EVERY == 0:\n            norms.append(EVERY * 2)"),
        "the kept value is a Python number",
    ),
    Valid(
        _kept(
            "        if it % EVERY == 0:\n            norms.append(noisy(rs))",
            "\n\ndef noisy(v):\n    print(v)\n    return jnp.sqrt(v)\n",
        ),
        "the kept value is impure (it prints)",
    ),
    Valid(
        _kept(
            "        if it % EVERY == 0:\n            norms.append(jnp.sqrt(rs))",
            loop="[0, 10, 20]",
        ),
        "a kept append in a loop over a list, not a known `range(...)`",
    ),
    Valid(
        _kept(
            "        every = it + 1\n"
            "        if it % every == 0:\n"
            "            norms.append(jnp.sqrt(rs))"
        ),
        "the condition reads a name the loop rebinds",
    ),
)

INVALID = (
    Invalid(
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
import jax
import jax.numpy as jnp
import functools


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
    ),
    Invalid(
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
    ),
    Invalid(
        """
import jax.numpy as jnp

w = jnp.ones(3)
target = jnp.arange(3.0)
for _ in range(10):
    grad = 2 * (w - target)
    w = w - 0.1 * grad
print(w)
""",
        expected="""
import jax
import jax.numpy as jnp
import functools

w = jnp.ones(3)
target = jnp.arange(3.0)


@functools.partial(jax.jit, donate_argnames=("w",))
def _loop(w):
    def body(carry, _):
        w, grad = carry
        grad = 2 * (w - target)
        w = w - 0.1 * grad
        return (w, grad), None

    return jax.lax.scan(body, (w, jnp.zeros_like(w)), length=10)[0]


w, grad = _loop(w)
_ = 9
print(w)
""",
        message="it carries `grad` too, for the last values the loop leaves as globals",
    ),
    Invalid(
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
import jax
import jax.numpy as jnp
import functools

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
    ),
    Invalid(
        """
import jax.numpy as jnp
import numpy as np

GRID = 16
N_STEPS = 50
PROBE = (5, 4)

interior = np.zeros((GRID, GRID), np.float32)
interior[1:-1, 1:-1] = 1.0
mask = jnp.asarray(interior)
bump = np.exp(-np.arange(GRID * GRID).reshape(GRID, GRID) / 40.0).astype(np.float32)
u_prev = jnp.asarray(bump) * mask
u = u_prev
probe = []
for _ in range(N_STEPS):
    lap = jnp.roll(u, 1, axis=0) + jnp.roll(u, -1, axis=0) - 2.0 * u
    u_next = (2.0 * u - u_prev + 0.25 * lap) * mask
    u_prev, u = u, u_next
    probe.append(u[PROBE])

signal = jnp.stack(probe)


def main():
    return u, signal
""",
        expected="""
import jax
import jax.numpy as jnp
import numpy as np

GRID = 16
N_STEPS = 50
PROBE = (5, 4)

interior = np.zeros((GRID, GRID), np.float32)
interior[1:-1, 1:-1] = 1.0
mask = jnp.asarray(interior)
bump = np.exp(-np.arange(GRID * GRID).reshape(GRID, GRID) / 40.0).astype(np.float32)
u_prev = jnp.asarray(bump) * mask
u = u_prev
probe = []


@jax.jit
def _loop(u, u_prev):
    def body(carry, _):
        u, u_prev, lap, u_next = carry
        lap = jnp.roll(u, 1, axis=0) + jnp.roll(u, -1, axis=0) - 2.0 * u
        u_next = (2.0 * u - u_prev + 0.25 * lap) * mask
        u_prev, u = u, u_next
        probe_item = u[PROBE]
        return (u, u_prev, lap, u_next), probe_item

    return jax.lax.scan(body, (u, u_prev, jnp.zeros_like(u), jnp.zeros_like(u)), length=N_STEPS)


(u, u_prev, lap, u_next), probe_items = _loop(u, u_prev)
probe.extend(probe_items[i] for i in range(N_STEPS))
_ = N_STEPS - 1

signal = probe_items


def main():
    return u, signal
""",
        message="run the whole loop as one jitted `lax.scan`, `_loop`; it carries `lap`, `u_next`",
    ),
    Invalid(
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
import jax
import jax.numpy as jnp
import functools


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
    ),
    Invalid(
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
    ),
    Invalid(
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
    ),
    Invalid(
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
    ),
    Invalid(
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
    ),
    Invalid(
        """
import jax.numpy as jnp


def solve(x):
    it = 0
    while it < 20:
        grad = 2 * x - 1.0
        x = x - 0.1 * grad
        it += 1
    return x


def main():
    return solve(jnp.zeros(3))
""",
        expected='''
import jax
import jax.numpy as jnp
import functools


@jax.jit
def _solve_step(x):
    grad = 2 * x - 1.0
    x = x - 0.1 * grad
    return x


@functools.partial(jax.jit, static_argnames=("peel",))
def _solve_scan(x, peel=False):
    def body(x, _):
        x = _solve_step(x)
        return x, None

    if not peel:
        return jax.lax.scan(body, x, length=20)[0]
    x = body(x, 0)[0]  # the first step, on the starting types
    return jax.lax.scan(body, x, length=20 - 1)[0]


def _solve_loop(x):
    """One jitted `lax.scan` of `_solve_step` when the step returns the carry with the
    types it takes, as `lax.scan` needs (then every step does), from the first step on or
    (a weakly typed start) from the second; else the loop of steps."""

    def types(tree):
        leaves, structure = jax.tree_util.tree_flatten(jax.eval_shape(lambda x: x, tree))
        return structure, [(x.shape, x.dtype, x.weak_type) for x in leaves]

    first = jax.eval_shape(_solve_step, x)
    if types(first) == types(x):
        return _solve_scan(x)
    if types(jax.eval_shape(_solve_step, first)) == types(first):
        return _solve_scan(x, peel=True)
    it = 0
    while it < 20:
        x = _solve_step(x)
        it += 1
    return x


def solve(x):
    it = 0
    x = _solve_loop(x)
    return x


def main():
    return solve(jnp.zeros(3))
''',
        message="`_solve_scan`",
    ),
    Invalid(
        """
import jax.numpy as jnp
import numpy as np


def run(x, n):
    acc = jnp.zeros(3)
    for t in range(n):
        row = x[t] * 2
        acc = acc + row
    return acc


def main():
    return run(np.ones((4, 3)), 4)
""",
        fix=_NONE,
        message="not proven a JAX array, may raise",
    ),
    Invalid(
        """
import jax.numpy as jnp
import numpy as np


def run(table, steps):
    s = jnp.zeros(3)
    for _ in range(steps):
        d = jnp.sin(s) + table
        s = s + 0.5 * d
    return s


def main():
    return run(np.ones(3), 5)
""",
        fix=_NONE,
        message="receives a NumPy array",
    ),
    Invalid(
        """
import jax.numpy as jnp

N_STEPS = 300


def advance(u, dt):
    return u + dt * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))


def simulate(u0):
    u = jnp.asarray(u0, jnp.float32)
    energy = []
    for _ in range(N_STEPS):
        u = advance(u, 0.1)
        energy.append(jnp.sum(u**2))  # one value per step
    return u, jnp.stack(energy)


def main():
    return simulate(jnp.sin(jnp.arange(16.0)))
""",
        expected="""
import jax
import jax.numpy as jnp

N_STEPS = 300


def advance(u, dt):
    return u + dt * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))


@jax.jit
def _simulate_loop(u):
    def body(u, _):
        u = advance(u, 0.1)
        energy_item = jnp.sum(u**2)  # one value per step
        return u, energy_item

    return jax.lax.scan(body, u, length=N_STEPS)


def simulate(u0):
    u = jnp.asarray(u0, jnp.float32)
    energy = []
    u, energy = _simulate_loop(u)
    return u, energy


def main():
    return simulate(jnp.sin(jnp.arange(16.0)))
""",
        message="run the whole loop as one jitted `lax.scan`, `_simulate_loop`",
    ),
    Invalid(
        """
import jax.numpy as jnp

N_STEPS = 200


def relax(u, source):
    return 0.5 * (jnp.roll(u, 1) + jnp.roll(u, -1)) + 0.1 * source


def simulate(u0):
    u = jnp.asarray(u0, jnp.float32)
    source = jnp.linspace(0.0, 1.0, u.shape[0])  # the default float: float64 under x64
    residuals = []
    for _ in range(N_STEPS):
        u = relax(u, source)
        residuals.append(jnp.max(jnp.abs(u)))
    return u, jnp.stack(residuals)


def main():
    return simulate(jnp.zeros(16))
""",
        expected='''
import jax
import jax.numpy as jnp
import functools

N_STEPS = 200


def relax(u, source):
    return 0.5 * (jnp.roll(u, 1) + jnp.roll(u, -1)) + 0.1 * source


@jax.jit
def _simulate_step(u, source):
    u = relax(u, source)
    residuals_item = jnp.max(jnp.abs(u))
    return u, residuals_item


@functools.partial(jax.jit, static_argnames=("peel",))
def _simulate_scan(u, source, peel=False):
    def body(u, _):
        u, residuals_item = _simulate_step(u, source)
        return u, residuals_item

    if not peel:
        return jax.lax.scan(body, u, length=N_STEPS)
    u, first = body(u, 0)  # the first step, on the starting types
    u, rest = jax.lax.scan(body, u, length=N_STEPS - 1)
    return u, jnp.concatenate([first[None], rest])


def _simulate_loop(u, source):
    """One jitted `lax.scan` of `_simulate_step` when the step returns the carry with the
    types it takes, as `lax.scan` needs (then every step does), from the first step on or
    (a weakly typed start) from the second; else the loop of steps."""

    def types(tree):
        leaves, structure = jax.tree_util.tree_flatten(jax.eval_shape(lambda x: x, tree))
        return structure, [(x.shape, x.dtype, x.weak_type) for x in leaves]

    first = jax.eval_shape(_simulate_step, u, source)[0]
    if types(first) == types(u):
        return _simulate_scan(u, source)
    if types(jax.eval_shape(_simulate_step, first, source)[0]) == types(first):
        return _simulate_scan(u, source, peel=True)
    residuals = []
    for _ in range(N_STEPS):
        u, residuals_item = _simulate_step(u, source)
        residuals.append(residuals_item)
    return u, jnp.stack(residuals)


def simulate(u0):
    u = jnp.asarray(u0, jnp.float32)
    source = jnp.linspace(0.0, 1.0, u.shape[0])  # the default float: float64 under x64
    residuals = []
    u, residuals = _simulate_loop(u, source)
    return u, residuals


def main():
    return simulate(jnp.zeros(16))
''',
        message=(
            "run the whole loop as one jitted `lax.scan` when the carry keeps its types (checked "
            "when the loop starts: `_simulate_loop` runs `_simulate_scan`, else `_simulate_step` "
            "once per iteration)"
        ),
    ),
    Invalid(
        """
import jax.numpy as jnp

N_ITERS = 20


def main():
    a = jnp.ones((5, 4), jnp.float32)
    b = jnp.ones((5, 3), jnp.float32)
    x = jnp.zeros((4, 3), jnp.float32)
    iteration = 0
    while iteration < N_ITERS:
        gradient = a.T @ (a @ x - b)
        x = x - 0.01 * gradient
        iteration += 1
    return x, iteration
""",
        expected="""
import jax
import jax.numpy as jnp
import functools

N_ITERS = 20


@functools.partial(jax.jit, donate_argnames=("x",))
def _main_loop(x, a, b):
    def body(x, _):
        gradient = a.T @ (a @ x - b)
        x = x - 0.01 * gradient
        return x, None

    return jax.lax.scan(body, x, length=N_ITERS)[0]


def main():
    a = jnp.ones((5, 4), jnp.float32)
    b = jnp.ones((5, 3), jnp.float32)
    x = jnp.zeros((4, 3), jnp.float32)
    iteration = 0
    x = _main_loop(x, a, b)
    iteration = N_ITERS
    return x, iteration
""",
        message="run the whole loop as one jitted `lax.scan`, `_main_loop`",
    ),
    Invalid(
        """
import jax.numpy as jnp

N_ITERS = 20


def main():
    a = jnp.ones((5, 4), jnp.float32)
    b = jnp.ones((5, 3), jnp.float32)
    x = jnp.zeros((4, 3), jnp.float32)
    iteration = 0
    while iteration < N_ITERS:
        gradient = a.T @ (a @ x - b)
        x = x - 0.01 * gradient
        iteration += 2
    return x, iteration
""",
        expected="""
import jax
import jax.numpy as jnp
import functools

N_ITERS = 20


@functools.partial(jax.jit, donate_argnames=("x",))
def _main_step(x, a, b):
    gradient = a.T @ (a @ x - b)
    x = x - 0.01 * gradient
    return x


def main():
    a = jnp.ones((5, 4), jnp.float32)
    b = jnp.ones((5, 3), jnp.float32)
    x = jnp.zeros((4, 3), jnp.float32)
    iteration = 0
    while iteration < N_ITERS:
        x = _main_step(x, a, b)
        iteration += 2
    return x, iteration
""",
        message="not the whole loop as one `lax.scan`: the loop's last statement is not "
        "`iteration += 1`",
    ),
    Invalid(
        _kept("        if it % EVERY == 0:\n            norms.append(jnp.sqrt(rs))"),
        expected='''
import jax
import jax.numpy as jnp
import numpy as np
import functools

ITERS = 30
EVERY = 10


def cg_iteration(x, r, p, rs):
    alpha = rs / jnp.sum(p * p)
    x = x + alpha * p
    r = r - alpha * p
    rs_new = jnp.sum(r * r)
    return x, r, r + (rs_new / rs) * p, rs_new


@functools.partial(jax.jit, donate_argnames=("rs", "x"))
def _main_step(p, r, rs, x):
    x, r, p, rs = cg_iteration(x, r, p, rs)
    norms_item = jnp.sqrt(rs)
    return p, r, rs, x, norms_item


@functools.partial(jax.jit, static_argnames=("peel",), donate_argnames=("rs", "x"))
def _main_scan(p, r, rs, x, peel=False):
    def body(carry, it):
        p, r, rs, x = carry
        p, r, rs, x, norms_item = _main_step(p, r, rs, x)
        return (p, r, rs, x), norms_item

    if not peel:
        return jax.lax.scan(body, (p, r, rs, x), length=ITERS)
    (p, r, rs, x), first = body((p, r, rs, x), 0)  # the first step, on the starting types
    (p, r, rs, x), rest = jax.lax.scan(body, (p, r, rs, x), length=ITERS - 1)
    return (p, r, rs, x), jnp.concatenate([first[None], rest])


def _main_loop(p, r, rs, x):
    """One jitted `lax.scan` of `_main_step` when the step returns the carry with the
    types it takes, as `lax.scan` needs (then every step does), from the first step on or
    (a weakly typed start) from the second; else the loop of steps."""

    def types(tree):
        leaves, structure = jax.tree_util.tree_flatten(jax.eval_shape(lambda x: x, tree))
        return structure, [(x.shape, x.dtype, x.weak_type) for x in leaves]

    first = jax.eval_shape(_main_step, p, r, rs, x)[:4]
    if types(first) == types((p, r, rs, x)):
        return _main_scan(p, r, rs, x)
    if types(jax.eval_shape(_main_step, *first)[:4]) == types(first):
        return _main_scan(p, r, rs, x, peel=True)
    norms = []
    for it in range(ITERS):
        p, r, rs, x, norms_item = _main_step(p, r, rs, x)
        norms.append(norms_item)
    return (p, r, rs, x), norms


def main():
    r = jnp.ones(8)
    x, p, rs = jnp.zeros(8), r, jnp.sum(r * r)
    norms = []
    (p, r, rs, x), norms_items = _main_loop(p, r, rs, x)
    norms.extend(norms_items[i] for i, it in enumerate(range(ITERS)) if it % EVERY == 0)
    return x, norms
''',
        message="run the whole loop as one jitted `lax.scan` when the carry keeps its types",
    ),
    Invalid(
        """
import jax.numpy as jnp

N_STEPS = 300


def advance(u, dt):
    return u + dt * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))


def simulate(u0):
    u = jnp.asarray(u0, jnp.float32)
    energy = []
    snapshots = []
    for step in range(N_STEPS):
        u = advance(u, 0.1)
        energy.append(jnp.sum(u**2))
        if step % 100 == 0:  # a snapshot every 100 steps
            snapshots.append(u)
    return u, jnp.stack(energy), jnp.stack(snapshots)


def main():
    return simulate(jnp.sin(jnp.arange(16.0)))
""",
        expected="""
import jax
import jax.numpy as jnp

N_STEPS = 300


def advance(u, dt):
    return u + dt * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))


@jax.jit
def _simulate_loop(u):
    def body(u, step):
        u = advance(u, 0.1)
        energy_item = jnp.sum(u**2)
        return u, (energy_item, u)

    return jax.lax.scan(body, u, length=N_STEPS)


def simulate(u0):
    u = jnp.asarray(u0, jnp.float32)
    energy = []
    snapshots = []
    u, (energy, snapshots_items) = _simulate_loop(u)
    snapshots.extend(snapshots_items[i] for i, step in enumerate(range(N_STEPS)) if step % 100 == 0)
    return u, energy, jnp.stack(snapshots)


def main():
    return simulate(jnp.sin(jnp.arange(16.0)))
""",
        message="run the whole loop as one jitted `lax.scan`, `_simulate_loop`",
    ),
    Invalid(
        """
import jax.numpy as jnp

N_STEPS = 30
u = jnp.sin(jnp.arange(16.0, dtype=jnp.float32))
snaps = []
for step in range(2, N_STEPS):
    du = jnp.roll(u, 1) - u
    u = u + 0.25 * du
    if step % 7 == 3:
        snaps.append(u)


def main():
    return u, jnp.stack(snaps), du
""",
        expected="""
import jax
import jax.numpy as jnp

N_STEPS = 30
u = jnp.sin(jnp.arange(16.0, dtype=jnp.float32))
snaps = []


@jax.jit
def _loop(u):
    def body(carry, step):
        u, du = carry
        du = jnp.roll(u, 1) - u
        u = u + 0.25 * du
        return (u, du), u

    return jax.lax.scan(body, (u, jnp.zeros_like(u)), length=N_STEPS - 2)


(u, du), snaps_items = _loop(u)
snaps.extend(snaps_items[i] for i, step in enumerate(range(2, N_STEPS)) if step % 7 == 3)
step = N_STEPS - 1


def main():
    return u, jnp.stack(snaps), du
""",
        message="run the whole loop as one jitted `lax.scan`, `_loop`",
    ),
    Invalid(  # one call: taken because the whole loop then runs as one scan
        """
import jax.numpy as jnp

N_STEPS = 60


def relax(u, w):
    return jnp.tanh(w @ u)


def main():
    u = jnp.ones(16, dtype=jnp.float32)
    w = jnp.eye(16, dtype=jnp.float32) * 0.5
    rows = []
    for _ in range(N_STEPS):
        u = relax(u, w)
        rows.append(u)
    return u, jnp.stack(rows)
""",
        expected="""
import jax
import jax.numpy as jnp

N_STEPS = 60


def relax(u, w):
    return jnp.tanh(w @ u)


@jax.jit
def _main_loop(u, w):
    def body(u, _):
        u = relax(u, w)
        return u, u

    return jax.lax.scan(body, u, length=N_STEPS)


def main():
    u = jnp.ones(16, dtype=jnp.float32)
    w = jnp.eye(16, dtype=jnp.float32) * 0.5
    rows = []
    u, rows = _main_loop(u, w)
    return u, rows
""",
        message="run the whole loop as one jitted `lax.scan`, `_main_loop`",
    ),
)
