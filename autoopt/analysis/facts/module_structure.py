"""The equinox module class whose `__init__` built an object, or whose structure it keeps.

`structure_class(ctx, at, name)` is the class `C` of this module (an equinox module that
`constructors.init_fields` reads, answering no attribute read with code of its own) such
that the object `name` holds at `at` was built by `C(...)`, or has the very pytree
structure of such an object: node classes and static fields, every sub-module the class
of the one `__init__` stored (only leaves may differ). Each definition of `name` that may
reach `at` (a local of a function, or a global that no function declares `global` and no
namespace rebinds, `facts/reflection.py`) is one of:

- `name = C(...)`, `C` the class bound once at the top level (no local of that name);
- `name = eqx.apply_updates(m, u)`, a call `overlays/equinox.py` lists in
  `KEEPS_CLASSES`, of a name `m` holding such an object there, given otherwise only JAX
  arrays or pytrees of them (by the value model): each array leaf `p` becomes `p + u`,
  an array, and a function leaf (an `MLP`'s activation) stays, `p + u` raising (updates
  of objects of the program's could make a leaf anything through `__radd__`);
- the whole of, or the name at one position of a tuple unpacked from, a call of an
  `eqx.filter_jit` function of this module (`overlays.equinox.FRESH_ARRAY_OUTPUTS`: its
  outputs are rebuilt with the structure the trace gave them), every `return` of which
  gives there a name holding such an object, read in the function with each parameter
  standing for what this call passes it (a name of the caller, read there).

The parameter of a function is followed only into the call being read, where no
definition in the function dominates the read. A definition reached again on its own path
(a loop that rebinds `model` with the step's output) adds nothing: every path of
definitions starts at one that is not, so the object is always one the others made. Any
other definition, or more than one class, is unknown (None).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.core.jitted import jitted_callables
from autoopt.analysis.facts.constructors import init_fields
from autoopt.analysis.facts.reflection import rebinding
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

_ARRAYS = (Kind.ARRAY, Kind.PYTREE)
_MAX_CALLS = 3  # calls followed into, one within another
_MAX_STEPS = 64  # definitions followed on one path
#: Methods that may answer any attribute read, a method's included.
_LOOKUP_HOOKS = frozenset({"__getattr__", "__getattribute__"})


@dataclass(frozen=True)
class _Frame:
    """A call being followed: the caller's statement, what it passes each parameter of
    the function called, and the frame the caller itself is read in."""

    site: Stmt
    given: dict[str, cst.BaseExpression]
    outer: _Frame | None

    def key(self) -> tuple[int, ...]:
        return (self.site.id, *(self.outer.key() if self.outer else ()))

    def depth(self) -> int:
        return 1 + (self.outer.depth() if self.outer else 0)


_Seen = frozenset[tuple[int, str, tuple[int, ...]]]


def structure_class(ctx: ModuleContext, at: Stmt, name: str) -> str | None:
    """The one class of this module whose structure the object `name` holds at `at` has
    (module docstring); None where unknown."""
    found = _classes(ctx, at, name, None, frozenset())
    return found.pop() if found is not None and len(found) == 1 else None


def class_methods(ctx: ModuleContext) -> frozenset[str]:
    """The names of the functions the classes of the module define (memoised per module:
    a call of any other method needs no class proven)."""
    return frozenset(f.name for f in ctx.graph.functions.values() if f.scope in ctx.graph.classes)


def equinox_class(ctx: ModuleContext, cls: str) -> bool:
    """An equinox module class of this module that `init_fields` reads (bound once at the
    top level, one base), answering no attribute read with code of its own."""
    if not cls or init_fields(ctx, cls) is None:
        return False
    node = next(s.node for s in ctx.graph.scope_stmts(MODULE) if cls in s.defs)
    assert type(node) is cst.ClassDef
    if ctx.qualify(node.bases[0].value) not in eqx_api.MODULE_BASES:
        return False  # an nnx module may be changed by code it is handed
    return not any(f"{cls}.{hook}" in ctx.graph.functions for hook in _LOOKUP_HOOKS)


def _classes(
    ctx: ModuleContext, at: Stmt, name: str, frame: _Frame | None, seen: _Seen
) -> set[str] | None:
    """The classes of what `name` may hold at `at` (empty: reached again on its own path;
    None: unknown), `frame` the call `at`'s function is read in."""
    key = (at.id, name, frame.key() if frame else ())
    if key in seen:
        return set()
    if len(seen) >= _MAX_STEPS or not _local(ctx, at.scope, name):
        return None
    seen = seen | {key}
    graph = ctx.graph
    defs = graph.reaching_defs(at, name)
    fn = graph.functions.get(at.scope)
    found: set[str] = set()
    if fn is not None and name in fn.params and not any(graph.dominates(d, at) for d in defs):
        given = frame.given.get(name) if frame is not None else None
        if frame is None or type(given) is not cst.Name:
            return None  # the parameter's value, from a call not followed
        passed = _classes(ctx, frame.site, given.value, frame.outer, seen)
        if passed is None:
            return None
        found |= passed
    elif not defs:
        return None
    for definition in defs:
        bound = _bound(ctx, definition, name, frame, seen)
        if bound is None:
            return None
        found |= bound
    return found


def _local(ctx: ModuleContext, scope: str, name: str) -> bool:
    """`name` is bound only by the statements of `scope`: a local of a function, or a
    global no function declares `global` and no namespace rebinds."""
    fn = ctx.graph.functions.get(scope)
    if fn is not None:
        return name not in fn.globals | fn.nonlocals
    if any(name in f.globals for f in ctx.graph.functions.values()):
        return False
    found = rebinding(ctx)
    return not found.anything and name not in found.names


def _bound(
    ctx: ModuleContext, stmt: Stmt, name: str, frame: _Frame | None, seen: _Seen
) -> set[str] | None:
    """The classes of what `stmt` binds to `name`."""
    node = stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1 or type(node.value) is not cst.Call:
        return None
    target, call = node.targets[0].target, node.value
    if type(target) is cst.Name and target.value == name:
        return _made(ctx, stmt, call, None, frame, seen)
    if type(target) not in (cst.Tuple, cst.List):
        return None
    elements = target.elements  # type: ignore[attr-defined]  # a Tuple or List
    if any(type(e) is not cst.Element for e in elements):
        return None
    places = [
        i for i, e in enumerate(elements) if type(e.value) is cst.Name and e.value.value == name
    ]
    if len(places) != 1:
        return None
    return _made(ctx, stmt, call, (places[0], len(elements)), frame, seen)


def _made(
    ctx: ModuleContext,
    stmt: Stmt,
    call: cst.Call,
    place: tuple[int, int] | None,
    frame: _Frame | None,
    seen: _Seen,
) -> set[str] | None:
    """The classes of what `call` gives (at `place`, of a tuple that long)."""
    func = call.func
    if place is None and type(func) is cst.Name and equinox_class(ctx, func.value):
        shadowed = stmt.scope != MODULE and _local_name(ctx, stmt.scope, func.value)
        return None if shadowed else {func.value}
    position = eqx_api.KEEPS_CLASSES.get(ctx.qualify(func) or "")
    if place is None and position is not None:
        positional = [a for a in call.args if a.keyword is None and not a.star]
        given = positional[position].value if len(positional) > position else None
        if type(given) is not cst.Name or any(a.star for a in call.args):
            return None
        values = model(ctx)
        others = [a.value for a in call.args if a.value is not given]
        if any(values.value_of(stmt, o).kind not in _ARRAYS for o in others):
            return None  # updates of objects: `p + u` may make a leaf anything
        return _classes(ctx, stmt, given.value, frame, seen)
    return _compiled(ctx, stmt, call, place, frame, seen)


def _local_name(ctx: ModuleContext, scope: str, name: str) -> bool:
    """Whether a function scope (or one it is nested in) binds `name` itself."""
    while scope != MODULE:
        fn = ctx.graph.functions.get(scope)
        if fn is None:
            return True  # a class body
        if name in fn.params or any(name in s.defs for s in ctx.graph.scope_stmts(scope)):
            return True
        scope = fn.scope
    return False


def _compiled(
    ctx: ModuleContext,
    stmt: Stmt,
    call: cst.Call,
    place: tuple[int, int] | None,
    frame: _Frame | None,
    seen: _Seen,
) -> set[str] | None:
    """What an `eqx.filter_jit` function of this module returns (at `place`)."""
    fn = _compiled_function(ctx, call)
    if fn is None or any(a.star for a in call.args) or (frame and frame.depth() >= _MAX_CALLS):
        return None
    site = CallSite(stmt, call, fn)
    given = {p: site.argument(i, p) for i, p in enumerate(fn.params)}
    inner = _Frame(stmt, {p: e for p, e in given.items() if e is not None}, frame)
    returns = [s for s in ctx.graph.scope_stmts(fn.qualname) if type(s.node) is cst.Return]
    found: set[str] = set()
    for ret in returns:
        value = _returned(ret, place)
        if value is None:
            return None
        got = _classes(ctx, ret, value, inner, seen)
        if got is None:
            return None
        found |= got
    return found if returns else None


def _compiled_function(ctx: ModuleContext, call: cst.Call) -> Function | None:
    """The function of this module `call` runs through a jit that rebuilds its outputs
    (`FRESH_ARRAY_OUTPUTS`), neither a generator nor a coroutine."""
    if type(call.func) is not cst.Name:
        return None
    compiled = [
        j
        for j in jitted_callables(ctx, frameworks=True)
        if j.name == call.func.value and j.transform in eqx_api.FRESH_ARRAY_OUTPUTS
    ]
    fn = compiled[0].function if len(compiled) == 1 else None
    if fn is None or fn.is_generator or fn.node.asynchronous is not None:
        return None
    return fn


def _returned(stmt: Stmt, place: tuple[int, int] | None) -> str | None:
    """The name a `return` gives (at `place`, of a tuple written that long)."""
    value = stmt.node.value  # type: ignore[attr-defined]  # a Return statement
    if place is not None:
        if type(value) is not cst.Tuple or len(value.elements) != place[1]:
            return None
        element = value.elements[place[0]]
        value = element.value if type(element) is cst.Element else None
    return value.value if type(value) is cst.Name else None
