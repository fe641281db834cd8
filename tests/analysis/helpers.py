"""Build a ModuleContext from a snippet and find its statements, loops and functions."""

from __future__ import annotations

import textwrap
from functools import lru_cache

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Function, Loop, Stmt

HEADER = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"


@lru_cache(maxsize=64)
def context(code: str, header: str = "") -> ModuleContext:
    """The context of `header` + the dedented snippet `code`, shared by the tests that
    ask about the same snippet (analyses only read it)."""
    source = header + textwrap.dedent(code).lstrip("\n")
    return ModuleContext("<test>", source, cst.parse_module(source))


def head(ctx: ModuleContext, stmt: Stmt) -> str:
    """A statement's first line of code, without decorators, comments or blank lines."""
    node = stmt.node
    fields = ("leading_lines", "decorators", "lines_after_decorators")
    changes: dict[str, object] = {name: () for name in fields if hasattr(node, name)}
    if hasattr(node, "semicolon"):  # `a = 1; b = 2`
        changes["semicolon"] = cst.MaybeSentinel.DEFAULT
    if changes:
        node = node.with_changes(**changes)
    return ctx.module.code_for_node(node).strip().splitlines()[0]


def stmt(ctx: ModuleContext, text: str, scope: str | None = None) -> Stmt:
    """The statement whose first line is `text`, or else the one that starts with it
    (in `scope`, if given)."""
    stmts = [s for s in ctx.graph.stmts if scope is None or s.scope == scope]
    found = [s for s in stmts if head(ctx, s) == text]
    found = found or [s for s in stmts if head(ctx, s).startswith(text)]
    assert len(found) == 1, f"{len(found)} statements start with {text!r}"
    return found[0]


def loop(ctx: ModuleContext, index: int = 0) -> Loop:
    return ctx.graph.loops[index]


def function(ctx: ModuleContext, qualname: str) -> Function:
    return ctx.graph.functions[qualname]


def expr(code: str) -> cst.BaseExpression:
    return cst.parse_expression(code)
