"""Jitted callables, their options, their call sites, and how they escape."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis import overlays
from autoopt.analysis.core.jitted import (
    FRAMEWORK_JITS,
    call_sites,
    escapes,
    jit_options,
    jitted_callables,
    own_exprs,
    rebound_attribute_jits,
)

from ..helpers import HEADER, context, expr

IMPORTS = HEADER + "import functools\nfrom functools import partial\n"


@pytest.mark.parametrize(
    ("code", "options"),
    [
        ("jax.jit", {}),
        ("jax.jit()", {}),
        ("jax.jit(static_argnames=('n',))", {"static_argnames": "('n',)"}),
        ("functools.partial(jax.jit, donate_argnums=0)", {"donate_argnums": "0"}),
        ("partial(jax.jit, static_argnums=(1,))", {"static_argnums": "(1,)"}),
        ("jax.jit(f)", None),  # a wrapper, not a decorator spelling
        ("jax.vmap", None),
        ("partial(jax.vmap, in_axes=0)", None),
        ("functools.partial(f, 1)", None),
    ],
)
def test_jit_options(code: str, options: dict[str, str] | None) -> None:
    ctx = context("", IMPORTS)
    found = jit_options(ctx, expr(code))
    assert (None if found is None else {k: ctx.code(v) for k, v in found.items()}) == options


SOURCE = """
@jax.jit
def a(x):
    return x

@partial(jax.jit, static_argnames=("n",))
def b(x, n):
    return x

@jax.jit
@other
def c(x):
    return x

def _d(x):
    return x

d = jax.jit(_d, donate_argnums=0)
e = jax.jit(lambda x: x)

@jax.jit
def twice(x):
    return x
twice = 3

class K:
    @jax.jit
    def m(self, x):
        return x

def g(y):
    return y

def run():
    f = a
    h = jax.jit(g)
    return a(1) + d(2), h(3), [_d(i) for i in range(3)]

__all__ = ["b"]
"""


def test_jitted_callables() -> None:
    ctx = context(SOURCE, IMPORTS)

    def carrier(j) -> str:
        node = j.carrier.decorator if isinstance(j.carrier, cst.Decorator) else j.carrier
        return ctx.code(node)

    found = [
        (
            j.name,
            j.function and j.function.qualname,
            {k: ctx.code(v) for k, v in j.options.items()},
            carrier(j),
        )
        for j in jitted_callables(ctx)
    ]
    # not `c` (a second decorator), `twice` (bound twice) or `K.m` (a method)
    assert found == [
        ("a", "a", {}, "jax.jit"),
        ("b", "b", {"static_argnames": '("n",)'}, 'partial(jax.jit, static_argnames=("n",))'),
        ("d", "_d", {"donate_argnums": "0"}, "jax.jit(_d, donate_argnums=0)"),
        ("e", None, {}, "jax.jit(lambda x: x)"),
        ("h", "g", {}, "jax.jit(g)"),
    ]
    assert jitted_callables(ctx) is jitted_callables(ctx)  # memoised


@pytest.mark.parametrize(
    ("name", "reason", "calls"),
    [
        ("a", "`a` is used as a value at line 39", ["a(1)"]),
        ("b", "`b` is exported in `__all__`", []),
        ("d", "`d` is public and the module may be imported", ["d(2)"]),
        ("_d", "`_d` is used as a value at line 22", ["_d(i)"]),
        ("g", "`g` is used as a value at line 40", []),
    ],
)
def test_escapes_and_call_sites(name: str, reason: str, calls: list[str]) -> None:
    ctx = context(SOURCE, IMPORTS)
    assert escapes(ctx, name) == reason
    assert [ctx.code(site.call) for site in call_sites(ctx, name)] == calls


@pytest.mark.parametrize(
    "script",
    [
        'if __name__ == "__main__":\n    run()\n',
        "def main():\n    run()\n",
        "for i in range(2):\n    run()\n",
        "results = [run() for i in range(2)]\n",
    ],
)
def test_a_public_name_of_a_script_does_not_escape(script: str) -> None:
    ctx = context(SOURCE + script, IMPORTS)
    assert escapes(ctx, "d") is None
    assert escapes(ctx, "b") == "`b` is exported in `__all__`"


def test_a_local_name_is_not_importable() -> None:
    ctx = context(SOURCE, IMPORTS)
    assert escapes(ctx, "d", importable=False) is None


@pytest.mark.parametrize(
    ("code", "exprs"),
    [
        ("for i in f(xs):\n    g(i)", ["f(xs)"]),
        ("while f(x):\n    g(x)", ["f(x)"]),
        ("if f(x):\n    g(x)", ["f(x)"]),
        ("@dec(1)\ndef f(x):\n    g(x)", ["dec(1)"]),
        ("with f(x) as y, g(z):\n    h(y)", ["f(x)", "g(z)"]),
        ("match f(x):\n    case 1:\n        pass", ["f(x)"]),
        ("class C(Base):\n    pass", []),
        ("y = f(x)", ["y = f(x)"]),
    ],
)
def test_own_exprs_leave_out_the_body(code: str, exprs: list[str]) -> None:
    ctx = context(code)
    assert [ctx.code(e) for e in own_exprs(ctx.graph.stmts[0])] == exprs


def test_framework_jits_are_read_when_asked_for() -> None:
    code = (
        "import equinox as eqx\nfrom flax import nnx\nimport functools\n"
        "@eqx.filter_jit(donate='all')\ndef a(x):\n    return x\n"
        "@functools.partial(nnx.jit, static_argnames=('n',))\ndef b(x, n):\n    return x\n"
        "def _c(x):\n    return x\nc = eqx.filter_jit(_c)\n"
    )
    ctx = context(code)
    assert jitted_callables(ctx) == []
    found = {j.name: (j.transform, sorted(j.options)) for j in jitted_callables(ctx, True)}
    assert found == {
        "a": ("equinox.filter_jit", ["donate"]),
        "b": ("flax.nnx.jit", ["static_argnames"]),
        "c": ("equinox.filter_jit", []),
    }


def test_framework_jits_are_in_the_overlays() -> None:
    assert FRAMEWORK_JITS <= overlays.JIT_SPELLINGS


ATTRIBUTE_JITS = """
class Trainer:
    def build(self):
        def step(s, b):
            return s + b

        self.step = jax.jit(step)
        self.twice = jax.jit(step)
        other.twice = 1

    def fit(self, b):
        self.s = self.step(self.s, b)

def main(t):
    EXTRA
"""


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ("t.fit(1)", None),
        ("return t.step", "`self.step` is used as a value at line 19"),
        ("t.step(1, 2)", "`self.step` is used as a value at line 19"),
    ],
)
def test_a_jit_bound_to_a_self_attribute(extra: str, reason: str | None) -> None:
    ctx = context(ATTRIBUTE_JITS.replace("EXTRA", extra), IMPORTS)
    found = {j.name: j.function and j.function.qualname for j in jitted_callables(ctx)}
    assert found == {"self.step": "Trainer.build.step"}  # `.twice` is bound twice
    assert escapes(ctx, "self.step") == reason
    assert [ctx.code(s.call) for s in call_sites(ctx, "self.step")] == ["self.step(self.s, b)"]


def test_a_step_each_subclass_binds_to_self_is_one_name_of_several_jits() -> None:
    code = """
class Base:
    def build(self):
        def step(s):
            return s + 1
        self.step = jax.jit(step)

class Child(Base):
    def build(self):
        def step(s):
            return s - 1
        self.step = jax.jit(step)
"""
    ctx = context(code, HEADER)
    assert [j.name for j in jitted_callables(ctx)] == []  # not bound once
    found = rebound_attribute_jits(ctx)
    assert [(j.name, j.function and j.function.qualname) for j in found] == [
        ("self.step", "Base.build.step"),
        ("self.step", "Child.build.step"),
    ]
    other = context(code.replace("self.step = jax.jit(step)\n", "self.step = step\n", 1), HEADER)
    assert rebound_attribute_jits(other) == []  # one binding is not a jit
