"""Pass an `eqx.filter_jit` function's kept arguments first (`plans/keep_first.py`).

The kept parameter moves to the front of the signature, or, several, are packed into one
tuple parameter that the body's first statement unpacks; every call passes them first, the
others in their order. Each position keeps its separator (comma and line break), so the
layout of the signature and of each call stays as it was. A packed parameter's annotation
is not carried over (the unpacking assignment takes none).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.plans.keep_first import KeepFirst
from autoopt.rewrite.jit import with_donate_mode

_Item = TypeVar("_Item", cst.Param, cst.Arg)


def keep_first_def(ctx: ModuleContext, node: cst.FunctionDef, plan: KeepFirst) -> cst.FunctionDef:
    """`node` with the kept parameters first, its jit given `donate="all-except-first"`."""
    params = list(node.params.params)
    rest = [p for p in params if p.name.value not in plan.kept]
    first = cst.Param(cst.Name(plan.pack)) if plan.pack else _named(params, plan.kept[0])
    relaid = _relaid([first, *rest], params)
    decorator = node.decorators[0]
    mode = with_donate_mode(ctx, decorator.decorator, eqx_api.KEEPS_FIRST)
    node = node.with_changes(
        params=node.params.with_changes(params=relaid),
        decorators=[decorator.with_changes(decorator=mode)],
    )
    return _unpacked(node, plan) if plan.pack else node


def keep_first_call(call: cst.Call, positional: list[str], plan: KeepFirst) -> cst.Call:
    """`call` passing the kept arguments first (`positional`: the function's positional
    parameters before the move)."""
    args = list(call.args)
    bound = [positional[i] if a.keyword is None else a.keyword.value for i, a in enumerate(args)]
    values = [args[bound.index(k)].value for k in plan.kept]
    rest = [a for a, name in zip(args, bound, strict=True) if name not in plan.kept]
    first = cst.Arg(_packed(values) if plan.pack else values[0])
    return call.with_changes(args=_relaid([first, *rest], args))


def _named(params: list[cst.Param], name: str) -> cst.Param:
    return next(p for p in params if p.name.value == name)


def _relaid(items: Sequence[_Item], old: Sequence[_Item]) -> list[_Item]:
    """`items` given the separators (comma and the whitespace after the item) of `old`'s
    positions, the last one's to the last."""
    kept = list(old[: len(items) - 1])
    kept.append(old[-1])
    after = "whitespace_after_param" if type(old[0]) is cst.Param else "whitespace_after_arg"
    return [
        item.with_changes(comma=by.comma, **{after: getattr(by, after)})
        for item, by in zip(items, kept, strict=True)
    ]


def _packed(values: list[cst.BaseExpression]) -> cst.Tuple:
    between = cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
    elements = [cst.Element(v, comma=between) for v in values[:-1]]
    return cst.Tuple([*elements, cst.Element(values[-1])])


def _unpacked(node: cst.FunctionDef, plan: KeepFirst) -> cst.FunctionDef:
    """`node` whose body first unpacks the packed parameter (after its docstring)."""
    body = node.body
    assert type(body) is cst.IndentedBlock
    statements = list(body.body)
    at = 1 if statements and _is_docstring(statements[0]) else 0
    unpack = cst.parse_statement(f"{', '.join(plan.kept)} = {plan.pack}\n")
    statements.insert(at, unpack)
    return node.with_changes(body=body.with_changes(body=statements))


def _is_docstring(stmt: cst.BaseStatement) -> bool:
    if type(stmt) is not cst.SimpleStatementLine or len(stmt.body) != 1:
        return False
    expr = stmt.body[0]
    return type(expr) is cst.Expr and type(expr.value) in (
        cst.SimpleString,
        cst.ConcatenatedString,
    )
