"""Jitted methods with a static `self`, called through the one instance of their class.

`@functools.partial(jax.jit, static_argnums=0) def update(self, rng, state, batch)` in
a class `GAN` of the module, called as `gan.update(rng, state, batch)` where `gan =
GAN(...)`: jit compiles `update` once per instance (hashed by identity), reading the
instance's attributes as constants. `jitted_methods` gives one `Jitted` per method and
instance, named `gan.update` as its calls spell it; `jax.jit` rebuilds its arguments
after `self` by position or name, so a call's positional arguments bind the parameters
after `self` (`CallSite.bound`).

Every call of such a method is seen (`method_escape` is None) when all of these hold:

- the class is a module-level class bound once, with no decorator, base or metaclass
  (nothing autoopt cannot see wraps or rebinds its methods), not a base of another
  class of the module, and its name is read only by the call that makes the instance;
- the instance is a name bound once in the module, by that call, and read only as the
  receiver of method calls (`gan.update(...)`, `gan.sample(...)`): it is never handed
  on, stored, or written through (`gan.x = v`);
- inside the class, its methods read their first parameter only as an attribute
  (`self.num_latents`, `self.disc_loss`), never `self.update` itself, nor bare `self`;
- neither name can be reached from another module (the module is a script, or the
  names are private).

What the instance's attributes hold is the donation's alias premise: a donated argument
that the instance may hold (`gan.last = state`, a method of it that returns its own
attribute) is read again at the next call (`analysis/facts/donation.py`).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Function, Stmt
from autoopt.analysis.core.jitted import (
    Jitted,
    escapes,
    is_script,
    jit_options,
    literal_names,
    own_exprs,
)
from autoopt.analysis.core.walk import walk


def jitted_methods(ctx: ModuleContext) -> list[Jitted]:
    """Every method jitted with a static `self`, once per instance of its class."""
    return ctx.per_module(_jitted_methods)


def _jitted_methods(ctx: ModuleContext) -> list[Jitted]:
    found = []
    instances = ctx.per_module(_instances)
    for fn in ctx.graph.functions.values():
        jitted = _static_self_jit(ctx, fn)
        if jitted is None:
            continue
        for obj in instances.get(fn.scope, []):
            found.append(Jitted(f"{obj}.{fn.name}", fn, jitted[1], jitted[0]))
    return found


def _static_self_jit(
    ctx: ModuleContext, fn: Function
) -> tuple[cst.Decorator, dict[str, cst.BaseExpression]] | None:
    """The decorator and options of a method whose one decorator jits it with `self`
    static (`static_argnums=0` or `static_argnames` naming it)."""
    if not fn.is_method or len(fn.node.decorators) != 1 or not fn.positional:
        return None
    if "." in fn.scope or fn.positional[0] != fn.params[0] or not _plain_class(ctx, fn.scope):
        return None  # a nested class, a method with no positional `self`, or a base's
    decorator = fn.node.decorators[0]
    options = jit_options(ctx, decorator.decorator)
    if not options:
        return None
    numbers = options.get("static_argnums")
    by_number = type(numbers) is cst.Integer and numbers.evaluated_value == 0
    names = literal_names(options["static_argnames"]) if "static_argnames" in options else None
    by_name = names is not None and fn.params[0] in names
    return (decorator, options) if by_number or by_name else None


def _plain_class(ctx: ModuleContext, cls: str) -> bool:
    """A module-level class with no decorator, base, metaclass or other keyword: no code
    autoopt cannot see may rebind or wrap its methods."""
    nodes = [
        s.node
        for s in ctx.graph.scope_stmts(MODULE)
        if type(s.node) is cst.ClassDef and s.node.name.value == cls
    ]
    return (
        len(nodes) == 1 and not nodes[0].decorators and not nodes[0].bases and not nodes[0].keywords
    )


def _instances(ctx: ModuleContext) -> dict[str, list[str]]:
    """Class -> the names bound once in the module to one call of it."""
    found: dict[str, list[str]] = {}
    counts: dict[str, int] = {}
    for stmt in ctx.graph.stmts:
        for name in stmt.defs:
            counts[name] = counts.get(name, 0) + 1
    for stmt in ctx.graph.scope_stmts(MODULE):
        node = stmt.node
        if type(node) is not cst.Assign or len(node.targets) != 1:
            continue
        target, value = node.targets[0].target, node.value
        if type(target) is not cst.Name or type(value) is not cst.Call:
            continue
        func = value.func
        cls = func.value if type(func) is cst.Name else ""
        if cls in ctx.graph.classes and counts.get(target.value) == 1 and not stmt.loops:
            found.setdefault(cls, []).append(target.value)
    return found


def method_escape(ctx: ModuleContext, jitted: Jitted) -> str | None:
    """How a call of the jitted method `jitted` may be made where autoopt cannot see it,
    or None when every call is a call `obj.method(...)` of the module."""
    fn = jitted.function
    assert fn is not None
    obj, method = jitted.name.split(".")
    cls = fn.scope
    if not is_script(ctx) and not (obj.startswith("_") and cls.startswith("_")):
        return f"`{obj}` is public and the module may be imported"
    if sum(1 for s in ctx.graph.stmts if cls in s.defs) != 1 or _subclassed(ctx, cls):
        return f"`{cls}` is bound more than once or subclassed"
    for stmt in ctx.graph.stmts:
        problem = _stmt_problem(ctx, stmt, obj, cls, method)
        if problem:
            return f"{problem} at line {ctx.span(stmt.node).line}"
    return None


def name_escape(ctx: ModuleContext, name: str) -> str | None:
    """How the jitted `name` reaches code autoopt cannot see, or None: a method jitted with
    a static `self` by its instance's uses (`method_escape`), anything else by
    `core/jitted.py`."""
    for method in jitted_methods(ctx):
        if method.name == name:
            return method_escape(ctx, method)
    return escapes(ctx, name)


def _subclassed(ctx: ModuleContext, cls: str) -> bool:
    """Whether a class of the module names `cls` among its bases."""
    return any(
        type(b.value) is cst.Name and b.value.value == cls
        for stmt in ctx.graph.stmts
        if type(stmt.node) is cst.ClassDef
        for b in stmt.node.bases
    )


def _exprs(stmt: Stmt) -> list[cst.CSTNode]:
    """What a statement evaluates itself, a function's parameter defaults too."""
    node = stmt.node
    exprs = own_exprs(stmt)
    if type(node) is cst.FunctionDef:
        params = node.params
        every = [*params.posonly_params, *params.params, *params.kwonly_params]
        exprs += [p.default for p in every if p.default is not None]
    return exprs


def _stmt_problem(ctx: ModuleContext, stmt: Stmt, obj: str, cls: str, method: str) -> str:
    """Why `stmt` may call the method unseen: it uses the instance other than as the
    receiver of a method call, the class other than to make the instance, or (in a
    method of the class) `self` other than as an attribute's base, or `self.method`."""
    fn = ctx.graph.functions.get(stmt.scope)
    me = fn.params[0] if fn is not None and fn.scope == cls and fn.params else ""
    allowed = _binding_names(stmt, obj)
    names: list[cst.Name] = []
    for expr in _exprs(stmt):
        for node in walk(expr):
            if type(node) is cst.Name:
                names.append(node)
            base = _base(node)
            if base is None:
                continue
            if base.value == me and _attribute(node).attr.value == method:
                return f"`{stmt.scope}` reads `{me}.{method}`"
            if type(node) is cst.Call or base.value == me:
                allowed.add(id(base))  # `obj.sample(...)`, `self.loss(...)`, `self.width`
    for name in names:
        if id(name) in allowed or name.value not in (obj, cls, me):
            continue
        if name.value == obj:
            return f"`{obj}` is used other than to call its methods"
        if name.value == cls:
            return f"`{cls}` is used other than to make `{obj}`"
        return f"`{me}` is used other than to read an attribute in `{stmt.scope}`"
    return ""


def _binding_names(stmt: Stmt, obj: str) -> set[int]:
    """The ids of `obj` and `Cls` in `obj = Cls(...)`, the instance's one binding."""
    node = stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return set()
    target, value = node.targets[0].target, node.value
    if type(target) is not cst.Name or target.value != obj or type(value) is not cst.Call:
        return set()
    return {id(target), id(value.func)}


def _attribute(node: cst.CSTNode) -> cst.Attribute:
    """The attribute of a call `n.m(...)` or the attribute `n.m` itself (`_base`)."""
    attribute = node.func if type(node) is cst.Call else node
    assert type(attribute) is cst.Attribute
    return attribute


def _base(node: cst.CSTNode) -> cst.Name | None:
    """The name `n` of a call `n.m(...)` or an attribute `n.m`."""
    attribute = node.func if type(node) is cst.Call else node
    if type(attribute) is cst.Attribute and type(attribute.value) is cst.Name:
        return attribute.value
    return None
