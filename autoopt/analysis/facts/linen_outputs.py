"""Linen module classes whose `apply` keeps and returns none of the variables it is given.

`model.apply(variables, x)` binds `variables` to the module for one call of its code and
drops them when it returns (`overlays/flax_linen.py`, `UNKEPT_APPLY`): what is left holding
them is what that code returned or stored. `apply_holds_nothing` proves the code of the
linen module class `C` can do neither, because no value it computes can be a variable:
it never reaches one. `C` is a class of this module, bound once, deriving from
`flax.linen.Module` alone, with no decorator, whose code is sealed (`facts/sealed.py`)
and whose fields are inert (`facts/linen_fields.py`: none can become a variable); no
statement sets an attribute `setup`, `__call__` or `apply` of any object, nor any
attribute by name (`unkept_arguments.stored_elsewhere`); its body holds only fields, a
docstring and the methods `setup` and `__call__` (the latter undecorated or
`@nn.compact`), which

- declare no `global` or `nonlocal` and make no function, lambda, class or comprehension;
- bind plain names only, except `self.a = L(...)` in `setup`, the one store of `a`;
- read `self` only as a field or a layer `setup` stores (never `self.param`,
  `self.variables`, `self.scope`, nor `self` itself);
- call only: a layer, built in place or stored in `setup`, that is either a flax layer
  `NEW_OUTPUT_LAYERS` lists, built with at most one positional argument and
  `HYPERPARAMETERS` keywords (its output is new and holds none of its variables), or a
  class of this module proven in turn; a function of `jax.numpy`, `jax.nn`, `numpy` or
  `math`, or one flax.linen takes from JAX (`JAX_FUNCTIONS`), given arrays and numbers
  only (no function it might run); a shape method of an array; `range`, `len`, `int`,
  `float` or `bool` of numbers.

An array here is what a listed layer, a JAX or NumPy function or an array's shape
method returns, or arithmetic on one; a number is a literal, an array's `shape`, `ndim`
or `size`, an item of one, or arithmetic on numbers. A field is a value of unknown kind
that operators and tests may read (as `linen_fields` counts it: the result is a new
value). An input of a method, and what a class of this module returns (it may be its
input), is the caller's object: it is only bound, returned, put in a tuple or given to
a layer as its input, never operated on, indexed or read at a field, whose code is the
caller's. Anything else is not proven.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import scope_nodes
from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.facts.attribute_stores import stored_elsewhere
from autoopt.analysis.facts.linen_fields import field_names, inert_fields
from autoopt.analysis.facts.sealed import class_def, sealed_code
from autoopt.analysis.overlays import flax_linen as linen_api
from autoopt.analysis.overlays import jax as jax_api

ARRAY, NUMBER, VALUE, INPUT = "array", "number", "value", "input"
_LAYER = "layer:"
_MODULE = "module:"
_COMPACT = "flax.linen.compact"
#: The methods `apply` runs, which no statement may set.
_OWN = ("setup", "__call__", "apply")
_FUNCTIONS = ("jax.numpy.", "jax.nn.", "numpy.", "math.")
_SHAPES = frozenset({"shape", "ndim", "size"})
_NUMBER_BUILTINS = frozenset({"range", "len", "int", "float", "bool"})
_MAKES_CODE = (
    cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.Yield,
    cst.Await, cst.NamedExpr, cst.FunctionDef, cst.ClassDef, cst.Global, cst.Nonlocal,
)  # fmt: skip


def apply_holds_nothing(ctx: ModuleContext, cls: str) -> bool:
    """Whether `apply` of an instance of the linen class `cls` (no `method=`) leaves its
    code holding, and returns, none of the variables it is given."""
    return ctx.per_module(_proven, cls, frozenset())


def _proven(ctx: ModuleContext, cls: str, seen: frozenset[str]) -> bool:
    node = class_def(ctx, cls)
    if node is None or cls in seen or field_names(ctx, cls) is None:
        return False
    if sum(cls in s.defs for s in ctx.graph.stmts) != 1:
        return False
    if not sealed_code(ctx, cls) or not inert_fields(ctx, cls):
        return False
    if any(stored_elsewhere(ctx, name, []) for name in _OWN):
        return False  # `Model.__call__ = other`, or attributes set by name
    methods = _methods(node)
    if methods is None:
        return False
    reader = _Reader(ctx, cls, seen | {cls})
    try:
        if "setup" in methods:
            reader.method(methods["setup"], setup=True)
        if "__call__" in methods:
            reader.method(methods["__call__"], setup=False)
    except _Unproven:
        return False
    return True


def _methods(node: cst.ClassDef) -> dict[str, cst.FunctionDef] | None:
    """`setup` and `__call__` by name, where the body holds only them, fields and a
    docstring (None: anything else)."""
    found: dict[str, cst.FunctionDef] = {}
    for item in node.body.body:
        if type(item) is cst.FunctionDef and item.name.value in ("setup", "__call__"):
            found[item.name.value] = item
        elif type(item) is cst.SimpleStatementLine:
            for small in item.body:
                field = type(small) is cst.AnnAssign and small.value is None
                doc = type(small) is cst.Expr and isinstance(small.value, cst.SimpleString)
                if not (field or doc or type(small) is cst.Pass):
                    return None
        else:
            return None
    return found


class _Unproven(Exception):
    """The code may reach a variable."""


class _Reader:
    """Reads a method's body for the kind of each value; raises `_Unproven` at anything
    that may reach a variable."""

    def __init__(self, ctx: ModuleContext, cls: str, seen: frozenset[str]):
        self.ctx = ctx
        self.cls = cls
        self.seen = seen
        self.fields = set(field_names(ctx, cls) or ())
        self.layers: dict[str, str] = {}  # attribute -> the kind of layer `setup` stores
        self.env: dict[str, str] = {}
        self.me = ""
        self.setup = False

    def method(self, node: cst.FunctionDef, setup: bool) -> None:
        decorators = [self.ctx.qualify(d.decorator) for d in node.decorators]
        if decorators not in ([], [_COMPACT]) or (setup and decorators):
            raise _Unproven
        if node.asynchronous is not None or any(
            isinstance(n, _MAKES_CODE) for n in scope_nodes(node.body)
        ):
            raise _Unproven
        params = node.params
        if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.star_kwarg is not None:
            raise _Unproven
        names = [p.name.value for p in (*params.posonly_params, *params.params)]
        names += [p.name.value for p in params.kwonly_params]
        if not names:
            raise _Unproven
        self.me, self.setup = names[0], setup
        self.env = dict.fromkeys(names[1:], INPUT)
        self._block(node.body)

    # -- statements -----------------------------------------------------------------
    def _block(self, body: cst.BaseSuite) -> None:
        if type(body) is not cst.IndentedBlock:
            raise _Unproven
        for stmt in body.body:
            if type(stmt) is cst.SimpleStatementLine:
                for small in stmt.body:
                    self._small(small)
            elif type(stmt) is cst.If:
                self._if(stmt)
            elif type(stmt) is cst.For and stmt.orelse is None:
                self._for(stmt)
            else:
                raise _Unproven

    def _small(self, node: cst.BaseSmallStatement) -> None:
        if type(node) is cst.Assign:
            targets = [t.target for t in node.targets]
            if len(targets) == 1 and self._own_layer(targets[0]) and type(node.value) is cst.Call:
                self.layers[targets[0].attr.value] = self._built(node.value)  # type: ignore[attr-defined]
                return
            kind = self.expr(node.value)
            for target in targets:
                self._bind(target, kind)
        elif type(node) is cst.AugAssign and type(node.target) is cst.Name:
            self._bind(node.target, self._operation([node.target, node.value]))
        elif type(node) is cst.Return:
            if node.value is not None:
                self._plain(node.value)
        elif type(node) is cst.Expr and isinstance(node.value, cst.SimpleString):
            return
        elif type(node) is not cst.Pass:
            raise _Unproven

    def _if(self, node: cst.If) -> None:
        self._known(node.test)
        before = dict(self.env)
        self._block(node.body)
        after, self.env = self.env, dict(before)
        if type(node.orelse) is cst.If:
            self._if(node.orelse)
        elif node.orelse is not None:
            self._block(node.orelse.body)
        self.env = _join(after, self.env)

    def _for(self, node: cst.For) -> None:
        call = node.iter
        if type(call) is not cst.Call or type(call.func) is not cst.Name:
            raise _Unproven
        if call.func.value != "range" or self.expr(call) != NUMBER:
            raise _Unproven
        before = dict(self.env)
        for _ in range(2):  # a kind a later statement binds reaches the next iteration
            self._bind(node.target, NUMBER)
            self._block(node.body)
            self.env = _join(before, self.env)

    def _bind(self, target: cst.BaseExpression, kind: str) -> None:
        if type(target) is cst.Name:
            self.env[target.value] = kind
        elif type(target) in (cst.Tuple, cst.List):
            for element in target.elements:  # type: ignore[attr-defined]  # a Tuple or List
                if type(element) is not cst.Element or kind.startswith((_LAYER, _MODULE)):
                    raise _Unproven
                self._bind(element.value, kind)
        else:
            raise _Unproven  # an attribute or an item: a store

    def _own_layer(self, target: cst.BaseExpression) -> bool:
        """`self.a` in `setup`, `a` no field and stored once."""
        if not self.setup or type(target) is not cst.Attribute:
            return False
        base = target.value
        name = target.attr.value
        own = type(base) is cst.Name and base.value == self.me
        return own and name not in self.fields and name not in self.layers

    # -- expressions ----------------------------------------------------------------
    def _plain(self, expr: cst.BaseExpression) -> str:
        """`expr`'s kind, which is no layer."""
        kind = self.expr(expr)
        if kind.startswith((_LAYER, _MODULE)):
            raise _Unproven
        return kind

    def _known(self, expr: cst.BaseExpression) -> str:
        """`expr`'s kind, which is no layer and no input (whose code is the caller's)."""
        kind = self._plain(expr)
        if kind == INPUT:
            raise _Unproven
        return kind

    def expr(self, expr: cst.BaseExpression) -> str:
        kind = type(expr)
        if kind is cst.Name:
            return self._name(expr)  # type: ignore[arg-type]
        if isinstance(expr, cst.BaseNumber | cst.SimpleString | cst.ConcatenatedString):
            return NUMBER
        if kind is cst.Attribute:
            return self._attribute(expr)  # type: ignore[arg-type]
        if kind is cst.Subscript:
            return self._subscript(expr)  # type: ignore[arg-type]
        if kind in (cst.Tuple, cst.List):
            elements = expr.elements  # type: ignore[attr-defined]
            if any(type(e) is not cst.Element for e in elements):
                raise _Unproven
            kinds = {self._plain(e.value) for e in elements}
            return INPUT if INPUT in kinds else NUMBER if kinds <= {NUMBER} else VALUE
        if kind in (cst.BinaryOperation, cst.BooleanOperation):
            return self._operation([expr.left, expr.right])  # type: ignore[attr-defined]
        if kind is cst.UnaryOperation:
            return self._operation([expr.expression])  # type: ignore[attr-defined]
        if kind is cst.Comparison:
            parts = [expr.left, *(c.comparator for c in expr.comparisons)]  # type: ignore[attr-defined]
            return self._operation(parts)
        if kind is cst.IfExp:
            self._known(expr.test)  # type: ignore[attr-defined]
            body, other = self._plain(expr.body), self._plain(expr.orelse)  # type: ignore[attr-defined]
            return _join({"": body}, {"": other})[""]
        if kind is cst.Call:
            return self._call(expr)  # type: ignore[arg-type]
        raise _Unproven

    def _name(self, name: cst.Name) -> str:
        if name.value == self.me:
            raise _Unproven  # `self` itself may reach its variables
        if name.value in ("True", "False", "None"):
            return NUMBER
        return self.env.get(name.value, VALUE)

    def _attribute(self, expr: cst.Attribute) -> str:
        qual = self.ctx.qualify(expr) or ""
        if qual.startswith(("jax.", "numpy.", "math.")):
            return VALUE  # `jnp.float32`, `math.pi`
        base, name = expr.value, expr.attr.value
        if type(base) is cst.Name and base.value == self.me:
            if name in self.fields:
                return VALUE
            if name in self.layers:
                return self.layers[name]
            raise _Unproven  # `self.param`, `self.variables`, `self.scope`, ...
        kind = self._known(base)
        if kind == ARRAY and name in _SHAPES:
            return NUMBER
        return VALUE

    def _subscript(self, expr: cst.Subscript) -> str:
        kind = self._known(expr.value)
        for element in expr.slice:
            for part in _index_parts(element.slice):
                self._known(part)
        return kind

    def _operation(self, operands: list[cst.BaseExpression]) -> str:
        kinds = {self._known(o) for o in operands}
        if ARRAY in kinds:
            return ARRAY
        return NUMBER if kinds == {NUMBER} else VALUE

    # -- calls ----------------------------------------------------------------------
    def _call(self, call: cst.Call) -> str:
        if any(a.star for a in call.args):
            raise _Unproven
        func = call.func
        if type(func) is cst.Call:
            return self._applied(self._built(func), call)
        callee = self.expr(func) if type(func) is cst.Attribute else ""
        if callee.startswith((_LAYER, _MODULE)):
            return self._applied(callee, call)
        qual = self.ctx.qualify(func) or ""
        if qual.startswith(_FUNCTIONS) or qual in linen_api.JAX_FUNCTIONS:
            self._data_arguments(call)
            return ARRAY
        if type(func) is cst.Attribute and func.attr.value in jax_api.SHAPE_METHODS:
            if self._plain(func.value) != ARRAY:
                raise _Unproven  # an input's method: code of the caller's object
            self._data_arguments(call)
            return ARRAY
        if type(func) is cst.Name and func.value in _NUMBER_BUILTINS and not qual:
            self._data_arguments(call)
            if any(self.expr(a.value) != NUMBER for a in call.args):
                raise _Unproven
            return NUMBER
        raise _Unproven

    def _data_arguments(self, call: cst.Call) -> None:
        """Each argument is an array or a number: nothing a function may call."""
        if any(self._known(a.value) not in (ARRAY, NUMBER) for a in call.args):
            raise _Unproven

    def _built(self, call: cst.Call) -> str:
        """The kind of layer `call` builds: a listed flax layer given plain options, or a
        class of this module proven in turn."""
        if any(a.star for a in call.args):
            raise _Unproven
        for arg in call.args:
            self._known(arg.value)
        qual = self.ctx.qualify(call.func) or ""
        if qual in linen_api.NEW_OUTPUT_LAYERS:
            positional = sum(a.keyword is None for a in call.args)
            named = {a.keyword.value for a in call.args if a.keyword is not None}
            if positional > 1 or not named <= linen_api.HYPERPARAMETERS:
                raise _Unproven  # a function option (`dot_general=`) runs in `apply`
            return _LAYER + qual
        func = call.func
        name = func.value if type(func) is cst.Name else ""
        defined = name in self.ctx.graph.classes and any(
            name in s.defs for s in self.ctx.graph.scope_stmts(MODULE)
        )
        if not qual and defined and _proven(self.ctx, name, self.seen):
            return _MODULE + name
        raise _Unproven

    def _applied(self, layer: str, call: cst.Call) -> str:
        """A layer called: a listed one takes its input and `HYPERPARAMETERS` keywords
        and returns a new array; a proven class's returns no variable."""
        for arg in call.args:  # its input may be any object; its options may not
            (self._plain if arg is call.args[0] and arg.keyword is None else self._known)(arg.value)
        if layer.startswith(_LAYER):
            named = {a.keyword.value for a in call.args if a.keyword is not None}
            if sum(a.keyword is None for a in call.args) > 1:
                raise _Unproven
            if not named <= linen_api.HYPERPARAMETERS:
                raise _Unproven
            return ARRAY
        return INPUT  # it may return its input


def _index_parts(index: cst.BaseSlice) -> list[cst.BaseExpression]:
    if type(index) is cst.Index:
        return [index.value]
    parts = (index.lower, index.upper, index.step)  # type: ignore[attr-defined]  # a Slice
    return [e for e in parts if e is not None]


def _join(one: dict[str, str], other: dict[str, str]) -> dict[str, str]:
    """Each name's kind after two paths: the same on both, else a value (a layer on one
    path only is no value: not proven)."""
    out: dict[str, str] = {}
    for name in set(one) | set(other):
        kinds = {one.get(name, VALUE), other.get(name, VALUE)}
        if len(kinds) == 1:
            out[name] = kinds.pop()
        elif any(k.startswith((_LAYER, _MODULE)) for k in kinds):
            raise _Unproven
        else:
            out[name] = INPUT if INPUT in kinds else VALUE
    return out
