"""Stores in an attribute of `self` of values proven new buffers (for `facts/attributes.py`).

`fresh_store` holds of a store `self.a = v` (the use of `self.a` a target) when `v` is a
call whose result is new buffers (`facts/fresh.py`, `fresh_result`), or a field or item
of one (`model.init(key, x)["params"]`), or when the statement unpacks a tuple into
attributes, `self.a, self.b = v["params"], v["batch_stats"]`, and the element `self.a`
takes is a part of such a call, or of a local name `v` such that

- `v` is bound once in the function, by `v = call` (one plain target), `call` new
  buffers, and that binding alone reaches the store;
- `v` is a local of the function (no parameter, `global` or `nonlocal`) that no other
  statement reads, nested functions included: only the unpacking holds its buffers;
- each element of the unpacked tuple that reads `v` reads it only as its root, through
  fields and literal items (`v["params"]`), and no two such paths are equal or one
  inside the other: each attribute gets buffers of its own, none in two of them (new
  buffers are distinct, `fresh_result`).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import Stmt
from autoopt.analysis.facts.fresh import fresh_result
from autoopt.analysis.facts.self_attrs import Use

#: A path from a name to a part of its value: fields (`.x`) and literal items (`['w']`).
Path = tuple[str, ...]


def fresh_store(ctx: ModuleContext, use: Use) -> bool:
    """Whether the store `use` of `self.a` gives it new buffers no other name holds."""
    node = use.stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return False
    target, value = node.targets[0].target, node.value
    if target is use.node:
        return _fresh_part(ctx, use.stmt, value)
    elements = _unpacked(target, value)
    if elements is None:
        return False
    given = next((v for t, v in elements if t is use.node), None)
    if given is None:
        return False
    root = _root(given)
    if type(root) is cst.Call:
        return fresh_result(ctx, use.stmt, root)
    if type(root) is not cst.Name:
        return False
    values = [v for _, v in elements]
    return _parted(values, root.value) and _fresh_local(ctx, use, root.value)


def _fresh_part(ctx: ModuleContext, stmt: Stmt, value: cst.BaseExpression) -> bool:
    """`fresh(...)` or a field or item of it."""
    root = _root(value)
    return type(root) is cst.Call and fresh_result(ctx, stmt, root)


def _root(value: cst.BaseExpression) -> cst.BaseExpression:
    while type(value) in (cst.Subscript, cst.Attribute):
        value = value.value  # type: ignore[attr-defined]
    return value


def _unpacked(
    target: cst.BaseExpression, value: cst.BaseExpression
) -> list[tuple[cst.BaseExpression, cst.BaseExpression]] | None:
    """The pairs (target, value) of `a, b = x, y` (tuples or lists of equal length,
    nothing starred); None for anything else."""
    if type(target) not in (cst.Tuple, cst.List) or type(value) not in (cst.Tuple, cst.List):
        return None
    targets, values = target.elements, value.elements  # type: ignore[attr-defined]
    if len(targets) != len(values):
        return None
    if any(type(e) is not cst.Element for e in (*targets, *values)):
        return None
    return [(t.value, v.value) for t, v in zip(targets, values, strict=True)]


def _path(value: cst.BaseExpression, name: str) -> Path | None:
    """The fields and literal items from `name` to `value` (None: `value` is not such a
    part of `name`)."""
    steps: list[str] = []
    while type(value) is not cst.Name:
        if type(value) is cst.Attribute:
            steps.append(f".{value.attr.value}")
        elif type(value) is cst.Subscript and _literal_index(value):
            steps.append(f"[{value.slice[0].slice.value.value}]")  # type: ignore[attr-defined]
        else:
            return None
        value = value.value
    return tuple(reversed(steps)) if value.value == name else None


def _literal_index(node: cst.Subscript) -> bool:
    if len(node.slice) != 1 or type(node.slice[0].slice) is not cst.Index:
        return False
    return isinstance(node.slice[0].slice.value, cst.BaseString | cst.Integer)


def _parted(values: list[cst.BaseExpression], name: str) -> bool:
    """Each value reading `name` is a part of it by a path of its own, none inside
    another."""
    paths: list[Path] = []
    for value in values:
        if not any(n.value == name for n in read_names(value)):
            continue
        path = _path(value, name)
        if path is None:
            return False
        paths.append(path)
    return not any(
        i != j and p[: len(q)] == q for i, p in enumerate(paths) for j, q in enumerate(paths)
    )


def _fresh_local(ctx: ModuleContext, use: Use, name: str) -> bool:
    """`name` is a local of the method bound once, by `name = fresh(...)`, which reaches
    the store, and read by no other statement."""
    method, stmt = use.method, use.stmt
    if stmt.scope != method.qualname or name in method.params:
        return False
    if name in method.globals | method.nonlocals:
        return False
    inside = [
        s
        for s in ctx.graph.stmts
        if s.scope == method.qualname or s.scope.startswith(method.qualname + ".")
    ]
    if any(name in s.uses for s in inside if s is not stmt):
        return False
    binders = [s for s in inside if name in s.defs]
    if len(binders) != 1 or ctx.graph.reaching_defs(stmt, name) != binders:
        return False
    node = binders[0].node
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return False
    target = node.targets[0].target
    bound = type(target) is cst.Name and target.value == name
    return bound and type(node.value) is cst.Call and fresh_result(ctx, binders[0], node.value)
