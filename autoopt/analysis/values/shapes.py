"""What is provable about an array expression without running it: its length along
axis 0, its rank and its dtype, as an `ArrayType` (`analysis/values/array_type.py`)
whose `rows` and `ndim` are set and `shape` is not.

Writing the rows a loop appends into a preallocated buffer needs all three: how
many rows each step writes, that the piece is a block of the buffer's rows, and
that `jnp.concatenate` would not have promoted the dtype. The proof is syntactic
and conservative: `jnp.zeros/ones/empty/full` with a literal shape, `x[None]`,
`jnp.expand_dims(x, 0)`, `reshape` with a literal leading size, `.astype(dtype)`,
arithmetic with Python scalars, and names bound once to such values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Stmt
from autoopt.analysis.overlays.jax import (
    COMPLEX_DTYPES,
    DTYPE_POSITIONS,
    FLOAT_DTYPES,
    SHAPED_CONSTRUCTORS,
)
from autoopt.analysis.overlays.jax import DTYPES as _DTYPES
from autoopt.analysis.values.array_type import DEFAULT_FLOAT, ArrayType
from autoopt.analysis.values.ints import builtin

_INEXACT = FLOAT_DTYPES | COMPLEX_DTYPES | {DEFAULT_FLOAT}
_CONSTRUCTORS = {name: DTYPE_POSITIONS[name] for name in SHAPED_CONSTRUCTORS}  # -> `dtype`
_SCALAR_OPS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide)
_DEPTH = 8


_UNKNOWN = ArrayType()


def array_facts(
    ctx: ModuleContext, at: Stmt, expr: cst.BaseExpression, depth: int = 0
) -> ArrayType:
    """What is proven about `expr`, evaluated at statement `at`."""
    if depth > _DEPTH:
        return _UNKNOWN
    rec = lambda e: array_facts(ctx, at, e, depth + 1)  # noqa: E731
    if type(expr) is cst.Name:
        return _name_facts(ctx, at, expr.value, depth)
    if type(expr) is cst.Subscript:
        return _new_axis(rec(expr.value), expr.slice)
    if type(expr) is cst.UnaryOperation and type(expr.operator) is cst.Minus:
        return rec(expr.expression)
    if type(expr) is cst.BinaryOperation:
        return _with_scalar(ctx, at, expr, rec)
    if type(expr) is cst.Call:
        return _call_facts(ctx, expr, rec)
    return _UNKNOWN


def dtype_name(ctx: ModuleContext, expr: cst.BaseExpression) -> str | None:
    """`jnp.float32`, `np.float32` or `"float32"` -> "float32"; None if not a known dtype."""
    if type(expr) is cst.SimpleString:
        name = expr.evaluated_value
    else:
        module, _, name = (ctx.qualify(expr) or "").rpartition(".")
        if module not in ("jax.numpy", "numpy"):
            return None
    name = "bool" if name == "bool_" else name
    return name if isinstance(name, str) and name in _DTYPES else None


def _name_facts(ctx: ModuleContext, at: Stmt, name: str, depth: int) -> ArrayType:
    """The facts of the one definition of `name` that reaches `at` on every path."""
    graph = ctx.graph
    reaching = graph.reaching_defs(at, name)
    if len(reaching) != 1 or not graph.dominates(reaching[0], at):
        return _UNKNOWN
    if any(name in fn.globals | fn.nonlocals for fn in graph.functions.values()):
        return _UNKNOWN
    value = assigned_value(reaching[0], name)
    return _UNKNOWN if value is None else array_facts(ctx, reaching[0], value, depth + 1)


def assigned_value(stmt: Stmt, name: str) -> cst.BaseExpression | None:
    """`value` when `stmt` is `name = value`."""
    node = stmt.node
    if (
        type(node) is cst.Assign
        and len(node.targets) == 1
        and type(node.targets[0].target) is cst.Name
        and node.targets[0].target.value == name
    ):
        return node.value
    return None


def _new_axis(base: ArrayType, index: Sequence[cst.SubscriptElement]) -> ArrayType:
    """`x[None]`, `x[None, :]`, `x[None, ...]`: one row, one more axis per `None`."""
    kinds = [_index_kind(e.slice) for e in index]
    if not kinds or kinds[0] != "new" or None in kinds:
        return _UNKNOWN
    ndim = None if base.ndim is None else base.ndim + kinds.count("new")
    return ArrayType(dtype=base.dtype, rows=1, ndim=ndim)


def _index_kind(element: cst.BaseSlice) -> str | None:
    """ "new" for `None`, "all" for `:` and `...`; None for an index that selects."""
    if type(element) is cst.Slice:
        bounds = (element.lower, element.upper, element.step)
        return "all" if all(b is None for b in bounds) else None
    value = element.value  # type: ignore[attr-defined]
    if type(value) is cst.Name and value.value == "None":
        return "new"
    return "all" if type(value) is cst.Ellipsis else None


def _with_scalar(
    ctx: ModuleContext, at: Stmt, expr: cst.BinaryOperation, rec: Callable[..., ArrayType]
) -> ArrayType:
    """An array combined with a Python scalar keeps its shape and (weak typing) its
    dtype: any non-bool dtype with an int, an inexact one with a float or `/`."""
    if not isinstance(expr.operator, _SCALAR_OPS):
        return _UNKNOWN
    for array, other in ((expr.left, expr.right), (expr.right, expr.left)):
        scalar = _python_scalar(ctx, at, other)
        if scalar is None:
            continue
        facts = rec(array)
        inexact = scalar == "float" or type(expr.operator) is cst.Divide
        keeps = facts.dtype in _INEXACT if inexact else facts.dtype not in (None, "bool")
        return facts if keeps else replace(facts, dtype=None)
    return _UNKNOWN


def _python_scalar(ctx: ModuleContext, at: Stmt, expr: cst.BaseExpression) -> str | None:
    """ "int" or "float" for a literal or a `range` loop variable (a Python int)."""
    if type(expr) is cst.UnaryOperation and type(expr.operator) is cst.Minus:
        return _python_scalar(ctx, at, expr.expression)
    if type(expr) is cst.Integer:
        return "int"
    if type(expr) is cst.Float:
        return "float"
    if type(expr) is cst.Name and _range_variable(ctx, at, expr.value):
        return "int"
    return None


def _range_variable(ctx: ModuleContext, at: Stmt, name: str) -> bool:
    """`name` is the target of a `for name in range(...)` around `at`, never rebound."""
    graph = ctx.graph
    for loop_id in at.loops:
        node = graph.loops[loop_id].node
        target = node.target if type(node) is cst.For else None
        if type(target) is cst.Name and target.value == name:
            return is_range(ctx, node.iter) and stable_in_loop(ctx, loop_id, name)  # type: ignore[union-attr]
    return False


def is_range(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """A call of the builtin `range`."""
    return type(expr) is cst.Call and is_builtin(ctx, expr.func, "range")


def is_builtin(ctx: ModuleContext, expr: cst.BaseExpression, name: str) -> bool:
    """`expr` is the bare name `name`, and that is Python's builtin."""
    return type(expr) is cst.Name and expr.value == name and builtin(ctx, name)


def stable_in_loop(ctx: ModuleContext, loop_id: int, name: str) -> bool:
    """Nothing in the loop body binds `name`, and no function rebinds it from outside."""
    graph = ctx.graph
    written = any(name in s.defs | s.mutates for s in graph.loop_stmts(loop_id))
    rebound = any(name in fn.globals | fn.nonlocals for fn in graph.functions.values())
    return not written and not rebound


def _call_facts(ctx: ModuleContext, call: cst.Call, rec: Callable[..., ArrayType]) -> ArrayType:
    qual = ctx.qualify(call.func) or ""
    module, _, name = qual.rpartition(".")
    args = _positional(call)
    if module == "jax.numpy" and name in _CONSTRUCTORS:
        return _constructor(ctx, call, args, _CONSTRUCTORS[name], name != "full")
    if qual == "jax.numpy.expand_dims" and len(args) == 2 and int_literal(args[1]) == 0:
        base = rec(args[0])
        ndim = None if base.ndim is None else base.ndim + 1
        return ArrayType(dtype=base.dtype, rows=1, ndim=ndim)
    if qual == "jax.numpy.reshape" and len(args) == 2:
        return _reshaped(rec(args[0]), args[1:])
    func = call.func
    if qual or type(func) is not cst.Attribute or len(args) != len(call.args):
        return _UNKNOWN
    base = rec(func.value)
    if base.dtype is None:  # not proven a JAX array: its methods could do anything
        return _UNKNOWN
    if func.attr.value == "reshape" and args:
        return _reshaped(base, args)
    if func.attr.value == "astype" and len(args) == 1:
        return replace(base, dtype=dtype_name(ctx, args[0]))
    return _UNKNOWN


def _positional(call: cst.Call) -> list[cst.BaseExpression]:
    """The positional arguments, `axis=`/`shape=`/`dtype=` keywords put in place."""
    values = [a.value for a in call.args if a.keyword is None and not a.star]
    return values + [a.value for a in call.args if a.keyword and a.keyword.value == "axis"]


def _constructor(
    ctx: ModuleContext,
    call: cst.Call,
    args: list[cst.BaseExpression],
    dtype_at: int,
    float_default: bool,
) -> ArrayType:
    """`jnp.zeros((k, w), dtype)` and friends: k rows, rank 2, `dtype`."""
    if any(a.star or (a.keyword and a.keyword.value not in ("shape", "dtype")) for a in call.args):
        return _UNKNOWN
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword}
    shape = keywords.get("shape", args[0] if args else None)
    dims = _dims(shape) if shape is not None else None
    if dims is None:
        return _UNKNOWN
    dtype = keywords.get("dtype", args[dtype_at] if len(args) > dtype_at else None)
    default = DEFAULT_FLOAT if float_default else None
    name = default if dtype is None else dtype_name(ctx, dtype)
    return ArrayType(dtype=name, rows=int_literal(dims[0]) if dims else None, ndim=len(dims))


def _reshaped(base: ArrayType, shape: Sequence[cst.BaseExpression]) -> ArrayType:
    """`x.reshape(k, w)`, `x.reshape((k, w))`, `jnp.reshape(x, (k, w))`."""
    dims = _dims(shape[0]) if len(shape) == 1 else list(shape)
    if dims is None:
        return _UNKNOWN
    rows = int_literal(dims[0]) if dims else None
    rows = rows if rows is not None and rows >= 0 else None
    return ArrayType(dtype=base.dtype, rows=rows, ndim=len(dims))


def _dims(shape: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    """The elements of a literal shape: `(k, w)`, `[k, w]`, or one integer."""
    if type(shape) is cst.Integer:
        return [shape]
    if type(shape) is not cst.Tuple and type(shape) is not cst.List:
        return None
    if any(type(e) is cst.StarredElement for e in shape.elements):
        return None
    return [e.value for e in shape.elements]


def int_literal(expr: cst.BaseExpression) -> int | None:
    """The value of a (possibly negated) integer literal, else None."""
    if type(expr) is cst.UnaryOperation and type(expr.operator) is cst.Minus:
        value = int_literal(expr.expression)
        return None if value is None else -value
    return int(expr.value, 0) if type(expr) is cst.Integer else None
