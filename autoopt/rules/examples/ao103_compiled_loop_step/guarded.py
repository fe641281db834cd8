"""AO103 examples, the guarded whole loop: `jax.eval_shape` of the step checks the carry's types
when the loop starts, and runs the scan, or else the loop of jitted steps.
"""

from autoopt.rules.base import Invalid

COUNTED_WHILE_GUARDED = Invalid(
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
import functools

import jax
import jax.numpy as jnp


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
    # the first step, on the starting types
    x = body(x, 0)[0]
    return jax.lax.scan(body, x, length=20 - 1)[0]


def _solve_loop(x):
    """One jitted `lax.scan` of `_solve_step` when the step returns the carry with the
    types it takes, as `lax.scan` needs (then every step does), from the first step on or
    (a weakly typed start) from the second; else the loop of steps."""

    def types(tree):
        leaves, structure = jax.tree_util.tree_flatten(
            jax.eval_shape(lambda x: x, tree)
        )
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
)


DEFAULT_FLOAT_SOURCE = Invalid(
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
import functools

import jax
import jax.numpy as jnp

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
    # the first step, on the starting types
    u, first = body(u, 0)
    u, rest = jax.lax.scan(body, u, length=N_STEPS - 1)
    return u, jnp.concatenate([first[None], rest])


def _simulate_loop(u, source):
    """One jitted `lax.scan` of `_simulate_step` when the step returns the carry with the
    types it takes, as `lax.scan` needs (then every step does), from the first step on or
    (a weakly typed start) from the second; else the loop of steps."""

    def types(tree):
        leaves, structure = jax.tree_util.tree_flatten(
            jax.eval_shape(lambda x: x, tree)
        )
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
)


DEFAULT_JAX_WEIGHTS = Invalid(
    """
import jax.numpy as jnp

WEIGHTS = jnp.array([1.0, 2.0, 3.0])


def predict(x, w=WEIGHTS, scale=0.5, shift=None):
    return jnp.tanh(x * w) * scale + x


def main():
    x = jnp.array([0.1, 0.2, 0.3])
    for _ in range(4):
        x = predict(x)
    return x
""",
    expected='''
import functools

import jax
import jax.numpy as jnp

WEIGHTS = jnp.array([1.0, 2.0, 3.0])


def predict(x, w=WEIGHTS, scale=0.5, shift=None):
    return jnp.tanh(x * w) * scale + x


@functools.partial(jax.jit, donate_argnames=("x",))
def _main_step(x):
    x = predict(x)
    return x


@functools.partial(jax.jit, static_argnames=("peel",), donate_argnames=("x",))
def _main_scan(x, peel=False):
    def body(x, _):
        x = _main_step(x)
        return x, None

    if not peel:
        return jax.lax.scan(body, x, length=4)[0]
    # the first step, on the starting types
    x = body(x, 0)[0]
    return jax.lax.scan(body, x, length=4 - 1)[0]


def _main_loop(x):
    """One jitted `lax.scan` of `_main_step` when the step returns the carry with the
    types it takes, as `lax.scan` needs (then every step does), from the first step on or
    (a weakly typed start) from the second; else the loop of steps."""

    def types(tree):
        leaves, structure = jax.tree_util.tree_flatten(
            jax.eval_shape(lambda x: x, tree)
        )
        return structure, [(x.shape, x.dtype, x.weak_type) for x in leaves]

    first = jax.eval_shape(_main_step, x)
    if types(first) == types(x):
        return _main_scan(x)
    if types(jax.eval_shape(_main_step, first)) == types(first):
        return _main_scan(x, peel=True)
    for _ in range(4):
        x = _main_step(x)
    return x


def main():
    x = jnp.array([0.1, 0.2, 0.3])
    x = _main_loop(x)
    return x
''',
    message="run the whole loop as one jitted `lax.scan`",
)
