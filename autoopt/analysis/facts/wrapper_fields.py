"""What an object of a plain class of the module holds of a value its constructor was given.

`diffusion = Diffusion(model, steps)` may hold `model`'s buffers; a donating call that
passes `diffusion.rates` beside `model` passes that field alone. `field_clear` proves the
field holds none of them, and `holds_whole` that the object holds the module only as
the very object (`self.model = model`), whose variables `nnx.jit` writes back in place,
so that reading the object after the call reads no deleted buffer. Both need every way
the field could change after `__init__` stored it closed:

- the object: `obj = C(...)` alone binds `obj` where the call reads it and dominates it
  (`nnx_modules.binding_call`), nothing rebinds it (no `global obj` in a function, no
  other way `reflection.rebinding` names, no namespace handed out:
  `reflection.namespace_reader`, `reflection.locals_escape`), and wherever its scope (or
  a function reading it) names it, it is read as `obj.a`, neither stored to nor deleted,
  `a` a field, or a method called there (`obj.run(x)`; a bound method handed on keeps the
  object), or handed to a function of the module whose parameter is read only so;
- the class: `C` is a class of the module's top level bound once, deriving from nothing,
  undecorated, never used but called, with no subclass, nothing reaching attributes by
  name, `self` read only as `self.a` in its methods (`self_attrs.sealed_class`), no
  method that runs on attribute access or construction (`__getattr__`, `__setattr__`,
  `__new__`, ...), and no method but `__init__` writing through `self`
  (`constructors.writes_later`);
- `__init__` stores the field once, as `self.f = value`, and writes through `self`
  nothing but `self.a = value`;
- the value is an array (immutable: nothing put into it later) that `__init__`'s own
  sharing relation links to nothing but its locals (new buffers: `jnp.sqrt(...)`, a
  local made of them) or to parameters whose arguments at the constructor call share
  nothing with the donated name, in the caller's relation (`jnp.asarray(x)` may return
  `x` itself: it holds what `x` holds).

Each answer is "" where proven, else the premise that failed, in words.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import MUTATING_METHODS
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.facts.aliases import Sharing
from autoopt.analysis.facts.class_family import family
from autoopt.analysis.facts.constructors import literal_default, writes_later
from autoopt.analysis.facts.nnx_modules import binding_call, holds_module
from autoopt.analysis.facts.reflection import (
    constant_globals,
    locals_escape,
    namespace_reader,
    rebinding,
)
from autoopt.analysis.facts.self_attrs import (
    assign_targets,
    class_node,
    roots,
    sealed_class,
    walk_parents,
)
from autoopt.analysis.facts.unkept_arguments import plain_body
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

#: Methods that run on attribute access, on construction or on subclassing.
_HOOKS = frozenset(
    {"__getattr__", "__getattribute__", "__setattr__", "__delattr__", "__new__",
     "__init_subclass__", "__set_name__", "__post_init__", "__class_getitem__"}
)  # fmt: skip


#: Values no change in place can put a buffer into: an array, a number, a string, ...
_IMMUTABLE = frozenset({Kind.ARRAY, Kind.SCALAR, Kind.SHAPE, Kind.STRING, Kind.DTYPE, Kind.NONE})
#: Literals: numbers and strings.
_PLAIN = (
    cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString,
    cst.FormattedString,
)  # fmt: skip
_CONSTANTS = frozenset({"True", "False", "None"})
_MAX_DEPTH = 64


@dataclass(frozen=True)
class Instance:
    """`obj = cls(...)`, as read at a call: the class, the constructor call, its statement."""

    cls: str
    call: cst.Call
    stmt: Stmt
    init: Function


def field_clear(
    ctx: ModuleContext, sharing: Sharing, stmt: Stmt, expr: cst.Attribute, name: str
) -> str:
    """Why `obj.f`, read at `stmt`, may hold buffers `name` holds there (`sharing`: the
    caller's relation); empty where it is proven to hold none."""
    if type(expr.value) is not cst.Name:
        return "it is not a field of a name"
    obj, attr = expr.value.value, expr.attr.value
    found = instance(ctx, stmt, obj)
    if isinstance(found, str):
        return found
    why = _closed(ctx, found, obj, stmt, (attr,))
    return why or _stored_clear(ctx, sharing, found, attr, name)


def holds_whole(ctx: ModuleContext, sharing: Sharing, site: CallSite, obj: str, name: str) -> str:
    """Why `obj`, read at the call `site`, may hold `name`'s buffers other than through
    nnx modules the call is given (a field `self.m = m` given a name the call passes,
    proven to hold a module, as bound at the call: `nnx.jit` writes its variables back in
    place); empty where every other field is proven to hold none of them."""
    stmt = site.stmt
    found = instance(ctx, stmt, obj)
    if isinstance(found, str):
        return found
    fields = _init_fields(ctx, found)
    if isinstance(fields, str):
        return fields
    why = _rebound(ctx, stmt.scope, name) or _closed(ctx, found, obj, stmt, tuple(fields))
    for attr in fields if not why else ():
        if not _given_module(ctx, found, attr, site):
            why = _stored_clear(ctx, sharing, found, attr, name)
            if why:
                return why
    return why


def instance(ctx: ModuleContext, stmt: Stmt, obj: str) -> Instance | str:
    """The construction that alone binds `obj` where `stmt` reads it, or why there is none."""
    call = binding_call(ctx, stmt, obj)
    func = None if call is None else call.func
    if call is None or type(func) is not cst.Name:
        return f"`{obj}` is not bound to one constructor call where it is read"
    cls = func.value
    init = ctx.graph.functions.get(f"{cls}.__init__")
    binders = [s for s in ctx.graph.scope_stmts(MODULE) if cls in s.defs]
    single = len(binders) == 1 and type(binders[0].node) is cst.ClassDef
    if init is None or not init.params or not single:
        return f"`{cls}` is not a class of the module with an `__init__` of its own"
    if any(a.star for a in call.args):
        return f"`{ctx.code(call)}` passes starred arguments"
    rebound = _rebound(ctx, stmt.scope, obj)
    if rebound:
        return rebound
    made = ctx.graph.reaching_defs(stmt, obj)[0]
    return Instance(cls, call, made, init)


def _rebound(ctx: ModuleContext, scope: str, obj: str) -> str:
    """How code other than the scope's own assignments may rebind `obj`, or ""."""
    if scope != MODULE:
        taken = locals_escape(ctx, scope) or _nonlocal_writer(ctx, ctx.graph.functions[scope], obj)
        return f"`{obj}` {taken}" if taken else ""
    how = rebinding(ctx).how(obj) or namespace_reader(ctx)
    if how:
        return f"`{obj}` may be rebound: {how}"
    for fn in ctx.graph.functions.values():
        if obj in fn.globals:
            return f"`{fn.name}` declares `{obj}` global and may rebind it"
    return ""


def _closed(
    ctx: ModuleContext, found: Instance, obj: str, stmt: Stmt, attrs: tuple[str, ...]
) -> str:
    """Why the fields `attrs` of the object may change after `__init__` (or "")."""
    cls = found.cls
    if family(ctx, cls) != (cls,):
        others = ", ".join(f"`{c}`" for c in family(ctx, cls) if c != cls)
        return f"`{cls}` shares a family with {others}, whose methods may rebind its fields"
    node = class_node(ctx, cls)
    hooks = {
        s.name.value
        for s in (node.body.body if node is not None else ())
        if type(s) is cst.FunctionDef
    } & _HOOKS
    if hooks:
        return f"`{cls}` defines `{sorted(hooks)[0]}`, which runs on attribute access"
    if node is None or not plain_body(node):
        return (
            f"`{cls}` binds a value in its body that is not a literal, which may be read as a field"
        )
    for attr in attrs:
        why = sealed_class(ctx, cls, attr)
        if why:
            return why
    if writes_later(ctx, cls):
        return f"a method of `{cls}` other than `__init__` writes through `self`"
    uses = ctx.per_module(_instance_uses, cls, obj, stmt.scope)
    return _init_writes(ctx, found.init) or uses


def _init_writes(ctx: ModuleContext, init: Function) -> str:
    """Why `__init__` may write through `self` other than by `self.a = value` (or ""):
    another target, or a method changing in place what `self` holds."""
    me = init.params[0] if init.params else ""
    for stmt in ctx.graph.stmts:
        if not _within(stmt.scope, init.qualname):
            continue
        written = [t for t in _stored_nodes(stmt.node) if not _plain_field(stmt, t, me)]
        written += [c.func for c in stmt.calls if _changes(c, me)]
        for target in written:
            if _rooted(target, me):
                line = ctx.span(stmt.node).line
                return f"`__init__` writes `{ctx.code(target)}` at line {line}"
    return ""


def _changes(call: cst.Call, me: str) -> bool:
    """`self.items.append(v)`: a method that changes its receiver, reached through `me`."""
    func = call.func
    return type(func) is cst.Attribute and func.attr.value in MUTATING_METHODS and _rooted(func, me)


def _plain_field(stmt: Stmt, target: cst.CSTNode, me: str) -> bool:
    """`self.a = value`, a single target."""
    node = stmt.node
    return (
        type(node) is cst.Assign
        and len(node.targets) == 1
        and node.targets[0].target is target
        and type(target) is cst.Attribute
        and type(target.value) is cst.Name
        and target.value.value == me
    )


def _rooted(target: cst.CSTNode, me: str) -> bool:
    root = target
    while type(root) is cst.Attribute or type(root) is cst.Subscript:
        root = root.value
    return root is not target and type(root) is cst.Name and root.value == me


def _stored_nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The targets a statement binds, stores to or deletes, tuples unpacked."""
    if type(node) is cst.Assign:
        return list(assign_targets(node))
    if type(node) in (cst.AugAssign, cst.AnnAssign, cst.For, cst.Del):
        return _unpacked(node.target)  # type: ignore[attr-defined]
    if type(node) is cst.With:
        return [n for i in node.items if i.asname is not None for n in _unpacked(i.asname.name)]
    return []


def _unpacked(target: cst.BaseExpression) -> list[cst.CSTNode]:
    if type(target) in (cst.Tuple, cst.List):
        return [n for e in target.elements for n in _unpacked(e.value)]  # type: ignore[attr-defined]
    if type(target) is cst.StarredElement:
        return _unpacked(target.value)
    return [target]


def _within(scope: str, outer: str) -> bool:
    return scope == outer or scope.startswith(outer + ".")


def _instance_uses(ctx: ModuleContext, cls: str, obj: str, scope: str) -> str:
    """Why code may reach the object `obj` holds other than by reading its fields or
    calling its methods (or ""): in `scope` and the functions nested there that read `obj`
    (every function reading the global, at module level)."""
    methods = _methods(ctx, cls)
    for stmt in ctx.graph.stmts:
        if not _reads_variable(ctx, stmt, obj, scope):
            continue
        why = _uses(ctx, stmt, obj, methods, handed=True)
        if why:
            return why
    return ""


def _reads_variable(ctx: ModuleContext, stmt: Stmt, obj: str, scope: str) -> bool:
    """Whether a name `obj` in `stmt` is the variable of `scope` (not a local of a function
    nested there that binds its own)."""
    if not (_within(stmt.scope, scope) or scope == MODULE):
        return False
    inner = stmt.scope
    while inner != scope and inner != MODULE:
        fn = ctx.graph.functions.get(inner)
        if fn is not None:
            local = obj in fn.params or any(obj in s.defs for s in ctx.graph.scope_stmts(inner))
            if local and obj not in fn.globals | fn.nonlocals:
                return False
        inner = inner.rsplit(".", 1)[0] if "." in inner else MODULE
    return True


def _uses(ctx: ModuleContext, stmt: Stmt, name: str, methods: set[str], handed: bool) -> str:
    """Why `stmt` may reach the object `name` holds other than through `name.field` reads
    or `name.method(...)` calls (or ""); `handed`: a call of a function of the module
    given it is followed one level."""
    stored = {id(n) for n in _stored_nodes(stmt.node)}
    written = _written(stmt)
    for root in _roots(stmt):
        for node, parent in walk_parents(root, None):
            if type(node) is not cst.Name or node.value != name:
                continue
            if id(node) in stored:
                continue  # `obj = C(...)`, or another binding of the name: not the object
            if id(node) in written:
                line = ctx.span(stmt.node).line
                return f"`{name}` is written through at line {line}"
            why = _use(ctx, stmt, node, parent, methods, stored, handed)
            if why:
                return why
    return ""


def _use(
    ctx: ModuleContext,
    stmt: Stmt,
    node: cst.Name,
    parent: cst.CSTNode | None,
    methods: set[str],
    stored: set[int],
    handed: bool,
) -> str:
    line = ctx.span(stmt.node).line
    what = f"`{node.value}` is used other than by reading its fields at line {line}"
    if type(parent) is cst.Attribute and parent.value is node:
        attr = parent.attr.value
        if id(parent) in stored or attr.startswith("__"):
            return what
        if attr in methods and not _called(stmt, parent):
            return f"{what}: `{ctx.code(parent)}` hands on a method bound to it"
        return ""
    if type(parent) is cst.Arg and parent.value is node and handed and not parent.star:
        return "" if _handed_to_reader(ctx, stmt, parent, methods) else what
    return what


def _written(stmt: Stmt) -> set[int]:
    """The ids of the nodes inside what `stmt` stores to or deletes through an attribute or
    an item (`obj.model.extra = w`), or changes in place by a method
    (`obj.items.append(w)`)."""
    parts: list[cst.CSTNode] = [
        t for t in _stored_nodes(stmt.node) if type(t) is cst.Attribute or type(t) is cst.Subscript
    ]
    for call in stmt.calls:
        func = call.func
        if type(func) is cst.Attribute and func.attr.value in MUTATING_METHODS:
            parts.append(func.value)
    return {id(n) for part in parts for n, _ in walk_parents(part, None)}


def _roots(stmt: Stmt) -> list[cst.CSTNode]:
    """`self_attrs.roots`, and a class's bases, keywords and decorators."""
    node = stmt.node
    if type(node) is not cst.ClassDef:
        return roots(stmt)
    return [*node.bases, *node.keywords, *(d.decorator for d in node.decorators)]


def _called(stmt: Stmt, attribute: cst.Attribute) -> bool:
    return any(c.func is attribute for c in stmt.calls)


def _handed_to_reader(ctx: ModuleContext, stmt: Stmt, arg: cst.Arg, methods: set[str]) -> bool:
    """`arg` is given to an undecorated function of the module whose parameter for it is
    read there only as `p.field` or `p.method(...)` (`methods`: the class's)."""
    call = next((c for c in stmt.calls if any(a is arg for a in c.args)), None)
    if call is None or type(call.func) is not cst.Name:
        return False
    fn = ctx.graph.resolve_function(call.func.value, stmt.scope)
    if fn is None or fn.node.decorators or fn.is_method:
        return False
    param = _parameter(fn, call, arg)
    if param is None or param in fn.globals | fn.nonlocals:
        return False
    for inner in ctx.graph.stmts:
        if not _within(inner.scope, fn.qualname):
            continue
        if param in inner.defs:
            return False
        if param in inner.uses and _uses(ctx, inner, param, methods, handed=False):
            return False
    return True


def _parameter(fn: Function, call: cst.Call, arg: cst.Arg) -> str | None:
    """The parameter of `fn` that `arg` of `call` binds (None behind a star)."""
    if arg.keyword is not None:
        return arg.keyword.value if arg.keyword.value in fn.params else None
    positional = [a for a in call.args if a.keyword is None]
    index = next(i for i, a in enumerate(positional) if a is arg)
    if any(a.star for a in positional[: index + 1]):
        return None
    return fn.positional[index] if index < len(fn.positional) else None


def _methods(ctx: ModuleContext, cls: str) -> set[str]:
    return {
        s.node.name.value for s in ctx.graph.scope_stmts(cls) if type(s.node) is cst.FunctionDef
    }


def _init_fields(ctx: ModuleContext, found: Instance) -> dict[str, Stmt] | str:
    """The fields `__init__` stores (`self.a = value`, each once) -> the statement."""
    me = found.init.params[0] if found.init.params else ""
    fields: dict[str, Stmt] = {}
    for stmt in ctx.graph.stmts:
        if not _within(stmt.scope, found.init.qualname):
            continue
        for target in _stored_nodes(stmt.node):
            if not _plain_field(stmt, target, me):
                continue
            attr = target.attr.value  # type: ignore[attr-defined]  # a plain field
            if attr in fields:
                return f"`__init__` stores `self.{attr}` twice"
            fields[attr] = stmt
    return fields


def _stored(ctx: ModuleContext, found: Instance, attr: str) -> Stmt | str:
    fields = _init_fields(ctx, found)
    if isinstance(fields, str):
        return fields
    stmt = fields.get(attr)
    if stmt is None or stmt.scope != found.init.qualname:
        return f"`{found.cls}.__init__` does not store `self.{attr}` in its own body"
    return stmt


def _stored_clear(
    ctx: ModuleContext, sharing: Sharing, found: Instance, attr: str, name: str
) -> str:
    """Why `self.attr`, as `__init__` stores it, may hold `name`'s buffers or be changed in
    place (or "")."""
    return _Judge(ctx, sharing, found, name).field(attr, 0)


@dataclass(frozen=True)
class _Frame:
    """A run of `__init__` (`outer` None: called by the constructor call) or of a method
    of the class called from another frame as `self.m(...)`."""

    fn: Function
    call: cst.Call
    at: Stmt
    outer: _Frame | None


class _Judge:
    """Whether values of the class's code hold none of `name`'s buffers and are immutable
    (an array, a number, a string, None, a tuple of them): read through the syntax, a
    field as `__init__` stores it, a local as every binding reaching it, a parameter as
    its argument, a method as what it returns, a `jax.numpy` array function as its
    arguments (it may return one of them: `jnp.asarray(x)` is `x`)."""

    def __init__(self, ctx: ModuleContext, sharing: Sharing, found: Instance, name: str):
        self.ctx, self.sharing, self.found, self.name = ctx, sharing, found, name
        self.init = _Frame(found.init, found.call, found.stmt, None)
        self.fields: dict[str, str] = {}
        # bindings and fields being read: met again inside themselves, they add nothing
        # (the value is built, step by step, from the others)
        self.busy: set[tuple[int, int] | str] = set()

    def field(self, attr: str, depth: int) -> str:
        if attr in self.busy:
            return ""
        if attr not in self.fields:
            stmt = _stored(self.ctx, self.found, attr)
            if isinstance(stmt, str):
                return stmt
            value = stmt.node.value  # type: ignore[attr-defined]  # a plain field's assignment
            self.busy.add(attr)
            why = self.value(self.init, stmt, value, depth + 1)
            self.busy.discard(attr)
            line = self.ctx.span(stmt.node).line
            self.fields[attr] = f"`self.{attr}` (line {line}): {why}" if why else ""
        return self.fields[attr]

    def value(self, frame: _Frame, stmt: Stmt, expr: cst.BaseExpression, depth: int) -> str:
        """Why `expr`, read at `stmt` of `frame`, may hold `name`'s buffers or be changed in
        place (or "")."""
        if depth > _MAX_DEPTH:
            return f"`{self.ctx.code(expr)}` is not followed so deep"
        kind = type(expr)
        if kind in _PLAIN or (kind is cst.Name and expr.value in _CONSTANTS):  # type: ignore[attr-defined]
            return ""
        if kind is cst.Name:
            return self._name(frame, stmt, expr.value, depth)  # type: ignore[attr-defined]
        if kind is cst.Attribute:
            return self._attribute(frame, stmt, expr, depth)  # type: ignore[arg-type]
        if kind is cst.Call:
            return self._call(frame, stmt, expr, depth)  # type: ignore[arg-type]
        parts = _parts(expr)
        if parts is None:
            return f"`{self.ctx.code(expr)}` is not proven an array or a number"
        return next((w for p in parts if (w := self.value(frame, stmt, p, depth + 1))), "")

    def _name(self, frame: _Frame, stmt: Stmt, var: str, depth: int) -> str:
        fn = frame.fn
        bound = [s for s in self.ctx.graph.scope_stmts(fn.qualname) if var in s.defs]
        if var == fn.params[0]:
            return f"it reads `{var}` whole"
        if var in fn.params and not bound:
            return self._parameter(frame, var, depth)
        if var in fn.globals | fn.nonlocals or not bound:
            return "" if var in constant_globals(self.ctx) else f"it reads `{var}`"
        taken = locals_escape(self.ctx, fn.qualname) or _nonlocal_writer(self.ctx, fn, var)
        if taken:
            return f"`{var}` {taken}"
        binders = self.ctx.graph.reaching_defs(stmt, var)
        if not binders:
            return f"no binding of `{var}` is seen to reach line {self.ctx.span(stmt.node).line}"
        for binder in binders:
            node = binder.node
            single = type(node) is cst.Assign and len(node.targets) == 1
            if not single or type(node.targets[0].target) is not cst.Name:  # type: ignore[attr-defined]
                return f"`{var}` is bound at line {self.ctx.span(node).line} other than by `=`"
            key = (id(frame.call), binder.id)
            if key in self.busy:
                continue
            self.busy.add(key)
            why = self.value(frame, binder, node.value, depth + 1)  # type: ignore[attr-defined]
            self.busy.discard(key)
            if why:
                return why
        return ""

    def _parameter(self, frame: _Frame, param: str, depth: int) -> str:
        site = CallSite(frame.at, frame.call, frame.fn, bound=True)
        given = site.argument(0, param)
        if given is None:
            default = literal_default(frame.fn, param)
            return "" if default else f"`{param}` is left to its default"
        if frame.outer is not None:
            return self.value(frame.outer, frame.at, given, depth + 1)
        code = f"`{param}` is given `{self.ctx.code(given)}`"
        if model(self.ctx).value_of(frame.at, given).kind not in _IMMUTABLE:
            return f"{code}, not proven an array or a number"
        return f"{code}, which may hold them" if _shared(self.sharing, given, self.name) else ""

    def _attribute(self, frame: _Frame, stmt: Stmt, expr: cst.Attribute, depth: int) -> str:
        me = frame.fn.params[0]
        if type(expr.value) is cst.Name and expr.value.value == me:
            return self.field(expr.attr.value, depth + 1)
        qual = self.ctx.qualify(expr) or ""
        kind = model(self.ctx).value_of(stmt, expr).kind
        if qual.startswith(("jax.numpy.", "math.")) and kind in _IMMUTABLE:
            return ""  # `jnp.pi`
        return f"`{self.ctx.code(expr)}` is not proven an array or a number"

    def _call(self, frame: _Frame, stmt: Stmt, call: cst.Call, depth: int) -> str:
        code = f"`{self.ctx.code(call)}`"
        if any(a.star for a in call.args):
            return f"{code} passes starred arguments"
        method = self._method(frame, call)
        if method is not None:
            inner = _Frame(method, call, stmt, frame)
            returns = [
                s for s in self.ctx.graph.scope_stmts(method.qualname) if type(s.node) is cst.Return
            ]
            values = [(s, s.node.value) for s in returns if s.node.value is not None]  # type: ignore[attr-defined]
            return next((w for s, v in values if (w := self.value(inner, s, v, depth + 1))), "")
        qual = self.ctx.qualify(call.func) or ""
        array = model(self.ctx).value_of(stmt, call).kind is Kind.ARRAY
        if not qual.startswith("jax.numpy.") or not array:
            return f"{code} is not proven to return an array of none of them"
        parts = [e for a in call.args for e in _elements(a.value)]
        return next((w for p in parts if (w := self.value(frame, stmt, p, depth + 1))), "")

    def _method(self, frame: _Frame, call: cst.Call) -> Function | None:
        """The method of the class `call` runs as `self.m(...)` (undecorated, no generator)."""
        func = call.func
        me = frame.fn.params[0]
        if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
            return None
        if func.value.value != me:
            return None
        fn = self.ctx.graph.functions.get(f"{self.found.cls}.{func.attr.value}")
        if isinstance(_init_fields(self.ctx, self.found), str) or func.attr.value in _init_fields(
            self.ctx, self.found
        ):
            return None  # a field of that name hides the method
        plain = fn is not None and not fn.node.decorators and fn.node.asynchronous is None
        return fn if plain and fn.params and not fn.is_generator else None  # type: ignore[union-attr]


def _parts(expr: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    """The values an operation's result may be made of, where it is immutable when they
    are (arithmetic, a comparison, a conditional, an item, a tuple); None otherwise."""
    kind = type(expr)
    if kind is cst.BinaryOperation or kind is cst.BooleanOperation:
        return [expr.left, expr.right]  # type: ignore[attr-defined]
    if kind is cst.UnaryOperation:
        return [expr.expression]  # type: ignore[attr-defined]
    if kind is cst.Comparison:
        return []  # a bool, or an array of them: new
    if kind is cst.IfExp:
        return [expr.body, expr.orelse]  # type: ignore[attr-defined]
    if kind is cst.Subscript:
        return [expr.value]  # type: ignore[attr-defined]
    if kind is cst.Tuple:
        return [e.value for e in expr.elements]  # type: ignore[attr-defined]
    return None


def _elements(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    """A list or tuple given to a `jax.numpy` function stands for its elements."""
    if type(expr) is cst.List or type(expr) is cst.Tuple:
        return [e.value for e in expr.elements]
    return [expr]


def _nonlocal_writer(ctx: ModuleContext, fn: Function, var: str) -> str:
    """ "is rebound by `inner`" where a function nested in `fn` declares `var` nonlocal."""
    for inner in ctx.graph.functions.values():
        if _within(inner.scope, fn.qualname) and var in inner.nonlocals:
            return f"may be rebound by `{inner.name}`"
    return ""


def _shared(sharing: Sharing, given: cst.BaseExpression, name: str) -> bool:
    """Whether `given` may hold what `name` holds, in the caller's relation."""
    names = sharing.shares(given).names()
    return name in names or any(sharing.may_share(n, name) for n in names)


def _given_module(ctx: ModuleContext, found: Instance, attr: str, site: CallSite) -> bool:
    """`self.attr = m` of a parameter given a name that `site` passes too, proven to hold
    an nnx module there, bound by the one construction that binds it at the constructor
    call."""
    stored = _stored(ctx, found, attr)
    if isinstance(stored, str):
        return False
    param = _parameter_stored(ctx, found.init, stored.node.value)  # type: ignore[attr-defined]
    given = None if param is None else CallSite(found.stmt, found.call, found.init, True)
    given_expr = None if given is None else given.argument(0, str(param))
    if type(given_expr) is not cst.Name:
        return False
    module = given_expr.value
    passed = any(type(a.value) is cst.Name and a.value.value == module for a in site.call.args)
    if not passed or not holds_module(ctx, site.stmt, module):
        return False
    made = binding_call(ctx, found.stmt, module)
    return made is not None and made is binding_call(ctx, site.stmt, module)


def _parameter_stored(ctx: ModuleContext, init: Function, value: cst.BaseExpression) -> str | None:
    """`self.a = p` of a parameter `__init__` does not bind again -> `p`."""
    if type(value) is not cst.Name or value.value not in init.params[1:]:
        return None
    bound = any(value.value in s.defs for s in ctx.graph.scope_stmts(init.qualname))
    return None if bound else value.value
