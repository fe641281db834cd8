"""Host effects staged into a trace: found in the function, its callees, the functions it
hands to transforms, and other files of the project."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.facts.effects import traced_effects

from ..helpers import HEADER, context

MODULE = """
import functools
from jax.debug import print as dprint
from jax.experimental import io_callback

emit = functools.partial(jax.debug.print, "{}")
LOGGERS = [jax.debug.print]
SCALE = 2.0

def log(v):
    jax.debug.print("{}", v)
    return v

def quiet(v):
    return v * 2

def outer(v):
    return log(v) + 1

def rec(v):
    return rec(v)

def f(x):
    BODY
"""
PRINTS = "prints from the trace (`jax.debug.print`)"
CALLS_BACK = "calls back into Python from the trace"


@pytest.mark.parametrize(
    ("body", "reasons"),
    [
        # none
        ("return jnp.sin(x)", []),
        ("return quiet(x)", []),
        ("return rec(x)", []),  # recursion ends
        ("print(x)\n    return x", []),  # at trace time: purity's concern
        ("return jax.lax.scan(lambda c, _: (quiet(c), None), x, None, 3)[0]", []),
        # a staged effect, however spelled
        ("jax.debug.print('{}', x)\n    return x", [PRINTS]),
        ("dprint('{}', x)\n    return x", [PRINTS]),
        ("jax.debug.callback(quiet, x)\n    return x", [f"{CALLS_BACK} (`jax.debug.callback`)"]),
        ("return io_callback(quiet, x, x)", [f"{CALLS_BACK} (`jax.experimental.io_callback`)"]),
        ("functools.partial(jax.debug.print, '{}')(x)\n    return x", [PRINTS]),
        ("g = lambda v: jax.debug.print('{}', v)\n    g(x)\n    return x", [PRINTS]),
        ("return x * SCALE", []),
        # bound to a module variable, or a parameter's default
        ("emit(x)\n    return x", ["calls `emit`, bound to `jax.debug.print`"]),
        ("LOGGERS[0]('{}', x)\n    return x", ["calls `LOGGERS`, bound to `jax.debug.print`"]),
        # through the functions it names
        ("return log(x)", [f"calls `log`, which {PRINTS}"]),
        ("return outer(x)", [f"calls `outer`, which calls `log`, which {PRINTS}"]),
        (
            "return jax.lax.scan(lambda c, _: (log(c), None), x, None, 3)[0]",
            [f"calls `log`, which {PRINTS}"],
        ),
        ("return jax.vmap(log)(x)", [f"calls `log`, which {PRINTS}"]),
        (
            "def inner(v):\n        return log(v)\n    return inner(x)",
            [f"calls `inner`, which calls `log`, which {PRINTS}"],
        ),
    ],
)
def test_effects(body: str, reasons: list[str]) -> None:
    ctx = context(MODULE.replace("BODY", body), HEADER)
    assert traced_effects(ctx, ctx.graph.functions["f"]) == reasons


def test_a_default_argument_is_named_by_the_function() -> None:
    code = MODULE.replace("def f(x):\n    BODY", "def f(x, log=jax.debug.print):\n    log(x)")
    ctx = context(code, HEADER)
    assert traced_effects(ctx, ctx.graph.functions["f"]) == [PRINTS]


TRACE = """\
import jax

SHOW = [jax.debug.print]


def norm_log(h):
    jax.debug.print("norm {n}", n=h.sum())
"""
MODEL = """\
import jax.numpy as jnp

import tracelib
from tracelib import norm_log


def block(h, w):
    h = jnp.tanh(h @ w)
    CALL
    return h, None
"""


@pytest.mark.parametrize("call", ["tracelib.norm_log(h)", "norm_log(h)", "tracelib.SHOW[0](h)"])
def test_effects_in_another_file_of_the_project(tmp_path: Path, call: str) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "tracelib.py").write_text(TRACE)
    source = MODEL.replace("CALL", call)
    (tmp_path / "model.py").write_text(source)
    ctx = ModuleContext(str(tmp_path / "model.py"), source, cst.parse_module(source))
    found = traced_effects(ctx, ctx.graph.functions["block"])
    if "SHOW" in call:
        assert found == ["calls `tracelib.SHOW`, bound to `jax.debug.print`"]
    else:
        assert found == [f"calls `{call[:-3]}`, which {PRINTS}"]
