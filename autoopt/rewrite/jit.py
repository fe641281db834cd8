"""Build `jax.jit` decorators and wrappers, and merge options into existing ones."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.free_names import fresh_name as fresh_name
from autoopt.analysis.core.jitted import can_add_donation, names_tuple, option_text
from autoopt.analysis.core.jitted import jit_decorator as jit_decorator
from autoopt.analysis.core.jitted import literal_names as literal_names
from autoopt.analysis.core.names import dotted
from autoopt.model import RequireImport


def jit_call(
    ctx: ModuleContext, func: str, static: Sequence[str] = (), donate: Sequence[str] = ()
) -> tuple[str, tuple[RequireImport, ...]]:
    """`jax.jit(func, <options>)`, and the imports it needs."""
    jit, imports = ctx.ref("jax.jit")
    options = option_text(static, donate)
    return (f"{jit}({func}, {options})" if options else f"{jit}({func})"), imports


def add_decorator(ctx: ModuleContext, text: str):
    """A transform that puts `@text` (a jit spelling) outermost on a FunctionDef,
    unless another fix of the same run already jitted it."""

    def transform(node: cst.CSTNode) -> cst.CSTNode:
        assert type(node) is cst.FunctionDef
        if any(is_jit_decorator(ctx, d.decorator) for d in node.decorators):
            return node
        decorator = cst.Decorator(decorator=cst.parse_expression(text))
        return node.with_changes(decorators=[decorator, *node.decorators])

    return transform


def is_jit_decorator(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """`@jax.jit`, `@jax.jit(...)` or `@functools.partial(jax.jit, ...)`, in any spelling."""
    if is_spelling(ctx, expr, "jax.jit"):
        return True
    if type(expr) is not cst.Call:
        return False
    if is_spelling(ctx, expr.func, "jax.jit"):
        return True
    return (
        is_spelling(ctx, expr.func, "functools.partial")
        and bool(expr.args)
        and is_spelling(ctx, expr.args[0].value, "jax.jit")
    )


def claim_name(ctx: ModuleContext, base: str, taken: set[str]) -> str:
    """A fresh name that the other fixes of this run (`taken`, updated) do not use either."""
    name = fresh_name(ctx, base, taken)
    taken.add(name)
    return name


def is_spelling(ctx: ModuleContext, expr: cst.BaseExpression, qualname: str) -> bool:
    """Whether `expr` names `qualname`, also as spelled by a fix of the same run."""
    return ctx.is_jax(expr, qualname) or dotted(expr) == ctx.ref(qualname)[0]


def with_donation(ctx: ModuleContext, expr: cst.BaseExpression, names: Sequence[str]):
    """A jit spelling (`jax.jit`, `jax.jit(f, ...)`, `functools.partial(jax.jit, ...)`)
    with `names` added to its `donate_argnames`, and the imports that needs. `expr` comes
    back unchanged when `can_add_donation` says no: a caller checks it first."""
    if not can_add_donation(expr):
        return expr, ()
    if type(expr) is not cst.Call:
        partial, imports = ctx.ref("functools.partial")
        text = f"{partial}({ctx.code(expr)}, donate_argnames={names_tuple(names)})"
        return cst.parse_expression(text), imports
    args = list(expr.args)
    for i, arg in enumerate(args):
        if arg.keyword is not None and arg.keyword.value == "donate_argnames":
            have = literal_names(arg.value) or []
            merged = cst.parse_expression(
                names_tuple([*have, *(n for n in names if n not in have)])
            )
            args[i] = arg.with_changes(value=merged)
            return expr.with_changes(args=args), ()
    if args:
        args[-1] = args[-1].with_changes(
            comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        )
    added = cst.Arg(
        keyword=cst.Name("donate_argnames"),
        value=cst.parse_expression(names_tuple(names)),
        equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
    )
    return expr.with_changes(args=[*args, added]), ()


def with_donate_mode(ctx: ModuleContext, expr: cst.BaseExpression, mode: str) -> cst.BaseExpression:
    """An `eqx.filter_jit` spelling (bare, called, or in `functools.partial`) with
    `donate="<mode>"` added; `expr` has no `donate=` yet."""
    if type(expr) is not cst.Call:
        return cst.parse_expression(f'{ctx.code(expr)}(donate="{mode}")')
    args = list(expr.args)
    if args:
        args[-1] = args[-1].with_changes(
            comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        )
    added = cst.Arg(
        keyword=cst.Name("donate"),
        value=cst.SimpleString(f'"{mode}"'),
        equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")),
    )
    return expr.with_changes(args=[*args, added])
