"""Linen module classes whose fields cannot become variables: built from anything.

A linen module is a dataclass of hyperparameters; `init` makes its variables with
initializers. A field's value becomes (part of) a variable only if the module's code
hands that very object on to where an initializer or a layer may return it. So
`Model(**hparams).init(key, x)` makes new buffers, whatever `hparams` holds, when the
class's code is sealed (`facts/fresh.py`: library initializers given constants) and
every field is *inert*: each read `self.f` of a field (an annotated name of the class
body) in the class's code, or a field or item of it (`self.f[0]`, `self.f.x`), is

- an operand of arithmetic or a comparison, a test (`if`, a conditional expression's),
  or a bound of a slice or an index of another value: the result is a new value, or
  none of the field's;
- an argument of `range`, `len`, `int`, `float` or `bool`, or (directly, or as an
  element of a tuple or list given) of a NumPy or jax.numpy constructor
  (`np.zeros((n, self.d))`, `jnp.arange(self.n)`), which make new arrays;
- a shape after the initializer of `self.param(name, init, *shape)`, `init` a library
  initializer (`nn.initializers.normal(0.02)`), or an argument of a shape method
  (`qkv.reshape(b, n, self.num_heads, -1)`) of a local name every binding of which is an
  array: a call of a flax.linen layer the class stores in `setup` (`self.qkv_proj(x)`),
  of jax.numpy or jax.nn, or a shape method of such a name;
- the first positional argument, or a hyperparameter keyword
  (`flax_linen.HYPERPARAMETERS`), of a flax.linen layer;
- an argument of a shape method of an object of unknown kind (`x.reshape(b, -1,
  self.patch)`, `x` the input of `__call__`), where every value that may then hold the
  field stays on the data path (`facts/linen_data.py`);
- an argument of a linen module class of this module that derives from
  `flax.linen.Module` alone, whose code is sealed, bound to a field of it (by keyword,
  or by position in the order the fields are declared) that is inert there in turn;
- an argument of a module-level function of this module (`img_to_patch(x,
  self.patch_size)`: defined once, undecorated, bound nowhere else, its code sealed)
  bound to a parameter it never rebinds, each read of which there is inert by these
  rules. Where that function calls a shape method of one of its parameters, that
  parameter is an array when this call passes it a name proven an array where it is
  read (each binding reaching the call an array, as below).

A local name is an array where every binding of it is; a parameter only where the call
being followed passes one (the input of `__call__` may be any object).

Nothing else is inert: a field called (`self.act_fn(x)` may be a module with arrays of
its own), bound to a name or another attribute, returned, or handed to anything else.
`self` itself is only read as `self.a`. A `**` argument may set linen's own `parent` (a
module built outside `setup` or `@compact` raises) and `name` (a string) too.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.facts.linen_data import Sites, bound_once, on_data_path
from autoopt.analysis.facts.sealed import sealed_code
from autoopt.analysis.facts.self_attrs import method_targets, roots, walk_parents
from autoopt.analysis.overlays import flax_linen as linen_api
from autoopt.analysis.overlays import jax as jax_api

_NUMBER_BUILTINS = frozenset({"range", "len", "int", "float", "bool"})
_OPERATIONS = (cst.BinaryOperation, cst.UnaryOperation, cst.Comparison, cst.ComparisonTarget)
_TESTS = (cst.If, cst.While, cst.Assert)
_INITIALIZERS = ".initializers."


def inert_fields(ctx: ModuleContext, cls: str) -> bool:
    """Whether no field of the module class `cls` can become one of its variables."""
    return ctx.per_module(_inert_class, cls, frozenset())


def _inert_class(ctx: ModuleContext, cls: str, seen: frozenset[str]) -> bool:
    fields = field_names(ctx, cls)
    return fields is not None and all(_inert(ctx, cls, f, seen | {cls}) for f in fields)


def field_names(ctx: ModuleContext, cls: str) -> list[str] | None:
    """The fields of a module class of this module deriving from `flax.linen.Module`
    alone, in order (None: not such a class)."""
    node = _class(ctx, cls)
    if node is None or len(node.bases) != 1 or node.keywords or node.decorators:
        return None
    if ctx.qualify(node.bases[0].value) not in linen_api.MODULE_BASES:
        return None
    found: list[str] = []
    for stmt in ctx.graph.scope_stmts(cls):
        target = getattr(stmt.node, "target", None)
        if type(stmt.node) is cst.AnnAssign and type(target) is cst.Name:
            found.append(target.value)
    return found


def _class(ctx: ModuleContext, cls: str) -> cst.ClassDef | None:
    for stmt in ctx.graph.scope_stmts(MODULE):
        if type(stmt.node) is cst.ClassDef and stmt.node.name.value == cls:
            return stmt.node
    return None


def inert_field(ctx: ModuleContext, cls: str, field: str) -> bool:
    """Whether no value of the field `field` of `cls` can become one of its variables."""
    return _inert(ctx, cls, field, frozenset({cls}))


def _inert(ctx: ModuleContext, cls: str, field: str, seen: frozenset[str]) -> bool:
    """Every read of `self.field` in the methods of `cls` is inert (and `self` is read
    only as `self.a` there)."""
    reads = field_reads(ctx, (cls,), field)
    return reads is not None and all(_inert_read(ctx, n, me, seen) for n, me in reads)


def field_reads(
    ctx: ModuleContext, classes: tuple[str, ...], field: str
) -> list[tuple[cst.Attribute, str]] | None:
    """Every read `self.field` in the methods of `classes` (nested code included), with
    the name `self` has there; None where `self` is read other than as `self.a`."""
    found: list[tuple[cst.Attribute, str]] = []
    for fn in ctx.graph.functions.values():
        if fn.scope not in classes or not fn.params:
            continue
        me = fn.params[0]
        for stmt in _body(ctx, fn.qualname):
            for root in roots(stmt):
                for node, parent in walk_parents(root, None):
                    if type(node) is not cst.Name or node.value != me:
                        continue
                    if type(parent) is not cst.Attribute or parent.value is not node:
                        return None  # `self` handed on: its fields may go anywhere
                    if parent.attr.value == field:
                        found.append((parent, me))
    return found


def inert_read(ctx: ModuleContext, node: cst.Attribute, me: str, classes: tuple[str, ...]) -> bool:
    """The value of the field read `node` (`self.f` in a method of one of `classes`)
    reaches no variable."""
    return _inert_read(ctx, node, me, frozenset(classes))


def _inert_read(
    ctx: ModuleContext,
    node: cst.CSTNode,
    me: str,
    seen: frozenset[str],
    arrays: frozenset[str] = frozenset(),
    sites: Sites = (),
) -> bool:
    """The value of `node` (a field, or a part of one) reaches no variable; `arrays`:
    the parameters of the enclosing function proven arrays at the call being followed,
    `sites` the calls of module functions followed to get there."""
    path = ctx.ancestors(node)
    parent = path[-2]
    if isinstance(parent, (*_OPERATIONS, *_TESTS)):
        return True
    if type(parent) is cst.IfExp:
        return parent.test is node or _inert_read(ctx, parent, me, seen, arrays, sites)
    if type(parent) in (cst.Attribute, cst.Subscript) and parent.value is node:  # type: ignore[attr-defined]
        return _inert_read(ctx, parent, me, seen, arrays, sites)  # `self.f[0]`: a part
    if type(parent) in (cst.Index, cst.Slice, cst.SubscriptElement):
        return True  # an index of another value
    if type(parent) is cst.Element and type(path[-3]) in (cst.Tuple, cst.List):
        return _element_inert(ctx, path, me)
    if type(parent) is cst.Arg and parent.value is node and not parent.star:
        call = path[-3]
        inert = type(call) is cst.Call and _argument_inert(
            ctx, call, parent, me, seen, arrays, sites
        )
        return inert
    return False


def _element_inert(ctx: ModuleContext, path: list[cst.CSTNode], me: str) -> bool:
    """An element of a tuple or list given to a constructor of new arrays, or as the
    shape of `self.param(name, init, shape)`."""
    arg, call = (path[-4], path[-5]) if len(path) > 4 else (None, None)
    if type(arg) is not cst.Arg or type(call) is not cst.Call or arg.star:
        return False
    return _constructor(ctx, call) or _param_shape(ctx, call, arg, me)


def _argument_inert(
    ctx: ModuleContext,
    call: cst.Call,
    arg: cst.Arg,
    me: str,
    seen: frozenset[str],
    arrays: frozenset[str],
    sites: Sites,
) -> bool:
    func = call.func
    if type(func) is cst.Name and func.value in _NUMBER_BUILTINS:
        return func.value not in ctx.imports.bindings and not _rebound(ctx, func.value)
    if _constructor(ctx, call) or _param_shape(ctx, call, arg, me):
        return True
    if _shape_of_array(ctx, call, me, arrays):
        return True
    if _shape_method(call) and on_data_path(ctx, call, arg, sites):
        return True  # `x.reshape(b, -1, self.f)`, `x` of unknown kind
    qual = ctx.qualify(func) or ""
    position = call.args.index(arg)
    keyword = arg.keyword.value if arg.keyword is not None else None
    if _linen_layer(qual):
        return keyword in linen_api.HYPERPARAMETERS if keyword else position == 0
    if type(func) is not cst.Name:
        return False
    if func.value in ctx.graph.functions:
        return _helper_inert(ctx, call, arg, me, seen, arrays, sites)
    fields = field_names(ctx, func.value)
    if fields is None or any(a.star for a in call.args):
        return False
    bound = keyword if keyword is not None else fields[position] if position < len(fields) else ""
    if bound not in fields:
        return False
    if func.value in seen:
        return _inert(ctx, func.value, bound, seen)

    return sealed_code(ctx, func.value) and _inert(ctx, func.value, bound, seen | {func.value})


def _shape_method(call: cst.Call) -> bool:
    """`r.reshape(...)`, a method of `jax_api.SHAPE_METHODS`."""
    func = call.func
    return type(func) is cst.Attribute and func.attr.value in jax_api.SHAPE_METHODS


def _constructor(ctx: ModuleContext, call: cst.Call) -> bool:
    """`np.zeros(...)`, `jnp.arange(...)`: a new array, none of an argument's."""
    qual = ctx.qualify(call.func) or ""
    module, _, last = qual.rpartition(".")
    return module in ("numpy", "jax.numpy") and last in jax_api.FRESH_CONSTRUCTORS


def _param_shape(ctx: ModuleContext, call: cst.Call, arg: cst.Arg, me: str) -> bool:
    """`self.param(name, init, *shape)`, `arg` after `init`, a library initializer (the
    sealed audit proves it given constants only): it makes a new array of that shape."""
    func = call.func
    if type(func) is not cst.Attribute or func.attr.value != "param":
        return False
    if type(func.value) is not cst.Name or func.value.value != me:
        return False
    if arg.keyword is not None or call.args.index(arg) < 2 or len(call.args) < 2:
        return False
    init = call.args[1].value
    init = init.func if type(init) is cst.Call else init
    return _INITIALIZERS in (ctx.qualify(init) or "")


def _shape_of_array(
    ctx: ModuleContext, call: cst.Call, me: str, arrays: frozenset[str] = frozenset()
) -> bool:
    """`x.reshape(..., self.f)` (a method of `jax_api.SHAPE_METHODS`) of a local name
    proven an array: it returns the array's data, none of the argument's."""
    func = call.func
    if type(func) is not cst.Attribute or func.attr.value not in jax_api.SHAPE_METHODS:
        return False
    stmt = ctx.graph_statement(call)
    receiver = func.value
    return (
        stmt is not None
        and type(receiver) is cst.Name
        and _array_name(ctx, stmt.scope, receiver.value, me, frozenset(), arrays)
    )


def _array_name(
    ctx: ModuleContext,
    scope: str,
    name: str,
    me: str,
    seen: frozenset[str],
    arrays: frozenset[str] = frozenset(),
) -> bool:
    """Every binding of `name` in `scope` is a call of a flax.linen layer the class sets
    up (`qkv = self.qkv_proj(x)`), of jax.numpy or jax.nn, or a shape method of such a
    name: an array; a parameter only if one of `arrays`."""
    fn = ctx.graph.functions.get(scope)
    if fn is None or name in fn.globals | fn.nonlocals or name in seen:
        return name in seen
    param = name in fn.params
    if param and name not in arrays:
        return False
    binders = [s for s in ctx.graph.scope_stmts(scope) if name in s.defs]
    if not all(_array_binding(ctx, fn, s, me, seen | {name}, arrays) for s in binders):
        return False
    return param or bool(binders)


def _array_binding(
    ctx: ModuleContext,
    fn: Function,
    stmt: Stmt,
    me: str,
    seen: frozenset[str],
    arrays: frozenset[str],
) -> bool:
    """The statement binds its one target to an array (`_array_name`)."""
    node = stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return False
    value = node.value
    if type(value) is not cst.Call:
        return False
    func = value.func
    qual = ctx.qualify(func) or ""
    if qual.startswith(("jax.numpy.", "jax.nn.")):
        return True
    if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
        return False
    base = func.value.value
    if base == me and _set_up_layer(ctx, fn.scope, func.attr.value):
        return True
    shaped = func.attr.value in jax_api.SHAPE_METHODS
    return shaped and _array_name(ctx, fn.qualname, base, me, seen, arrays)


def _array_at(ctx: ModuleContext, stmt: Stmt, name: str, me: str, arrays: frozenset[str]) -> bool:
    """`name`, read at `stmt`, is an array: each binding reaching it is, and so is the
    parameter it may be (one of `arrays`) where no binding runs before on every path."""
    fn = ctx.graph.functions.get(stmt.scope)
    if fn is None or name in fn.globals | fn.nonlocals:
        return False
    defs = ctx.graph.reaching_defs(stmt, name)
    killed = any(ctx.graph.dominates(d, stmt) for d in defs)  # the parameter cannot reach
    if not killed and (name not in fn.params or name not in arrays):
        return False
    return all(_array_binding(ctx, fn, d, me, frozenset({name}), arrays) for d in defs)


def _helper_inert(
    ctx: ModuleContext,
    call: cst.Call,
    arg: cst.Arg,
    me: str,
    seen: frozenset[str],
    arrays: frozenset[str],
    sites: Sites,
) -> bool:
    """`arg` of a call of a module-level function of this module, sealed and bound once,
    reaches a parameter it never rebinds whose every read there is inert."""
    name = call.func.value  # type: ignore[attr-defined]
    fn = ctx.graph.functions[name]
    stmt = ctx.graph_statement(call)
    if stmt is None or fn.scope != MODULE or fn.node.decorators or name in seen:
        return False
    if any(a.star for a in call.args) or not bound_once(ctx, stmt, name):
        return False
    site = CallSite(stmt, call, fn)
    bound = {p: site.argument(i, p) for i, p in enumerate(fn.positional)}
    bound |= {p.name.value: site.argument(0, p.name.value) for p in fn.node.params.kwonly_params}
    param = next((p for p, e in bound.items() if e is arg.value), None)
    if param is None or any(param in s.defs for s in _body(ctx, fn.qualname)):
        return False
    if not sealed_code(ctx, fn.qualname):
        return False
    given = frozenset(
        p
        for p, e in bound.items()
        if type(e) is cst.Name and _array_at(ctx, stmt, e.value, me, arrays)
    )
    return all(
        _inert_read(ctx, node, "", seen | {name}, given, (*sites, site))
        for s in _body(ctx, fn.qualname)
        for root in roots(s)
        for node, _ in walk_parents(root, None)
        if type(node) is cst.Name and node.value == param
    )


def _body(ctx: ModuleContext, qualname: str) -> list[Stmt]:
    return [s for s in ctx.graph.stmts if s.scope == qualname or s.scope.startswith(qualname + ".")]


def _set_up_layer(ctx: ModuleContext, cls: str, attr: str) -> bool:
    """The class stores `self.attr` only in `setup`, each time a flax.linen layer."""
    stores = [
        (fn.name, node.value if type(node) is cst.Assign else None)
        for fn, node, target in method_targets(ctx, cls)
        if fn.params and type(target) is cst.Attribute and target.attr.value == attr
    ]
    return bool(stores) and all(
        name == "setup" and type(v) is cst.Call and _linen_layer(ctx.qualify(v.func) or "")
        for name, v in stores
    )


def _linen_layer(qual: str) -> bool:
    """A flax.linen layer class (`nn.Dense`), not a lifted transform."""
    last = qual.rsplit(".", 1)[-1]
    layer = qual.startswith("flax.linen.") and last[:1].isupper()
    return layer and qual not in linen_api.TRANSFORMS


def _rebound(ctx: ModuleContext, name: str) -> bool:
    return any(name in s.defs for s in ctx.graph.stmts)
