"""The value model: what kind of value every name and expression holds.

An abstract interpretation over the dataflow graph. Each expression gets a
`Value`: a `Kind` (JAX array, NumPy array, Python scalar, string, dtype, shape
tuple, pytree of arrays, callable, module, host object, container, None or
unknown), whether it is the same constant every time it is evaluated, and for
arrays the element type where it is known. Names follow their reaching
definitions; a parameter is the join of the arguments at every call site the
module shows (unknown when the function is used any other way); a call of a
module function is its summary's return value (`analysis/facts/summaries.py`).

Anything the model cannot see is `UNKNOWN`, never a guess: rules treat an
unknown kind as a premise they cannot prove.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.execution import is_jit, only_called
from autoopt.analysis.core.exprs import bound_names, is_at_update
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.core.jitted import is_escaping
from autoopt.analysis.core.names import dotted
from autoopt.analysis.core.project import project_function
from autoopt.analysis.overlays import diffrax as diffrax_api
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.overlays import sklearn as sklearn_api
from autoopt.analysis.values import diffrax_calls
from autoopt.analysis.values.array_type import DEFAULT_FLOAT
from autoopt.analysis.values.fields import (
    PytreeClass,
    field_arguments,
    pytree_classes,
)
from autoopt.analysis.values.filled import filled_lists
from autoopt.analysis.values.lattice import (
    ARRAY,
    BOTTOM,
    CALLABLE,
    CONST_SCALAR,
    CONST_STRING,
    HOST,
    MUTABLE_CONTAINERS,
    NONE,
    OBJECT,
    PYTREE,
    SCALAR,
    STRING,
    UNKNOWN,
    Kind,
    Value,
    arrays_in,
    combine,
    join_all,
    typed_arithmetic,
    typed_value,
)
from autoopt.analysis.values.layers import held_call
from autoopt.analysis.values.library import (
    arange,
    astyped,
    attribute_value,
    call_value,
    constructed,
    constructed_class,
    converted,
    reshaped,
    sliced_shape,
)
from autoopt.analysis.values.mutable import changed_names

_ROUNDS = 3
_BUDGET = 200_000
_DEPTH = 48  # values being solved at once (each takes several Python frames)
_ITERATED = (Kind.ARRAY, Kind.HOST_ARRAY)  # iterating over axis 0 gives the same kind
_ARRAY_ATTRS = {"shape": Value(Kind.SHAPE), "ndim": SCALAR, "size": SCALAR}
_ABS_KINDS = (Kind.ARRAY, Kind.HOST_ARRAY, Kind.SCALAR)
#: How many answers, in any module's model, depended on the state of a fixpoint (a
#: guess, a tentative value, a depth or budget limit): an expression's value computed
#: while this count did not move is final, and is remembered.
_provisional = [0]


def model(ctx: ModuleContext) -> ValueModel:
    """The module's value model, built once."""
    return ctx.per_module(ValueModel)


class ValueModel:
    """Answers `value_of(stmt, expr)` for one module, remembering what it computed."""

    def __init__(self, ctx: ModuleContext) -> None:
        self.ctx = ctx
        self._done: dict[tuple, Value] = {}
        self._guess: dict[tuple, Value] = {}
        self._active: list[tuple] = []
        self._active_set: set[tuple] = set()
        self._hits: set[tuple] = set()  # active keys read before they were known
        # key -> (value, epoch, the active keys it read): a value computed from the
        # guesses of this epoch, valid while they hold
        self._tentative: dict[tuple, tuple[Value, int, frozenset[tuple]]] = {}
        self._epoch = 0  # bumped whenever a guess changes
        self._steps = 0
        # (stmt id, id(expr)) -> expr, its final value (the node kept: its id stays its own)
        self._exprs: dict[tuple[int, int], tuple[cst.BaseExpression, Value]] = {}

    # -- the fixpoint ------------------------------------------------------------------
    def _solve(self, key: tuple, compute: Callable[[], Value]) -> Value:
        """`compute()` for `key`, solving cycles (a loop-carried name, a recursive
        function) by iterating from "no value yet" until the value stops changing.

        A value that read a guess is not final, but it holds while the guesses do: it
        is kept for the epoch (nested cycles would otherwise compute it again for every
        read, exponentially in their depth)."""
        if key in self._done:
            return self._done[key]
        if key in self._active_set:
            self._hits.add(key)
            _provisional[0] += 1
            return self._guess.get(key, BOTTOM)
        kept = self._tentative.get(key)
        if kept is not None and kept[1] == self._epoch and kept[2] <= self._active_set:
            self._hits |= kept[2]
            _provisional[0] += 1
            return kept[0]
        if len(self._active) >= _DEPTH:
            _provisional[0] += 1
            return UNKNOWN  # a chain of calls too long to follow: claim nothing
        self._active.append(key)
        self._active_set.add(key)
        value = compute()
        for _ in range(_ROUNDS):
            if key not in self._hits or value == self._guess.get(key, BOTTOM):
                break
            self._guess[key] = value
            self._epoch += 1
            self._hits.discard(key)
            value = compute()
        self._active.pop()
        self._active_set.discard(key)
        self._hits.discard(key)
        if self._guess.pop(key, None) is not None:
            self._epoch += 1
        self._steps += 1
        if self._steps > _BUDGET:
            _provisional[0] += 1
            value = UNKNOWN  # a module too tangled to solve: claim nothing
        read = self._hits & self._active_set
        if not read:
            self._done[key] = value
        else:
            self._tentative[key] = (value, self._epoch, frozenset(read))
        if not self._active and value.kind is Kind.BOTTOM:
            _provisional[0] += 1
            return UNKNOWN
        return value

    # -- expressions -----------------------------------------------------------------
    def value_of(self, stmt: Stmt, expr: cst.BaseExpression) -> Value:
        """The value of `expr` evaluated at `stmt`, computed once where it is final (a
        name's is remembered by `name`)."""
        kind = type(expr)  # LibCST's node classes have no subclasses: `is` is `isinstance`
        literal = _LITERALS.get(kind)
        if literal is not None:
            return literal
        if type(expr) is cst.Name:
            return self.name(stmt, expr.value)
        key = (stmt.id, id(expr))
        known = self._exprs.get(key)
        if known is not None and known[0] is expr:
            return known[1]
        before = _provisional[0]
        value = self._expression(stmt, expr)
        if _provisional[0] == before:
            self._exprs[key] = (expr, value)
        return value

    def _expression(self, stmt: Stmt, expr: cst.BaseExpression) -> Value:
        """`value_of` a compound expression."""
        if type(expr) is cst.Attribute:
            return self._attribute(stmt, expr)
        if type(expr) is cst.Call:
            return self._call(stmt, expr)
        if type(expr) is cst.Subscript:
            return self._subscript(stmt, expr)
        if type(expr) is cst.BinaryOperation:
            return self._binary(stmt, expr)
        if type(expr) is cst.Comparison:
            return self._comparison(stmt, expr)
        if type(expr) is cst.UnaryOperation:
            if type(expr.operator) is cst.Not:
                return SCALAR
            return self.value_of(stmt, expr.expression)
        if type(expr) is cst.IfExp:
            return self.value_of(stmt, expr.body).join(self.value_of(stmt, expr.orelse))
        if (
            type(expr) is cst.Tuple
            or type(expr) is cst.List
            or type(expr) is cst.Set
            or type(expr) is cst.Dict
        ):
            return self._container(stmt, expr)
        if type(expr) is cst.Lambda:
            return CALLABLE
        if type(expr) is cst.ListComp:
            return self._comprehension(stmt, expr, "list")
        if type(expr) is cst.DictComp:
            return self._comprehension(stmt, expr, "dict")
        return UNKNOWN

    def _comprehension(
        self, stmt: Stmt, expr: cst.ListComp | cst.DictComp | cst.GeneratorExp, container: str
    ) -> Value:
        """A list, dict (or, through `tuple(...)`, tuple) built of JAX arrays is a pytree
        of arrays, that container of arrays where every element is one (a dict's keys
        strings); anything else built this way is not known."""
        if type(expr) is cst.DictComp:
            element = self.value_of(stmt, expr.value)
        elif type(expr) is cst.ListComp or type(expr) is cst.GeneratorExp:
            element = self.value_of(stmt, expr.elt)
        else:
            return UNKNOWN  # no other comprehension comes here
        if element.kind is Kind.BOTTOM:
            return BOTTOM
        if not element.is_arrays:
            return UNKNOWN
        if element.kind is not Kind.ARRAY:
            return PYTREE
        if type(expr) is cst.DictComp:
            return self._keyed(self.value_of(stmt, expr.key))
        return arrays_in(container)

    @staticmethod
    def _keyed(key: Value) -> Value:
        """A dict of JAX arrays under `key`: a dict of arrays for string keys."""
        if key.kind is Kind.BOTTOM:
            return BOTTOM
        return arrays_in("dict") if key.kind is Kind.STRING else PYTREE

    def _attribute(self, stmt: Stmt, expr: cst.Attribute) -> Value:
        qual = self.ctx.qualify(expr)
        if qual is not None:
            return attribute_value(qual)
        base = self.value_of(stmt, expr.value)
        attr = expr.attr.value
        if base.kind is Kind.BOTTOM:
            return BOTTOM  # not known until the cycle's first estimate
        solved = diffrax_calls.attribute_value(base, attr)
        if solved is not None:
            return solved
        if base.kind in (Kind.ARRAY, Kind.HOST_ARRAY):
            if attr == "shape" and base.shape is not None:
                return typed_value(Kind.SHAPE, base.shape)
            if attr in _ARRAY_ATTRS:
                return _ARRAY_ATTRS[attr]
            if attr == "dtype":
                return Value(Kind.DTYPE)
            return Value(base.kind) if attr in jax_api.SAME_KIND_ATTRS else UNKNOWN
        if base.kind is Kind.PYTREE:
            cls = _instance_class(self.ctx, base)
            if cls is not None and attr in cls.arrays:
                return ARRAY  # the constructor was shown to give it a JAX array
            return PYTREE  # a field of a pytree of arrays is a pytree of arrays
        if base.kind is Kind.OBJECT and f"{base.detail}.{attr}" in overlays.ARRAYS_ATTRIBUTES:
            return PYTREE  # `es.default_params` of an evosax strategy
        return UNKNOWN

    def _subscript(self, stmt: Stmt, expr: cst.Subscript) -> Value:
        base = self.value_of(stmt, expr.value)
        if base.kind is Kind.BOTTOM:
            return BOTTOM  # not known until the cycle's first estimate
        if base.typed:
            return self._row(stmt, base, expr)
        if base.kind in (Kind.ARRAY, Kind.HOST_ARRAY):
            return typed_value(base.kind, dtype=base.dtype)  # indexing keeps the dtype
        if base.kind is Kind.PYTREE:
            return _element(base, expr)
        if base.kind is Kind.SHAPE:
            sliced = any(type(e.slice) is cst.Slice for e in expr.slice)
            return typed_value(Kind.SHAPE, sliced_shape(base.shape, expr)) if sliced else SCALAR
        if base.kind is Kind.STRING:
            return Value(Kind.STRING)
        return UNKNOWN

    def _row(self, stmt: Stmt, base: Value, expr: cst.Subscript) -> Value:
        """`x[i]`, `x[i, j]` with integer indexes: the shape loses those axes."""
        indexes = [e.slice for e in expr.slice]
        assert base.shape is not None
        if not all(type(i) is cst.Index for i in indexes) or len(indexes) > len(base.shape):
            return ARRAY
        kinds = [self.value_of(stmt, i.value) for i in indexes if type(i) is cst.Index]
        if any(k.kind is not Kind.SCALAR for k in kinds):
            return ARRAY
        return typed_value(Kind.ARRAY, base.shape[len(indexes) :], base.dtype)

    def _binary(self, stmt: Stmt, expr: cst.BinaryOperation) -> Value:
        left, right = self.value_of(stmt, expr.left), self.value_of(stmt, expr.right)
        joined = left.container
        if (
            type(expr.operator) is cst.Add
            and joined in ("tuple", "list")
            and right.container == joined
        ):
            return arrays_in(joined)  # `(xs, ys) + coeffs`: a tuple of arrays, made anew
        combined = combine(left, right, type(expr.operator) is cst.Modulo)
        if combined.kind is Kind.ARRAY and type(expr.operator) is not cst.MatrixMultiply:
            return typed_arithmetic(combined, left, right)
        return combined

    def _comparison(self, stmt: Stmt, expr: cst.Comparison) -> Value:
        if any(
            type(t.operator) in (cst.Is, cst.IsNot, cst.In, cst.NotIn) for t in expr.comparisons
        ):
            return SCALAR
        sides = [expr.left, *(t.comparator for t in expr.comparisons)]
        kinds = {self.value_of(stmt, side).kind for side in sides}
        if Kind.BOTTOM in kinds:
            return BOTTOM
        if Kind.ARRAY in kinds:
            return Value(Kind.ARRAY, detail="bool")
        if Kind.HOST_ARRAY in kinds:
            return Value(Kind.HOST_ARRAY, detail="bool")
        return SCALAR if kinds <= {Kind.SCALAR, Kind.STRING, Kind.NONE} else UNKNOWN

    def _container(self, stmt: Stmt, expr: cst.Tuple | cst.List | cst.Set | cst.Dict) -> Value:
        if type(expr) is cst.Dict:
            parts = [e.value for e in expr.elements if type(e) is cst.DictElement]
            if len(parts) != len(expr.elements):
                return UNKNOWN
        else:
            if any(type(e) is cst.StarredElement for e in expr.elements):
                return UNKNOWN
            parts = [e.value for e in expr.elements]
        values = [self.value_of(stmt, p) for p in parts]
        if any(v.kind is Kind.BOTTOM for v in values):
            return BOTTOM
        if (
            values
            and all(v.is_arrays for v in values)
            and (type(expr) is cst.Tuple or type(expr) is cst.List or type(expr) is cst.Dict)
        ):
            return self._literal_pytree(stmt, expr, values)
        if any(v.kind is Kind.UNKNOWN for v in values) and type(expr) is not cst.Set:
            return UNKNOWN  # a pytree of arrays or not: its parts decide
        hashable = type(expr) is cst.Tuple and all(v.constant for v in values)
        if type(expr) is cst.Tuple and all(v.kind is Kind.SCALAR for v in values):
            return Value(Kind.SHAPE, hashable)
        return Value(Kind.CONTAINER, hashable)

    def _literal_pytree(
        self, stmt: Stmt, expr: cst.Tuple | cst.List | cst.Dict, values: list[Value]
    ) -> Value:
        """A literal of arrays and pytrees: the container of arrays where every element
        is a JAX array (every key of a dict a string)."""
        if not all(v.kind is Kind.ARRAY for v in values):
            return PYTREE
        if type(expr) is cst.Dict:
            keys = [
                self.value_of(stmt, e.key) for e in expr.elements if type(e) is cst.DictElement
            ]  # no ** here: `_container` checked
            return self._keyed(join_all(keys))
        return arrays_in("tuple" if type(expr) is cst.Tuple else "list")

    # -- calls -----------------------------------------------------------------------
    def _call(self, stmt: Stmt, call: cst.Call) -> Value:
        qual = self.ctx.qualify(call.func)
        if qual in jax_api.FLOAT_CONSTRUCTORS and call.args and call.args[0].keyword is None:
            return constructed(call, self.value_of(stmt, call.args[0].value))
        if qual in jax_api.CONVERSIONS and call.args:
            return converted(qual, call, self.value_of(stmt, call.args[0].value))
        if qual == "jax.numpy.arange" and len(call.args) == 1:
            return arange(call.args[0].value)
        if qual in diffrax_api.CALLS:
            return diffrax_calls.call_value(qual, call, lambda e: self.value_of(stmt, e))
        if qual in sklearn_api.ARRAY_SPLITS:
            return self._split(stmt, call)
        if qual is not None:
            bound = partial(assigned_value, self.ctx, stmt)
            made = constructed_class(self.ctx.qualify, call, bound)
            return self._project_call(qual) or call_value(qual, call, made)
        func = call.func
        if type(func) is cst.Name:
            return self._named_call(stmt, func.value, call)
        if type(func) is cst.Attribute:
            return self._method_call(stmt, call, func)
        if type(func) is cst.Call:
            inner = self.ctx.qualify(func.func) or ""
            if inner == "jax.grad" and _plain_grad(func, call):
                first = self.value_of(stmt, call.args[0].value)
                if first.kind is Kind.BOTTOM or first.container is not None:
                    return first  # the gradient has its argument's structure
            if inner == "jax.vmap" and func.args:
                return self._vmapped(stmt, func.args[0].value, call)
            return PYTREE if inner in overlays.TRACING_TRANSFORMS else UNKNOWN
        return UNKNOWN

    def _split(self, stmt: Stmt, call: cst.Call) -> Value:
        """`train_test_split(x, y, test_size=0.1)`: a list of new arrays where every
        argument by position is a JAX array (`overlays/sklearn.py`)."""
        given = [a for a in call.args if a.keyword is None]
        if not given or any(a.star for a in call.args):
            return UNKNOWN
        arrays = all(self.value_of(stmt, a.value).kind is Kind.ARRAY for a in given)
        return arrays_in("list") if arrays else UNKNOWN

    def _vmapped(self, stmt: Stmt, func: cst.BaseExpression, call: cst.Call) -> Value:
        """`jax.vmap(f)(...)` stacks `f`'s output leaf by leaf: an array, or a tuple of
        arrays, where `f` (a function of the module, a lambda calling one, or a library
        function given arrays) is proven to return one; else a pytree of arrays."""
        if type(func) is cst.Lambda and type(func.body) is cst.Call:
            called = func.body.func  # `lambda k: f(ts, key=k)`: `f`'s output, not a parameter's
            params = {p.name.value for p in func.params.params}
            func = called if type(called) is cst.Name and called.value not in params else func
        returned = UNKNOWN
        if type(func) is cst.Name:
            fn = self.ctx.graph.resolve_function(func.value, stmt.scope)
            if fn is not None and not self._rebound(stmt, func.value, fn):
                returned = self.returns(fn)
        elif self.ctx.qualify(func) in diffrax_api.ARRAY_TUPLES:
            returned = self._call(stmt, call.with_changes(func=func))
        if returned.kind is Kind.ARRAY or returned.container == "tuple":
            return Value(returned.kind, detail=returned.detail)
        return PYTREE

    def _project_call(self, qual: str) -> Value | None:
        """A function of another project file: what its own analysis says it returns."""
        found = project_function(self.ctx, qual)
        if found is None:
            return None
        other, fn = found
        returned = model(other).returns(fn)
        return PYTREE if _compiled(other, fn) and not returned.is_arrays else returned

    def _named_call(self, stmt: Stmt, name: str, call: cst.Call | None = None) -> Value:
        graph = self.ctx.graph
        fn = graph.resolve_function(name, stmt.scope)
        if fn is not None and not self._rebound(stmt, name, fn):
            returned = self.returns(fn)
            if _compiled(self.ctx, fn) and not returned.is_arrays:
                return PYTREE  # a compiled function returns JAX arrays, whatever it is given
            return returned
        callee = self.name(stmt, name)
        if callee.kind is Kind.CALLABLE and callee.detail == "arrays":
            return PYTREE
        if callee.kind is Kind.CALLABLE and callee.detail == "pytree-class":
            cls = pytree_classes(self.ctx).get(name)
            return self._instance(stmt, cls, call, None) if cls and call else PYTREE
        if callee.kind is Kind.CALLABLE and callee.detail == "class":
            return OBJECT
        if not graph.reaching_defs(stmt, name) and _is_builtin(self.ctx, name):
            if name in ("tuple", "list", "dict") and call is not None:
                return self._rebuilt(stmt, name, call)
            if name == "abs" and call is not None and len(call.args) == 1:
                inner = self.value_of(stmt, call.args[0].value)  # `__abs__` keeps the kind
                return Value(inner.kind) if inner.kind in _ABS_KINDS else UNKNOWN
            if name in python_api.SCALAR_BUILTINS:
                return SCALAR
            if name in python_api.STRING_BUILTINS:
                return Value(Kind.STRING)
        return UNKNOWN

    def _rebuilt(self, stmt: Stmt, name: str, call: cst.Call) -> Value:
        """`tuple(...)`, `list(...)`, `dict(...)` of arrays: that container of arrays."""
        if any(a.star for a in call.args):
            return UNKNOWN
        first = call.args[0].value if call.args else None
        if (
            name != "dict"
            and _one_comprehension(call)
            and (type(first) is cst.GeneratorExp or type(first) is cst.ListComp)
        ):
            return self._comprehension(stmt, first, name)
        if any(a.keyword is not None for a in call.args):
            if name != "dict" or not all(a.keyword is not None for a in call.args):
                return UNKNOWN
            values = join_all([self.value_of(stmt, a.value) for a in call.args])
            return values if values.kind is Kind.BOTTOM else self._keyed_arrays(STRING, values)
        if len(call.args) != 1:
            return UNKNOWN
        source = call.args[0].value
        if name != "dict":
            item = self._item(stmt, source)
            if item.kind is Kind.BOTTOM:
                return BOTTOM
            return arrays_in(name) if item.kind is Kind.ARRAY else UNKNOWN
        pairs = self._pairs(stmt, source)
        if pairs is not None:
            return self._keyed_arrays(*pairs)
        whole = self.value_of(stmt, source)
        return whole if whole.kind is Kind.BOTTOM or whole.container == "dict" else UNKNOWN

    def _keyed_arrays(self, key: Value, value: Value) -> Value:
        if value.kind is Kind.BOTTOM:
            return BOTTOM
        return self._keyed(key) if value.kind is Kind.ARRAY else UNKNOWN

    def _pairs(self, stmt: Stmt, source: cst.BaseExpression) -> tuple[Value, Value] | None:
        """The key and value of the pairs `dict(source)` reads from a generator of
        `(key, value)` literals or an iterator of pairs (`zip`, `.items()`)."""
        if type(source) is cst.GeneratorExp or type(source) is cst.ListComp:
            elt = source.elt
            if type(elt) is not cst.Tuple or len(elt.elements) != 2:
                return None
            if any(type(e) is cst.StarredElement for e in elt.elements):
                return None
            key, value = (self.value_of(stmt, e.value) for e in elt.elements)
            return key, value
        parts = self._item_parts(stmt, source, 2)
        return (parts[0], parts[1]) if parts is not None else None

    # -- iteration ---------------------------------------------------------------------
    def _item(self, stmt: Stmt, it: cst.BaseExpression) -> Value:
        """What iterating over `it` gives each time: the rows of an array, the elements of
        a tuple or list of arrays, the (string) keys of a dict of arrays, its values or
        keys through `.values()`/`.keys()`, numbers from `range`; unknown otherwise."""
        if type(it) is cst.Call:
            special = self._iterator_call(stmt, it)
            if special is not None:
                return special[0]
        source = self.value_of(stmt, it)
        if source.kind in _ITERATED or source.kind is Kind.BOTTOM:
            return Value(source.kind)
        container = source.container
        if container is None:
            return UNKNOWN
        return STRING if container == "dict" else ARRAY

    def _item_parts(self, stmt: Stmt, it: cst.BaseExpression, count: int) -> list[Value] | None:
        """The parts of each item of `zip(a, b)`, `enumerate(a)` or `d.items()` unpacked
        into `count` names, or None where they are not known."""
        if type(it) is not cst.Call:
            return None
        special = self._iterator_call(stmt, it)
        if special is None or special[1] is None or len(special[1]) != count:
            return None
        return special[1]

    def _iterator_call(self, stmt: Stmt, call: cst.Call) -> tuple[Value, list[Value] | None] | None:
        """(item, its parts) of the builtin iterators and dict views the model knows."""
        func = call.func
        if any(a.star for a in call.args):
            return None
        positional = [a.value for a in call.args if a.keyword is None]
        keywords = {a.keyword.value for a in call.args if a.keyword is not None}
        if type(func) is cst.Name and _is_builtin(self.ctx, func.value):
            if func.value == "range":
                return SCALAR, None
            if func.value == "zip" and positional and keywords <= {"strict"}:
                return UNKNOWN, [self._item(stmt, p) for p in positional]
            if func.value == "enumerate" and len(positional) == 1 and keywords <= {"start"}:
                return UNKNOWN, [SCALAR, self._item(stmt, positional[0])]
            return None
        if type(func) is not cst.Attribute or call.args:
            return None
        view = func.attr.value
        if view not in ("keys", "values", "items"):
            return None
        base = self.value_of(stmt, func.value)
        if base.kind is Kind.BOTTOM:
            return BOTTOM, [BOTTOM, BOTTOM] if view == "items" else None
        if base.container != "dict":
            return None
        if view == "items":
            return UNKNOWN, [STRING, ARRAY]
        return (STRING if view == "keys" else ARRAY), None

    def _rebound(self, stmt: Stmt, name: str, fn: Function) -> bool:
        """Whether `name` may hold something else than the `def` at this call."""
        defs = self.ctx.graph.reaching_defs(stmt, name)
        return any(d.id != fn.header for d in defs) or len(self._module_defs(name)) > 1

    def _method_call(self, stmt: Stmt, call: cst.Call, func: cst.Attribute) -> Value:
        if is_at_update(func):
            return ARRAY
        if held_call(self.ctx, stmt.scope, call):
            return PYTREE  # `model.apply(...)` of a linen layer held while the loop runs
        base = self.value_of(stmt, func.value)
        method = func.attr.value
        if (
            base.typed
            and method in jax_api.REDUCTION_METHODS
            and not call.args
            and base.dtype == DEFAULT_FLOAT
        ):
            return typed_value(Kind.ARRAY, (), base.dtype)
        if base.typed and method == "reshape":
            return reshaped(base, call)
        if base.kind in (Kind.ARRAY, Kind.HOST_ARRAY) and method == "astype":
            return astyped(base, call)
        if base.kind in (Kind.ARRAY, Kind.HOST_ARRAY):
            if method in jax_api.TO_PYTHON_METHODS:
                return SCALAR if method == "item" else UNKNOWN
            return Value(base.kind, detail="bool" if method in ("any", "all") else None)
        if base.kind is Kind.OBJECT and base.detail == "numpy-rng":
            return HOST  # a NumPy Generator's draws
        if base.kind is Kind.OBJECT and f"{base.detail}.{method}" in overlays.ARRAYS_RESULTS:
            return PYTREE  # `optimizer.update(grads, state, params)`
        cls = _instance_class(self.ctx, base)
        if cls is not None and method == cls.replace and all(a.keyword for a in call.args):
            return self._instance(stmt, cls, call, base)
        if base.kind is Kind.PYTREE and method == "_replace":
            return PYTREE
        if base.kind is Kind.STRING:
            return Value(Kind.STRING)
        return UNKNOWN

    def _instance(
        self, stmt: Stmt, cls: PytreeClass, call: cst.Call, copied: Value | None
    ) -> Value:
        """An instance of `cls` (`class:<name>`) where every array-annotated field gets a
        JAX array from `call`, or keeps one from `copied`; a pytree otherwise."""
        given = field_arguments(cls, call)
        if given is None or (copied is None and not cls.arrays <= given.keys()):
            return PYTREE
        values = [self.value_of(stmt, given[f]) for f in cls.arrays if f in given]
        if any(v.kind is Kind.BOTTOM for v in values):
            return BOTTOM
        if all(v.kind is Kind.ARRAY for v in values):
            return Value(Kind.PYTREE, detail=f"class:{cls.name}")
        return PYTREE

    def returns(self, fn: Function) -> Value:
        """The join of what every `return` of `fn` gives (None when it falls off the end)."""
        origin = self.ctx.origin_of(fn)
        if origin is not None:
            return model(origin[0]).returns(origin[1])
        return self._solve(("returns", fn.qualname), lambda: self._compute_returns(fn))

    def _compute_returns(self, fn: Function) -> Value:
        if fn.is_generator or fn.node.asynchronous is not None:
            return OBJECT
        values = []
        for stmt in self.ctx.graph.scope_stmts(fn.qualname):
            if type(stmt.node) is cst.Return:
                value = stmt.node.value
                values.append(NONE if value is None else self.value_of(stmt, value))
        return join_all(values) if values else NONE

    # -- names -----------------------------------------------------------------------
    def name(self, stmt: Stmt, name: str) -> Value:
        """The value `name` holds when `stmt` reads it."""
        return self._solve(
            ("name", stmt.id, name), lambda: self._unchanged(name, self._resolve(stmt, name))
        )

    def _unchanged(self, name: str, value: Value) -> Value:
        """A list or dict of arrays only through a name whose object nothing may change
        (`analysis/values/mutable.py`): one the module changes in place is unknown (it may hold
        anything now), one handed to code autoopt cannot see a pytree of arrays, as before
        the model knew containers."""
        if value.kind is not Kind.PYTREE or value.detail == "tuple":
            return value
        if (value.detail or "").startswith("class:"):
            return value
        changed = self.ctx.per_module(changed_names)
        if name in changed.mutated:
            return UNKNOWN
        if value.detail in MUTABLE_CONTAINERS and name in changed.escaping:
            return PYTREE
        return value

    def _resolve(self, stmt: Stmt, name: str) -> Value:
        if name in ("True", "False"):
            return CONST_SCALAR
        if name == "None":
            return NONE
        bindings = _comprehension_bindings(stmt, name)
        if bindings:
            return join_all([self._bound_item(stmt, *b) for b in bindings])
        graph = self.ctx.graph
        defs = graph.reaching_defs(stmt, name)
        fn = graph.functions.get(stmt.scope)
        if not defs and fn is not None and name in fn.params:
            return self.parameter(fn, name)
        if not defs and stmt.scope != MODULE:
            return self._free(stmt, name)
        if not defs and name not in stmt.uses:
            return self._scope_value(stmt, name)  # asked about a name the statement does not read
        if not defs:
            return self._unbound(name)
        values = [self.defined(d, name) for d in defs]
        if fn is not None and name in fn.params and not any(graph.dominates(d, stmt) for d in defs):
            values.append(self.parameter(fn, name))  # no definition on some path: the argument
        return join_all(values)

    def _bound_item(
        self, stmt: Stmt, it: cst.BaseExpression, index: int | None, count: int
    ) -> Value:
        """What a loop or comprehension binds from `it` to a name: the whole item (index
        None) or the `index`-th of `count` names unpacked from each (negative: nested or
        starred, not known)."""
        if index is None:
            return self._item(stmt, it)
        if index < 0:
            return UNKNOWN
        parts = self._item_parts(stmt, it, count)
        return parts[index] if parts is not None else UNKNOWN

    def _scope_value(self, stmt: Stmt, name: str) -> Value:
        """Every value the module binds to `name` (constant only when bound once)."""
        defs = self._module_defs(name)
        if not defs:
            return self._unbound(name)
        value = join_all([self.defined(d, name) for d in defs])
        return value if len(defs) == 1 else Value(value.kind, False, value.detail)

    def _free(self, stmt: Stmt, name: str) -> Value:
        """A name a function reads from an enclosing scope or the module."""
        graph = self.ctx.graph
        fn = graph.functions.get(stmt.scope)
        scope = fn.scope if fn is not None else MODULE
        while scope != MODULE:
            enclosing = graph.functions.get(scope)
            if enclosing is None:  # a class body: its names are not the method's
                scope = scope.rpartition(".")[0] or MODULE
                continue
            outer_defs = [s for s in graph.scope_stmts(scope) if name in s.defs]
            values = [self.defined(d, name) for d in outer_defs]
            if name in enclosing.params:
                values.append(self.parameter(enclosing, name))  # a factory's argument
            if values or name in enclosing.globals | enclosing.nonlocals:
                return join_all(values) if values else UNKNOWN
            scope = enclosing.scope
        return self._scope_value(stmt, name)

    def _module_defs(self, name: str) -> list[Stmt]:
        return self.ctx.per_module(_module_binders).get(name, [])

    def _unbound(self, name: str) -> Value:
        return CALLABLE if _is_builtin(self.ctx, name) else UNKNOWN

    def parameter(self, fn: Function, name: str) -> Value:
        """The join of the arguments `fn` receives for `name` at every call site."""
        origin = self.ctx.origin_of(fn)
        if origin is not None:
            return model(origin[0]).parameter(origin[1], name)
        return self._solve(
            ("parameter", fn.qualname, name), lambda: self._compute_parameter(fn, name)
        )

    def _compute_parameter(self, fn: Function, name: str) -> Value:
        annotated = _annotation(self.ctx, fn, name)
        if annotated is not None:
            return annotated
        sites = _binding_calls(self.ctx, fn)
        if fn.is_method or sites is None:
            return UNKNOWN
        index = fn.params.index(name)
        default = parameter_default(fn, name)
        values = []
        for site in sites:
            expr = site.argument(index, name)
            if expr is None and any(a.star for a in site.call.args):
                return UNKNOWN
            if expr is None:
                header = self.ctx.graph.stmts[fn.header]
                values.append(self.value_of(header, default) if default is not None else UNKNOWN)
            else:
                value = self.value_of(site.stmt, expr)
                values.append(Value(value.kind) if _batches(self.ctx, site.call) else value)
        return join_all(values)

    def defined(self, stmt: Stmt, name: str) -> Value:
        """The value `stmt` binds to `name`."""
        node = stmt.node
        kind = type(node)
        if kind is cst.FunctionDef:
            return CALLABLE
        if type(node) is cst.ClassDef:
            return Value(Kind.CALLABLE, detail=_class_detail(self.ctx, node))
        if kind is cst.Import or kind is cst.ImportFrom:
            qual = self.ctx.imports.bindings.get(name)
            if qual and project_function(self.ctx, qual):
                return CALLABLE  # a function of another file of the project
            return attribute_value(qual) if qual else UNKNOWN
        if type(node) is cst.For:
            return self._iterated(stmt, node, name)
        if type(node) is cst.AugAssign:
            return self._augmented(stmt, node)
        if (type(node) is cst.Assign or type(node) is cst.AnnAssign) and node.value is not None:
            targets = [t.target for t in node.targets] if type(node) is cst.Assign else []
            if type(node) is cst.AnnAssign:
                targets = [node.target]
            return join_all(
                [
                    self._assigned(stmt, t, node.value, name)
                    for t in targets
                    if name in _target_names(t)
                ]
            )
        return UNKNOWN

    def _augmented(self, stmt: Stmt, node: cst.AugAssign) -> Value:
        if type(node.target) is not cst.Name:
            return UNKNOWN
        before = self.name(stmt, node.target.value)
        modulo = type(node.operator) is cst.ModuloAssign
        return combine(before, self.value_of(stmt, node.value), modulo)

    def _iterated(self, stmt: Stmt, node: cst.For, name: str) -> Value:
        if (type(node.target) is cst.Tuple or type(node.target) is cst.List) and type(
            node.iter
        ) is cst.Name:
            return self._unpacked_item(stmt, node.target, node.iter.value, name)
        if type(node.target) is cst.Tuple or type(node.target) is cst.List:
            return self._bound_item(stmt, node.iter, *_unpacked_index(node.target, name))
        if type(node.target) is not cst.Name:
            return UNKNOWN
        return self._item(stmt, node.iter)

    def _unpacked_item(
        self, stmt: Stmt, target: cst.Tuple | cst.List, items: str, name: str
    ) -> Value:
        """`for a, b in pairs` over a list of tuple literals that only `for` loops read:
        `name` gets the join of its element of every tuple."""
        names = [e.value.value if type(e.value) is cst.Name else None for e in target.elements]
        defs = self.ctx.graph.reaching_defs(stmt, items)
        built = _built_list(defs[0], items) if len(defs) == 1 else None
        if built is None or name not in names or not _only_iterated(self.ctx, items, defs[0]):
            return UNKNOWN
        if any(type(e) is cst.StarredElement for e in target.elements):
            return UNKNOWN
        index, values = names.index(name), []
        for item in built:
            if type(item) is not cst.Tuple or len(item.elements) != len(names):
                return UNKNOWN
            if any(type(e) is cst.StarredElement for e in item.elements):
                return UNKNOWN
            values.append(self.value_of(defs[0], item.elements[index].value))
        joined = join_all(values)  # one item per iteration: never one constant
        return Value(joined.kind, False, joined.detail, joined.array)

    def _assigned(
        self, stmt: Stmt, target: cst.BaseExpression, value: cst.BaseExpression, name: str
    ) -> Value:
        if type(target) is cst.Name:
            fill = self.ctx.per_module(filled_lists).get((stmt.scope, name))
            if fill and type(value) is cst.List:
                return self._filled(fill)
            return self.value_of(stmt, value)
        if type(target) is not cst.Tuple and type(target) is not cst.List:
            return UNKNOWN
        names = [e.value.value if type(e.value) is cst.Name else None for e in target.elements]
        index = names.index(name) if name in names else -1
        if index < 0 or any(type(e) is cst.StarredElement for e in target.elements):
            return UNKNOWN
        if (type(value) is cst.Tuple or type(value) is cst.List) and len(value.elements) == len(
            names
        ):
            return self.value_of(stmt, value.elements[index].value)
        if len(names) == 2 and type(value) is cst.Call and self._value_and_grad(value):
            return self._differentiated(stmt, value, index)
        if self._maps_to_arrays(stmt, value):
            return ARRAY  # `a, b = map(jnp.asarray, splits)`: each item one JAX array
        unpacked = self._unpacked_return(stmt, value, index, len(names))
        if unpacked.kind not in (Kind.UNKNOWN, Kind.BOTTOM):
            return unpacked
        if unpacked.kind is Kind.BOTTOM and not self._compiled_call(stmt, value):
            return unpacked  # not known yet: the cycle's next round decides
        whole = self.value_of(stmt, value)
        if whole.kind is Kind.BOTTOM:
            return whole
        if whole.container is not None:  # a tuple or list gives arrays, a dict its keys
            return STRING if whole.container == "dict" else ARRAY
        if whole.kind is Kind.PYTREE:
            return PYTREE  # a part of a pytree of arrays
        if whole.kind is Kind.ARRAY:  # `key, sub = jax.random.split(key)`: rows of an array
            return typed_value(Kind.ARRAY, dtype=whole.dtype, detail=whole.detail)
        return SCALAR if whole.kind is Kind.SHAPE else UNKNOWN

    def _maps_to_arrays(self, stmt: Stmt, value: cst.BaseExpression) -> bool:
        """`map(jnp.asarray, xs)` (the builtin, given a function that always returns one
        JAX array and one iterable): each item it yields is a JAX array."""
        if type(value) is not cst.Call or type(value.func) is not cst.Name:
            return False
        name = value.func.value
        if name != "map" or self.ctx.graph.reaching_defs(stmt, name) or len(value.args) != 2:
            return False
        if not _is_builtin(self.ctx, name) or any(a.star or a.keyword for a in value.args):
            return False
        return self.ctx.qualify(value.args[0].value) in jax_api.ARRAY_MAKERS

    def _filled(self, appends: list[tuple[Stmt, cst.BaseExpression]]) -> Value:
        """A list built empty and filled by appends (`analysis/values/filled.py`): a list
        of arrays, a pytree of arrays, or unknown, by what is appended."""
        values = [self.value_of(stmt, appended) for stmt, appended in appends]
        if any(v.kind is Kind.BOTTOM for v in values):
            return BOTTOM
        if all(v.kind is Kind.ARRAY for v in values):
            return arrays_in("list")
        return PYTREE if all(v.is_arrays for v in values) else UNKNOWN

    def _value_and_grad(self, value: cst.BaseExpression) -> bool:
        """`jax.value_and_grad(f)(a, ...)` (or `nnx.value_and_grad`'s) of a function `f`
        named, nothing else asked."""
        if not (type(value) is cst.Call and type(value.func) is cst.Call):
            return False
        transform = value.func
        return (
            self.ctx.qualify(transform.func) in overlays.PLAIN_VALUE_AND_GRADS
            and _plain_grad(transform, value)
            and type(transform.args[0].value) is cst.Name
        )

    def _differentiated(self, stmt: Stmt, value: cst.Call, index: int) -> Value:
        """Part `index` of `jax.value_and_grad(f)(w, ...)`: the value is an array where
        `f` returns one (a constant Python number comes back as it is), the gradient has
        `w`'s structure."""
        if index == 1:
            first = self.value_of(stmt, value.args[0].value)
            return first if first.kind is Kind.BOTTOM or first.container is not None else PYTREE
        transform = value.func  # `_value_and_grad`: `value_and_grad(f)`, `f` a name
        named = transform.args[0].value if type(transform) is cst.Call else None
        if type(named) is not cst.Name:
            return UNKNOWN
        name = named.value
        fn = self.ctx.graph.resolve_function(name, stmt.scope)
        if fn is None:
            return UNKNOWN
        returned = self.returns(fn)
        return (
            ARRAY
            if returned.kind is Kind.ARRAY
            else returned
            if returned.kind is Kind.BOTTOM
            else UNKNOWN
        )

    def _compiled_call(self, stmt: Stmt, value: cst.BaseExpression) -> bool:
        if not (type(value) is cst.Call and type(value.func) is cst.Name):
            return False
        fn = self.ctx.graph.resolve_function(value.func.value, stmt.scope)
        return fn is not None and _compiled(self.ctx, fn)

    def _unpacked_return(
        self, stmt: Stmt, value: cst.BaseExpression, index: int, count: int
    ) -> Value:
        """`a, b = f(...)` for a module function whose every return is a tuple literal."""
        if not (type(value) is cst.Call and type(value.func) is cst.Name):
            return UNKNOWN
        fn = self.ctx.graph.resolve_function(value.func.value, stmt.scope)
        if fn is None:
            return UNKNOWN
        values = []
        for ret in self.ctx.graph.scope_stmts(fn.qualname):
            if type(ret.node) is not cst.Return:
                continue
            tup = ret.node.value
            if type(tup) is not cst.Tuple or len(tup.elements) != count:
                return UNKNOWN
            values.append(self.value_of(ret, tup.elements[index].value))
        return join_all(values)


#: Transforms whose call `T(fn)(...)` binds `fn`'s parameters to its arguments (slices of
#: them for `jax.vmap`).
_PASSING = jax_api.PASSING_TRANSFORMS | jax_api.BATCHING_TRANSFORMS


def _binding_calls(ctx: ModuleContext, fn: Function) -> list[CallSite] | None:
    """The calls that bind `fn`'s parameters: its direct calls, and `jax.grad(fn)(...)`
    and the like; None when it may be called in another way or from elsewhere."""
    direct = ctx.graph.call_sites(fn)
    if only_called(ctx, fn):
        return direct
    if is_escaping(ctx, fn.name, fn.scope == MODULE, _PASSING):
        return None
    transformed = [
        CallSite(stmt, call, fn)
        for stmt in ctx.graph.references(fn.name)
        for call in stmt.calls
        if _passes_to(ctx, call, fn)
    ]
    return direct + transformed


def _passes_to(ctx: ModuleContext, call: cst.Call, fn: Function) -> bool:
    """`call` is `T(fn)(...)` for one of the passing transforms, `fn` resolved by name."""
    func = call.func
    if type(func) is not cst.Call or len(func.args) != 1:
        return False
    arg = func.args[0]
    if arg.keyword is not None or arg.star or type(arg.value) is not cst.Name:
        return False
    return arg.value.value == fn.name and ctx.qualify(func.func) in _PASSING


def _batches(ctx: ModuleContext, call: cst.Call) -> bool:
    """`call` is `jax.vmap(fn)(...)`: its arguments' kinds reach `fn`, not their shapes."""
    func = call.func
    return type(func) is cst.Call and ctx.qualify(func.func) in jax_api.BATCHING_TRANSFORMS


def _module_binders(ctx: ModuleContext) -> dict[str, list[Stmt]]:
    """Name -> the module-level statements that bind it, in source order."""
    binders: dict[str, list[Stmt]] = {}
    for stmt in ctx.graph.scope_stmts(MODULE):
        for name in stmt.defs:
            binders.setdefault(name, []).append(stmt)
    return binders


def _one_comprehension(call: cst.Call) -> bool:
    """`tuple(f(x) for x in xs)` or `list([...])`: one positional comprehension."""
    return (
        len(call.args) == 1
        and call.args[0].keyword is None
        and not call.args[0].star
        and type(call.args[0].value) in (cst.GeneratorExp, cst.ListComp)
    )


def _built_list(stmt: Stmt, name: str) -> list[cst.BaseExpression] | None:
    """The items of `name = [...]` or `name = [... for ...]` (the element, once)."""
    node = stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return None
    target, value = node.targets[0].target, node.value
    if not (type(target) is cst.Name and target.value == name):
        return None
    if type(value) is cst.ListComp:
        return [value.elt]
    if type(value) is cst.List and value.elements:
        if any(type(e) is cst.StarredElement for e in value.elements):
            return None
        return [e.value for e in value.elements]
    return None


def _only_iterated(ctx: ModuleContext, name: str, binder: Stmt) -> bool:
    """No statement anywhere reads `name` except `for ... in name` loops (nothing can
    change, alias or hand out the list), and nothing else binds it."""
    for stmt in ctx.graph.stmts:
        if name in stmt.defs and stmt is not binder:
            return False
        if name in stmt.uses or name in stmt.mutates:
            node = stmt.node
            iterated = node.iter if type(node) is cst.For else None
            if type(iterated) is not cst.Name or iterated.value != name:
                return False
    return True


def _comprehension_bindings(
    stmt: Stmt, name: str
) -> list[tuple[cst.BaseExpression, int | None, int]]:
    """Every iterable a comprehension in `stmt` binds `name` from (`for k in keys`: index
    None; `for a, b in pairs`: its index among the `count` names)."""
    if not stmt.comprehension:
        return []
    found: list[tuple[cst.BaseExpression, int | None, int]] = []
    for node in stmt.own_nodes:
        if type(node) is not cst.CompFor:
            continue
        target = node.target
        if type(target) is cst.Name and target.value == name:
            found.append((node.iter, None, 1))
        elif (type(target) is cst.Tuple or type(target) is cst.List) and name in _target_names(
            target
        ):
            index, count = _unpacked_index(target, name)
            found.append((node.iter, index, count))
    return found


def _unpacked_index(target: cst.Tuple | cst.List, name: str) -> tuple[int, int]:
    """`name`'s index among the plain names a tuple target unpacks, and their count (-1
    where it is nested or a starred target is there)."""
    names = [e.value.value if type(e.value) is cst.Name else None for e in target.elements]
    if name not in names or any(type(e) is cst.StarredElement for e in target.elements):
        return -1, len(names)
    return names.index(name), len(names)


def _element(base: Value, expr: cst.Subscript) -> Value:
    """`t[i]` of a tuple or list of arrays and `d[key]` of a dict of arrays are arrays (or
    raise), `t[i:j]` the same container; any other part of a pytree is a pytree."""
    container = base.container
    if container is None or len(expr.slice) != 1:
        return PYTREE
    index = expr.slice[0].slice
    if type(index) is cst.Index and index.star is None:
        return ARRAY
    if type(index) is cst.Slice and container != "dict":
        return base
    return PYTREE


def _plain_grad(transform: cst.Call, call: cst.Call) -> bool:
    """`jax.grad(f)(a, ...)`: the gradient with respect to the first argument, nothing
    else asked (no `argnums`, `has_aux`)."""
    args = transform.args
    if len(args) != 1 or args[0].keyword is not None or args[0].star:
        return False
    return bool(call.args) and call.args[0].keyword is None and not call.args[0].star


#: The value of a literal, by its node class.
_LITERALS: dict[type, Value] = {
    cst.Integer: CONST_SCALAR,
    cst.Float: CONST_SCALAR,
    cst.Imaginary: CONST_SCALAR,
    cst.SimpleString: CONST_STRING,
    cst.ConcatenatedString: CONST_STRING,
    cst.FormattedString: Value(Kind.STRING),
    cst.Ellipsis: Value(Kind.OBJECT, constant=True),
}


def _compiled(ctx: ModuleContext, fn: Function) -> bool:
    return any(is_jit(ctx, d.decorator) for d in fn.node.decorators)


def _instance_class(ctx: ModuleContext, value: Value) -> PytreeClass | None:
    """The module class a `class:<name>` pytree is an instance of."""
    if value.kind is not Kind.PYTREE or not (value.detail or "").startswith("class:"):
        return None
    return pytree_classes(ctx).get((value.detail or "")[len("class:") :])


def _class_detail(ctx: ModuleContext, node: cst.ClassDef) -> str:
    """ "pytree-class" for a NamedTuple or a registered dataclass, else "class"."""
    for base in node.bases:
        qual = ctx.qualify(base.value) or dotted(base.value) or ""
        if qual in python_api.NAMEDTUPLE_BASES:
            return "pytree-class"
    for decorator in node.decorators:
        expr = decorator.decorator
        name = ctx.qualify(expr.func if type(expr) is cst.Call else expr) or ""
        if name.endswith(jax_api.PYTREE_DECORATORS):
            return "pytree-class"
    return "class"


def _is_builtin(ctx: ModuleContext, name: str) -> bool:
    """`name` is Python's builtin: nothing in the module binds it."""
    return (
        name in python_api.PURE_BUILTINS or name in python_api.IO_BUILTINS
    ) and name not in ctx.per_module(_bound_names)


def _bound_names(ctx: ModuleContext) -> frozenset[str]:
    """Every name the module binds: the statements' definitions, the functions' parameters."""
    names = {name for s in ctx.graph.stmts for name in s.defs}
    names.update(name for f in ctx.graph.functions.values() for name in f.params)
    return frozenset(names)


def _target_names(target: cst.BaseExpression) -> set[str]:
    return set(bound_names(target))


def _annotation(ctx: ModuleContext, fn: Function, name: str) -> Value | None:
    """A parameter annotated as a JAX array (`x: jax.Array`, `x: jnp.ndarray`)."""
    for param in _all_params(fn):
        if param.name.value == name and param.annotation is not None:
            qual = ctx.qualify(param.annotation.annotation)
            return ARRAY if qual in jax_api.ARRAY_ANNOTATIONS else None
    return None


def _all_params(fn: Function) -> list[cst.Param]:
    params = fn.node.params
    return [*params.posonly_params, *params.params, *params.kwonly_params]


def parameter_default(fn: Function, name: str) -> cst.BaseExpression | None:
    for param in _all_params(fn):
        if param.name.value == name:
            return param.default
    return None


def assigned_value(ctx: ModuleContext, stmt: Stmt, name: cst.Name) -> cst.BaseExpression | None:
    """What `name` is bound to where `stmt` reads it: the value of its one reaching
    assignment, which binds it alone; else None."""
    defs = ctx.graph.reaching_defs(stmt, name.value)
    node = defs[0].node if len(defs) == 1 else None
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return None
    target = node.targets[0].target
    return node.value if type(target) is cst.Name and target.value == name.value else None
