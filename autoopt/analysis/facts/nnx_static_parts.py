"""nnx objects that keep nothing carrying a buffer outside their variables.

`nnx.jit`'s body sees every attribute of a graph-object argument that is neither a
variable nor a graph object (the graphdef keeps it) as the caller's very object
(`overlays/flax_nnx.py`, `STATICS_AS_IS`): a plain object holding an array there carries
that buffer into the body, which may store it on another argument (tests/hazards
h1584). `static_problem(ctx, reader, name)` proves that the object `name` holds where
`reader` reads it keeps nothing there that carries a buffer ("" when proven, else the
premise that fails), when all of these hold:

- no statement of the module stores an attribute of any object (`a.b = v`, `a.b[k] = v`,
  `del a.b`, a loop's or a `with`'s target), but a JAX array or a bufferless value by the
  value model (`model.bias.value = v`, a variable's value or a module's leaf), or
  `self.f = v` in an undecorated method of a class of the module, `self` its first
  parameter, never read off the class (`C.m(obj)`), where no code runs an `__init__` on
  an object it is given (`unkept_arguments.init_named`): a store into an object of that
  class, which is proven only where no method but `__init__` writes through `self`;
  none sets attributes by name (`setattr`, `__dict__`, `vars`, nnx's `set_attributes`)
  or a variable's metadata
  (`set_metadata`: static in the graphdef), nor writes state into a module
  (`nnx.update`): each object holds what its construction stored;
- one dominating `name = C(...)` alone binds it (`nnx_modules.binding_call`), and
  - `C(...)` is a bufferless value as below (a listed layer, `nnx.Rngs`, ...);
  - or `C` is a class of the module whose objects are of exactly that class
    (`kept_layers.user_classes`: `nnx.Module` its one base, no decorator, no metaclass)
    and whose `__init__` `init_fields` reads, each value it stores in a field being
    bufferless (below), or a factory method's closure given bufferless sizes
    (`closure_factories.leaf_fields`): static graph data closing over new layers of
    its own, which no argument holds and so no call donates;
  - or `C` is an nnx optimizer (`OPTIMIZERS`) given (`optimizer_arguments`) the name of
    a model proven the same way where the optimizer is built, a transformation built
    there by a constructor `BUFFERLESS_OPTIMIZERS` lists given only bufferless values
    (no schedule), and no `wrt` but a variable type.

A stored value is bufferless where it is a number, a string, a shape, a dtype or None: by
the value model, a parameter of `__init__` bound nowhere else that the call gives one (or
a constant default), a field stored once from such a parameter (`self.n_in`), a local
whose one dominating binding is one, or an operation, tuple, item or choice of them
(`shape[0] * shape[1]`). It is also bufferless where it is a variable type called with
one value by position (`nnx.Param(w)`: a variable, whose value is a leaf: a tracer in the
body, a new buffer after it, a plain object raising); `nnx.Rngs` (`BUFFERLESS_BUILT`)
given numbers, or a parameter given one; a layer `BUFFERLESS_STATICS` lists given
bufferless values by position and by keyword options `PLAIN_LAYER_OPTIONS` lists but
initializers (`rngs` anything: it keeps none of it); an `nnx.Sequential` of bufferless
values given by position; a lambda reading only its parameters and builtins (`lambda
x: x`); or an object of a class of the module proven as above, its
`__init__` read with what the call gives. Anything else is unproven.
"""

from __future__ import annotations

import builtins

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import is_constant, scope_nodes
from autoopt.analysis.core.graph import Function, Stmt
from autoopt.analysis.core.walk import walk
from autoopt.analysis.facts.attribute_stores import init_named
from autoopt.analysis.facts.closure_factories import factory_sizes, leaf_fields
from autoopt.analysis.facts.constructors import field_value, param_fields
from autoopt.analysis.facts.kept_layers import user_classes
from autoopt.analysis.facts.nnx_modules import binding_call, optimizer_arguments
from autoopt.analysis.overlays import flax_nnx as nnx_api
from autoopt.analysis.overlays import optax as optax_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

#: Values that hold no buffer and cannot be changed in place.
_BUFFERLESS = frozenset({Kind.SCALAR, Kind.STRING, Kind.DTYPE, Kind.SHAPE, Kind.NONE})
#: Values an attribute store may put anywhere: a JAX array is a variable's value or a
#: module's leaf (`overlays/flax_nnx.py`, `ARRAY_ATTRIBUTES`), never static.
_DATA_STORED = _BUFFERLESS | {Kind.ARRAY}
#: Words through which code sets attributes by name, or a variable's metadata (static in
#: the graphdef: the caller's very object in the body).
_BY_NAME = frozenset(
    {"setattr", "__setattr__", "__dict__", "vars", nnx_api.SET_ATTRIBUTES, "set_metadata"}
)
_MAX_DEPTH = 8
#: Names every module may read without binding them.
_BUILTINS = frozenset(dir(builtins))
#: Operations whose result, on values holding no buffer, holds none (a number, a string,
#: a tuple of them, a bool).
_OPERATIONS = (cst.BinaryOperation, cst.UnaryOperation, cst.BooleanOperation, cst.Comparison)


def static_problem(ctx: ModuleContext, reader: Stmt, name: str) -> str:
    """Why the object `name` holds where `reader` reads it may keep something carrying a
    buffer outside its variables ("" when proven it keeps nothing such)."""
    stored = ctx.per_module(_stored_after_construction)
    if stored:
        return stored
    return _object_problem(ctx, reader, name, 0)


def _object_problem(ctx: ModuleContext, reader: Stmt, name: str, depth: int) -> str:
    call = binding_call(ctx, reader, name)
    if call is None or depth >= _MAX_DEPTH:
        return f"`{name}` is not bound once to an object built in place"
    binder = ctx.graph.reaching_defs(reader, name)[0]
    if ctx.qualify(call.func) in nnx_api.OPTIMIZERS:
        return _optimizer_problem(ctx, binder, name, call, depth)
    values = _Values(ctx, binder, {}, depth)
    if type(call.func) is cst.Name and call.func.value in user_classes(ctx):
        return values.built_problem(call, name)
    if values.stored(call, binder):
        return ""  # a listed layer, built in place of bufferless values
    return f"`{name}` is not built by a class autoopt reads or a layer given bufferless values"


def _optimizer_problem(
    ctx: ModuleContext, binder: Stmt, name: str, call: cst.Call, depth: int
) -> str:
    """`nnx.ModelAndOptimizer(model, optax.adam(1e-3))`: the model proven, the optax
    transformation built in place of bufferless values, no filter but a variable type."""
    parts = optimizer_arguments(ctx, call)
    if parts is None or any(
        a.keyword is not None
        and a.keyword.value in nnx_api.OPTIMIZER_FILTERS
        and ctx.qualify(a.value) not in nnx_api.VARIABLE_TYPES
        for a in call.args
    ):
        return f"`{name}` is built from arguments autoopt does not read"
    module, tx = parts
    values = _Values(ctx, binder, {}, depth)
    if not values.bufferless_optax(tx, optax_api.BUFFERLESS_OPTIMIZERS):
        return f"`{name}` is given a transformation not proven to hold no buffer"
    if type(module) is not cst.Name:
        return f"`{name}` is given a model autoopt does not read"
    return _object_problem(ctx, binder, module.value, depth + 1)


#: What a parameter is given: a value holding no buffer, or a graph object keeping none
#: outside its variables (`nnx.Rngs(0)`); anything else is unknown ("").
_VALUE = "value"
_GRAPH = "graph"


class _Values:
    """Which values hold no buffer and cannot be changed in place, read at `at`, where
    `given` says what some parameters hold (`_VALUE`, `_GRAPH`, "")."""

    def __init__(
        self,
        ctx: ModuleContext,
        at: Stmt,
        given: dict[str, str],
        depth: int,
        fields: tuple[str, dict[str, str]] = ("", {}),
    ):
        self.ctx = ctx
        self.at = at
        self.given = given
        self.depth = depth
        # `__init__`'s first parameter and the fields it stores once from a parameter
        self.fields = fields

    def bufferless(self, expr: cst.BaseExpression, at: Stmt | None = None) -> bool:
        """A number, a string, a shape, a dtype or None: by the value model, a parameter
        given one, a local bound once to one, or an operation, tuple, item or choice of
        such values."""
        at = at or self.at
        if model(self.ctx).value_of(at, expr).kind in _BUFFERLESS:
            return True
        if type(expr) is cst.Name:
            return self._name(expr.value, at)
        if type(expr) is cst.Tuple:
            return all(
                type(e) is cst.Element and self.bufferless(e.value, at) for e in expr.elements
            )
        if isinstance(expr, _OPERATIONS):
            return all(self.bufferless(e, at) for e in _operands(expr))
        if type(expr) is cst.Subscript:
            indexes = [e.slice for e in expr.slice]
            return self.bufferless(expr.value, at) and all(
                type(i) is cst.Index and self.bufferless(i.value, at) for i in indexes
            )
        if type(expr) is cst.IfExp:
            return self.bufferless(expr.body, at) and self.bufferless(expr.orelse, at)
        if type(expr) is cst.Attribute and type(expr.value) is cst.Name:
            me, params = self.fields  # `self.num_classes`, stored from a parameter
            param = params.get(expr.attr.value) if expr.value.value == me else None
            return param is not None and self._name(param, at)
        return False

    def _name(self, name: str, at: Stmt) -> bool:
        """A parameter bound nowhere else in its function, given a bufferless value; or a
        local whose one binding reaching `at` dominates it, to a bufferless value."""
        graph = self.ctx.graph
        fn = graph.functions.get(at.scope)
        if name in self.given or (fn is not None and name in fn.params):
            return self.given.get(name) == _VALUE and not self._rebound(name, at)
        binders = graph.reaching_defs(at, name)
        node = binders[0].node if len(binders) == 1 else None
        if type(node) is not cst.Assign or len(node.targets) != 1:
            return False
        target = node.targets[0].target
        if type(target) is not cst.Name or not graph.dominates(binders[0], at):
            return False
        return self.bufferless(node.value, binders[0])

    def _rebound(self, name: str, at: Stmt) -> bool:
        return any(name in s.defs for s in self.ctx.graph.scope_stmts(at.scope))

    def bufferless_optax(self, expr: cst.BaseExpression, kinds: frozenset[str]) -> bool:
        """An optax object of `kinds` holding no buffer (`overlays/optax.py`): a call of a
        constructor listed there, built in place or bound once to a name, given
        bufferless values, schedules holding no buffer, and (a chain) such
        transformations."""
        if type(expr) is cst.Name:  # `tx = optax.adam(1e-3)`, the one binding that reaches
            expr = binding_call(self.ctx, self.at, expr.value) or expr
        if type(expr) is not cst.Call or any(a.star for a in expr.args):
            return False
        qual = self.ctx.qualify(expr.func) or ""
        if qual in optax_api.SCHEDULE_JOINS and kinds is optax_api.BUFFERLESS_SCHEDULES:
            return self._join(expr, optax_api.SCHEDULE_JOINS[qual])
        if qual in optax_api.BUFFERLESS_CHAINS and kinds is optax_api.BUFFERLESS_OPTIMIZERS:
            parts = [a for a in expr.args if a.keyword is None]
            return len(parts) == len(expr.args) and all(
                self.bufferless_optax(a.value, kinds) for a in parts
            )
        schedules = optax_api.BUFFERLESS_SCHEDULES
        return qual in kinds and all(
            self.bufferless(a.value) or self.bufferless_optax(a.value, schedules) for a in expr.args
        )

    def _join(self, call: cst.Call, lists: tuple[tuple[str, int], ...]) -> bool:
        """`optax.join_schedules(schedules=[...], boundaries=[...])`: each list it keeps
        written in place, of schedules holding no buffer and of bufferless values, and no
        other argument."""
        given = _arguments(call, lists)
        if given is None:
            return False
        schedules = optax_api.BUFFERLESS_SCHEDULES
        for value in given:
            if type(value) is not cst.List or any(
                type(e) is not cst.Element
                or not (self.bufferless(e.value) or self.bufferless_optax(e.value, schedules))
                for e in value.elements
            ):
                return False
        return True

    def stored(self, value: cst.BaseExpression, at: Stmt) -> bool:
        """Whether a value stored in a field carries no buffer outside variables: a
        bufferless value, a variable given one value by position, a listed layer given
        bufferless values, an `nnx.Sequential` of such values, or an object of a class
        of the module proven so."""
        if self.bufferless(value, at) or self.graph(value, at) or _plain_lambda(value):
            return True
        if type(value) is not cst.Call or any(a.star for a in value.args):
            return False
        qual = self.ctx.qualify(value.func)
        if qual in nnx_api.VARIABLE_TYPES:
            return len(value.args) == 1 and value.args[0].keyword is None
        if qual in nnx_api.BUFFERLESS_STATICS:
            return all(self._layer_argument(a, at) for a in value.args)
        if qual == nnx_api.SEQUENTIAL:
            return all(a.keyword is None and self.stored(a.value, at) for a in value.args)
        func = value.func
        if type(func) is cst.Name and func.value in user_classes(self.ctx):
            inner = _Values(self.ctx, at, self.given, self.depth, self.fields)
            return not inner.built_problem(value, func.value)
        return False

    def graph(self, expr: cst.BaseExpression, at: Stmt | None = None) -> bool:
        """A graph object keeping nothing outside its variables: built in place by a
        constructor `BUFFERLESS_BUILT` lists given bufferless values, or `GRAPH_COLLECTIONS`
        lists given such graph objects by keyword, or a parameter given one."""
        if type(expr) is cst.Name:
            return self.given.get(expr.value) == _GRAPH
        if type(expr) is not cst.Call:
            return False
        qual = self.ctx.qualify(expr.func)
        if qual in nnx_api.GRAPH_COLLECTIONS:  # `nnx.MultiMetric(loss=Average("loss"))`
            return all(a.keyword is not None and self.graph(a.value, at) for a in expr.args)
        if qual not in nnx_api.BUFFERLESS_BUILT:
            return False
        return all(not a.star and self.bufferless(a.value, at) for a in expr.args)

    def _layer_argument(self, arg: cst.Arg, at: Stmt) -> bool:
        """A size or a plain option but an initializer, bufferless; or `rngs`."""
        keyword = arg.keyword.value if arg.keyword is not None else None
        if keyword == nnx_api.RNGS_ARGUMENT:
            return True
        if keyword is not None and (
            keyword not in nnx_api.PLAIN_LAYER_OPTIONS
            or keyword.endswith(nnx_api.INITIALIZER_SUFFIX)
        ):
            return False
        return self.bufferless(arg.value, at)

    def built_problem(self, call: cst.Call, name: str) -> str:
        """Why the object `call` builds, of a class of the module, may keep something
        carrying a buffer outside its variables ("" when it keeps nothing such)."""
        func = call.func
        if type(func) is not cst.Name or func.value not in user_classes(self.ctx):
            return f"`{name}` is not an object of an nnx module class of this file"
        cls = func.value
        found = leaf_fields(self.ctx, cls)
        if found is None or self.depth >= _MAX_DEPTH or any(a.star for a in call.args):
            return f"`{cls}.__init__` is not read"
        init, stores = found
        given = self._given(init, call)
        fields = (init.params[0], param_fields(init, stores))
        inner = _Values(self.ctx, self.at, given, self.depth + 1, fields)
        for store in stores:
            value = field_value(store)
            sizes = factory_sizes(self.ctx, cls, init.params[0], value)
            if sizes is not None and all(inner.bufferless(s, store) for s in sizes):
                continue  # a factory's closure over new layers of its own, never donated
            if not inner.stored(value, store):
                return f"`{cls}` stores `{_short(self.ctx, value)}`, not proven to carry no buffer"
        return ""

    def _given(self, init: Function, call: cst.Call) -> dict[str, str]:
        """`__init__`'s parameters -> what `call` gives each (its default where it gives
        none: a constant is a bufferless value)."""
        params = init.node.params
        named = [*params.params, *params.kwonly_params]
        given = {
            p.name.value: _VALUE if p.default is not None and is_constant(p.default) else ""
            for p in named
        }
        positional = [a for a in call.args if a.keyword is None]
        if len(positional) > len(init.positional) - 1:
            return {}  # `*args` takes the rest
        for param, arg in zip(init.positional[1:], positional, strict=False):
            given[param] = self._kind(arg.value)
        for arg in call.args:
            if arg.keyword is not None:
                given[arg.keyword.value] = self._kind(arg.value)
        return given

    def _kind(self, expr: cst.BaseExpression) -> str:
        if self.bufferless(expr):
            return _VALUE
        return _GRAPH if self.graph(expr) else ""


def _plain_lambda(expr: cst.BaseExpression) -> bool:
    """`lambda x: x`: no default, and its body reads only its parameters and builtins,
    so the function object holds no buffer (no default, no closure cell)."""
    if type(expr) is not cst.Lambda:
        return False
    params = expr.params
    named = [*params.posonly_params, *params.params, *params.kwonly_params]
    stars = [p for p in (params.star_arg, params.star_kwarg) if isinstance(p, cst.Param)]
    if any(p.default is not None for p in named):
        return False
    own = {p.name.value for p in [*named, *stars]}
    read = {n.value for n in walk(expr.body) if type(n) is cst.Name}
    return read <= own | _BUILTINS


def _short(ctx: ModuleContext, expr: cst.BaseExpression) -> str:
    """`expr` as written, `f(...)` for a call that spans lines."""
    code = ctx.code(expr)
    if "\n" not in code:
        return code
    return f"{ctx.code(expr.func)}(...)" if type(expr) is cst.Call else "..."


def _operands(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    if type(expr) in (cst.BinaryOperation, cst.BooleanOperation):
        return [expr.left, expr.right]  # type: ignore[attr-defined]  # checked
    if type(expr) is cst.UnaryOperation:
        return [expr.expression]
    assert type(expr) is cst.Comparison
    return [expr.left] + [c.comparator for c in expr.comparisons]


def _stored_after_construction(ctx: ModuleContext) -> str:
    """The first statement (as a premise) that may store an attribute of an object other
    than its own class's method's `self`, or set one by name; "" where none."""
    named = init_named(ctx)
    methods = _methods_read_off_classes(ctx)
    for stmt in ctx.graph.stmts:
        if not named and _own_object_store(ctx, stmt, methods):
            continue
        for node in scope_nodes(stmt.node):
            if type(node) is cst.Name and node.value in _BY_NAME:
                return f"line {ctx.span(stmt.node).line} may set attributes by name"
            if type(node) is cst.Attribute and node.attr.value in _BY_NAME:
                return f"line {ctx.span(stmt.node).line} may set attributes by name"
            if type(node) is cst.Call and ctx.qualify(node.func) in nnx_api.MUTATING:
                return f"line {ctx.span(stmt.node).line} writes state into a module"
        if _data_store(ctx, stmt):
            continue
        if any(type(n) is cst.Attribute for t in _targets(stmt.node) for n in scope_nodes(t)):
            return f"line {ctx.span(stmt.node).line} stores an attribute after construction"
    return ""


def _methods_read_off_classes(ctx: ModuleContext) -> set[tuple[str, str]]:
    """`(C, m)` for each `C.m` the module reads of a class of its own (an unbound method,
    which may be called on any object) or names in a string (`getattr(C, "m")`)."""
    found = set()
    for stmt in ctx.graph.stmts:
        for node in scope_nodes(stmt.node):
            if type(node) is cst.Attribute and type(node.value) is cst.Name:
                found.add((node.value.value, node.attr.value))
            elif isinstance(node, cst.SimpleString):
                found.add(("", str(node.evaluated_value)))
            elif type(node) is cst.Name and node.value == "getattr":
                found.add(("", "*"))  # any method, read by a name computed
    return found


def _own_object_store(ctx: ModuleContext, stmt: Stmt, methods: set[tuple[str, str]]) -> bool:
    """`self.f = v` in an undecorated method of a class of the module's top level, `self`
    its first parameter, never bound again, where the method is never read off the class
    (`C.m(obj)`) nor named in a string, and no code runs an `__init__` on an object it is
    given (`unkept_arguments.init_named`): a store into an object of that class (whose
    objects are proven to keep nothing only where no other method writes through `self`,
    `constructors.init_fields`) or the one its `__init__` is making."""
    fn = ctx.graph.functions.get(stmt.scope)
    node = stmt.node
    if fn is None or fn.scope not in ctx.graph.classes or not fn.params or fn.node.decorators:
        return False
    if type(node) is not cst.Assign or ctx.graph.functions.get(fn.scope) is not None:
        return False
    if {(fn.scope, fn.name), ("", fn.name), ("", "*")} & methods:
        return False
    me = fn.params[0]
    if any(me in s.defs for s in ctx.graph.scope_stmts(fn.qualname)):
        return False
    return all(
        type(t.target) is cst.Attribute
        and type(t.target.value) is cst.Name
        and t.target.value.value == me
        for t in node.targets
    )


def _data_store(ctx: ModuleContext, stmt: Stmt) -> bool:
    """`model.bias.value = v` (`=`, a single target), `v` by the value model a JAX array
    or a bufferless value: stored on a variable it is its value, on a module a leaf (a
    tracer in the body) or a value holding no buffer, never an object carrying one."""
    node = stmt.node
    single = type(node) is cst.Assign and len(node.targets) == 1
    value = node.value if single or type(node) is cst.AnnAssign else None  # type: ignore[attr-defined]  # checked
    return value is not None and model(ctx).value_of(stmt, value).kind in _DATA_STORED


def _targets(node: cst.CSTNode) -> list[cst.BaseExpression]:
    """What a statement stores into or deletes."""
    if type(node) is cst.Assign:
        return [t.target for t in node.targets]
    if type(node) in (cst.AugAssign, cst.AnnAssign, cst.For):
        return [node.target]  # type: ignore[attr-defined]  # checked
    if type(node) is cst.Del:
        return [node.target]
    if type(node) is cst.With:
        return [i.asname.name for i in node.items if i.asname is not None]
    return []


def _arguments(
    call: cst.Call, params: tuple[tuple[str, int], ...]
) -> list[cst.BaseExpression] | None:
    """What `call` gives each of `params` (keyword, position), where it gives each once
    and nothing else; None otherwise."""
    positional = [a.value for a in call.args if a.keyword is None]
    named = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if len(positional) + len(named) != len(params) or set(named) - {k for k, _ in params}:
        return None
    found = []
    for keyword, position in params:
        value = named.get(keyword) if keyword in named else None
        if value is None and position < len(positional):
            value = positional[position]
        if value is None:
            return None
        found.append(value)
    return found
