"""Python floats an eager loop computes before its step, from its index and constants.

    for epoch in range(num_epochs + 1):
        progress = epoch / num_epochs
        weights = jnp.linspace(1.0, 0.1 * (1.0 - progress), num_steps)
        ...

A step that binds `progress` would return it, where the code after the loop (or the
rest of the body) reads it, as an array: a jitted function returns no Python numbers.
The leading lines of the body that each bind one name to a Python float, computed from
the loop variable of `for ... in range(...)`, integer and float constants (module
constants bound once, floats the value model proves), the names such lines bound
before, literals and arithmetic (`+ - * / // %`, unary minus, the builtins `min`,
`max`, `abs` and `float`), stay in the loop, where they run as before (the prelude,
`prelude_lines`). The step takes what it reads of them as arguments, traced: one
compilation, whatever the number.

Traced, a Python float is a float32, which the original rounds to only where it meets
an array: `1.0 - progress` in float32 cancels the rounding of `progress` into a large
relative error. So each largest piece of Python arithmetic of the step's lines over
the prelude's names (`host_terms`: `0.1 * (1.0 - progress)`, outside a lambda, a
comprehension, a conditional expression or `and`/`or`) is computed by the loop before
the step, in float64 as before, and the step takes its value instead: one rounding, as
eagerly. Such a piece reads only the prelude's floats and literals with `+ - *`,
divides only by a nonzero literal, and calls only `min`, `max`, `abs` (of floats), so
computing it earlier raises nothing the original would not have raised there.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import Loop, Stmt
from autoopt.analysis.core.walk import child_list
from autoopt.analysis.values import ints
from autoopt.analysis.values.shapes import is_builtin, stable_in_loop

_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply)
_DIVISIONS = (cst.Divide, cst.FloorDivide, cst.Modulo)
_SIGNS = (cst.Minus, cst.Plus)
_SAME_TYPE = ("min", "max", "abs")  # builtins whose result has their arguments' type
# the nodes under which a piece may not run, or run more than once, or names differ
_OPAQUE = (cst.IfExp, cst.BooleanOperation, cst.Lambda, cst.CompFor)
_LARGEST_EXACT = 2**53  # integer literals a float operation converts exactly


def prelude_lines(
    ctx: ModuleContext, loop: Loop, lines: Sequence[cst.SimpleStatementLine]
) -> list[tuple[cst.SimpleStatementLine, str]]:
    """The lines among the step's `lines` that each bind one name to a Python float
    computed from the loop's `range` variable, constants and the names such lines bound
    before (the prelude), with the name. A line after another step line joins only where
    it raises nothing (`_raises_nothing`) and no step line before it reads or binds its
    name: the loop then runs it before the step's lines, to the same effect."""
    stmts = {id(s.node): s for s in ctx.graph.loop_stmts(loop.id)}
    found: list[tuple[cst.SimpleStatementLine, str]] = []
    names: list[str] = []
    seen: set[str] = set()  # the names the other step lines before read or bind
    for line in lines:
        small = line.body[0] if len(line.body) == 1 else None
        target = _target(small)
        stmt = stmts.get(id(small))
        value = small.value if type(small) is cst.Assign else None
        if target is not None and stmt is not None and value is not None:
            known = target not in names and target not in seen
            moved = len(found) < lines.index(line)  # after another step line
            if (
                known
                and _number(ctx, loop, stmt, value, names) == "float"
                and (not moved or _raises_nothing(ctx, loop, stmt, value, names))
            ):
                found.append((line, target))
                names.append(target)
                continue
        for small_stmt in line.body:
            statement = stmts.get(id(small_stmt))
            if statement is not None:
                seen |= statement.uses | statement.defs
    return found


def _target(small: cst.BaseSmallStatement | None) -> str | None:
    """The one name `name = value` binds."""
    if type(small) is not cst.Assign or len(small.targets) != 1:
        return None
    target = small.targets[0].target
    return target.value if type(target) is cst.Name else None


def _number(
    ctx: ModuleContext, loop: Loop, stmt: Stmt, node: cst.BaseExpression, names: list[str]
) -> str | None:
    """ "int" or "float": the Python number type `node` proves to compute, reading only the
    loop's `range` variable, constants and `names` (floats); None where it is not
    proven."""
    if type(node) is cst.Integer:
        return "int"
    if type(node) is cst.Float:
        return "float"
    if type(node) is cst.Name:
        return _name(ctx, loop, stmt, node.value, names)
    if type(node) is cst.UnaryOperation and type(node.operator) in _SIGNS:
        return _number(ctx, loop, stmt, node.expression, names)
    if type(node) is cst.BinaryOperation and type(node.operator) in (*_ARITHMETIC, *_DIVISIONS):
        left = _number(ctx, loop, stmt, node.left, names)
        right = _number(ctx, loop, stmt, node.right, names)
        if left is None or right is None:
            return None
        true_division = type(node.operator) is cst.Divide
        return "float" if true_division or "float" in (left, right) else "int"
    if type(node) is cst.Call and _plain_args(node):
        types = {_number(ctx, loop, stmt, a.value, names) for a in node.args}
        if None in types:
            return None
        if _builtin_call(ctx, node, ("float",)) and len(types) == 1:
            return "float"
        if _builtin_call(ctx, node, _SAME_TYPE) and len(types) == 1:
            return types.pop()
    return None


def _name(ctx: ModuleContext, loop: Loop, stmt: Stmt, name: str, names: list[str]) -> str | None:
    """The type of a name the prelude may read: one of its own floats, the loop's `range`
    variable, or a number nothing in the loop or any function rebinds."""
    if name in names:
        return "float"
    if ints.range_loop(ctx, stmt, name) is loop:
        return "int"
    if not stable_in_loop(ctx, loop.id, name):
        return None
    if _bounded(ctx, stmt, name):
        return "int"
    return "float" if ints.is_float(ctx, stmt, cst.Name(name)) else None


def _bounded(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """`name` is an integer whose least and greatest values are proven: a constant, a
    local bound once to one, or a parameter every call passes one (`ints.bounds`)."""
    fn = ctx.graph.functions.get(stmt.scope)
    if fn is not None and name in fn.params:
        return ints.parameter_bounds(ctx, fn, name) is not None
    return ints.bounds(ctx, stmt, cst.Name(name), {}) is not None


def _raises_nothing(
    ctx: ModuleContext, loop: Loop, stmt: Stmt, node: cst.BaseExpression, names: list[str]
) -> bool:
    """`node` (proven a Python number by `_number`) cannot raise: its integers are within
    2**53 (`ints.bounds`: no overflow turning one into a float), and it divides only by a
    nonzero literal or constant, or an integer whose bounds exclude zero (floats never
    raise otherwise: they overflow to infinity)."""
    kind = _number(ctx, loop, stmt, node, names)
    if kind == "int":
        return ints.within(ints.bounds(ctx, stmt, node, {}), (-_LARGEST_EXACT, _LARGEST_EXACT))
    if type(node) is cst.UnaryOperation:
        return _raises_nothing(ctx, loop, stmt, node.expression, names)
    if type(node) is cst.BinaryOperation:
        if type(node.operator) in _DIVISIONS and not _nonzero(ctx, loop, stmt, node.right, names):
            return False
        sides = (node.left, node.right)
        return all(_raises_nothing(ctx, loop, stmt, side, names) for side in sides)
    if type(node) is cst.Call:
        return all(_raises_nothing(ctx, loop, stmt, a.value, names) for a in node.args)
    return kind == "float" and type(node) in (cst.Float, cst.Name)


def _nonzero(
    ctx: ModuleContext, loop: Loop, stmt: Stmt, node: cst.BaseExpression, names: list[str]
) -> bool:
    """A divisor proven nonzero: a literal or module constant, or bounded integers."""
    if type(node) is cst.Name and not ints.shadowed(ctx, stmt.scope, node.value):
        constant = ints.module_constant(ctx, node.value)
        node = constant if constant is not None else node
    if _nonzero_literal(node):
        return True
    if _number(ctx, loop, stmt, node, names) != "int":
        return False
    found = ints.bounds(ctx, stmt, node, {})
    return found is not None and (found[0] > 0 or found[1] < 0)


def _plain_args(call: cst.Call) -> bool:
    return bool(call.args) and all(a.keyword is None and not a.star for a in call.args)


def _builtin_call(ctx: ModuleContext, call: cst.Call, names: tuple[str, ...]) -> bool:
    func = call.func
    return type(func) is cst.Name and func.value in names and is_builtin(ctx, func, func.value)


def host_terms(
    ctx: ModuleContext, lines: Sequence[cst.SimpleStatementLine], names: Sequence[str]
) -> list[tuple[cst.BaseExpression, str]]:
    """Each largest piece of Python float arithmetic over the prelude's `names` in
    `lines` (not one of the names alone), in source order, with the first name it reads:
    the loop computes it before the step."""
    found: list[tuple[cst.BaseExpression, str]] = []
    for line in lines:
        for small in line.body:
            for part in _values(small):
                found.extend(_terms(ctx, part, names))
    return found


def _values(small: cst.BaseSmallStatement) -> list[cst.CSTNode]:
    """The expressions a step line evaluates (an assignment's value, an append's call)."""
    if type(small) is cst.Assign:
        return [small.value]
    return [small.value] if type(small) is cst.Expr else []


def _terms(
    ctx: ModuleContext, node: cst.CSTNode, names: Sequence[str]
) -> Iterator[tuple[cst.BaseExpression, str]]:
    if type(node) in _OPAQUE:
        return
    if type(node) is not cst.Name and isinstance(node, cst.BaseExpression):
        read = _term(ctx, node, names)
        if read is not None and read[1] == "float":
            yield node, read[0]
            return
    for child in child_list(node):
        yield from _terms(ctx, child, names)


def _term(
    ctx: ModuleContext, node: cst.BaseExpression, names: Sequence[str]
) -> tuple[str, str] | None:
    """(the first prelude name it reads, its type) of a piece of arithmetic that cannot
    raise, over the prelude's floats and literals; None for any other expression or
    one that reads none of them."""
    kind = _exact(ctx, node, names)
    if kind is None:
        return None
    read = [n.value for n in read_names(node) if n.value in names]
    return (read[0], kind) if read else None


def _exact(ctx: ModuleContext, node: cst.BaseExpression, names: Sequence[str]) -> str | None:
    """ "int" or "float" for arithmetic that raises nothing, over `names` (floats) and
    literals; None otherwise."""
    if type(node) is cst.Integer:
        return "int" if abs(node.evaluated_value) < _LARGEST_EXACT else None
    if type(node) is cst.Float:
        return "float"
    if type(node) is cst.Name:
        return "float" if node.value in names else None
    if type(node) is cst.UnaryOperation and type(node.operator) in _SIGNS:
        return _exact(ctx, node.expression, names)
    if type(node) is cst.BinaryOperation:
        return _exact_binary(ctx, node, names)
    if type(node) is cst.Call and _plain_args(node) and _builtin_call(ctx, node, _SAME_TYPE):
        types = {_exact(ctx, a.value, names) for a in node.args}
        return types.pop() if len(types) == 1 and None not in types else None
    return None


def _exact_binary(
    ctx: ModuleContext, node: cst.BinaryOperation, names: Sequence[str]
) -> str | None:
    operator = type(node.operator)
    if operator in _DIVISIONS and not _nonzero_literal(node.right):
        return None  # a divisor that may be zero raises
    if operator not in _ARITHMETIC and operator not in _DIVISIONS:
        return None  # `**` may overflow (raise) or turn complex
    left = _exact(ctx, node.left, names)
    right = _exact(ctx, node.right, names)
    if left is None or right is None:
        return None
    return "float" if operator is cst.Divide or "float" in (left, right) else "int"


def _nonzero_literal(node: cst.BaseExpression) -> bool:
    if type(node) is cst.Integer or type(node) is cst.Float:
        return node.evaluated_value != 0
    return False
