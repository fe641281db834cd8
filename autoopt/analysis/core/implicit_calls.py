"""The special methods a statement makes Python call without a call in the source.

`for _ in loader` calls `loader.__iter__`, `while feeder:` `feeder.__bool__`, `ds[i]`
`ds.__getitem__`, `a + b` `a.__add__(b)` (and `b.__radd__(a)`), `len(x)` `x.__len__`,
`f"{x}"` `x.__format__`, `obj.attr` a property or `__getattr__`, `with cm:`
`cm.__enter__`, `k in d` `d.__contains__(k)`, `{k: v}` `k.__hash__`, `a, b = pair` and
`f(*args)` `__iter__`. Each is code of the operand's type: `facts/writes.py` decides
which types are proven to run none that changes anything.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.exprs import evaluated_exprs, scope_nodes
from autoopt.analysis.core.graph import Stmt
from autoopt.analysis.overlays import python as python_api

_BINARY = {
    "Add": "add", "Subtract": "sub", "Multiply": "mul", "Divide": "truediv",
    "FloorDivide": "floordiv", "Modulo": "mod", "Power": "pow", "MatrixMultiply": "matmul",
    "LeftShift": "lshift", "RightShift": "rshift", "BitAnd": "and", "BitOr": "or",
    "BitXor": "xor",
}  # fmt: skip
_COMPARE = {
    "Equal": "__eq__", "NotEqual": "__ne__", "LessThan": "__lt__", "LessThanEqual": "__le__",
    "GreaterThan": "__gt__", "GreaterThanEqual": "__ge__",
}  # fmt: skip
_UNARY = {"Not": "__bool__", "Minus": "__neg__", "Plus": "__pos__", "BitInvert": "__invert__"}


@dataclass(frozen=True)
class Implicit:
    """Python calls `operand`'s `method`, handing it `given`."""

    operand: cst.BaseExpression
    method: str
    given: tuple[cst.BaseExpression, ...] = ()


def implicit_calls(stmt: Stmt) -> Iterator[Implicit]:
    """The special methods `stmt` itself makes Python call (a loop header: not its body)."""
    node = stmt.node
    stored = {id(t) for t in _stored(node)}
    nodes = [inner for root in evaluated_exprs(node) for inner in scope_nodes(root)]
    # `obj.m(...)`: the lookup is judged with the call, as the method it finds
    callees = {id(n.func) for n in nodes if type(n) is cst.Call}
    for inner in nodes:
        if type(inner) is not cst.Attribute or id(inner) not in callees:
            yield from _of(inner, id(inner) in stored)
    yield from _header(node)


def _header(node: cst.CSTNode) -> Iterator[Implicit]:
    """What a compound statement's header asks of its value."""
    if type(node) is cst.For:
        yield Implicit(node.iter, "__iter__")
    elif type(node) is cst.While or type(node) is cst.If:
        yield Implicit(node.test, "__bool__")
    elif type(node) is cst.With:
        yield from (Implicit(item.item, "__enter__") for item in node.items)
    elif type(node) is cst.Assign and any(_unpacks(t.target) for t in node.targets):
        yield Implicit(node.value, "__iter__")
    elif type(node) is cst.AugAssign:
        name = _BINARY.get(type(node.operator).__name__.removesuffix("Assign"), "")
        yield Implicit(node.target, f"__i{name}__", (node.value,))
        yield Implicit(node.value, f"__r{name}__", (node.target,))


def _unpacks(target: cst.BaseExpression) -> bool:
    return type(target) is cst.Tuple or type(target) is cst.List


def _stored(node: cst.CSTNode) -> list[cst.BaseExpression]:
    """The targets a statement stores into or deletes (`x[i] = v`: `__setitem__`)."""
    if type(node) is cst.Assign:
        found = [t.target for t in node.targets]
    elif type(node) in (cst.AnnAssign, cst.AugAssign, cst.Del):
        found = [node.target]  # type: ignore[attr-defined]
    else:
        return []
    flat: list[cst.BaseExpression] = []
    while found:
        target = found.pop()
        if _unpacks(target):
            found += [e.value for e in target.elements]  # type: ignore[attr-defined]
        else:
            flat.append(target)
    return flat


def _of(node: cst.CSTNode, stored: bool) -> Iterator[Implicit]:
    """The special methods one expression node makes Python call."""
    kind = type(node)
    if kind is cst.Subscript:
        yield from _subscript(node, stored)  # type: ignore[arg-type]
    elif kind is cst.Attribute:
        yield Implicit(node.value, "__setattr__" if stored else "__getattr__")  # type: ignore[attr-defined]
    elif kind is cst.BinaryOperation:
        name = _BINARY.get(type(node.operator).__name__, "")  # type: ignore[attr-defined]
        yield Implicit(node.left, f"__{name}__", (node.right,))  # type: ignore[attr-defined]
        yield Implicit(node.right, f"__r{name}__", (node.left,))  # type: ignore[attr-defined]
    elif kind is cst.UnaryOperation:
        method = _UNARY[type(node.operator).__name__]  # type: ignore[attr-defined]
        yield Implicit(node.expression, method)  # type: ignore[attr-defined]
    elif kind is cst.BooleanOperation:
        yield from (Implicit(node.left, "__bool__"), Implicit(node.right, "__bool__"))  # type: ignore[attr-defined]
    elif kind is cst.Comparison:
        yield from _comparison(node)  # type: ignore[arg-type]
    elif kind is cst.IfExp or kind is cst.CompIf or kind is cst.Assert:
        yield Implicit(node.test, "__bool__")  # type: ignore[attr-defined]
    elif kind is cst.CompFor:
        yield Implicit(node.iter, "__iter__")  # type: ignore[attr-defined]
    elif kind is cst.FormattedStringExpression:
        yield Implicit(node.expression, "__format__")  # type: ignore[attr-defined]
    elif kind is cst.Call:
        yield from _call(node)  # type: ignore[arg-type]
    elif kind is cst.DictElement or kind is cst.Set:
        keys = [node.key] if kind is cst.DictElement else [e.value for e in node.elements]  # type: ignore[attr-defined]
        yield from (Implicit(k, "__hash__") for k in keys)
    elif kind is cst.StarredDictElement or kind is cst.StarredElement:
        yield Implicit(node.value, "__iter__")  # type: ignore[attr-defined]


def _subscript(node: cst.Subscript, stored: bool) -> Iterator[Implicit]:
    indices = tuple(e.slice.value for e in node.slice if type(e.slice) is cst.Index)
    method = "__setitem__" if stored else "__getitem__"
    yield Implicit(node.value, method, indices)
    yield from (Implicit(i, "__index__") for i in indices)


def _comparison(node: cst.Comparison) -> Iterator[Implicit]:
    left = node.left
    for target in node.comparisons:
        op, right = type(target.operator).__name__, target.comparator
        if op in ("In", "NotIn"):
            yield Implicit(right, "__contains__", (left,))
        elif op in _COMPARE:
            yield Implicit(left, _COMPARE[op], (right,))
            yield Implicit(right, _COMPARE[op], (left,))
        left = right


def _call(node: cst.Call) -> Iterator[Implicit]:
    """A builtin's special method of its arguments (`len(x)`; a function of the module
    that takes a builtin's name counts as both), and `*args`/`**kwargs` unpacked."""
    func = node.func
    name = func.value if type(func) is cst.Name else ""
    method = python_api.IMPLICIT_BUILTINS.get(name, "")
    positional = [a.value for a in node.args if not a.star and a.keyword is None]
    if name in python_api.CALLING_FIRST_BUILTINS:
        positional = positional[1:]  # `map(f, xs)`: `f` is called (`facts/writes.py`)
    elif name in python_api.OBJECT_FIRST_BUILTINS:
        positional = positional[:1]  # `getattr(obj, "name")`, `format(x, spec)`
    for value in positional if method else ():
        yield Implicit(value, method)
    for arg in node.args:
        if arg.star:
            yield Implicit(arg.value, "__iter__" if arg.star == "*" else "keys")
