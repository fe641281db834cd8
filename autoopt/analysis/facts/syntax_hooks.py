"""Code of a class of the module that runs with no call in sight: properties, and the
special methods syntax runs.

Reading `model.norm` runs a property's getter; `model[0]`, `len(model)`, `for m in
model`, `f"{model}"`, `print(model)`, `model + 1`, a store `model.x = v` run the class's
special methods. Such code runs on the object where no call is written, so what it may
keep of the object (a kernel appended to a module list, a reference cached in a global)
is linked by nothing (`aliases.Sharing` reads calls). `keeping_hook(ctx)` names the first
such method of a class of the module not proven to keep nothing: a function of a class
body with a decorator but `staticmethod`, `classmethod`, `abc.abstractmethod` and the
transforms of JAX and the libraries built on it (whose code runs only when the method is
called: any other may make a descriptor, as `property` does, or
`functools.cached_property`, which stores its value in the object), or with a dunder name
but those that run only when the class or an object is built or called as written
(`__init__`, `__call__`, `__post_init__`, `__check_init__`, `__init_subclass__`,
`__class_getitem__`, `__set_name__`: their calls are linked). The methods of a *plain*
class are left out where they read no name of the module but its imports, functions,
classes and constants: a class bound once with no base but `object`, no decorator and no
keyword, which no call of JAX's registers as a pytree node, has objects no pytree a jit
is given can hold (JAX takes none of them as an argument or leaf), so such code runs on
none of the objects a donation reaches and can reach none of their buffers. A getter decorated
`@property` alone, or an undecorated special method, is proven when its body, `self` an
object of its class and every other parameter unknown, keeps nothing
(`unkept_arguments.visible_keeps_nothing`).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import base_name, read_names, scope_nodes
from autoopt.analysis.core.graph import MODULE, Function
from autoopt.analysis.facts.reflection import constant_globals
from autoopt.analysis.facts.unkept_arguments import UNKNOWN, visible_keeps_nothing

#: Special methods run only where a class or an object is built, or called as written.
_LINKED = frozenset(
    {"__init__", "__call__", "__post_init__", "__check_init__", "__init_subclass__",
     "__class_getitem__", "__set_name__"}
)  # fmt: skip
#: Decorators that make no descriptor run code of the program on an attribute read.
_PLAIN_DECORATORS = frozenset({"staticmethod", "classmethod", "abc.abstractmethod"})
_LIBRARIES = ("jax.", "flax.", "equinox.", "haiku.", "optax.")


def keeping_hook(ctx: ModuleContext) -> str:
    """Why code of a class of the module may run on an object by syntax and keep what it
    holds ("" where no such code is)."""
    return ctx.per_module(_keeping_hook)


def _keeping_hook(ctx: ModuleContext) -> str:
    plain = _plain_classes(ctx)
    for fn in ctx.graph.functions.values():
        if fn.scope not in ctx.graph.classes or not fn.is_method:
            continue
        if fn.scope in plain and _reads_no_state(ctx, fn):
            continue
        what = _hook(ctx, fn)
        if what and not _proven(ctx, fn):
            return f"`{fn.scope}.{fn.name}` {what} may keep what its object holds"
    return ""


def _hook(ctx: ModuleContext, fn: Function) -> str:
    """How `fn` runs with no call written ("" where it does not)."""
    for decorator in fn.node.decorators:
        node = decorator.decorator
        if type(node) is cst.Call and ctx.qualify(node.func) == "functools.partial" and node.args:
            node = node.args[0].value  # `functools.partial(jax.jit, static_argnums=0)`
        name = ctx.qualify(node) or (node.value if type(node) is cst.Name else "")
        if name not in _PLAIN_DECORATORS and not name.startswith(_LIBRARIES):
            return "(a descriptor: reading the attribute runs it)"
    dunder = fn.name.startswith("__") and fn.name.endswith("__")
    if dunder and fn.name not in _LINKED:
        return "(syntax on the object runs it)"
    return ""


def _proven(ctx: ModuleContext, fn: Function) -> bool:
    """A `@property` getter or an undecorated special method whose body keeps nothing,
    `self` an object of its class."""
    names = [d.decorator for d in fn.node.decorators]
    plain = [type(n) is cst.Name and n.value == "property" for n in names]
    if plain not in ([], [True]) or not fn.params:
        return False
    given = {fn.params[0]: fn.scope, **dict.fromkeys(fn.params[1:], UNKNOWN)}
    return visible_keeps_nothing(ctx, fn, given, compiled=bool(names))


def _plain_classes(ctx: ModuleContext) -> set[str]:
    """The classes bound once at the top level with no base but `object`, no decorator
    and no keyword, named by no call of `jax.tree_util`'s or `jax.tree`'s (a pytree
    registration)."""
    registered = {
        n.value
        for stmt in ctx.graph.stmts
        for call in stmt.calls
        if (ctx.qualify(call.func) or "").startswith(("jax.tree_util.", "jax.tree."))
        for n in read_names(call)
    }
    found = set()
    for stmt in ctx.graph.scope_stmts(MODULE):
        node = stmt.node
        if type(node) is not cst.ClassDef or node.decorators or node.keywords:
            continue
        name = node.name.value
        once = sum(name in s.defs for s in ctx.graph.stmts) == 1
        bases = {ctx.code(b.value) for b in node.bases}
        if once and bases <= {"object"} and name not in registered:
            found.add(name)
    return found


def _reads_no_state(ctx: ModuleContext, fn: Function) -> bool:
    """`fn` reads no name of the module but imports, functions, classes and constants
    (`reflection.constant_globals`), declares none `global`, and changes no parameter but
    its first (`other.log.append(self.w)` in an `__eq__` would put this object's buffers
    into another)."""
    if _changes_others(fn):
        return False
    stmts = ctx.graph.scope_stmts(fn.qualname)
    local = {n for s in stmts for n in s.defs} | set(fn.params)
    known = set(ctx.imports.bindings) | set(ctx.graph.classes) | constant_globals(ctx)
    known |= {f.name for f in ctx.graph.functions.values() if f.scope == MODULE}
    read = {n.value for n in read_names(fn.node.body)} - local
    builtins_only = {n for n in read if n not in _module_names(ctx)}
    return not fn.globals and read - builtins_only <= known


def _module_names(ctx: ModuleContext) -> frozenset[str]:
    return ctx.per_module(_bound_at_top)


def _bound_at_top(ctx: ModuleContext) -> frozenset[str]:
    return frozenset(n for s in ctx.graph.scope_stmts(MODULE) for n in s.defs)


def _changes_others(fn: Function) -> bool:
    """Whether `fn` stores into, or calls a method of, a parameter but its first."""
    others = set(fn.params[1:])
    for node in scope_nodes(fn.node.body):
        if type(node) is cst.Assign:
            roots = {base_name(t.target) for t in node.targets if type(t.target) is not cst.Name}
        elif type(node) in (cst.AugAssign, cst.AnnAssign):
            target = node.target  # type: ignore[attr-defined]
            roots = {base_name(target)} if type(target) is not cst.Name else set()
        elif type(node) is cst.Call and type(node.func) is cst.Attribute:
            roots = {base_name(node.func.value)}
        else:
            continue
        if roots & others:
            return True
    return False
