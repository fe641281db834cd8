"""Code that relies on IEEE rounding XLA does not keep: the rounding idioms of a module.

XLA's algebraic simplifier applies rewrites that hold in real arithmetic but not in
floating point, and two of them delete a rounding trick that runs as written eagerly,
one operation per dispatch:

- the magic-number round: adding a float constant of magnitude at least `2**22`
  (`t + 1.5 * 2**23`) drops the fraction of a float32, and subtracting it again gives
  `t` rounded to an integer; compiled, `(t + C) - C` folds to `t`. One half alone is
  the trick too: two programs (`encode` adds, `decode` subtracts) round between them,
  and compiling them together folds the pair (tests/hazards h1873, h1874);
- the negative-zero tidy: `x + 0.0` turns `-0.0` into `0.0`; compiled it folds to `x`.

An idiom is `+` or `-` (also `+=`, `-=`, `jnp.add`, `jnp.subtract`, `lax.add`,
`lax.sub`) with an operand that is such a constant: a literal, a constant expression
(`2.0**52 * 1.5`, `float(2**23)`, `jnp.float32(12582912.0)`), or a name some
assignment of the module binds to one (every binding counts, in any scope: this fact
only ever makes a fix less safe). Integer constants are not (`seed + 2**31` is exact
integer arithmetic; the trick needs a float), nor are constants under `2**22`, nor
`x - 0.0` (IEEE-exact: `-0.0 - 0.0` is `-0.0`), nor `0` as an integer.

A function may call code of another file, so `premise` judges a module with the
project modules it imports (absolute imports, transitively, the nearest first, at most
`LIMIT` files, as `analysis/core/project.py` finds them): where any holds an idiom,
every fix that compiles code that ran op by op before names it as a doubt.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.project import project_module
from autoopt.analysis.core.walk import walk

LIMIT = 100  # project modules read for one answer (the module itself included)
MAGNITUDE = 2.0**22  # from here on, float32 has no fraction bits below 0.5

#: Calls that add or subtract their two arguments, as operators do.
_CALLS = {
    "jax.numpy.add": "+", "jax.numpy.subtract": "-", "jax.lax.add": "+", "jax.lax.sub": "-",
}  # fmt: skip
#: Calls that give the float value of their one argument.
_FLOATS = frozenset(
    f"{module}.{name}"
    for module in ("numpy", "jax.numpy")
    for name in ("float16", "float32", "float64", "bfloat16", "double", "single")
) | {"float"}
#: Calls that give an array of their one argument's value and type.
_ARRAYS = frozenset({"jax.numpy.array", "jax.numpy.asarray", "numpy.array", "numpy.asarray"})


@dataclass(frozen=True)
class Idiom:
    """One rounding idiom: the operation, the operand that makes it one and its value
    (0.0 for the negative-zero tidy), and whether the expression both adds and subtracts
    the constant (`(t + C) - C`)."""

    node: cst.CSTNode
    operand: cst.BaseExpression
    value: float
    paired: bool = False

    @property
    def zero(self) -> bool:
        return self.value == 0.0


def idioms(ctx: ModuleContext) -> list[Idiom]:
    """The module's rounding idioms, in source order."""
    return ctx.per_module(_idioms)


def premise(ctx: ModuleContext) -> list[str]:
    """The doubt of compiling code of this module (a derived one's: its origin's) that
    ran op by op: its first rounding idiom, or the first of a project module it imports;
    none where there is none."""
    while ctx.origin is not None:
        ctx = ctx.origin
    return ctx.per_module(_premise)


def _premise(ctx: ModuleContext) -> list[str]:
    seen, todo = {ctx.path}, deque([("", ctx)])
    while todo:
        name, current = todo.popleft()
        found = idioms(current)
        if found:
            return [_doubt(current, found[0], name)]
        for module in _imported(current):
            other = project_module(current, module)
            if other is not None and other.path not in seen and len(seen) < LIMIT:
                seen.add(other.path)
                todo.append((module, other))
    return []


def _imported(ctx: ModuleContext) -> list[str]:
    """The modules the imports of `ctx` may load: each imported name, and the module a
    `from` import takes a name from."""
    names = []
    for full in ctx.imports.bindings.values():
        names += [full, full.rpartition(".")[0]]
    return [n for n in dict.fromkeys(names) if n]


def _doubt(ctx: ModuleContext, idiom: Idiom, module: str) -> str:
    line = ctx.span(idiom.node).line
    where = f"line {line}" if not module else f"line {line} of `{module}` ({Path(ctx.path).name})"
    code = ctx.code(idiom.operand)
    if idiom.zero:
        return (
            f"{where} adds `{code}`, which turns `-0.0` into `0.0`: XLA folds `x + 0.0` to "
            "`x`, so compiled code would keep `-0.0`"
        )
    how = "adding and subtracting" if idiom.paired else _verb(ctx, idiom.node)
    shown = _shown(idiom.value)
    value = "" if shown == code else f" ({shown})"
    return (
        f"{where} rounds by {how} `{code}`{value}: XLA folds `(t + C) - C` to `t`, so "
        "compiled code would not round"
    )


def _verb(ctx: ModuleContext, node: cst.CSTNode) -> str:
    return "adding" if _sign(ctx, node) == "+" else "subtracting"


def _shown(value: float) -> str:
    """`1.5 * 2**23` for 12582912.0, `2**52` for 4503599627370496.0, else the number."""
    sign = "-" if value < 0 else ""
    mantissa, exponent = math.frexp(abs(value))  # abs(value) = mantissa * 2**exponent
    if mantissa == 0.5:
        return f"{sign}2**{exponent - 1}"
    if mantissa == 0.75:
        return f"{sign}1.5 * 2**{exponent - 1}"
    return repr(value)


def _idioms(ctx: ModuleContext) -> list[Idiom]:
    bindings = _bindings(ctx)
    found: list[Idiom] = []
    paired: set[int] = set()  # the inner operations of `(t + C) - C`, named by the outer
    for node in walk(ctx.module):
        operands = _operands(ctx, node)
        if operands is None or id(node) in paired:
            continue
        for operand in operands:
            value = _rounding_value(ctx, bindings, node, operand)
            if value is None:
                continue
            inner = _inverse(ctx, bindings, node, operands, value)
            if inner is not None:
                paired.add(id(inner))
            found.append(Idiom(node, operand, value, inner is not None))
            break
    return found


def _operator(node: cst.CSTNode) -> str:
    """`+` or `-` for an addition or subtraction (operator, augmented, call), else ""."""
    if type(node) is cst.BinaryOperation or type(node) is cst.AugAssign:
        kind = type(node.operator)
        if kind is cst.Add or kind is cst.AddAssign:
            return "+"
        if kind is cst.Subtract or kind is cst.SubtractAssign:
            return "-"
    return ""


def _operands(ctx: ModuleContext, node: cst.CSTNode) -> tuple[cst.BaseExpression, ...] | None:
    """The two operands of an addition or subtraction (the added value alone for an
    augmented one), else None."""
    if type(node) is cst.BinaryOperation and _operator(node):
        return (node.left, node.right)
    if type(node) is cst.AugAssign and _operator(node):
        return (node.value,)
    if type(node) is not cst.Call or ctx.qualify(node.func) not in _CALLS or len(node.args) != 2:
        return None
    plain = all(a.keyword is None and not a.star for a in node.args)
    return (node.args[0].value, node.args[1].value) if plain else None


def _sign(ctx: ModuleContext, node: cst.CSTNode) -> str:
    if type(node) is cst.Call:
        return _CALLS.get(ctx.qualify(node.func) or "", "")
    return _operator(node)


def _rounding_value(
    ctx: ModuleContext,
    bindings: dict[str, list[cst.BaseExpression]],
    node: cst.CSTNode,
    operand: cst.BaseExpression,
) -> float | None:
    """The value that makes `operand` of `node` a rounding idiom, else None: a float
    constant of magnitude `MAGNITUDE` or more, or a literal `0.0` added."""
    if type(operand) is cst.Float and _sign(ctx, node) == "+" and float(operand.value) == 0.0:
        return 0.0
    values = [_value(ctx, bindings, operand, frozenset())]
    if type(operand) is cst.Name:
        values = [_value(ctx, bindings, v, frozenset()) for v in bindings.get(operand.value, [])]
    for value in values:
        if type(value) is float and math.isfinite(value) and abs(value) >= MAGNITUDE:
            return value
    return None


def _inverse(
    ctx: ModuleContext,
    bindings: dict[str, list[cst.BaseExpression]],
    node: cst.CSTNode,
    operands: tuple[cst.BaseExpression, ...],
    value: float,
) -> cst.CSTNode | None:
    """In `(t + C) - C` (or `(t - C) + C`), the inner operation of the other sign with
    the same constant."""
    sign = _sign(ctx, node)
    for operand in operands:
        inner_operands = _operands(ctx, operand)
        if inner_operands is None or _sign(ctx, operand) in ("", sign):
            continue
        if any(_rounding_value(ctx, bindings, operand, o) == value for o in inner_operands):
            return operand
    return None


def _bindings(ctx: ModuleContext) -> dict[str, list[cst.BaseExpression]]:
    """Every value a plain assignment of the module (in any scope) binds to a name."""
    found: dict[str, list[cst.BaseExpression]] = {}
    for node in walk(ctx.module):
        if type(node) is cst.Assign:
            for target in node.targets:
                if type(target.target) is cst.Name:
                    found.setdefault(target.target.value, []).append(node.value)
        elif type(node) is cst.AnnAssign and type(node.target) is cst.Name and node.value:
            found.setdefault(node.target.value, []).append(node.value)
    return found


def _value(
    ctx: ModuleContext,
    bindings: dict[str, list[cst.BaseExpression]],
    node: cst.BaseExpression,
    seen: frozenset[str],
) -> float | int | None:
    """The value of a constant expression of number literals, arithmetic, names bound
    once to one, and float conversions; None for anything else."""
    if type(node) is cst.Integer or type(node) is cst.Float:
        return node.evaluated_value
    if type(node) is cst.UnaryOperation and type(node.operator) in (cst.Minus, cst.Plus):
        inner = _value(ctx, bindings, node.expression, seen)
        return None if inner is None else (-inner if type(node.operator) is cst.Minus else inner)
    if type(node) is cst.BinaryOperation:
        left = _value(ctx, bindings, node.left, seen)
        right = _value(ctx, bindings, node.right, seen)
        return None if left is None or right is None else _arithmetic(node.operator, left, right)
    if type(node) is cst.Name and node.value not in seen:
        bound = bindings.get(node.value, [])
        return _value(ctx, bindings, bound[0], seen | {node.value}) if len(bound) == 1 else None
    if type(node) is cst.Call and len(node.args) == 1:
        arg = node.args[0]
        inner = None if arg.keyword or arg.star else _value(ctx, bindings, arg.value, seen)
        qual = ctx.qualify(node.func)
        if qual is None and type(node.func) is cst.Name and node.func.value not in bindings:
            qual = node.func.value  # a builtin: `float(...)`
        if inner is None or qual is None or abs(inner) > 2**1000:
            return None
        return float(inner) if qual in _FLOATS else inner if qual in _ARRAYS else None
    return None


def _arithmetic(
    operator: cst.BaseBinaryOp, left: float | int, right: float | int
) -> float | int | None:
    """`left <operator> right` as Python computes it, None where it fails or would be
    huge (an overflow, a division by zero, a vast power)."""
    kind = type(operator)
    try:
        if kind is cst.Add:
            return left + right
        if kind is cst.Subtract:
            return left - right
        if kind is cst.Multiply:
            return left * right
        if kind is cst.Divide:
            return left / right
        if kind is cst.Power and abs(right) <= 1100 and abs(left) < 2**64:
            result = left**right
            return result if type(result) in (int, float) else None
    except (ArithmeticError, ValueError):
        return None
    return None
