"""The exact shape and dtype of loop-carried values, computed rather than related.

`analysis/plans/carry.py` proves that a carry keeps its type by relating the value the loop
rebinds to the carry itself. That cannot see through a matrix product, a reduction
broadcast back, another carried value or a field of a NamedTuple: whether `mixing @
state.infectious` keeps the infectious field's type depends on what `mixing` is. This
module computes types instead: the type each carried name has when the loop starts,
from its definitions before the loop, and the type one iteration gives it, assuming
that every carried name starts the iteration with its type at the loop's start. Where
the two are equal for every carried name, induction proves that each keeps its type in
every iteration.

The types are computed only from what the code spells out: JAX and NumPy constructors
with literal or module-constant shapes (`jnp.zeros(N)`, `np.eye(N)`), the draws of a
NumPy Generator with a `size`, conversions (`jnp.asarray(x, jnp.float32)`),
`astype`, `reshape`, elementwise arithmetic with broadcasting, matrix products,
reductions with `axis` and `keepdims`, indexing with `None`, `:` and integers, `.at[]`
updates, elementwise library functions of floating arrays, pytree classes
(`typing.NamedTuple`, `flax.struct.dataclass`, fields through construction,
`_replace` and attribute reads), module functions of straight-line code, and the
host code that builds arrays: Python numbers folded as Python computes them
(`round(N ** (1 / 3))`, only away from a half), `np.arange`, `np.meshgrid`, `np.stack`.
A NumPy array has a type only where nothing can resize it (item assignments only, no
alias, no unseen code it is handed to). Anything else has no type, and nothing is
proven from it.

An array's type is the shared `ArrayType` (`analysis/values/array_type.py`), with its
full shape. Dtypes are named as JAX gives them in every configuration: `DEFAULT_FLOAT`
is JAX's default float (float32, float64 under `JAX_ENABLE_X64`), and so is a float64
array once it reaches JAX; `DEFAULT_INT` likewise. A float32 array combined with a
default-float one is a default-float array: float64 under x64, where a loop would
promote a float32 carry in its first iteration (and `lax.scan` raise), so such a
carry is never proven to keep its dtype.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.execution import is_jit
from autoopt.analysis.core.graph import MODULE, Function, Stmt
from autoopt.analysis.overlays.jax import ALWAYS_INEXACT as _ALWAYS_INEXACT
from autoopt.analysis.overlays.jax import AT_METHODS as _AT_METHODS
from autoopt.analysis.overlays.jax import BINARY as _BINARY
from autoopt.analysis.overlays.jax import ELEMENTWISE as _ELEMENTWISE
from autoopt.analysis.overlays.jax import FLOAT_DTYPES
from autoopt.analysis.overlays.jax import REDUCTIONS as _REDUCTIONS
from autoopt.analysis.overlays.numpy import MAY_RETURN_ITSELF as _MAY_RETURN_ITSELF
from autoopt.analysis.overlays.numpy import NARROW_FLOATS as _NARROW
from autoopt.analysis.overlays.numpy import READING_METHODS as _READING_METHODS
from autoopt.analysis.overlays.numpy import RNG_DTYPE as _RNG_DTYPE
from autoopt.analysis.overlays.numpy import RNG_SIZE as _RNG_SIZE
from autoopt.analysis.values.array_type import DEFAULT_FLOAT, DEFAULT_INT, ArrayType
from autoopt.analysis.values.fields import PytreeClass, field_arguments, pytree_classes
from autoopt.analysis.values.ints import builtin, module_constant, shadowed
from autoopt.analysis.values.lattice import Kind, Value
from autoopt.analysis.values.shapes import dtype_name

_DEPTH = 24  # helpers and definitions followed at once
_MAX_ITEMS = 64  # items of a repeated list literal followed
_MAX_FOLDED = 1024  # base and exponent of a power computed


@dataclass(frozen=True)
class PythonNumber:
    """A Python number (weakly typed in JAX); `value` for a known int, `number` for a
    known float (folded as Python computes it, from literals and module constants)."""

    value: int | None = None
    is_float: bool = False
    number: float | None = None


@dataclass(frozen=True)
class ListType:
    """A list literal, or one repeated (`[x] * 3`), of known length."""

    items: tuple[Type, ...]


@dataclass(frozen=True)
class PytreeInstance:
    """An instance of a module pytree class, with the type of each field."""

    cls: str
    fields: tuple[tuple[str, Type], ...]


@dataclass(frozen=True)
class TupleType:
    """A tuple of known length."""

    items: tuple[Type, ...]


@dataclass(frozen=True)
class ShapeTuple:
    """The shape of an array of known shape (`x.shape`)."""

    dims: tuple[int, ...]


@dataclass(frozen=True)
class NumpyGenerator:
    """A NumPy Generator (`np.random.default_rng(...)`)."""


#: An array here always has its full `shape` (and `rows`, `ndim` None).
Type = (
    ArrayType
    | PythonNumber
    | PytreeInstance
    | TupleType
    | ListType
    | ShapeTuple
    | NumpyGenerator
    | None
)

_FLOATS = FLOAT_DTYPES | {DEFAULT_FLOAT}
_ARITHMETIC = (
    cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.Power, cst.Modulo, cst.FloorDivide,
)  # fmt: skip


def carry_types(
    ctx: ModuleContext, body: list[Stmt], carry: tuple[str, ...], iterate: bool = True
) -> CarryTypes:
    """`CarryTypes(ctx, body, carry, iterate)`, once per module: AO103 asks about the same
    loop's carry for its proof, its guard and its messages."""
    return ctx.per_module(_carry_types, tuple(s.id for s in body), carry, iterate)


def _carry_types(
    ctx: ModuleContext, ids: tuple[int, ...], carry: tuple[str, ...], iterate: bool
) -> CarryTypes:
    return CarryTypes(ctx, [ctx.graph.stmts[i] for i in ids], carry, iterate)


class CarryTypes:
    """The types of one loop's carried names when the loop starts and after one iteration."""

    def __init__(
        self, ctx: ModuleContext, body: list[Stmt], carry: tuple[str, ...], iterate: bool = True
    ) -> None:
        self.ctx = ctx
        self.inside = {s.id for s in body}
        self.carry = carry
        self.depth = 0
        self._defined: dict[tuple[int, str], Type] = {}  # definitions outside any helper
        self.entry = {name: self._entry(body, name) for name in carry}
        self.after = self._iteration(body) if iterate else None

    def proven(self, name: str) -> bool:
        """One iteration gives `name` the type it starts with, a fully known one."""
        entry = self.entry.get(name)
        return _complete(entry) and self.after is not None and self.after.get(name) == entry

    def change(self, name: str) -> str | None:
        """Where one iteration provably gives (a field of) `name` another known type."""
        if self.after is None:
            return None
        for path, before, after in _leaves(name, self.entry.get(name), self.after.get(name)):
            if (
                not (isinstance(before, ArrayType) and isinstance(after, ArrayType))
                or before == after
            ):
                continue
            if before.dtype is not None and after.dtype is not None:
                x64 = _X64 if DEFAULT_FLOAT in (before.dtype, after.dtype) else ""
                return (
                    f"`{path}` is {before.describe()} when the loop starts and one "
                    f"iteration makes it {after.describe()}{x64}"
                )
        return None

    def changes_in_both_modes(self, name: str) -> bool:
        """One iteration provably gives (a field of) `name` another type with x64 off and
        on alike: another shape, or dtypes that differ in both (not float32 against the
        default float, which only x64 tells apart)."""
        if self.after is None:
            return False
        for _, before, after in _leaves(name, self.entry.get(name), self.after.get(name)):
            if not (isinstance(before, ArrayType) and isinstance(after, ArrayType)):
                continue
            if before.shape != after.shape:
                return True
            if before.dtype is not None and after.dtype is not None:
                modes = [
                    (_in_mode(before.dtype, x64), _in_mode(after.dtype, x64))
                    for x64 in (False, True)
                ]
                if all(b != a for b, a in modes):
                    return True
        return False

    # -- the loop --------------------------------------------------------------------
    def _entry(self, body: list[Stmt], name: str) -> Type:
        defs = entry_defs(self.ctx, body, name)
        if not defs or _rebound_elsewhere(self.ctx, name):
            return None
        graph = self.ctx.graph
        first = min(body, key=lambda s: s.id)
        fn = graph.functions.get(first.scope)
        if fn is not None and name in fn.params:
            loop = [i for i in first.loops if all(i in s.loops for s in body)][-1]
            header = graph.stmts[graph.loops[loop].header]
            if not any(graph.dominates(d, header) for d in defs):
                return None  # the argument on a path that binds nothing before the loop
        return _join([self.defined(d, name) for d in defs])

    def _iteration(self, body: list[Stmt]) -> dict[str, Type] | None:
        """The carried names' types after one run of a straight-line body."""
        env: dict[str, Type] = dict(self.entry)
        for stmt in sorted(body, key=lambda s: s.id):
            node = stmt.node
            if type(node) is cst.For and stmt.id == min(self.inside):
                continue  # the loop's own header
            if type(node) is cst.Expr:
                continue  # `xs.append(value)`: binds nothing
            if (
                type(node) is not cst.Assign
                and type(node) is not cst.AugAssign
                and type(node) is not cst.AnnAssign
            ):
                return None
            if not self._bind(stmt, node, env):
                return None
        return env

    def _bind(
        self, stmt: Stmt, node: cst.Assign | cst.AugAssign | cst.AnnAssign, env: dict[str, Type]
    ) -> bool:
        if type(node) is cst.AugAssign:
            if type(node.target) is not cst.Name:
                return False
            binary = cst.BinaryOperation(node.target, _plain(node.operator), node.value)
            env[node.target.value] = self.expr(stmt, binary, env)
            return True
        value = node.value
        targets = _assign_targets(node)
        if value is None or len(targets) != 1:
            return False
        target = targets[0]
        if type(target) is cst.Name:
            env[target.value] = self.expr(stmt, value, env)
            return True
        if type(target) is not cst.Tuple and type(target) is not cst.List:
            return False
        names = [e.value.value for e in target.elements if type(e.value) is cst.Name]
        if len(names) < len(target.elements) or any(
            type(e) is cst.StarredElement for e in target.elements
        ):
            return False
        whole = self.expr(stmt, value, env)
        items = (
            whole.items if isinstance(whole, TupleType) and len(whole.items) == len(names) else None
        )
        for i, name in enumerate(names):
            env[name] = items[i] if items is not None else None
        return True

    # -- names -----------------------------------------------------------------------
    def name(self, stmt: Stmt, name: str, env: dict[str, Type] | None) -> Type:
        if env is not None and name in env:
            return env[name]
        graph = self.ctx.graph
        defs = graph.reaching_defs(stmt, name)
        if not defs:
            return self._free(stmt, name, env)
        if any(d.id in self.inside for d in defs):
            return None  # bound in the loop and read before: not a carry we know
        fn = graph.functions.get(stmt.scope)
        if _rebound_elsewhere(self.ctx, name):
            return None  # a function may rebind it with `global` or `nonlocal`
        if fn is not None and name in fn.params and not any(graph.dominates(d, stmt) for d in defs):
            return None  # the argument on a path that binds nothing
        found = _join([self.defined(d, name) for d in defs])
        if isinstance(found, ArrayType) and found.host:
            return found if all(self._host_kept(d, name) for d in defs) else None
        return None if _holds_host(found) else found  # a NumPy array reachable another way

    def _free(self, stmt: Stmt, name: str, env: dict[str, Type] | None) -> Type:
        """A parameter of the loop's function, or a module constant."""
        if stmt.scope != MODULE and shadowed(self.ctx, stmt.scope, name):
            return None
        literal = module_constant(self.ctx, name)
        if type(literal) is cst.Integer:
            return PythonNumber(int(literal.evaluated_value))
        if type(literal) is cst.Float:
            return PythonNumber(is_float=True, number=float(literal.evaluated_value))
        return _scalar_constant(self.ctx, name)

    def defined(self, stmt: Stmt, name: str) -> Type:
        """The type `stmt` binds to `name`."""
        key = (stmt.id, name)
        if key not in self._defined:
            self._defined[key] = None  # a definition that reaches itself: no type
            self._defined[key] = self._compute_defined(stmt, name)
        return self._defined[key]

    def _compute_defined(self, stmt: Stmt, name: str) -> Type:
        node = stmt.node
        if type(node) is cst.AugAssign and type(node.target) is cst.Name:
            before = cst.BinaryOperation(node.target, _plain(node.operator), node.value)
            return self.expr(stmt, before, None)
        if (type(node) is not cst.Assign and type(node) is not cst.AnnAssign) or node.value is None:
            return None
        targets = _assign_targets(node)
        if len(targets) != 1:
            return None
        target = targets[0]
        if type(target) is cst.Name:
            return self.expr(stmt, node.value, None) if target.value == name else None
        if type(target) is not cst.Tuple and type(target) is not cst.List:
            return None
        names = [e.value.value if type(e.value) is cst.Name else None for e in target.elements]
        if name not in names or any(type(e) is cst.StarredElement for e in target.elements):
            return None
        index = names.index(name)
        value = node.value
        if type(value) is cst.Tuple and len(value.elements) == len(names):
            return self.expr(stmt, value.elements[index].value, None)
        whole = self.expr(stmt, value, None)
        return (
            whole.items[index]
            if isinstance(whole, TupleType) and len(whole.items) == len(names)
            else None
        )

    def _host_kept(self, definition: Stmt, name: str) -> bool:
        """The NumPy array `definition` binds keeps its shape and dtype: the statements
        it reaches change it only by item assignments, never alias it nor hand it to code
        that could resize it, and no nested function reads the name."""
        graph = self.ctx.graph
        nested = definition.scope + "."
        for stmt in graph.stmts:
            if name not in stmt.uses | stmt.mutates:
                continue
            if stmt.scope != definition.scope and (
                definition.scope == MODULE or stmt.scope.startswith(nested)
            ):
                return False  # another function may reach it
            if stmt.scope != definition.scope or definition not in graph.reaching_defs(stmt, name):
                continue
            if name in stmt.mutates and not _item_assignment(stmt.node, name):
                return False
            if _escapes(self.ctx, stmt.node, name):
                return False
        return True

    # -- expressions -----------------------------------------------------------------
    def expr(self, stmt: Stmt, expr: cst.BaseExpression, env: dict[str, Type] | None) -> Type:
        if self.depth > _DEPTH:
            return None
        self.depth += 1
        try:
            return self._expr(stmt, expr, env)
        finally:
            self.depth -= 1

    def _expr(self, stmt: Stmt, expr: cst.BaseExpression, env: dict[str, Type] | None) -> Type:
        rec = lambda e: self.expr(stmt, e, env)  # noqa: E731
        if type(expr) is cst.Integer:
            return PythonNumber(int(expr.evaluated_value))
        if type(expr) is cst.Float:
            return PythonNumber(is_float=True, number=float(expr.evaluated_value))
        if type(expr) is cst.Name:
            return self.name(stmt, expr.value, env)
        if type(expr) is cst.UnaryOperation and type(expr.operator) in (cst.Minus, cst.Plus):
            inner = rec(expr.expression)
            if isinstance(inner, PythonNumber) and type(expr.operator) is cst.Minus:
                number = None if inner.number is None else -inner.number
                return PythonNumber(
                    None if inner.value is None else -inner.value, inner.is_float, number
                )
            return inner if isinstance(inner, ArrayType | PythonNumber) else None
        if type(expr) is cst.BinaryOperation:
            left, right = rec(expr.left), rec(expr.right)
            if type(expr.operator) is cst.MatrixMultiply:
                return _matmul(left, right)
            if type(expr.operator) is cst.Multiply and isinstance(left, ListType):
                times = right.value if isinstance(right, PythonNumber) else None
                if times is None or not 0 <= times <= _MAX_ITEMS:
                    return None
                return ListType(left.items * times)
            if isinstance(expr.operator, _ARITHMETIC):
                return _arithmetic(left, right, expr.operator)
            return None
        if type(expr) is cst.Comparison:
            sides = [rec(expr.left), *(rec(t.comparator) for t in expr.comparisons)]
            if len(sides) != 2 or not all(isinstance(s, ArrayType | PythonNumber) for s in sides):
                return None
            if type(expr.comparisons[0].operator) in (cst.Is, cst.IsNot, cst.In, cst.NotIn):
                return None
            made = _arithmetic(sides[0], sides[1], cst.Add())
            return ArrayType(made.shape, "bool", made.host) if isinstance(made, ArrayType) else None
        if type(expr) is cst.Tuple or type(expr) is cst.List:
            if any(type(e) is cst.StarredElement for e in expr.elements):
                return None
            items = tuple(rec(e.value) for e in expr.elements)
            return TupleType(items) if type(expr) is cst.Tuple else ListType(items)
        if type(expr) is cst.Attribute:
            return self._attribute(rec(expr.value), expr.attr.value)
        if type(expr) is cst.Subscript:
            return self._subscript(stmt, rec(expr.value), expr, env)
        if type(expr) is cst.Call:
            return self._call(stmt, expr, env)
        return None

    def _attribute(self, base: Type, attr: str) -> Type:
        if isinstance(base, PytreeInstance):
            return dict(base.fields).get(attr)
        if isinstance(base, ArrayType):
            shape = base.shape
            if shape is None:
                return None  # never: a carry's arrays have their whole shape
            if attr == "shape":
                return ShapeTuple(shape)
            if attr == "T":
                return ArrayType(shape[::-1], base.dtype, base.host)
            if attr in ("ndim", "size"):
                return PythonNumber(len(shape) if attr == "ndim" else math.prod(shape))
        return None

    def _subscript(
        self, stmt: Stmt, base: Type, expr: cst.Subscript, env: dict[str, Type] | None
    ) -> Type:
        if isinstance(base, ShapeTuple):
            (only,) = expr.slice if len(expr.slice) == 1 else (None,)
            inner = only.slice if only is not None else None
            at = self.expr(stmt, inner.value, env) if type(inner) is cst.Index else None
            if (
                isinstance(at, PythonNumber)
                and at.value is not None
                and -len(base.dims) <= at.value < len(base.dims)
            ):
                return PythonNumber(base.dims[at.value])
            return None
        if not isinstance(base, ArrayType) or base.shape is None:
            return None
        shape = list(base.shape)
        out: list[int] = []
        axis = 0
        elements = [e.slice for e in expr.slice]
        ellipses = sum(type(e) is cst.Index and type(e.value) is cst.Ellipsis for e in elements)
        if ellipses > 1:
            return None
        consumed = sum(
            not (type(e) is cst.Index and (_is_none(e.value) or type(e.value) is cst.Ellipsis))
            for e in elements
        )
        if consumed > len(shape):
            return None
        for element in elements:
            if type(element) is cst.Slice:
                if any(b is not None for b in (element.lower, element.upper, element.step)):
                    return None
                out.append(shape[axis])
                axis += 1
            elif type(element) is not cst.Index:
                return None  # never: a subscript's element is an index or a slice
            elif _is_none(element.value):
                out.append(1)
            elif type(element.value) is cst.Ellipsis:
                skip = len(shape) - consumed
                out += shape[axis : axis + skip]
                axis += skip
            else:
                index = self.expr(stmt, element.value, env)
                integer = isinstance(index, PythonNumber) and not index.is_float
                scalar_int = (
                    isinstance(index, ArrayType)
                    and index.shape == ()
                    and (index.dtype or "").startswith(("int", "uint"))
                )
                if not (integer or scalar_int):
                    return None
                axis += 1
        return ArrayType((*out, *shape[axis:]), base.dtype, base.host)

    # -- calls -----------------------------------------------------------------------
    def _call(self, stmt: Stmt, call: cst.Call, env: dict[str, Type] | None) -> Type:
        if self.ctx.qualify(call.func) == "numpy.meshgrid":
            return self._meshgrid(stmt, call, env)
        if any(a.star for a in call.args):
            return None
        args = [self.expr(stmt, a.value, env) for a in call.args if a.keyword is None]
        kwargs = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        func = call.func
        qual = self.ctx.qualify(func)
        if qual is not None:
            return self._library(stmt, qual, call, args, kwargs, env)
        if type(func) is cst.Attribute:
            at = _at_update(func)
            if at is not None:
                base = self.expr(stmt, at, env)
                return base if isinstance(base, ArrayType) and not base.host else None
            base = self.expr(stmt, func.value, env)
            return self._method(stmt, base, func.attr.value, call, args, kwargs, env)
        if type(func) is cst.Name:
            cls = pytree_classes(self.ctx).get(func.value)
            if cls is not None and not self.ctx.graph.reaching_defs(stmt, func.value):
                return self._instance(stmt, cls, call, None, env)
            fn = self.ctx.graph.resolve_function(func.value, stmt.scope)
            if fn is not None and self._only_binding(stmt, fn):
                return self._function(stmt, fn, call, env)
            if func.value == "round" and builtin(self.ctx, "round") and len(args) == 1:
                return _rounded(args[0]) if not kwargs else None
        return None

    def _meshgrid(self, stmt: Stmt, call: cst.Call, env: dict[str, Type] | None) -> Type:
        """`np.meshgrid(*[np.arange(n)] * 3, indexing="ij")` of 1-d arrays."""
        grids: list[Type] = []
        indexing = "xy"
        for arg in call.args:
            if arg.keyword is not None:
                value = arg.value
                if arg.keyword.value != "indexing" or type(value) is not cst.SimpleString:
                    return None
                indexing = str(value.evaluated_value)
            elif arg.star == "*":
                unpacked = self.expr(stmt, arg.value, env)
                if not isinstance(unpacked, ListType | TupleType):
                    return None
                grids += unpacked.items
            elif not arg.star:
                grids.append(self.expr(stmt, arg.value, env))
            else:
                return None
        if indexing not in ("xy", "ij") or not grids:
            return None
        arrays = [g for g in grids if isinstance(g, ArrayType) and g.host]
        shape = [g.shape[0] for g in arrays if g.shape is not None and len(g.shape) == 1]
        if len(shape) < len(grids):
            return None
        if indexing == "xy" and len(shape) > 1:
            shape[0], shape[1] = shape[1], shape[0]
        return ListType(tuple(ArrayType(tuple(shape), g.dtype, True) for g in arrays))

    def _only_binding(self, stmt: Stmt, fn: Function) -> bool:
        """Nothing but the `def` binds the function's name where `stmt` calls it."""
        graph = self.ctx.graph
        name = fn.node.name.value
        if any(d.id != fn.header for d in graph.reaching_defs(stmt, name)):
            return False
        binders = [s for s in graph.scope_stmts(fn.scope) if name in s.defs | s.mutates]
        rebound = any(name in f.globals | f.nonlocals for f in graph.functions.values())
        return [s.id for s in binders] == [fn.header] and not rebound

    def _instance(
        self,
        stmt: Stmt,
        cls: PytreeClass,
        call: cst.Call,
        copied: PytreeInstance | None,
        env: dict[str, Type] | None,
    ) -> Type:
        given = field_arguments(cls, call)
        if given is None or (copied is None and set(given) != set(cls.fields)):
            return None
        old = dict(copied.fields) if copied is not None else {}
        fields = tuple(
            (f, self.expr(stmt, given[f], env) if f in given else old.get(f)) for f in cls.fields
        )
        return PytreeInstance(cls.name, fields)

    def _function(
        self, stmt: Stmt, fn: Function, call: cst.Call, env: dict[str, Type] | None
    ) -> Type:
        """A module function of straight-line code, run on the arguments' types."""
        node = fn.node
        if any(not is_jit(self.ctx, d.decorator) for d in node.decorators) or fn.is_method:
            return None
        params = node.params
        if type(params.star_arg) is cst.Param or params.kwonly_params:
            return None
        if params.star_kwarg or params.posonly_params:
            return None
        names = [p.name.value for p in params.params]
        local: dict[str, Type] = {}
        positional = [a for a in call.args if a.keyword is None]
        if len(positional) > len(names):
            return None
        for name, arg in zip(names, positional, strict=False):
            local[name] = self.expr(stmt, arg.value, env)
        for arg in call.args:
            if arg.keyword is not None:
                if arg.keyword.value not in names or arg.keyword.value in local:
                    return None
                local[arg.keyword.value] = self.expr(stmt, arg.value, env)
        for param in params.params:
            if param.name.value not in local:
                if param.default is None:
                    return None
                local[param.name.value] = self.expr(
                    self.ctx.graph.stmts[fn.header], param.default, None
                )
        result = self._run(fn, local)
        if node.decorators and not _all_arrays(result):
            return None  # a compiled function returns arrays, not Python numbers
        return result

    def _run(self, fn: Function, env: dict[str, Type]) -> Type:
        stmts = self.ctx.graph.scope_stmts(fn.qualname)
        for stmt in stmts:
            node = stmt.node
            if stmt.loops or stmt.block != stmts[0].block:
                return None  # not straight-line code
            if type(node) is cst.Return:
                return self.expr(stmt, node.value, env) if node.value is not None else None
            if type(node) is cst.Expr and type(node.value) in (
                cst.SimpleString,
                cst.ConcatenatedString,
            ):
                continue  # the docstring
            if (
                type(node) is not cst.Assign
                and type(node) is not cst.AugAssign
                and type(node) is not cst.AnnAssign
            ):
                return None
            if not self._bind(stmt, node, env):
                return None
        return None

    def _library(
        self,
        stmt: Stmt,
        qual: str,
        call: cst.Call,
        args: list[Type],
        kwargs: dict[str, cst.BaseExpression],
        env: dict[str, Type] | None,
    ) -> Type:
        module, _, last = qual.rpartition(".")
        host = module == "numpy"
        if qual == "numpy.random.default_rng":
            return NumpyGenerator()
        if module not in ("jax.numpy", "numpy", "jax.nn"):
            return None
        dtype_arg = kwargs.get("dtype")
        if last in ("zeros", "ones", "empty") and module != "jax.nn":
            if len(args) > 2 or set(kwargs) - {"dtype", "shape"}:
                return None
            shape_expr = kwargs.get("shape") or (call.args[0].value if call.args else None)
            shape = self._shape(stmt, shape_expr, env) if shape_expr is not None else None
            written = call.args[1].value if len(args) == 2 else dtype_arg
            return self._made(shape, written, host)
        if last == "eye" and module != "jax.nn":
            if len(args) != 1 or set(kwargs) - {"dtype"}:
                return None
            size = args[0]
            if not (isinstance(size, PythonNumber) and size.value is not None and size.value >= 0):
                return None
            return self._made((size.value, size.value), dtype_arg, host)
        if last in ("asarray", "array") and module != "jax.nn":
            if not args or len(args) > 2 or set(kwargs) - {"dtype"}:
                return None
            source = args[0]
            written = call.args[1].value if len(args) == 2 else dtype_arg
            if not isinstance(source, ArrayType):
                return None
            if written is not None:
                dtype = dtype_name(self.ctx, written)
                return (
                    ArrayType(source.shape, _on_device(dtype) if not host else dtype, host)
                    if dtype
                    else None
                )
            if host:
                return source if source.host else None
            return ArrayType(
                source.shape, _from_host(source.dtype) if source.host else source.dtype
            )
        if last in ("zeros_like", "ones_like", "empty_like") and len(args) == 1 and not kwargs:
            source = args[0]
            return (
                ArrayType(source.shape, source.dtype if host == source.host else None, host)
                if isinstance(source, ArrayType)
                else None
            )
        if last == "arange" and host and len(args) == 1 and not kwargs:
            stop = args[0]
            if isinstance(stop, PythonNumber) and stop.value is not None and not stop.is_float:
                return ArrayType((max(stop.value, 0),), DEFAULT_INT, True)
            return None
        if last == "stack" and 1 <= len(args) <= 2 and set(kwargs) <= {"axis"}:
            axis = args[1] if len(args) == 2 else self._axis(stmt, kwargs, env)
            return _stacked(args[0], axis, host)
        if (
            last in _ELEMENTWISE
            and host
            and args
            and isinstance(args[0], PythonNumber)
            and not kwargs
        ):
            floats = all(isinstance(a, PythonNumber) and _floating_input(a, last) for a in args)
            return ArrayType((), "float64", True) if floats else None  # a NumPy float64 scalar
        if last in _ELEMENTWISE and args and not kwargs:
            first = args[0]
            floating = (
                isinstance(first, ArrayType) and first.host == host and first.dtype in _FLOATS
            )
            scalars = args[1:]
            if floating and all(isinstance(a, PythonNumber) for a in scalars):
                return first if _scalars_keep(first, scalars) else None  # type: ignore[arg-type]
            return None
        if last in _BINARY and len(args) == 2 and not kwargs:
            made = _arithmetic(args[0], args[1], cst.Divide() if last == "divide" else cst.Add())
            return made if isinstance(made, ArrayType) and made.host == host else None
        if last in _REDUCTIONS and len(args) == 1:
            return _reduced(self, stmt, args[0], kwargs, env, host)
        if last in ("matmul", "dot") and len(args) == 2 and not kwargs:
            made = _matmul(args[0], args[1])
            return made if isinstance(made, ArrayType) and made.host == host else None
        return None

    def _axis(
        self, stmt: Stmt, kwargs: dict[str, cst.BaseExpression], env: dict[str, Type] | None
    ) -> Type:
        return self.expr(stmt, kwargs["axis"], env) if "axis" in kwargs else PythonNumber(0)

    def _made(
        self, shape: tuple[int, ...] | None, written: cst.BaseExpression | None, host: bool
    ) -> Type:
        if shape is None:
            return None
        if written is None:
            return ArrayType(shape, "float64" if host else DEFAULT_FLOAT, host)
        dtype = dtype_name(self.ctx, written)
        if dtype is None:
            return None
        return ArrayType(shape, dtype if host else _on_device(dtype), host)

    def _method(
        self,
        stmt: Stmt,
        base: Type,
        method: str,
        call: cst.Call,
        args: list[Type],
        kwargs: dict[str, cst.BaseExpression],
        env: dict[str, Type] | None,
    ) -> Type:
        if isinstance(base, NumpyGenerator):
            return self._draw(stmt, method, call, env)
        if isinstance(base, PytreeInstance):
            cls = pytree_classes(self.ctx).get(base.cls)
            if cls is not None and method == cls.replace and not args:
                return self._instance(stmt, cls, call, base, env)
            return None
        if not isinstance(base, ArrayType):
            return None
        if method == "astype" and len(call.args) == 1 and call.args[0].keyword is None:
            dtype = dtype_name(self.ctx, call.args[0].value)
            if dtype is None:
                return None
            return ArrayType(base.shape, dtype if base.host else _on_device(dtype), base.host)
        if method == "reshape" and call.args and not kwargs:
            dims = self._shape(stmt, call.args[0].value, env) if len(call.args) == 1 else None
            if len(call.args) > 1:
                values = [a for a in args]
                dims = tuple(
                    v.value for v in values if isinstance(v, PythonNumber) and v.value is not None
                )
                if len(dims) != len(values):
                    return None
            return _reshaped(base, dims)
        if method in _REDUCTIONS and not args:
            return _reduced(self, stmt, base, kwargs, env, base.host)
        if method == "clip" and all(isinstance(a, PythonNumber) for a in args) and not kwargs:
            floating = base.dtype in _FLOATS and _scalars_keep(base, args)  # type: ignore[arg-type]
            return base if floating else None
        if method == "copy" and not call.args:
            return base
        return None

    def _draw(self, stmt: Stmt, method: str, call: cst.Call, env: dict[str, Type] | None) -> Type:
        """`rng.normal(size=(n, 3))`, `rng.integers(lo, hi, size=n)`: scalar parameters."""
        if method not in _RNG_SIZE:
            return None
        at = _RNG_SIZE[method]
        positional = [a.value for a in call.args if a.keyword is None]
        keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        size = keywords.pop("size", positional[at] if len(positional) > at else None)
        rest = positional[:at] + [v for k, v in keywords.items() if k != "dtype"]
        if size is None or len(positional) > at + 1 or "dtype" in keywords:
            return None
        for param in rest:
            given = self.expr(stmt, param, env)
            if not (
                isinstance(given, PythonNumber)
                or (isinstance(given, ArrayType) and given.shape == ())
            ):
                return None  # an array parameter broadcasts with the size
        shape = self._shape(stmt, size, env)
        return ArrayType(shape, _RNG_DTYPE[method], True) if shape is not None else None

    def _shape(
        self, stmt: Stmt, expr: cst.BaseExpression, env: dict[str, Type] | None
    ) -> tuple[int, ...] | None:
        if type(expr) is cst.Tuple or type(expr) is cst.List:
            if any(type(e) is cst.StarredElement for e in expr.elements):
                return None
            dims = [self.expr(stmt, e.value, env) for e in expr.elements]
            if all(
                isinstance(d, PythonNumber) and d.value is not None and d.value >= 0 for d in dims
            ):
                return tuple(d.value for d in dims)  # type: ignore[union-attr,misc]
            return None
        found = self.expr(stmt, expr, env)
        if isinstance(found, ShapeTuple):
            return found.dims
        if isinstance(found, PythonNumber) and found.value is not None and found.value >= 0:
            return (found.value,)
        return None


_X64 = " (float64 under JAX_ENABLE_X64, so a Python loop promotes it and `lax.scan` raises)"


def refined(value: Value, computed: Type) -> Value:
    """A value model's array or pytree `value` with the shape and dtype computed for it:
    a pytree class instance gets the dtype all its leaves have."""
    if value.kind is Kind.ARRAY and _complete(computed):
        return Value(Kind.ARRAY, value.constant, value.detail, computed)  # type: ignore[arg-type]
    if value.kind is Kind.PYTREE and isinstance(computed, PytreeInstance) and _complete(computed):
        dtypes = {f.dtype for _, f in computed.fields if isinstance(f, ArrayType)}
        if len(dtypes) == 1 and all(isinstance(f, ArrayType) for _, f in computed.fields):
            leaves = ArrayType(dtype=dtypes.pop())
            return Value(Kind.PYTREE, value.constant, value.detail, leaves)
    return value


def _leaves(path: str, before: Type, after: Type) -> list[tuple[str, Type, Type]]:
    if (
        isinstance(before, PytreeInstance)
        and isinstance(after, PytreeInstance)
        and before.cls == after.cls
    ):
        out = []
        for (field, b), (_, a) in zip(before.fields, after.fields, strict=True):
            out += _leaves(f"{path}.{field}", b, a)
        return out
    return [(path, before, after)]


def _rebound_elsewhere(ctx: ModuleContext, name: str) -> bool:
    """Some function declares `name` `global` or `nonlocal`, and may rebind it."""
    return any(name in f.globals | f.nonlocals for f in ctx.graph.functions.values())


def _holds_host(t: Type) -> bool:
    """A NumPy array, or a container or pytree holding one."""
    if isinstance(t, ArrayType):
        return t.host
    if isinstance(t, TupleType | ListType):
        return any(_holds_host(i) for i in t.items)
    if isinstance(t, PytreeInstance):
        return any(_holds_host(f) for _, f in t.fields)
    return False


def _complete(t: Type) -> bool:
    """A JAX array (or a pytree of them) of known shape and dtype."""
    if isinstance(t, ArrayType):
        return t.dtype is not None and not t.host
    if isinstance(t, PytreeInstance):
        return bool(t.fields) and all(_complete(f) for _, f in t.fields)
    return False


def _all_arrays(t: Type) -> bool:
    if isinstance(t, TupleType):
        return all(_all_arrays(i) for i in t.items)
    if isinstance(t, PytreeInstance):
        return all(_all_arrays(f) for _, f in t.fields)
    return isinstance(t, ArrayType) and not t.host


def _join(types: list[Type]) -> Type:
    first = types[0] if types else None
    return first if all(t == first for t in types) else None


def _plain(operator: cst.BaseAugOp) -> cst.BaseBinaryOp:
    names: dict[type[cst.BaseAugOp], type[cst.BaseBinaryOp]] = {
        cst.AddAssign: cst.Add, cst.SubtractAssign: cst.Subtract,
        cst.MultiplyAssign: cst.Multiply, cst.DivideAssign: cst.Divide,
        cst.PowerAssign: cst.Power, cst.ModuloAssign: cst.Modulo,
        cst.FloorDivideAssign: cst.FloorDivide, cst.MatrixMultiplyAssign: cst.MatrixMultiply,
    }  # fmt: skip
    made = names.get(type(operator))
    return made() if made is not None else cst.BitOr()


def _is_none(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.Name and expr.value == "None"


def _at_update(func: cst.Attribute) -> cst.BaseExpression | None:
    """The array `x` of `x.at[...].set` (and the other `.at` updates)."""
    target = func.value
    if func.attr.value not in _AT_METHODS or type(target) is not cst.Subscript:
        return None
    at = target.value
    if type(at) is cst.Attribute and at.attr.value == "at":
        return at.value
    return None


def _from_host(dtype: str | None) -> str | None:
    """What a NumPy array's dtype becomes in JAX ("int", NumPy's default integer, is
    int32 on some platforms: not known)."""
    return None if dtype == DEFAULT_INT else _on_device(dtype)


def _on_device(dtype: str | None) -> str | None:
    """What a dtype becomes in JAX: float64 and int64 only under x64."""
    return {"float64": DEFAULT_FLOAT, "int64": DEFAULT_INT}.get(dtype or "", dtype)


def _promote(a: str | None, b: str | None, host: bool) -> str | None:
    """The dtype of combining two arrays (NumPy's rules for two NumPy arrays)."""
    if a is None or b is None:
        return None
    if a == b:
        return a
    if "bool" in (a, b):
        return b if a == "bool" else a
    if host:
        return "float64" if {a, b} <= {"float32", "float64"} else None
    return DEFAULT_FLOAT if {a, b} == {"float32", DEFAULT_FLOAT} else None


def _broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...] | None:
    rank = max(len(a), len(b))
    a, b = (1,) * (rank - len(a)) + a, (1,) * (rank - len(b)) + b
    out = []
    for x, y in zip(a, b, strict=True):
        if x != y and 1 not in (x, y):
            return None
        out.append(y if x == 1 else x)
    return tuple(out)


def _arithmetic(left: Type, right: Type, op: cst.BaseBinaryOp) -> Type:
    """Elementwise `left <op> right`: broadcast shapes; Python numbers keep the dtype of
    a floating array (weak typing)."""
    if isinstance(left, PythonNumber) and isinstance(right, PythonNumber):
        return _folded(left, right, op)
    if isinstance(left, PythonNumber) or isinstance(right, PythonNumber):
        array, scalar = (right, left) if isinstance(left, PythonNumber) else (left, right)
        if not isinstance(array, ArrayType) or not isinstance(scalar, PythonNumber):
            return None
        if array.dtype in _FLOATS:
            return array if _scalars_keep(array, [scalar]) else None
        if array.host and array.dtype == DEFAULT_INT and type(op) is not cst.Power:
            # NumPy: an integer array with a Python float, or divided, is float64
            floating = scalar.is_float or type(op) is cst.Divide
            return ArrayType(array.shape, "float64" if floating else DEFAULT_INT, True)
        return None  # a JAX integer array may become a float one
    if not (isinstance(left, ArrayType) and isinstance(right, ArrayType)):
        return None
    if left.shape is None or right.shape is None:
        return None  # never: a carry's arrays have their whole shape
    shape = _broadcast(left.shape, right.shape)
    host = left.host and right.host
    if shape is None:
        return None
    dtypes = [
        d if host or not arr.host else _from_host(d)
        for arr, d in ((left, left.dtype), (right, right.dtype))
    ]
    dtype = _promote(dtypes[0], dtypes[1], host)
    if type(op) in (cst.Divide, cst.Power, cst.FloorDivide, cst.Modulo) and dtype not in _FLOATS:
        dtype = None
    return ArrayType(shape, dtype, host)


def _floating_input(number: PythonNumber, function: str) -> bool:
    """A Python float, or a known Python int given to a function that always gives a
    float (`np.sqrt(8)`: NumPy makes the int an int64, then a float64)."""
    return number.is_float or (number.value is not None and function in _ALWAYS_INEXACT)


def _scalars_keep(array: ArrayType, scalars: list[PythonNumber]) -> bool:
    """Python numbers keep a floating array's dtype: always in JAX (weak typing) and in
    NumPy 2; NumPy 1's value-based casting widens a narrow float array for a number
    beyond its range, so there each number must be known and small."""
    if not (array.host and array.dtype in _NARROW):
        return True
    known = [p.value if p.value is not None else p.number for p in scalars]
    return all(k is not None and abs(k) < _NARROW[array.dtype] for k in known)


def _folded(left: PythonNumber, right: PythonNumber, op: cst.BaseBinaryOp) -> Type:
    """Two Python numbers: the number Python computes where both are known."""
    known = [p.value if p.value is not None else p.number for p in (left, right)]
    is_float = left.is_float or right.is_float or type(op) is cst.Divide
    if None in known:
        if type(op) is cst.Power:
            return None  # a negative base to a fractional power is a complex number
        return PythonNumber(is_float=is_float)
    ops = {cst.Add: operator.add, cst.Subtract: operator.sub, cst.Multiply: operator.mul,
           cst.Divide: operator.truediv, cst.Power: operator.pow,
           cst.FloorDivide: operator.floordiv, cst.Modulo: operator.mod}  # fmt: skip
    if type(op) is cst.Power and max(abs(known[0]), abs(known[1])) > _MAX_FOLDED:  # type: ignore[arg-type]
        return PythonNumber(is_float=is_float)  # not folded: a huge power takes long to compute
    try:
        result = ops[type(op)](known[0], known[1])
    except (ArithmeticError, ValueError):
        return None
    if isinstance(result, bool):
        return None
    if isinstance(result, int):
        return PythonNumber(result)
    if isinstance(result, float) and math.isfinite(result):
        return PythonNumber(is_float=True, number=result)
    return None  # complex, infinite or NaN


def _rounded(number: Type) -> Type:
    """`round(x)` of a known float far enough from a half that the last bit of `x`
    (a platform's `pow`) cannot change it."""
    if not isinstance(number, PythonNumber):
        return None
    if number.value is not None and not number.is_float:
        return number
    x = number.number
    if x is None or not math.isfinite(x):
        return PythonNumber() if x is None else None
    if abs(x - math.floor(x) - 0.5) < 1e-9 * max(1.0, abs(x)):
        return None
    return PythonNumber(round(x))


def _stacked(items: Type, axis: Type, host: bool) -> Type:
    """`np.stack(arrays, axis)` of arrays of one shape and dtype."""
    if (
        not isinstance(items, ListType | TupleType)
        or not items.items
        or not isinstance(axis, PythonNumber)
    ):
        return None
    first = items.items[0]
    if not all(isinstance(a, ArrayType) and a.host == host and a == first for a in items.items):
        return None
    assert isinstance(first, ArrayType)
    if first.shape is None:
        return None  # never: a carry's arrays have their whole shape
    rank = len(first.shape) + 1
    if axis.value is None or axis.is_float or not -rank <= axis.value < rank:
        return None
    at = axis.value % rank
    shape = (*first.shape[:at], len(items.items), *first.shape[at:])
    return ArrayType(shape, first.dtype, host)


def _matmul(left: Type, right: Type) -> Type:
    """`a @ b` of vectors and matrices whose inner sizes agree."""
    if not (isinstance(left, ArrayType) and isinstance(right, ArrayType)):
        return None
    a, b = left.shape, right.shape
    if a is None or b is None:
        return None  # never: a carry's arrays have their whole shape
    if not (1 <= len(a) <= 2 and 1 <= len(b) <= 2) or a[-1] != b[0]:
        return None
    shape = (*a[:-1], *b[1:])
    host = left.host and right.host
    dtypes = [
        d if host or not arr.host else _from_host(d)
        for arr, d in ((left, left.dtype), (right, right.dtype))
    ]
    dtype = _promote(dtypes[0], dtypes[1], host)
    return ArrayType(shape, dtype if dtype in _FLOATS else None, host)


def _reduced(
    types: CarryTypes,
    stmt: Stmt,
    base: Type,
    kwargs: dict[str, cst.BaseExpression],
    env: dict[str, Type] | None,
    host: bool,
) -> Type:
    """`x.sum(axis=1, keepdims=True)`, `jnp.mean(x, axis=0)` of a floating array."""
    if not isinstance(base, ArrayType) or base.host != host or base.dtype not in _FLOATS:
        return None
    if set(kwargs) - {"axis", "keepdims"}:
        return None
    keep = kwargs.get("keepdims")
    if keep is not None and not (type(keep) is cst.Name and keep.value in ("True", "False")):
        return None
    keepdims = type(keep) is cst.Name and keep.value == "True"
    if base.shape is None:
        return None  # never: a carry's arrays have their whole shape
    rank = len(base.shape)
    if "axis" not in kwargs:
        axes = set(range(rank))
    else:
        axis_expr = kwargs["axis"]
        items = axis_expr.elements if type(axis_expr) is cst.Tuple else None
        values = (
            [types.expr(stmt, e.value, env) for e in items]
            if items is not None
            else [types.expr(stmt, axis_expr, env)]
        )
        if not all(
            isinstance(v, PythonNumber) and v.value is not None and -rank <= v.value < rank
            for v in values
        ):
            return None
        axes = {v.value % rank for v in values}  # type: ignore[union-attr,operator]
        if len(axes) != len(values):
            return None
    shape = tuple(
        1 if i in axes else n for i, n in enumerate(base.shape) if keepdims or i not in axes
    )
    return ArrayType(shape, base.dtype, host)


def _reshaped(base: ArrayType, dims: tuple[int, ...] | None) -> Type:
    if dims is None:
        return None
    dims = tuple(dims)
    if base.shape is None:
        return None  # never: a carry's arrays have their whole shape
    total = math.prod(base.shape)
    if dims.count(-1) == 1:
        known = math.prod(d for d in dims if d != -1)
        if known <= 0 or total % known:
            return None
        dims = tuple(total // known if d == -1 else d for d in dims)
    if any(d < 0 for d in dims) or math.prod(dims) != total:
        return None
    return ArrayType(dims, base.dtype, base.host)


def _scalar_constant(ctx: ModuleContext, name: str) -> Type:
    """`BETA, GAMMA = 0.45, 1 / 7.0` at module level, bound nowhere else: Python floats."""
    graph = ctx.graph
    defs = [s for s in graph.stmts if name in s.defs | s.mutates]
    if len(defs) != 1 or defs[0].scope != MODULE:
        return None
    if any(name in fn.globals for fn in graph.functions.values()):
        return None
    node = defs[0].node
    if not (type(node) is cst.Assign and len(node.targets) == 1):
        return None
    target, value = node.targets[0].target, node.value
    if type(target) is cst.Tuple and type(value) is cst.Tuple:
        pairs = [
            (t.value, v.value)
            for t, v in zip(target.elements, value.elements, strict=False)
            if type(t.value) is cst.Name and t.value.value == name
        ]
        if len(target.elements) == len(value.elements) and len(pairs) == 1:
            value = pairs[0][1]
        else:
            return None
    return PythonNumber(is_float=True) if _number_literal(value) else None


def _number_literal(expr: cst.BaseExpression) -> bool:
    """A number written with literals and arithmetic (`1 / 5.2`, `-0.5`)."""
    if type(expr) in (cst.Integer, cst.Float):
        return True
    if type(expr) is cst.UnaryOperation and type(expr.operator) in (cst.Minus, cst.Plus):
        return _number_literal(expr.expression)
    if type(expr) is cst.BinaryOperation and type(expr.operator) in (
        cst.Add,
        cst.Subtract,
        cst.Multiply,
        cst.Divide,
    ):
        return _number_literal(expr.left) and _number_literal(expr.right)
    return False


def _item_assignment(node: cst.CSTNode, name: str) -> bool:
    """`name[...] = value` or `name[...] += value`: NumPy writes the items in place."""
    if type(node) is cst.Assign:
        targets = [t.target for t in node.targets]
    elif type(node) is cst.AugAssign:
        targets = [node.target]
    else:
        return False
    return all(
        type(t) is cst.Subscript and type(t.value) is cst.Name and t.value.value == name
        for t in targets
    )


def _escapes(ctx: ModuleContext, node: cst.CSTNode, name: str) -> bool:
    """Whether `node` lets the array `name` reach code that could resize it: anything but
    arithmetic, indexing, reading methods and arguments of NumPy or JAX functions."""
    if type(node) is cst.Name:
        return node.value == name  # a bare read anywhere else: an alias or an argument
    if type(node) is cst.Call:
        func = node.func
        qual = ctx.qualify(func) or ""
        # NumPy and JAX functions neither keep nor resize an argument, except those that
        # may hand back the array itself (which the caller may then resize)
        module, _, last = qual.rpartition(".")
        itself = (module == "numpy" and last in _MAY_RETURN_ITSELF) or last == "resize"
        library = qual.startswith(("numpy.", "jax.")) and not itself
        if any(a.keyword is not None and a.keyword.value == "copy" for a in node.args):
            return True  # `a.astype(t, copy=False)` may be `a` itself
        parts: list[cst.CSTNode] = []
        if type(func) is cst.Attribute and _is_name(func.value, name):
            if func.attr.value not in _READING_METHODS:
                return True
        else:
            parts.append(func)
        for arg in node.args:
            if library and _is_name(arg.value, name):
                continue
            parts.append(arg.value)
        return any(_escapes(ctx, p, name) for p in parts)
    if type(node) is cst.BinaryOperation:
        return any(_is_name_or_escapes(ctx, side, name) for side in (node.left, node.right))
    if type(node) is cst.Comparison:
        sides = [node.left, *(t.comparator for t in node.comparisons)]
        return any(_is_name_or_escapes(ctx, side, name) for side in sides)
    if type(node) is cst.UnaryOperation:
        return _is_name_or_escapes(ctx, node.expression, name)
    if type(node) is cst.Subscript:
        return _is_name_or_escapes(ctx, node.value, name) or any(
            _escapes(ctx, e, name) for e in node.slice
        )
    if type(node) is cst.Attribute:
        return not _is_name(node.value, name) and _escapes(ctx, node.value, name)
    if type(node) is cst.Assign or type(node) is cst.AugAssign:
        for target in _assign_targets(node):
            if _item_target(target, name):
                if any(_escapes(ctx, e, name) for e in target.slice):  # type: ignore[attr-defined]  # a Subscript
                    return True
            elif type(target) is not cst.Name and _escapes(ctx, target, name):
                return True
        return _escapes(ctx, node.value, name)
    return any(_escapes(ctx, child, name) for child in node.children)


def _assign_targets(node: cst.CSTNode) -> list[cst.BaseAssignTargetExpression]:
    """What an assignment binds (`a = b = value`: both); none for another node."""
    if type(node) is cst.Assign:
        return [t.target for t in node.targets]
    if type(node) is cst.AnnAssign or type(node) is cst.AugAssign:
        return [node.target]
    return []


def _item_target(target: cst.BaseExpression, name: str) -> bool:
    return type(target) is cst.Subscript and _is_name(target.value, name)


def _is_name(node: cst.CSTNode, name: str) -> bool:
    return type(node) is cst.Name and node.value == name


def _is_name_or_escapes(ctx: ModuleContext, node: cst.CSTNode, name: str) -> bool:
    return False if _is_name(node, name) else _escapes(ctx, node, name)


def _in_mode(dtype: str, x64: bool) -> str:
    """The dtype a JAX array of `dtype` has with x64 off or on."""
    dtype = _on_device(dtype) or dtype
    if dtype == DEFAULT_FLOAT:
        return "float64" if x64 else "float32"
    if dtype == DEFAULT_INT:
        return "int64" if x64 else "int32"
    return dtype


def entry_defs(ctx: ModuleContext, body: list[Stmt], name: str) -> list[Stmt]:
    """The definitions outside the loop that reach a read of `name` in its body: those
    before it and, in an enclosing loop, those after it that the next outer iteration
    brings back (the first statement may not read `name`)."""
    inside = {s.id for s in body}
    found = {
        d.id: d
        for s in body
        if name in s.uses
        for d in ctx.graph.reaching_defs(s, name)
        if d.id not in inside
    }
    return [found[i] for i in sorted(found)]
