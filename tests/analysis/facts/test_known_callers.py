"""The caller's array: a function's parameter donated by its first jitted call is safe
only when every caller of the function is known and lets the value go."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.facts.donation import targets, verdicts
from autoopt.analysis.facts.known_callers import known_call_sites
from autoopt.model import Applicability

from ..helpers import HEADER, context

SAFE, UNSAFE = Applicability.SAFE, Applicability.UNSAFE
DONATES = "the first call donates `s`, the caller's array, which the caller may still read: "

STEP = """
@jax.jit
def step(s, x):
    return s + x

def epoch(s, xs):
    for x in xs:
        s = step(s, x)
    return s
"""


def _verdict(code: str, ctx: ModuleContext | None = None) -> tuple[Applicability, str]:
    ctx = ctx or context(STEP + code, HEADER)
    (target,) = targets(ctx)
    (donation,), blocked = verdicts(ctx, target)
    assert blocked == []
    return donation[1], donation[2]


@pytest.mark.parametrize(
    "caller",
    [
        # rebound from the call's result, in a loop
        "def main():\n    s = jnp.zeros(3)\n    for _ in range(3):\n"
        "        s = epoch(s, [1.0])\n    print(s)\n",
        # never read again
        "def main():\n    s = jnp.zeros(3)\n    t = epoch(s, [1.0])\n    print(t)\n",
        # through a caller that is itself called only with values it lets go (`xs` an
        # array: an item of `[1.0]` is of a kind not proven, whose pytree's aux data
        # `step`'s body would see as the caller's objects, `facts/jit_arguments.py`)
        "def run(s):\n    s = epoch(s, jnp.ones(2))\n    return s\n\n"
        "def main():\n    s = jnp.ones(3)\n    s = run(s)\n    s = run(s)\n    print(s)\n",
    ],
)
def test_every_caller_lets_go(caller: str) -> None:
    assert _verdict(caller) == (SAFE, "")


def test_a_comment_naming_eval_reaches_nothing() -> None:
    """A comment runs no code: `# eval` is no way to the module's namespace."""
    caller = "def main():\n    s = jnp.zeros(3)  # eval globals()\n"
    caller += "    s = epoch(s, [1.0])\n    print(s)\n"
    assert _verdict(caller) == (SAFE, "")


@pytest.mark.parametrize(
    ("caller", "why"),
    [
        (  # a caller's caller passes no plain name
            "def run(s):\n    s = epoch(s, [1.0])\n    return s\n\n"
            "def main():\n    s = run(jnp.ones(3))\n    print(s)\n",
            "at the call of `epoch` at line 13, the call of `run` at line 17 passes `s` no "
            "plain name",
        ),
        (  # the old value read after the call
            "def main():\n    s = jnp.zeros(3)\n    new = epoch(s, [1.0])\n    print(s, new)\n",
            "`s`, passed to `epoch` at line 14, may be read after the call, at line 15",
        ),
        (  # an alias kept before the call and read after it
            "def main():\n    s = jnp.zeros(3)\n    best = s\n    s = epoch(s, [1.0])\n"
            "    print(best)\n",
            "at the call of `epoch` at line 15, `best` may hold the buffers of `s` and is "
            "read at line 16",
        ),
        (  # the function handed out as a value
            "def run(f, s):\n    return f(s, [1.0])\n\n"
            "def main():\n    s = run(epoch, jnp.zeros(3))\n    print(s)\n",
            "`epoch` is used other than called, so its callers are not all known",
        ),
        (  # called twice with the same value
            "def main():\n    s = jnp.zeros(3)\n    a = epoch(s, [1.0])\n    b = epoch(s, [2.0])\n"
            "    print(a, b)\n",
            "`s`, passed to `epoch` at line 14, may be read after the call, at line 15",
        ),
        (  # in a loop that reads the old value again on the next iteration
            "def main():\n    s = jnp.zeros(3)\n    for _ in range(3):\n"
            "        t = epoch(s, [1.0])\n    print(t)\n",
            "`s`, passed to `epoch` at line 15, may be read after the call, at line 15",
        ),
        (  # in a lambda, whose parameter is whatever its callers pass
            "def main():\n    s = jnp.zeros(3)\n    run = lambda t: epoch(t, [1.0])\n"
            "    new = run(s)\n    print(s, new)\n",
            "the call of `epoch` at line 14 is in a lambda",
        ),
        (  # in a comprehension
            "def main():\n    s = jnp.zeros(3)\n    new = [epoch(t, [1.0]) for t in [s]]\n"
            "    print(s, new)\n",
            "the call of `epoch` at line 14 is in a comprehension",
        ),
        (  # read again in the calling statement
            "def main():\n    s = jnp.zeros(3)\n    s = epoch(s, [1.0]) + s\n    print(s)\n",
            "`s` is read again in the call of `epoch` at line 14",
        ),
        (  # a library module: callers elsewhere
            "def other():\n    s = jnp.zeros(3)\n    s = epoch(s, [1.0])\n    return s\n",
            "`epoch` is in a module that may be imported: its callers are not all known",
        ),
        (  # the module reaches its own namespace
            "def main():\n    s = jnp.zeros(3)\n    s = epoch(s, [1.0])\n    print(s, globals())\n",
            "the module may fetch `epoch` by name (`globals`)",
        ),
        (  # a name in a string may be code `getattr` runs; one in a comment is none
            "def main():\n    s = jnp.zeros(3)  # eval\n    s = epoch(s, [1.0])\n"
            "    print(s, getattr(main, 'f_globals', 0))\n",
            "the module may fetch `epoch` by name (`f_globals`)",
        ),
        (  # callers that call each other
            "def a(s, u):\n    s = epoch(s, [1.0])\n    return b(u, s)\n\n"
            "def b(s, u):\n    return a(s, u)\n\n"
            "def main():\n    x, y = jnp.zeros(3), jnp.ones(3)\n    x = a(x, y)\n    print(x)\n",
            "at the call of `epoch` at line 13, at the call of `a` at line 17, at the call of "
            "`b` at line 14, `a` is reached again through its own callers",
        ),
    ],
)
def test_a_caller_may_still_read(caller: str, why: str) -> None:
    assert _verdict(caller) == (UNSAFE, DONATES + why)


def _project(tmp_path: Path, files: dict[str, str]) -> ModuleContext:
    (tmp_path / "pyproject.toml").write_text("")
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    source = (tmp_path / "train.py").read_text()
    return ModuleContext(str(tmp_path / "train.py"), source, cst.parse_module(source))


MAIN = "def main():\n    s = jnp.zeros(3)\n    s = epoch(s, [1.0])\n    print(s)\n"


def test_a_caller_in_another_file(tmp_path: Path) -> None:
    other = "import jax.numpy as jnp\nfrom train import epoch\n\nbest = jnp.ones(3)\n"
    other += "new = epoch(best, [1.0])\nprint(best)\n"
    ctx = _project(tmp_path, {"train.py": HEADER + STEP + MAIN, "other.py": other})
    assert _verdict("", ctx) == (
        UNSAFE,
        DONATES + "`other.py` may import this module and call `epoch`",
    )


def test_no_other_file_imports_it(tmp_path: Path) -> None:
    ctx = _project(tmp_path, {"train.py": HEADER + STEP + MAIN, "other.py": "import numpy\n"})
    assert _verdict("", ctx) == (SAFE, "")


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("@functools.cache\ndef f(s):\n    return s\n", "is decorated, a generator or a coroutine"),
        ("def f(s):\n    yield s\n", "is decorated, a generator or a coroutine"),
        ("def f(s):\n    return s\n\ndef f(s):\n    return s\n", "is bound more than once"),
    ],
)
def test_callers_not_all_known(code: str, why: str) -> None:
    ctx = context(code + "\ndef main():\n    f(1)\n", "import functools\n")
    fn = ctx.graph.functions["f"]
    sites, reason = known_call_sites(ctx, fn)
    assert sites == [] and why in reason
