"""Values whose pytree has no node with aux data that is an object of the caller, proven
through how they are bound, where the value model alone cannot say.

`jax.jit` hands its body each node's aux data as the caller's very object
(`facts/jit_arguments.py`); a dict's keys, a tuple's, a list's and a named tuple's
(`overlays.jax.AUX_FREE_RECORD_BASES`: its aux data is None) hold none. `aux_free`
proves an expression's pytree has only such nodes (its leaves may be anything: `jax.jit`
refuses a leaf that is no array or number), where it is data or an aux-free container by
the value model (`analysis/values/model.py`), a tuple or list of such, a field of such a
named tuple, or a name every binding of which reaching the read is one of:

- such a value, or a new batch of a loop (`loop_batches.fresh_items`);
- `C(a, b)`: a named tuple class of the module (`values/fields.pytree_classes`, a
  `typing.NamedTuple` base alone, no default) every field of which is given an aux-free
  value, whose name the module reads only to call it or in annotations (no registration
  gives it other aux data);
- `net.init(key, x)` of a haiku object whose construction `fresh.receiver_class` sees,
  the method one `overlays.AUX_FREE_RESULTS` lists (dicts of dicts) and
  `overlays.ARRAYS_RESULTS` too;
- `opt.init(p)`, `opt.update(u, s)`, `optax.apply_updates(p, u)` of an optax optimizer
  whose construction is seen (a closure read by a compiled body: the one binding of the
  enclosing function), whose result (or element) is shaped like an argument
  (`overlays.optax.SAME_STRUCTURE`) or aux-free where it is (`AUX_FREE_GIVEN`), that
  argument aux-free;
- an element of the output of a `jax.jit` function of the module (`core/jitted.py`):
  where each `return` of it gives (that element as) an expression proven aux-free, a
  parameter read there standing for the argument of this very call. A compiled output's
  nodes are those the trace returned.

A name proven so is one nothing changes in place nor hands to code that might
(`facts/untouched.py`): a store into a dict would give it a node of any class.

A name a loop binds from its own earlier value is a fixpoint: each binding's possible
top nodes are first assumed empty, then recomputed under the assumption until they hold
(any binding not proven breaks it). A parameter read without the call it stands for, a
global, a closure and anything else is not proven.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.core.jitted import jitted_callables
from autoopt.analysis.facts.loop_batches import fresh_items
from autoopt.analysis.facts.untouched import library_receiver, untouched
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import optax as optax_api
from autoopt.analysis.values.fields import field_arguments, pytree_classes
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

#: Values that are one array or hold no buffer and cannot be changed in place.
DATA = frozenset(
    {Kind.ARRAY, Kind.HOST_ARRAY, Kind.SCALAR, Kind.STRING, Kind.DTYPE, Kind.SHAPE, Kind.NONE}
)
#: A top node known aux-free but of no named tuple class of the module.
_PLAIN = "plain"
#: The work one question may take, and the calls a body may be read through.
_BUDGET = 2000
_MAX_FRAMES = 4

Tops = frozenset[str]


@dataclass(frozen=True)
class _Frame:
    """A compiled function's body read for one call: its parameters are the arguments."""

    site: CallSite
    outer: _Frame | None

    @property
    def depth(self) -> int:
        return 1 + (self.outer.depth if self.outer is not None else 0)


def aux_free(ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression) -> bool:
    """Whether `expr`, read at `stmt`, is proven a pytree whose nodes hold no object of
    the caller in their aux data."""
    return _Prover(ctx).tops(stmt, expr, None) is not None


class _Prover:
    def __init__(self, ctx: ModuleContext) -> None:
        self.ctx = ctx
        self.assumed: dict[tuple, Tops] = {}
        self.budget = _BUDGET

    def tops(self, stmt: Stmt, expr: cst.BaseExpression, frame: _Frame | None) -> Tops | None:
        """The classes `expr`'s top node may have (`_PLAIN`, or `class:C`); None: not
        proven aux-free."""
        self.budget -= 1
        if self.budget < 0:
            return None
        value = model(self.ctx).value_of(stmt, expr)
        if value.kind in DATA or value.container in jax_api.AUX_FREE_CONTAINERS:
            return frozenset({_PLAIN})
        if type(expr) is cst.Name:
            return self._name(stmt, expr.value, frame)
        if type(expr) is cst.Attribute and type(expr.value) is cst.Name:
            return self._field(stmt, expr, frame)
        if type(expr) in (cst.Tuple, cst.List):
            elements = expr.elements  # type: ignore[attr-defined]  # a Tuple or a List
            if any(type(e) is not cst.Element for e in elements):
                return None
            parts = [self.tops(stmt, e.value, frame) for e in elements]
            return frozenset({_PLAIN}) if all(p is not None for p in parts) else None
        if type(expr) is cst.Call:
            return self._call(stmt, expr, None, frame)
        return None

    def _field(self, stmt: Stmt, expr: cst.Attribute, frame: _Frame | None) -> Tops | None:
        """`state.params`: a field of a named tuple of the module proven aux-free."""
        base = self.tops(stmt, expr.value, frame)
        if base is None:
            return None
        classes = _named_tuples(self.ctx)
        for top in base:
            cls = classes.get(top.removeprefix("class:")) if top.startswith("class:") else None
            if cls is None or expr.attr.value not in cls:
                return None
        return frozenset({_PLAIN})

    def _name(self, stmt: Stmt, name: str, frame: _Frame | None) -> Tops | None:
        graph = self.ctx.graph
        fn = graph.functions.get(stmt.scope)
        found: set[str] = set()
        if fn is not None and name in fn.params:
            if frame is None or frame.site.function is not fn:
                return None
            index = fn.params.index(name)  # a parameter changed in the body: `untouched`
            bound_self = frame.site.bound and index == 0  # the object: not read here
            given = None if bound_self else frame.site.argument(index, name)
            if given is None:
                return None
            outer = self.tops(frame.site.stmt, given, frame.outer)
            if outer is None:
                return None
            found |= outer  # the parameter's own value may reach a read after a rebinding
        elif fn is not None and name in fn.globals | fn.nonlocals:
            return None
        defs = graph.reaching_defs(stmt, name)
        if not defs and not found:
            return None
        made = [d for d in defs if not fresh_items(self.ctx, d, name)]
        if (made or found) and not untouched(self.ctx, name, frozenset(_named_tuples(self.ctx))):
            return None  # changed in place, or handed to code that might
        if len(made) < len(defs):
            found.add(_PLAIN)  # a new batch of a loop: arrays, in new tuples
        for d in made:
            got = self._def(d, name, frame)
            if got is None:
                return None
            found |= got
        return frozenset(found)

    def _def(self, stmt: Stmt, name: str, frame: _Frame | None) -> Tops | None:
        """What the binding `stmt` gives `name`: a fixpoint where it reads its own output."""
        key = (stmt.id, name, _frame_key(frame))
        if key in self.assumed:
            return self.assumed[key]
        self.assumed[key] = frozenset()
        try:
            while True:
                got = self._bound(stmt, name, frame)
                if got is None or got <= self.assumed[key]:
                    return got if got is None else self.assumed[key]
                self.assumed[key] = self.assumed[key] | got
        finally:
            del self.assumed[key]

    def _bound(self, stmt: Stmt, name: str, frame: _Frame | None) -> Tops | None:
        node = stmt.node
        if type(node) is not cst.Assign or len(node.targets) != 1:
            return None
        target, value = node.targets[0].target, node.value
        if type(target) is cst.Name:
            return self.tops(stmt, value, frame) if target.value == name else None
        if type(target) not in (cst.Tuple, cst.List) or type(value) is not cst.Call:
            return None
        names = [e.value.value if type(e.value) is cst.Name else None for e in target.elements]  # type: ignore[attr-defined]  # a Tuple or a List
        if any(type(e) is not cst.Element for e in target.elements) or names.count(name) != 1:  # type: ignore[attr-defined]
            return None
        return self._call(stmt, value, (names.index(name), len(names)), frame)

    def _call(
        self, stmt: Stmt, call: cst.Call, element: tuple[int, int] | None, frame: _Frame | None
    ) -> Tops | None:
        """What `call` returns (`element`: the position and count of a tuple unpacked)."""
        if any(a.star for a in call.args):
            return None
        func = call.func
        if type(func) is cst.Name and element is None:
            made = self._record(stmt, call, func.value, frame)
            if made is not None:
                return made
        if type(func) is cst.Name:
            jitted = _jitted(self.ctx, func.value)
            if jitted is not None:
                return self.returned(CallSite(stmt, call, jitted), element, frame)
        qual = self.ctx.qualify(func) or ""
        if type(func) is cst.Attribute and qual not in optax_api.SAME_STRUCTURE:
            method = self._method(stmt, func, frame)
            if method in overlays.AUX_FREE_RESULTS and method in overlays.ARRAYS_RESULTS:
                return frozenset({_PLAIN})
            qual = method or ""
        like = optax_api.SAME_STRUCTURE.get(qual)
        given = optax_api.AUX_FREE_GIVEN.get(qual)
        if like is not None and (element is None or element[1] == len(like)):
            positions = like if element is None else (like[element[0]],)
            return self._arguments(stmt, call, positions, frame)
        if given is not None and element is None:
            return self._arguments(stmt, call, given, frame)
        return None

    def _arguments(
        self, stmt: Stmt, call: cst.Call, positions: tuple[int, ...], frame: _Frame | None
    ) -> Tops | None:
        """`_PLAIN` where each positional argument at `positions` is proven aux-free."""
        args = [a.value for a in call.args if a.keyword is None]
        if any(a.keyword is not None for a in call.args) or max(positions) >= len(args):
            return None
        if any(self.tops(stmt, args[p], frame) is None for p in positions):
            return None
        return frozenset({_PLAIN})

    def _record(self, stmt: Stmt, call: cst.Call, name: str, frame: _Frame | None) -> Tops | None:
        """`C(a, b)`: a named tuple of the module given every field, each aux-free."""
        fields = _named_tuples(self.ctx).get(name)
        cls = pytree_classes(self.ctx).get(name)
        given = field_arguments(cls, call) if fields is not None and cls is not None else None
        if given is None or set(given) != set(fields or ()):
            return None
        if any(self.tops(stmt, v, frame) is None for v in given.values()):
            return None
        return frozenset({f"class:{name}"})

    def _method(self, stmt: Stmt, func: cst.Attribute, frame: _Frame | None) -> str | None:
        """`cls.method` of a library object whose construction is seen: where `stmt` reads
        it, or, for a closure a compiled body reads, where its enclosing function binds it
        once."""
        cls = library_receiver(self.ctx, stmt, func.value)
        return f"{cls}.{func.attr.value}" if cls is not None else None

    def returned(
        self, site: CallSite, element: tuple[int, int] | None, frame: _Frame | None
    ) -> Tops | None:
        """What a compiled function of the module returns (`element`: of a tuple
        unpacked), read with the arguments of the call `site` for its parameters."""
        fn = site.function
        if fn is None or (frame is not None and frame.depth >= _MAX_FRAMES):
            return None
        inner = _Frame(site, frame)
        returns = [s for s in self.ctx.graph.scope_stmts(fn.qualname) if type(s.node) is cst.Return]
        if not returns:
            return None
        found: set[str] = set()
        for ret in returns:
            value = ret.node.value  # type: ignore[attr-defined]  # a Return statement
            if value is None:
                return None
            if element is not None:
                if type(value) is not cst.Tuple or len(value.elements) != element[1]:
                    return None
                part = value.elements[element[0]]
                if type(part) is not cst.Element:
                    return None
                value = part.value
            got = self.tops(ret, value, inner)
            if got is None:
                return None
            found |= got
        return frozenset(found)


def _frame_key(frame: _Frame | None) -> tuple[int, ...]:
    key = []
    while frame is not None:
        key.append(id(frame.site.call))
        frame = frame.outer
    return tuple(key)


def _jitted(ctx: ModuleContext, name: str) -> Function | None:
    """The function `jax.jit` compiles as `name` (bound once), seen, no generator."""
    for jitted in jitted_callables(ctx):
        fn = jitted.function
        if jitted.name == name and jitted.transform == "jax.jit" and fn is not None:
            return None if fn.is_generator or fn.node.asynchronous else fn
    return None


def _named_tuples(ctx: ModuleContext) -> dict[str, tuple[str, ...]]:
    """The module's named tuple classes (a `typing.NamedTuple` base alone, no default, no
    registration) -> their fields."""
    return ctx.per_module(_find_named_tuples)


def _find_named_tuples(ctx: ModuleContext) -> dict[str, tuple[str, ...]]:
    out = {}
    for name, cls in pytree_classes(ctx).items():
        node = _class_node(ctx, name)
        if node is None or cls.replace != "_replace" or not _plain_fields(node):
            continue
        bases = [ctx.qualify(b.value) for b in node.bases]
        if all(b in jax_api.AUX_FREE_RECORD_BASES for b in bases) and _only_called(ctx, name):
            out[name] = cls.fields
    return out


def _class_node(ctx: ModuleContext, name: str) -> cst.ClassDef | None:
    for stmt in ctx.graph.scope_stmts(MODULE):
        if type(stmt.node) is cst.ClassDef and stmt.node.name.value == name:
            return stmt.node
    return None


def _plain_fields(node: cst.ClassDef) -> bool:
    """No field has a default (the class would hold the object)."""
    for line in node.body.body:
        small = line.body if type(line) is cst.SimpleStatementLine else ()
        if any(type(s) is cst.AnnAssign and s.value is not None for s in small):
            return False
    return True


def _only_called(ctx: ModuleContext, name: str) -> bool:
    """The module reads `name` only to call it, in annotations, or as the class's own
    name: nothing registers the class as another pytree."""
    finder = _Uses(name)
    ctx.module.visit(finder)
    return not finder.other


class _Uses(cst.CSTVisitor):
    """Finds a use of a name other than a call of it, an annotation or a class name."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.other = False
        self.allowed: set[int] = set()

    def visit_Call(self, node: cst.Call) -> None:
        self.allowed.add(id(node.func))

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.allowed.add(id(node.name))

    def visit_Annotation(self, node: cst.Annotation) -> bool:
        return False

    def visit_Name(self, node: cst.Name) -> None:
        if node.value == self.name and id(node) not in self.allowed:
            self.other = True
