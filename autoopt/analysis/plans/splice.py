"""`x = jnp.concatenate([x[:i], v, x[i + k:]])`: a splice of `v` over rows `i..i+k-1`.

The splice is an update in place (`dynamic_update_slice` at row `i`) only when `v`
has exactly `k` rows and `0 <= i <= len(x) - k`: otherwise the concatenate changes
the size of `x` (a negative `i` even counts from the end), while the update keeps
it and clamps `i`. Row counts are proven from literals (`v[None]`, `jnp.zeros((k,
3))`, a list literal); the start range from an enclosing `for i in range(...)`
whose stop is the length of `x`.

The start is proven in range when `i` is the variable of an enclosing `for i in
range([a, ]n - c)` (literals `a >= 0`, `c >= k - 1`) where `n` is `len(x)`, `x.shape[0]`
or the first dimension `x` was created with. A splice whose value provably has another
length, one on an axis other than 0 or with `dtype=`, and one whose start calls a
function (the two slices evaluate it twice) is not an update. `x` must not be weakly
typed (`strongly_typed`: made by `jnp.zeros`, `ones`, `empty`, `eye`, `identity`,
`arange`, `linspace`, or with `dtype=`): the concatenate of weak arrays stays weak, the
update's result does not. The helper promotes both to the dtype the concatenate gives
(`jnp.result_type`); one difference remains: where `v`'s other dimensions are smaller
than `x`'s, the concatenate raises and the update writes the smaller block.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Loop, Stmt
from autoopt.analysis.core.walk import walk
from autoopt.analysis.facts import loop_vars as loops
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.values import ints

_ELEMENTWISE = (
    cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power,
)  # fmt: skip
_PLAIN = (
    cst.Name, cst.Integer, cst.Attribute, cst.Subscript, cst.SubscriptElement, cst.Index,
    cst.BinaryOperation, cst.UnaryOperation,
)  # fmt: skip
_DEPTH = 4


@dataclass(frozen=True)
class Splice:
    """`name = concatenate([name[:start], value, name[start + rows:]])` on axis 0."""

    stmt: Stmt
    name: str
    start: cst.BaseExpression
    rows: int
    value: cst.BaseExpression
    value_rows: int | None  # the rows of `value`, None when not proven


def find_splice(ctx: ModuleContext, stmt: Stmt) -> Splice | None:
    """The splice `stmt` is, or None (not one, or one that provably resizes the array)."""
    assigned = stmt.call_assigned
    if assigned is None:
        return None
    name, call = assigned
    pieces = _pieces(ctx, call)
    if pieces is None:
        return None
    start = _head_stop(pieces[0], name)
    tail = _tail_start(pieces[2], name)
    if start is None or tail is None or not _plain(start) or not _same(ctx, start, tail[0]):
        return None
    rows, value = tail[1], pieces[1]
    value_rows = rows_of(ctx, stmt, value)
    if value_rows is not None and value_rows != rows:
        return None
    return Splice(stmt, name, start, rows, value, value_rows)


def start_in_range(ctx: ModuleContext, s: Splice) -> bool:
    """`0 <= start <= len(x) - rows` on every run: `start` is the variable of an enclosing
    `for start in range([a, ]n - c)` (literals `a >= 0`, `c >= rows - 1`) that writes `x`
    only by this splice, where `n` is `len(x)`, `x.shape[0]` or the first dimension `x`
    was created with (`jnp.zeros((n, 3))`)."""
    if type(s.start) is not cst.Name:
        return False
    loop = ints.range_loop(ctx, s.stmt, s.start.value)
    if loop is None or not loops.only_writer(ctx, loop, s.name, s.stmt):
        return False
    args = loop.node.iter.args  # type: ignore[union-attr]
    if not 1 <= len(args) <= 2 or any(a.keyword is not None or a.star for a in args):
        return False
    low = _literal(args[0].value) if len(args) == 2 else 0
    if low is None or low < 0:
        return False
    stop, offset = _offset(args[-1].value)
    return offset <= 1 - s.rows and _length(ctx, s, loop, stop)


def strongly_typed(ctx: ModuleContext, stmt: Stmt) -> bool:
    """`stmt` assigns a jax.numpy constructor that never gives a weakly typed array (one
    in `jax_api.STRONG_CONSTRUCTORS`, or any with an explicit `dtype=`)."""
    node = stmt.node
    call = node.value if type(node) is cst.Assign else None
    if type(call) is not cst.Call:
        return False
    qual = ctx.qualify(call.func) or ""
    typed = any(_keyword(a, "dtype") and not _is_none(a.value) for a in call.args)
    return qual.startswith("jax.numpy.") and (
        qual.rsplit(".", 1)[1] in jax_api.STRONG_CONSTRUCTORS or typed
    )


def rows_of(ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression, depth: int = 0) -> int | None:
    """The length along axis 0 of `expr` evaluated at `stmt`, when literals prove it."""
    if depth > _DEPTH:
        return None
    if type(expr) is cst.Subscript:
        return 1 if _new_axis_first(ctx, expr) else None
    if type(expr) is cst.Call:
        return _constructed_rows(ctx, expr)
    if type(expr) is cst.UnaryOperation and type(expr.operator) in (cst.Minus, cst.Plus):
        return rows_of(ctx, stmt, expr.expression, depth + 1)
    if type(expr) is cst.BinaryOperation and isinstance(expr.operator, _ELEMENTWISE):
        if _scalar(ctx, stmt, expr.right):
            return rows_of(ctx, stmt, expr.left, depth + 1)
        if _scalar(ctx, stmt, expr.left):
            return rows_of(ctx, stmt, expr.right, depth + 1)
        return None
    if type(expr) is cst.Name:
        return _name_rows(ctx, stmt, expr.value, depth)
    return None


def _pieces(ctx: ModuleContext, call: cst.Call) -> list[cst.BaseExpression] | None:
    """The three pieces of `jnp.concatenate([a, b, c])` on axis 0, else None."""
    if not ctx.is_jax(call.func, "jax.numpy.concatenate") or not call.args:
        return None
    first, rest = call.args[0], call.args[1:]
    value = first.value
    if (
        first.keyword is not None
        or first.star
        or (type(value) is not cst.List and type(value) is not cst.Tuple)
    ):
        return None
    if len(rest) > 1 or any(
        a.star or (a.keyword is not None and not _keyword(a, "axis")) or _literal(a.value) != 0
        for a in rest
    ):
        return None
    elements = value.elements
    if len(elements) != 3 or any(type(e) is cst.StarredElement for e in elements):
        return None
    return [e.value for e in elements]


def _head_stop(node: cst.BaseExpression, name: str) -> cst.BaseExpression | None:
    """`i` in `name[:i]` (or `name[0:i]`)."""
    part = _one_slice(node, name)
    if part is None or part.upper is None:
        return None
    return part.upper if part.lower is None or _literal(part.lower) == 0 else None


def _tail_start(node: cst.BaseExpression, name: str) -> tuple[cst.BaseExpression, int] | None:
    """`(i, k)` for `name[i + k:]` (or `name[k + i:]`), `k` a positive literal."""
    part = _one_slice(node, name)
    lower = part.lower if part is not None and part.upper is None else None
    if not (type(lower) is cst.BinaryOperation and type(lower.operator) is cst.Add):
        return None
    for start, k in ((lower.left, lower.right), (lower.right, lower.left)):
        rows = _literal(k)
        if rows is not None and rows > 0:
            return start, rows
    return None


def _one_slice(node: cst.BaseExpression, name: str) -> cst.Slice | None:
    """The slice of `name[a:b]` (one axis, no step)."""
    if not (
        type(node) is cst.Subscript
        and type(node.value) is cst.Name
        and node.value.value == name
        and len(node.slice) == 1
        and type(node.slice[0].slice) is cst.Slice
        and node.slice[0].slice.step is None
    ):
        return None
    return node.slice[0].slice


def _plain(node: cst.BaseExpression) -> bool:
    """Names, integers, attributes, subscripts and operators only: no call, so the value
    is the same whether evaluated once (the helper) or twice (the two slices)."""
    return all(isinstance(n, _PLAIN) for n in walk(node))


def _same(ctx: ModuleContext, a: cst.BaseExpression, b: cst.BaseExpression) -> bool:
    """The same expression, up to spacing and redundant parentheses."""
    dumps = []
    for node in (a, b):
        try:
            dumps.append(ast.dump(ast.parse(ctx.code(node).strip(), mode="eval")))
        except SyntaxError:
            return False
    return dumps[0] == dumps[1]


def _new_axis_first(ctx: ModuleContext, sub: cst.Subscript) -> bool:
    """`e[None]`, `e[None, ...]`, `e[jnp.newaxis, :]`: a new leading axis of length 1 (the
    rest only new axes, `...` or full slices, so no advanced index moves to the front)."""
    first, *rest = sub.slice
    if not _new_axis(ctx, first.slice):
        return False
    for element in rest:
        part = element.slice
        ellipsis = type(part) is cst.Index and type(part.value) is cst.Ellipsis
        if not (_full_slice(part) or ellipsis or _new_axis(ctx, part)):
            return False
    return True


def _full_slice(part: cst.BaseSlice) -> bool:
    """`:`, every row."""
    if type(part) is not cst.Slice:
        return False
    return part.lower is None and part.upper is None and part.step is None


def _new_axis(ctx: ModuleContext, part: cst.BaseSlice) -> bool:
    if type(part) is not cst.Index or part.star is not None:
        return False
    return _is_none(part.value) or ctx.qualify(part.value) in jax_api.NEW_AXIS


def _constructed_rows(ctx: ModuleContext, call: cst.Call) -> int | None:
    """Rows of `zeros/ones/empty/full((k, ...))` or of `array([a, b, ...][, dtype])` (jax
    or NumPy), with no keyword other than `dtype` (`ndmin` would add leading axes)."""
    qual = ctx.qualify(call.func) or ""
    module, _, func = qual.rpartition(".")
    if module not in ("jax.numpy", "numpy") or not call.args:
        return None
    if any(a.star or (a.keyword is not None and not _keyword(a, "dtype")) for a in call.args):
        return None
    first = call.args[0]
    if first.keyword is not None:
        return None
    if func in jax_api.SHAPED_CONSTRUCTORS:
        dim = _first_dim(first.value)
        return None if dim is None else _literal(dim)
    value = first.value
    if (
        func in jax_api.LISTED_CONSTRUCTORS
        and len(call.args) <= 2
        and (type(value) is cst.List or type(value) is cst.Tuple)
    ):
        elements = value.elements
        return None if any(type(e) is cst.StarredElement for e in elements) else len(elements)
    return None


def _scalar(ctx: ModuleContext, stmt: Stmt, node: cst.BaseExpression) -> bool:
    """A Python number: broadcasting it keeps the other operand's shape."""
    if type(node) is cst.UnaryOperation and type(node.operator) is cst.Minus:
        node = node.expression
    return type(node) is cst.Float or ints.is_int(ctx, stmt, node)


def _name_rows(ctx: ModuleContext, stmt: Stmt, name: str, depth: int) -> int | None:
    """Rows of a name every reaching definition of which assigns the same rows, one of
    them on every path (else a parameter or an outer value may reach)."""
    graph = ctx.graph
    defs = graph.reaching_defs(stmt, name)
    mutated = any(name in s.mutates for s in graph.scope_stmts(stmt.scope))
    if not any(graph.dominates(d, stmt) for d in defs) or mutated:
        return None
    if loops.function_reading(ctx, stmt.scope, name):
        return None
    found = set()
    for d in defs:
        node = d.node
        if not (
            type(node) is cst.Assign
            and len(node.targets) == 1
            and type(node.targets[0].target) is cst.Name
        ):
            return None
        found.add(rows_of(ctx, d, node.value, depth + 1))
    return found.pop() if len(found) == 1 else None


def _offset(node: cst.BaseExpression) -> tuple[cst.BaseExpression, int]:
    """`(n, d - c)` for `n - c + d` (literals `c`, `d`), `(node, 0)` for anything else."""
    if type(node) is cst.BinaryOperation and type(node.operator) in (cst.Add, cst.Subtract):
        step = _literal(node.right)
        if step is not None:
            base, offset = _offset(node.left)
            return base, offset + (step if type(node.operator) is cst.Add else -step)
    return node, 0


def _length(ctx: ModuleContext, s: Splice, loop: Loop, n: cst.BaseExpression) -> bool:
    """`n` is the length of `x` when `loop` starts: `len(x)`, `x.shape[0]`, or the first
    dimension of the constructor that made `x` before the loop (`n` unchanged since)."""
    code = ctx.code(n).strip()
    if code == f"{s.name}.shape[0]" or (code == f"len({s.name})" and ints.builtin(ctx, "len")):
        return True
    entry = loops.entry_def(ctx, loop, s.name, s.stmt)
    call = entry.value if entry is not None else None
    if type(call) is not cst.Call or not call.args or call.args[0].keyword is not None:
        return False
    module, _, func = (ctx.qualify(call.func) or "").rpartition(".")
    if module not in ("jax.numpy", "numpy") or func not in jax_api.SHAPED_CONSTRUCTORS:
        return False
    dim = _first_dim(call.args[0].value)
    return dim is not None and _same(ctx, dim, n) and _unchanging(ctx, s.stmt, n)


def _first_dim(shape: cst.BaseExpression) -> cst.BaseExpression | None:
    """`n` in a shape `(n, ...)`, `[n, ...]` or `n`; None for `()` or `(*dims, ...)`."""
    if type(shape) is not cst.Tuple and type(shape) is not cst.List:
        return shape
    first = shape.elements[0] if shape.elements else None
    return None if first is None or type(first) is cst.StarredElement else first.value


def _unchanging(ctx: ModuleContext, stmt: Stmt, node: cst.BaseExpression) -> bool:
    """Integer literals, integer module constants and parameters the function never
    rebinds, with integer operators: the same value wherever it is evaluated."""
    if type(node) is cst.Integer:
        return True
    if type(node) is cst.BinaryOperation and isinstance(node.operator, ints.INT_OPS):
        return _unchanging(ctx, stmt, node.left) and _unchanging(ctx, stmt, node.right)
    if type(node) is not cst.Name:
        return False
    name, fn = node.value, ctx.graph.functions.get(stmt.scope)
    if fn is None or name not in fn.params:
        return ints.int_constant(ctx, stmt, name)
    written = any(name in s.defs | s.mutates for s in ctx.graph.scope_stmts(stmt.scope))
    return not written and not loops.function_reading(ctx, stmt.scope, name)


def _literal(node: cst.BaseExpression) -> int | None:
    return node.evaluated_value if type(node) is cst.Integer else None


def _keyword(arg: cst.Arg, name: str) -> bool:
    return arg.keyword is not None and arg.keyword.value == name


def _is_none(node: cst.BaseExpression) -> bool:
    return type(node) is cst.Name and node.value == "None"
