"""AO103 takes a loop of one computing statement (one call, appends of names) only where
the whole loop then runs as one jitted `lax.scan` (guarded or not): its step form would
be AO101's jit of the one call, no gain, so everywhere else the loop keeps exactly the
findings and rewrite it had without AO103 (AO101's jit of the callee, AO201's donation).
The rewritten programs return what the originals do."""

from __future__ import annotations

import jax
import pytest

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import Result

from .helpers import assert_same

HEAD = """
import jax.numpy as jnp
import numpy as np

N_STEPS = 60


def relax(u, k):
    return u + k * (jnp.roll(u, 1) - 2.0 * u + jnp.roll(u, -1))
"""

#: a carry the proof follows through the call (`tanh` of a matrix product): one scan
TANH = """
import jax.numpy as jnp

N_STEPS = 60


def relax(u, w):
    return jnp.tanh(w @ u)


def main():
    u = jnp.ones(16, dtype=jnp.float32)
    w = jnp.eye(16, dtype=jnp.float32) * 0.5
    for _ in range(N_STEPS):
        u = relax(u, w)
    return u
"""

TANH_SCAN = """
import functools

import jax
import jax.numpy as jnp

N_STEPS = 60


@functools.partial(jax.jit, donate_argnames=("u",))
def relax(u, w):
    return jnp.tanh(w @ u)


@functools.partial(jax.jit, donate_argnames=("u",))
def _main_loop(u, w):
    def body(u, _):
        u = relax(u, w)
        return u, None

    return jax.lax.scan(body, u, length=N_STEPS)[0]


def main():
    u = jnp.ones(16, dtype=jnp.float32)
    w = jnp.eye(16, dtype=jnp.float32) * 0.5
    u = _main_loop(u, w)
    return u
"""

#: corpus/pagerank_operators.py's shape: the call returns the carry and a value the
#: loop appends (a name); the carry's type is not proven through the call: guarded
ENERGY = """
import jax.numpy as jnp

N_STEPS = 60


def relax(u, k):
    u = u + k * (jnp.roll(u, 1) - 2.0 * u + jnp.roll(u, -1))
    return u, jnp.sum(u**2)


def main():
    u = jnp.linspace(0.0, 1.0, 16, dtype=jnp.float32)
    energy = []
    for _ in range(N_STEPS):
        u, e = relax(u, 0.1)
        energy.append(e)
    return u, jnp.stack(energy)
"""

ENERGY_GUARDED = '''
import functools

import jax
import jax.numpy as jnp

N_STEPS = 60


@functools.partial(jax.jit, donate_argnames=("u",))
def relax(u, k):
    u = u + k * (jnp.roll(u, 1) - 2.0 * u + jnp.roll(u, -1))
    return u, jnp.sum(u**2)


@functools.partial(jax.jit, donate_argnames=("u",))
def _main_step(u):
    u, e = relax(u, 0.1)
    return u, e


@functools.partial(jax.jit, static_argnames=("peel",), donate_argnames=("u",))
def _main_scan(u, peel=False):
    def body(u, _):
        u, e = _main_step(u)
        return u, e

    if not peel:
        return jax.lax.scan(body, u, length=N_STEPS)
    # the first step, on the starting types
    u, first = body(u, 0)
    u, rest = jax.lax.scan(body, u, length=N_STEPS - 1)
    return u, jnp.concatenate([first[None], rest])


def _main_loop(u):
    """One jitted `lax.scan` of `_main_step` when the step returns the carry with the
    types it takes, as `lax.scan` needs (then every step does), from the first step on or
    (a weakly typed start) from the second; else the loop of steps."""

    def types(tree):
        leaves, structure = jax.tree_util.tree_flatten(
            jax.eval_shape(lambda x: x, tree)
        )
        return structure, [(x.shape, x.dtype, x.weak_type) for x in leaves]

    first = jax.eval_shape(_main_step, u)[0]
    if types(first) == types(u):
        return _main_scan(u)
    if types(jax.eval_shape(_main_step, first)[0]) == types(first):
        return _main_scan(u, peel=True)
    energy = []
    for _ in range(N_STEPS):
        u, e = _main_step(u)
        energy.append(e)
    return u, jnp.stack(energy)


def main():
    u = jnp.linspace(0.0, 1.0, 16, dtype=jnp.float32)
    energy = []
    u, energy = _main_loop(u)
    return u, energy
'''

#: one call, and a kept append of a name every 20 steps (a kept plan of one statement)
KEPT = (
    HEAD
    + """

def main():
    u = jnp.linspace(0.0, 1.0, 16, dtype=jnp.float32)
    snapshots = []
    for step in range(N_STEPS):
        u = relax(u, 0.1)
        if step % 20 == 0:
            snapshots.append(u)
    return u, snapshots
"""
)

#: one call in a counted `while`
WHILE = (
    HEAD
    + """

def main():
    u = jnp.linspace(0.0, 1.0, 16, dtype=jnp.float32)
    i = 0
    while i < N_STEPS:
        u = relax(u, 0.1)
        i += 1
    return u, i
"""
)

#: one call in a loop of module code (the guard's function holds the loop of steps)
MODULE = (
    HEAD
    + """

u = jnp.linspace(0.0, 1.0, 16, dtype=jnp.float32)
rows = []
for _ in range(N_STEPS):
    u = relax(u, 0.1)
    rows.append(u)


def main():
    return u, jnp.stack(rows), rows
"""
)

_JIT = "AO101 safe `relax` is called in a loop without `jax.jit`: add `@jax.jit`"
_DONATE = (
    "AO201 safe `u` is dead after every call of `relax` and replaced by its output: donate "
    "it (`donate_argnames`) so XLA reuses the buffer"
)
_GUARDED = (
    "AO103 safe this loop's body runs eagerly, one dispatch per operation: run the whole "
    "loop as one jitted `lax.scan` when the carry keeps its types (checked when the loop "
    "starts: `_main_loop` runs `_main_scan`, else `_main_step` once per iteration){}; "
    "statically, cannot prove `u` is a floating-point array, whose dtype Python numbers keep"
)


def _main(source: str) -> object:
    namespace: dict[str, object] = {"__name__": "one_call_snippet"}
    exec(compile(source, "<snippet>", "exec"), namespace)
    return jax.block_until_ready(namespace["main"]())  # type: ignore[operator]


def _rewrite(source: str, ignore: tuple[str, ...] = ()) -> Result:
    return optimize_source(source, settings=Settings(ignore=ignore))


def _findings(result: Result) -> list[str]:
    return [f"{f.rule} {f.fix.value} {f.message}" for f in result.findings]


def test_a_one_call_loop_whose_carry_is_proven_becomes_one_scan() -> None:
    result = _rewrite(TANH)
    assert _findings(result) == [
        _JIT,
        _DONATE,
        "AO103 safe this loop's body runs eagerly, one dispatch per operation: run the "
        "whole loop as one jitted `lax.scan`, `_main_loop`, donating `u`",
    ]
    assert result.new_source == TANH_SCAN
    assert_same(_main(TANH), _main(result.new_source))


def test_a_one_call_loop_whose_carry_is_not_proven_becomes_the_guarded_scan() -> None:
    result = _rewrite(ENERGY)
    assert _findings(result) == [_JIT, _DONATE, _GUARDED.format(", donating `u`")]
    assert result.new_source == ENERGY_GUARDED
    assert_same(_main(ENERGY), _main(result.new_source))


def test_the_guarded_loop_of_steps_is_not_taken_again() -> None:
    """The guard's other path is a one-call loop of the step: it runs only where the
    step changes the carry's types, so it is no scan (the rewrite is idempotent)."""
    again = _rewrite(ENERGY_GUARDED)
    assert [f.rule for f in again.findings] == []
    assert again.new_source == ENERGY_GUARDED


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (KEPT, _GUARDED.format("")),
        (WHILE, _GUARDED.format(", donating `u`")),
        (MODULE, _GUARDED.format("").replace("_main_", "_")),
    ],
    ids=["kept", "while", "module"],
)
def test_one_call_kept_while_and_module_loops_become_scans(source: str, message: str) -> None:
    """Each is the guarded scan; rewriting it again changes nothing (its loop of steps
    is not taken again)."""
    result = _rewrite(source)
    assert message in _findings(result)
    assert "jax.lax.scan(" in result.new_source
    assert _rewrite(result.new_source).new_source == result.new_source
    assert_same(_main(source), _main(result.new_source))


def _main_of(body: str) -> str:
    return f"{HEAD}\n\ndef main():\n{body}"


_FLOAT = (
    "AO302 none `float(u[0])` waits for the device on every iteration of the loop at line "
    "14; it is printed every step; printing after the loop would change the output, and `u` "
    "is replaced by a call in the loop that could donate it, so keeping it on the device is "
    "not proven safe"
)

NOT_SCANS = [
    (  # a host statement after the call: the step is not the whole body
        """    u = jnp.linspace(0.0, 1.0, 16, dtype=jnp.float32)
    for _ in range(N_STEPS):
        u = relax(u, 0.1)
        print(float(u[0]))
    return u
""",
        [_JIT, _DONATE, _FLOAT],
    ),
    (  # a `break`
        """    u = jnp.linspace(0.0, 1.0, 16, dtype=jnp.float32)
    for _ in range(N_STEPS):
        u = relax(u, 0.1)
        if u[0] > 0.5:
            break
    return u
""",
        [_JIT, _DONATE],
    ),
    (  # two appends to one list: scan would stack them as two blocks
        """    u = jnp.linspace(0.0, 1.0, 16, dtype=jnp.float32)
    trace = []
    for _ in range(N_STEPS):
        u = relax(u, 0.1)
        trace.append(u)
        trace.append(u)
    return u, trace
""",
        [
            _JIT,
            "AO201 none `relax` could donate its input, but `trace` may hold the buffers of "
            "`u` and is read at line 17; donating it would delete a live buffer",
        ],
    ),
    (  # the carry comes from a list the loop appends to: no step at all
        """    trace = [jnp.linspace(0.0, 1.0, 16, dtype=jnp.float32)]
    for _ in range(N_STEPS):
        u = relax(trace[-1], 0.1)
        trace.append(u)
    return trace
""",
        [
            "AO101 unsafe `relax` is called in a loop without `jax.jit`: add `@jax.jit`; "
            "unsafe: cannot prove what `u` receives"
        ],
    ),
    (  # a kept append whose condition reads a device value
        """    u = jnp.linspace(0.0, 1.0, 16, dtype=jnp.float32)
    kept = []
    for step in range(N_STEPS):
        u = relax(u, 0.1)
        if u[0] > 0.5:
            kept.append(u)
    return u, kept
""",
        [
            _JIT,
            "AO201 none `relax` could donate its input, but `kept` may hold the buffers of "
            "`u` and is read at line 18; donating it would delete a live buffer",
        ],
    ),
    (  # host RNG in the callee: not pure
        """    np.random.seed(0)
    u = jnp.linspace(0.0, 1.0, 16, dtype=jnp.float32)
    for _ in range(N_STEPS):
        u = noisy(u, 0.1)
    return u


def noisy(u, k):
    noise = np.random.normal(size=u.shape)
    return relax(u, k) + 0.01 * jnp.asarray(noise, dtype=u.dtype)
""",
        [
            "AO101 none `noisy` is called in a loop without `jax.jit`, but it is not pure: "
            "it draws host random numbers with numpy.random (`numpy.random.normal`)"
        ],
    ),
]


@pytest.mark.parametrize(
    ("body", "findings"),
    NOT_SCANS,
    ids=["print", "break", "two-appends", "list-carry", "kept-device-test", "host-rng"],
)
def test_a_one_call_loop_with_no_scan_form_keeps_its_old_findings(
    body: str, findings: list[str]
) -> None:
    source = _main_of(body)
    result = _rewrite(source)
    assert _findings(result) == findings
    assert result.new_source == _rewrite(source, ("AO103",)).new_source


def test_a_one_call_loop_of_unknown_count_keeps_its_old_findings() -> None:
    """`range(n)` of a parameter: not a counted loop."""
    source = (
        HEAD
        + """

def run(u, n):
    for _ in range(n):
        u = relax(u, 0.1)
    return u


def main():
    return run(jnp.linspace(0.0, 1.0, 16, dtype=jnp.float32), N_STEPS)
"""
    )
    result = _rewrite(source)
    assert _findings(result) == [
        _JIT,
        "AO201 unsafe `u` is dead after every call of `relax` and replaced by its output: "
        "donate it (`donate_argnames`) so XLA reuses the buffer; unsafe: the first call "
        "donates `u`, the caller's array, which the caller may still read: the call of `run` "
        "at line 19 passes `u` no plain name",
    ]
    assert result.new_source == _rewrite(source, ("AO103",)).new_source
