"""The module's own immutable pytree classes and the fields their annotations prove arrays.

A class qualifies when it is defined once at module level, its name is bound nowhere
else (no rebinding, parameter or `global`), it is a `typing.NamedTuple` or a
`flax.struct.dataclass` (both immutable, so a field keeps what the constructor got),
and its body only annotates fields and defines methods that neither shadow a field nor
take over construction or attribute access. The value model (`analysis/values/model.py`)
marks an instance `class:<name>` only where every array-annotated field is given a
JAX array, so an annotation is never trusted alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.core.names import dotted
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import python as python_api


@dataclass(frozen=True)
class PytreeClass:
    """An immutable pytree class: its fields in order, and those annotated as arrays."""

    name: str
    fields: tuple[str, ...]
    arrays: frozenset[str]
    replace: str  # the copy-with-changes method: `_replace` or `replace`


def pytree_classes(ctx: ModuleContext) -> dict[str, PytreeClass]:
    """The module's qualifying classes, by name (built once)."""
    return ctx.per_module(_pytree_classes)


def _pytree_classes(ctx: ModuleContext) -> dict[str, PytreeClass]:
    out = {}
    for stmt in ctx.graph.scope_stmts(MODULE):
        node = stmt.node
        if type(node) is cst.ClassDef and _bound_once(ctx, node.name.value):
            found = _describe(ctx, node)
            if found is not None:
                out[found.name] = found
    return out


def _bound_once(ctx: ModuleContext, name: str) -> bool:
    """Only the `class` statement binds `name`, anywhere in the module."""
    graph = ctx.graph
    binders = [s for s in graph.stmts if name in s.defs]
    taken = any(name in f.params or name in f.globals for f in graph.functions.values())
    return len(binders) == 1 and not taken


def _describe(ctx: ModuleContext, node: cst.ClassDef) -> PytreeClass | None:
    replace = _replace_method(ctx, node)
    if replace is None:
        return None
    fields: list[str] = []
    arrays: set[str] = set()
    methods: set[str] = set()
    for line in node.body.body:
        if type(line) is cst.FunctionDef:
            methods.add(line.name.value)
            continue
        if type(line) is not cst.SimpleStatementLine or len(line.body) != 1:
            return None
        small = line.body[0]
        if type(small) is cst.AnnAssign and type(small.target) is cst.Name:
            fields.append(small.target.value)
            if ctx.qualify(small.annotation.annotation) in jax_api.ARRAY_ANNOTATIONS:
                arrays.add(small.target.value)
        elif type(small) not in (cst.Pass, cst.Expr):
            return None  # class attributes, assignments: not followed
    if methods & (set(fields) | python_api.TAKEN_OVER):
        return None
    return PytreeClass(node.name.value, tuple(fields), frozenset(arrays), replace)


def _replace_method(ctx: ModuleContext, node: cst.ClassDef) -> str | None:
    """`_replace` for a NamedTuple, `replace` for a frozen pytree dataclass, else None."""
    bases = [ctx.qualify(b.value) or dotted(b.value) or "" for b in node.bases]
    decorators = [_decorator_name(ctx, d.decorator) for d in node.decorators]
    if node.keywords:
        return None
    if bases and all(b in python_api.NAMEDTUPLE_BASES for b in bases) and not decorators:
        return "_replace"
    if not bases and decorators and all(d in jax_api.FROZEN_DECORATORS for d in decorators):
        return "replace"
    return None


def _decorator_name(ctx: ModuleContext, expr: cst.BaseExpression) -> str:
    if type(expr) is cst.Call:
        return ""  # `@struct.dataclass(frozen=False)` and the like: not followed
    return ctx.qualify(expr) or ""


def field_arguments(cls: PytreeClass, call: cst.Call) -> dict[str, cst.BaseExpression] | None:
    """Field -> the expression `call` passes for it, or None when the arguments do not map
    (a starred argument, too many positions, an unknown or repeated keyword)."""
    given: dict[str, cst.BaseExpression] = {}
    for index, arg in enumerate(call.args):
        if arg.star:
            return None
        if arg.keyword is None and index >= len(cls.fields):
            return None
        name = cls.fields[index] if arg.keyword is None else arg.keyword.value
        if name not in cls.fields or name in given:
            return None
        given[name] = arg.value
    return given
