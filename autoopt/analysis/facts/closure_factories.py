"""Methods of an nnx module class that build layers of their own and return a closure
over them, which `__init__` stores as a field: `self.down = self._block(8, 16, rngs)`.

flax keeps a field holding a plain function as static graph data (`overlays/flax_nnx.py`,
`STATIC_FUNCTION_BASES`): the module's leaves, which `nnx.jit` donates, hold nothing the
function closes over. Such a field adds no leaf and shares none where the closure holds
no leaf of the module and no array of the caller's (a donated buffer it still reads
would fail once traced again). A method `m` of a class `C` is a *factory* when

- `C` is one of those bases' (`constructors.init_fields` checks the rest of the class),
  defines no attribute hook (`__getattr__`, `__getattribute__`), and `m` is bound in its
  body by one undecorated `def` alone, whose name, and `__class__`, no code of the module
  stores as an attribute (`C.m = f`, `self.m = f`, `setattr`): `self.m(...)` in an
  object `C(...)` builds runs that `def`;
- `m` takes plain parameters (no `*args`, `**kwargs`; literal defaults), never reads its
  first one, and its body is, besides a docstring, statements `name = value` binding a
  local once, each a layer constructor the overlay lists as holding new buffers alone
  (`FRESH_LAYERS` also in `UNKEPT_LAYER_CALLS`), given no initializer and no starred
  argument, every argument but `rngs=` built of literals, parameters and such locals only
  (`constructors.bufferless_value`), or such a value itself; one undecorated nested `def`
  with literal defaults; and a last `return` of that function's name;
- a parameter given as `rngs=` is read nowhere else (the layers draw keys from it and
  keep none of its buffers); every other parameter is a *size*, which a call must give a
  value holding no buffer (`factory_sizes`);
- the nested function defines no function, lambda, class or comprehension, declares no
  `global` or `nonlocal`, binds plain names only (no store into an object, no `del`,
  no `+=`), and reads no name it does not bind itself but the method's layers, sizes
  and number locals, a module-level import of JAX, flax, NumPy or `math` no code
  rebinds, or a pure builtin the module never binds (and has no `import *`).

Each call then returns a new function over new layers, which nothing else holds.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import is_literal, param_names, read_names
from autoopt.analysis.core.graph import MODULE, Function, Stmt
from autoopt.analysis.core.walk import walk
from autoopt.analysis.facts.attribute_stores import stored_anywhere, stored_elsewhere
from autoopt.analysis.facts.constructors import bufferless_value, field_value, init_fields
from autoopt.analysis.facts.kept_layers import layers_kept
from autoopt.analysis.facts.plain_layers import plain_layer
from autoopt.analysis.overlays import flax_nnx as nnx_api
from autoopt.analysis.overlays import python as python_api

#: Methods through which a class may answer an attribute read other than its body says.
_HOOKS = frozenset({"__getattr__", "__getattribute__"})
#: The layers a factory may build: new buffers alone, whose calls keep nothing.
_LAYERS = nnx_api.FRESH_LAYERS & frozenset(nnx_api.UNKEPT_LAYER_CALLS)
#: The libraries whose module-level imports a closure may read.
_LIBRARIES = frozenset({"jax", "flax", "numpy", "math"})
#: Nodes of a nested scope, of a binding of an enclosing one, or of a store into an
#: object (`layer.kernel = w`, `del layer.bias`), in the closure's body.
_SCOPES = (
    cst.FunctionDef, cst.Lambda, cst.ClassDef, cst.CompFor, cst.Global, cst.Nonlocal,
    cst.AugAssign, cst.AnnAssign, cst.Del,
)  # fmt: skip


@dataclass(frozen=True)
class Factory:
    """A factory method and its size parameters (each call must give them no buffer)."""

    method: Function
    sizes: tuple[str, ...]


def leaf_fields(ctx: ModuleContext, cls: str) -> tuple[Function, list[Stmt]] | None:
    """`constructors.init_fields` of `cls`, where `__init__` may also store a factory's
    closure (`self.f = self.m(...)`): those stores hold no leaf (`factory_sizes`)."""
    return init_fields(ctx, cls, frozenset(factories(ctx, cls)))


def factory_sizes(
    ctx: ModuleContext, cls: str, me: str, value: cst.BaseExpression
) -> list[cst.BaseExpression] | None:
    """For a value `__init__` stores that calls a factory of `cls` through its first
    parameter `me` (`self.m(8, 16, rngs)`), the arguments it gives the size parameters,
    which must hold no buffer for the closure to hold none of the caller's; None for any
    other value, or a call that binds the parameters otherwise than plainly."""
    func = value.func if type(value) is cst.Call else None
    if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
        return None
    found = factories(ctx, cls).get(func.attr.value)
    if func.value.value != me or found is None:
        return None
    given = _bound(found.method, value)  # type: ignore[arg-type]  # a Call
    if given is None:
        return None
    return [given[p] for p in found.sizes if p in given]


def factories(ctx: ModuleContext, cls: str) -> dict[str, Factory]:
    """The factory methods of class `cls` by name (module docstring)."""
    return ctx.per_module(_all_factories).get(cls, {})


def _all_factories(ctx: ModuleContext) -> dict[str, dict[str, Factory]]:
    out: dict[str, dict[str, Factory]] = {}
    for stmt in ctx.graph.scope_stmts(MODULE):
        node = stmt.node
        if type(node) is not cst.ClassDef or not _static_functions(ctx, node):
            continue
        cls = node.name.value
        for fn in ctx.graph.functions.values():
            if fn.scope == cls and fn.name != "__init__" and _own_method(ctx, cls, fn):
                sizes = _factory_sizes(ctx, fn)
                if sizes is not None:
                    out.setdefault(cls, {})[fn.name] = Factory(fn, sizes)
    return out


def _static_functions(ctx: ModuleContext, node: cst.ClassDef) -> bool:
    """A class with one base, whose objects keep a function field as static data, and
    no attribute hook."""
    if (
        len(node.bases) != 1
        or ctx.qualify(node.bases[0].value) not in nnx_api.STATIC_FUNCTION_BASES
    ):
        return False
    body = node.body.body if type(node.body) is cst.IndentedBlock else ()
    return not any(type(s) is cst.FunctionDef and s.name.value in _HOOKS for s in body)


def _own_method(ctx: ModuleContext, cls: str, fn: Function) -> bool:
    """`fn` alone binds its name in the class body, undecorated, and no code stores an
    attribute of that name or `__class__`."""
    binders = [s for s in ctx.graph.scope_stmts(cls) if fn.name in s.defs]
    if len(binders) != 1 or binders[0].node is not fn.node or fn.node.decorators:
        return False
    return not stored_anywhere(ctx, fn.name) and not stored_anywhere(ctx, "__class__")


def _factory_sizes(ctx: ModuleContext, fn: Function) -> tuple[str, ...] | None:
    """The size parameters of a factory method, None where `fn` is not one."""
    params = fn.node.params
    if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.star_kwarg is not None:
        return None
    plain = [*params.posonly_params, *params.params, *params.kwonly_params]
    if not fn.positional or any(p.default is not None and not is_literal(p.default) for p in plain):
        return None
    me, *others = fn.params  # `me` the first positional: the object the call is bound to
    body = list(fn.node.body.body) if type(fn.node.body) is cst.IndentedBlock else []
    if body and _docstring(body[0]):
        body = body[1:]
    if not body or any(me in {n.value for n in read_names(s)} for s in body):
        return None
    closure = _returned_closure(body)
    if closure is None:
        return None
    rngs = _rngs_params(body[:-1], set(others))
    sizes = tuple(p for p in others if p not in rngs)
    locals_ = _locals(ctx, body[:-1], closure, set(sizes), rngs)
    if locals_ is None or not _closed_over(ctx, closure, locals_ | set(sizes)):
        return None
    return sizes


def _docstring(statement: cst.BaseStatement) -> bool:
    small = statement.body if type(statement) is cst.SimpleStatementLine else ()
    return len(small) == 1 and type(small[0]) is cst.Expr and is_literal(small[0].value)


def _returned_closure(body: list[cst.BaseStatement]) -> cst.FunctionDef | None:
    """The one nested `def` the last statement returns by name, undecorated, with literal
    defaults."""
    last = body[-1]
    small = last.body if type(last) is cst.SimpleStatementLine else ()
    if len(small) != 1 or type(small[0]) is not cst.Return or type(small[0].value) is not cst.Name:
        return None
    defs = [s for s in body if type(s) is cst.FunctionDef]
    if len(defs) != 1 or defs[0].name.value != small[0].value.value or defs[0].decorators:
        return None
    params = defs[0].params
    given = [*params.posonly_params, *params.params, *params.kwonly_params]
    return defs[0] if all(p.default is None or is_literal(p.default) for p in given) else None


def _rngs_params(body: list[cst.BaseStatement], params: set[str]) -> set[str]:
    """The parameters given as a layer's `rngs=` argument somewhere in `body`."""
    out = set()
    for node in (n for statement in body for n in walk(statement)):
        if type(node) is cst.Arg and node.keyword is not None:
            value = node.value
            if node.keyword.value == nnx_api.RNGS_ARGUMENT and type(value) is cst.Name:
                out.add(value.value)
    return out & params


def _locals(
    ctx: ModuleContext,
    body: list[cst.BaseStatement],
    closure: cst.FunctionDef,
    sizes: set[str],
    rngs: set[str],
) -> set[str] | None:
    """The locals of a factory's body but its closure, each bound once to a listed layer
    or a number (None where a statement is anything else); the `rngs` parameters are
    read as a layer's `rngs=` alone."""
    known: set[str] = set()
    layers: set[str] = set()
    for statement in body:
        if statement is closure:
            continue
        small = statement.body if type(statement) is cst.SimpleStatementLine else ()
        node = small[0] if len(small) == 1 else None
        if type(node) is not cst.Assign or len(node.targets) != 1:
            return None
        target = node.targets[0].target
        if type(target) is not cst.Name or target.value in known | sizes | rngs | layers:
            return None
        if bufferless_value(node.value, known | sizes):
            known.add(target.value)
        elif _fresh_layer(ctx, node.value, known | sizes, rngs):
            layers.add(target.value)
        else:
            return None
    if closure.name.value in known | layers:
        return None
    reads = {n.value for n in read_names(closure)}
    return None if reads & rngs else known | layers


def _fresh_layer(
    ctx: ModuleContext, value: cst.BaseExpression, known: set[str], rngs: set[str]
) -> bool:
    """A listed layer built of values holding no buffer, given `rngs=` a parameter."""
    if type(value) is not cst.Call or ctx.qualify(value.func) not in _LAYERS:
        return False
    for arg in value.args:
        keyword = arg.keyword.value if arg.keyword is not None else ""
        if arg.star or keyword.endswith(nnx_api.INITIALIZER_SUFFIX):
            return False
        if keyword == nnx_api.RNGS_ARGUMENT:
            if type(arg.value) is not cst.Name or arg.value.value not in rngs:
                return False
        elif not bufferless_value(arg.value, known):
            return False
    return True


def _closed_over(ctx: ModuleContext, closure: cst.FunctionDef, allowed: set[str]) -> bool:
    """Whether the closure, with no nested scope, reads no free name but `allowed`, a
    library import or a builtin."""
    nodes = list(walk(closure.body))
    if any(type(n) in _SCOPES for n in nodes):
        return False
    targets = [n.target for n in nodes if type(n) is cst.AssignTarget]
    if not all(_plain_target(t) for t in targets):
        return False  # a store into an object
    bound = set(param_names(closure.params)) | _assigned(closure)
    free = {n.value for n in read_names(closure.body)} - bound
    return all(n in allowed or _library(ctx, n) or _builtin(ctx, n) for n in free)


def _plain_target(target: cst.BaseExpression) -> bool:
    """A name, or a tuple or list of plain targets (`B, H, W, C = x.shape`)."""
    if type(target) is cst.Tuple or type(target) is cst.List:
        return all(type(e) is cst.Element and _plain_target(e.value) for e in target.elements)
    return type(target) is cst.Name


def _assigned(closure: cst.FunctionDef) -> set[str]:
    """The names plain assignments (`x = ...`, `a, b = ...`) in the closure bind."""
    names: set[str] = set()
    for node in walk(closure.body):
        if type(node) is cst.AssignTarget:
            names |= {n.value for n in walk(node.target) if type(n) is cst.Name}
    return names


def _library(ctx: ModuleContext, name: str) -> bool:
    """A module-level import of a library (`jnp`), which no code binds otherwise."""
    qual = ctx.imports.qualify(cst.Name(name)) or ""
    if qual.split(".", 1)[0] not in _LIBRARIES:
        return False
    binders = [s for s in ctx.graph.stmts if name in s.defs]
    imports = (cst.Import, cst.ImportFrom)
    module_level = all(s.scope == MODULE and type(s.node) in imports for s in binders)
    declared = any(name in f.globals for f in ctx.graph.functions.values())
    return bool(binders) and module_level and not declared


def _builtin(ctx: ModuleContext, name: str) -> bool:
    """A pure builtin the module never binds (nor may bind: no `import *`)."""
    bound = any(name in s.defs for s in ctx.graph.stmts) or name in ctx.imports.bindings
    starred = any(
        type(s.node) is cst.ImportFrom and type(s.node.names) is cst.ImportStar
        for s in ctx.graph.stmts
    )
    return name in python_api.PURE_BUILTINS and not bound and not starred


def _bound(fn: Function, call: cst.Call) -> dict[str, cst.BaseExpression] | None:
    """The arguments a bound call `obj.m(...)` gives `m`'s parameters (its first aside),
    None with a starred argument, an unknown keyword, a parameter given twice, or one left
    out with no default."""
    if any(a.star for a in call.args):
        return None
    positional = [a.value for a in call.args if a.keyword is None]
    names = fn.positional[1:]
    if len(positional) > len(names):
        return None
    given = dict(zip(names, positional, strict=False))
    for arg in call.args:
        if arg.keyword is not None:
            key = arg.keyword.value
            if key in given or key not in fn.params[1:]:
                return None
            given[key] = arg.value
    params = fn.node.params
    plain = [*params.posonly_params, *params.params, *params.kwonly_params][1:]
    missing = [p for p in plain if p.name.value not in given and p.default is None]
    return None if missing else given


def field_closure(ctx: ModuleContext, cls: str, field: str) -> Function | None:
    """The nested function every store of field `field` of an object of `cls` holds a
    closure of: `__init__` alone stores it, each time as `self.f = self.m(...)` of one
    factory method `m` of the class (`facts/closure_factories.py`); else None."""
    found = leaf_fields(ctx, cls)
    if found is None or stored_elsewhere(ctx, field, found[1]):
        return None
    init, stores = found
    methods: set[str] = set()
    for stmt in (s for s in stores if _stored_field(s) == field):
        value = field_value(stmt)
        if factory_sizes(ctx, cls, init.params[0], value) is None:
            return None
        methods.add(value.func.attr.value)  # type: ignore[attr-defined]  # `self.m(...)`
    if len(methods) != 1:
        return None
    method = factories(ctx, cls)[methods.pop()].method
    return ctx.graph.functions.get(f"{method.qualname}.{returned_name(method)}")


def closure_layer(ctx: ModuleContext, fn: Function, name: str) -> str | None:
    """The listed layer the free name `name` of `fn` holds, where `fn` is the closure a
    factory method of a class returns (`facts/closure_factories.py`), which binds `name`
    once to that layer built plainly (`plain_layer`), in a module that keeps its layers;
    else None."""
    method = ctx.graph.functions.get(fn.scope)
    if method is None or name in fn.params:
        return None
    factory = factories(ctx, method.scope).get(method.name)
    if factory is None or factory.method is not method or returned_name(method) != fn.name:
        return None
    binders = [s for s in ctx.graph.scope_stmts(method.qualname) if name in s.defs]
    node = binders[0].node if len(binders) == 1 else None
    inner = ctx.graph.scope_stmts(fn.qualname)
    if type(node) is not cst.Assign or any(name in s.defs for s in inner):
        return None
    layer = plain_layer(ctx, node.value)
    return layer if layer in nnx_api.UNKEPT_LAYER_CALLS and layers_kept(ctx) else None


def returned_name(method: Function) -> str:
    """The name a factory method's last statement returns."""
    last = method.node.body.body[-1]
    return last.body[0].value.value  # type: ignore[union-attr]  # `return name`


def _stored_field(stmt: Stmt) -> str:
    """The field a store of `constructors.init_fields` sets (`self.f = v` -> `f`)."""
    node = stmt.node
    assert type(node) is cst.Assign
    target = node.targets[0].target
    assert type(target) is cst.Attribute
    return target.attr.value
