"""Build `jax.jit` decorators and wrappers, and merge options into existing ones."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from autoopt.analysis.context import ModuleContext
from autoopt.model import RequireImport


def _tuple(names: Sequence[str]) -> str:
    inner = ", ".join(f'"{n}"' for n in names)
    return f"({inner},)" if len(names) == 1 else f"({inner})"


def jit_options(static: Sequence[str] = (), donate: Sequence[str] = ()) -> str:
    """`static_argnames=("n",), donate_argnames=("state",)` (empty when none)."""
    parts = []
    if static:
        parts.append(f"static_argnames={_tuple(static)}")
    if donate:
        parts.append(f"donate_argnames={_tuple(donate)}")
    return ", ".join(parts)


def jit_decorator(
    ctx: ModuleContext, static: Sequence[str] = (), donate: Sequence[str] = ()
) -> tuple[str, tuple[RequireImport, ...]]:
    """`jax.jit` or `functools.partial(jax.jit, <options>)`, spelled with the
    module's own aliases, and the imports that spelling needs."""
    jit, imports = ctx.ref("jax.jit")
    options = jit_options(static, donate)
    if not options:
        return jit, imports
    partial, more = ctx.ref("functools.partial")
    return f"{partial}({jit}, {options})", imports + more


def jit_call(
    ctx: ModuleContext, func: str, static: Sequence[str] = (), donate: Sequence[str] = ()
) -> tuple[str, tuple[RequireImport, ...]]:
    """`jax.jit(func, <options>)`, and the imports it needs."""
    jit, imports = ctx.ref("jax.jit")
    options = jit_options(static, donate)
    return (f"{jit}({func}, {options})" if options else f"{jit}({func})"), imports


def add_decorator(text: str):
    """A transform that puts `@text` outermost on a FunctionDef."""

    def transform(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.FunctionDef)
        decorator = cst.Decorator(decorator=cst.parse_expression(text))
        return node.with_changes(decorators=[decorator, *node.decorators])

    return transform


def fresh_name(ctx: ModuleContext, base: str) -> str:
    """`base`, or `base_2`, ... : a name nothing in the module uses yet."""
    taken = {s for stmt in ctx.graph.stmts for s in stmt.defs | stmt.uses}
    taken |= set(ctx.imports.bindings)
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    return name
