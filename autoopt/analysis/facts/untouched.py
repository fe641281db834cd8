"""Names whose objects nothing changes in place, nor hands to code that might.

`facts/aux_free.py` proves a dict of haiku's `init` or an optax state has no aux data
from how it is made; a store into it (`params["w"] = record`), by code autoopt sees or
cannot see, would give it a node of any class later. `untouched` holds for a name (over
the whole module, by name, as `values/mutable.py` reads names) the value model does not
find changed in place (`changed_names(...).mutated`: stores, mutating methods, aliases
and parameters of such names), where every read of it is one of:

- inside a `jax.jit` function (no static option) of which it is a parameter or a local:
  the body is given new containers of tracers;
- `a[k]`, `a.field`, a read method (`keys`, `get`, ...), an operand, a comparison, a
  formatted value;
- an argument of a JAX or NumPy function, of a transform's output (`jax.grad(f)(a)`), of
  a `jax.jit` function of the module (no static option), of a pure optax call, of a pure
  method of a library object whose construction is seen (`opt.init(a)`, `net.apply(a,
  ...)`), or of a builtin that keeps nothing (`print`, `len`);
- `b = a`, `x, y = a`, `for x in a`, or an argument of a named tuple class of the module
  bound as `s = C(..., a)`, where each name bound (`b`, `x`, `s`) is untouched too.

Anything else (returned, stored in another object, handed to any other code) is not.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.execution import only_called
from autoopt.analysis.core.exprs import bound_names
from autoopt.analysis.core.graph import Function, Stmt
from autoopt.analysis.core.jitted import jitted_callables, literal_ints, own_exprs
from autoopt.analysis.core.walk import child_list, walk
from autoopt.analysis.facts.fresh import receiver_class
from autoopt.analysis.overlays import optax as optax_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.values.mutable import changed_names

_READ_PARENTS = (
    cst.Comparison,
    cst.ComparisonTarget,
    cst.BinaryOperation,
    cst.UnaryOperation,
    cst.FormattedStringExpression,
    cst.Index,
    cst.Expr,
)


def untouched(ctx: ModuleContext, name: str, record_classes: frozenset[str]) -> bool:
    """Whether nothing changes `name`'s objects in place nor hands them to code that
    might (`record_classes`: the named tuples of the module a constructor call of which
    holds its arguments as given)."""
    return _Check(ctx, record_classes).name(name)


class _Check:
    def __init__(self, ctx: ModuleContext, records: frozenset[str]) -> None:
        self.ctx = ctx
        self.records = records
        self.mutated = changed_names(ctx).mutated
        self.compiled = _compiled(ctx)
        self.current = ""
        self.linked: list[str] = []

    def name(self, name: str) -> bool:
        """`name` and every name bound from it are untouched."""
        seen: set[str] = set()
        self.linked = [name]
        while self.linked:
            current = self.linked.pop()
            if current in seen:
                continue
            seen.add(current)
            self.current = current
            if current in self.mutated or not self._reads_harmless():
                return False
        return True

    def _reads_harmless(self) -> bool:
        for stmt in self.ctx.graph.stmts:
            node = stmt.node
            if type(node) is cst.FunctionDef and self.current in _defaults(node):
                return False  # a default argument keeps it
            for root in own_exprs(stmt):
                if not self._walk(stmt, root, ()):
                    return False
        return True

    def _walk(self, stmt: Stmt, node: cst.CSTNode, ancestors: tuple[cst.CSTNode, ...]) -> bool:
        if type(node) is cst.Name:
            return node.value != self.current or self._read(stmt, node, ancestors)
        if isinstance(node, (cst.Lambda, cst.FunctionDef, cst.ClassDef)):
            return all(n.value != self.current for n in _names(node))  # a closure keeps it
        if type(node) is cst.AssignTarget and type(node.target) in (cst.Name, cst.Tuple):
            return True  # names bound, none read
        if type(node) is cst.AnnAssign and type(node.target) is cst.Name:
            value = node.value  # `field: T` binds, `b: T = a` binds `b` to `a`
            return value is None or self._walk(stmt, value, (*ancestors, node))
        for child in child_list(node):
            if type(node) is cst.Attribute and child is node.attr:
                continue
            if type(node) is cst.Arg and child is node.keyword:
                continue
            if not self._walk(stmt, child, (*ancestors, node)):
                return False
        return True

    def _read(self, stmt: Stmt, name: cst.Name, ancestors: tuple[cst.CSTNode, ...]) -> bool:
        """Whether this read of the name, or of the part of it read here (`a.field`,
        `a[k]`, a tuple holding it), is harmless (names bound from it queued)."""
        expr: cst.CSTNode = name
        chain = list(ancestors)
        while chain and _part_of(chain[-1], expr, chain[-2] if len(chain) > 1 else None):
            expr = chain.pop()
        parent = chain[-1] if chain else None
        above = chain[-2] if len(chain) > 1 else None
        node = stmt.node
        if parent is None:  # a loop's iterable, a test
            if type(node) is cst.For and node.iter is expr:
                return self._queue([node.target])
            return isinstance(node, (cst.If, cst.While))
        if type(parent) in (cst.Assign, cst.AnnAssign) and parent.value is expr:  # type: ignore[attr-defined]  # an assignment
            if type(parent) is cst.AnnAssign:
                return self._queue([parent.target])  # `b: T = a`
            return self._queue([t.target for t in parent.targets])  # type: ignore[attr-defined]  # `b = a`, `x, y = a`
        if isinstance(parent, _READ_PARENTS) or type(parent) is cst.Subscript:
            return True  # an operand, a key: read
        if type(parent) is cst.Attribute:  # a method called on it
            return parent.attr.value in python_api.READ_METHODS
        if type(parent) is cst.Return:
            return self._output(stmt) or self._returned(stmt)
        if type(parent) is cst.Arg and type(above) is cst.Call and not parent.star:
            return self._argument(stmt, above, name)
        return False

    def _argument(self, stmt: Stmt, call: cst.Call, name: cst.Name) -> bool:
        func = call.func
        qual = self.ctx.qualify(func) or ""
        if qual.startswith(("jax.", "numpy.")) or qual in optax_api.PURE_CALLS:
            return True
        if type(func) is cst.Call and (self.ctx.qualify(func.func) or "").startswith("jax."):
            return True  # `jax.grad(f)(a)`: the transform hands `f` new containers
        if type(func) is cst.Attribute:
            cls = library_receiver(self.ctx, stmt, func.value)
            return cls is not None and f"{cls}.{func.attr.value}" in overlays.PURE_OBJECT_METHODS
        if type(func) is not cst.Name:
            return False
        if any(q.rsplit(".", 1)[-1] == func.value for q in self.compiled):
            return True
        if self._traced_argument(stmt, func.value, call, name):
            return True
        fn = self.ctx.graph.resolve_function(func.value, stmt.scope)
        if fn is not None and not fn.node.decorators:
            arg = next(a for a in call.args if any(n is name for n in _names(a)))
            return self._passed(fn, call, arg)
        if func.value in self.records:
            node = stmt.node
            if type(node) is cst.Return and node.value is call:
                return self._output(stmt)
            bound = type(node) is cst.Assign and node.value is call
            return bound and self._queue([t.target for t in node.targets])  # type: ignore[attr-defined]  # an Assign
        builtin = func.value in python_api.PURE_BUILTINS or func.value in python_api.IO_BUILTINS
        rebound = any(func.value in s.defs for s in self.ctx.graph.stmts)
        return builtin and not rebound and func.value not in python_api.KEEPING_BUILTINS

    def _traced_argument(self, stmt: Stmt, func: str, call: cst.Call, name: cst.Name) -> bool:
        """`f(a)` where every binding of `f` reaching the call is `f = jax.jit(g)` and
        `a` is a positional argument no literal `static_argnums` names: `g` is given new
        containers of tracers."""
        defs = self.ctx.graph.reaching_defs(stmt, func)
        positional = [a for a in call.args if a.keyword is None]
        index = next((i for i, a in enumerate(positional) if a.value is name), None)
        return bool(defs) and index is not None and all(_jit_of(self.ctx, d, index) for d in defs)

    def _output(self, stmt: Stmt) -> bool:
        """`stmt` returns from a `jax.jit` function: its caller gets new containers."""
        return type(stmt.node) is cst.Return and stmt.scope in self.compiled

    def _returned(self, stmt: Stmt) -> bool:
        """`return a` from a function only called from the module, each call bound to
        names (`b = f(...)`): those names hold it."""
        fn = self.ctx.graph.functions.get(stmt.scope)
        if fn is None or not only_called(self.ctx, fn):
            return False
        for site in self.ctx.graph.call_sites(fn):
            node = site.stmt.node
            if type(node) is not cst.Assign or node.value is not site.call:
                return False
            if not self._queue([t.target for t in node.targets]):
                return False
        return True

    def _passed(self, fn: Function, call: cst.Call, arg: cst.Arg) -> bool:
        """An argument of a function of the module: its parameter holds it."""
        if arg.keyword is not None:
            param = arg.keyword.value if arg.keyword.value in fn.params else None
        else:
            index = [a for a in call.args if a.keyword is None].index(arg)
            param = fn.positional[index] if index < len(fn.positional) else None
        if param is None:
            return False
        self.linked.append(param)
        return True

    def _queue(self, targets: list[cst.BaseExpression]) -> bool:
        """Queues the names `targets` bind; False where one stores into an object."""
        if any(type(t) not in (cst.Name, cst.Tuple, cst.List) for t in targets):
            return False
        for target in targets:
            self.linked.extend(bound_names(target))
        return True


def _compiled(ctx: ModuleContext) -> frozenset[str]:
    """The qualified names of the functions `jax.jit` compiles with no static option."""
    return frozenset(
        j.function.qualname
        for j in jitted_callables(ctx)
        if j.transform == "jax.jit"
        and j.function is not None
        and not {"static_argnums", "static_argnames"} & set(j.options)
    )


def _part_of(parent: cst.CSTNode, expr: cst.CSTNode, above: cst.CSTNode | None) -> bool:
    """`expr.field` not called as a method, or `expr[k]`: a part of `expr`'s value; or a
    tuple or list literal holding `expr` as given."""
    if type(parent) is cst.Element:
        return parent.value is expr
    if type(parent) in (cst.Tuple, cst.List):
        return any(e is expr for e in parent.elements)  # type: ignore[attr-defined]  # a Tuple or a List
    if type(parent) is cst.Subscript:
        return parent.value is expr
    if type(parent) is cst.Attribute and parent.value is expr:
        return not (type(above) is cst.Call and above.func is parent)
    return False


def _jit_of(ctx: ModuleContext, stmt: Stmt, index: int) -> bool:
    """`stmt` is `f = jax.jit(g, ...)` whose options make no argument static but literal
    positions other than `index`."""
    node = stmt.node
    if type(node) is not cst.Assign or type(node.value) is not cst.Call:
        return False
    call = node.value
    if not ctx.is_jax(call.func, "jax.jit") or len(call.args) < 1 or call.args[0].keyword:
        return False
    for arg in call.args[1:]:
        keyword = arg.keyword.value if arg.keyword is not None else ""
        static = literal_ints(arg.value) if keyword == "static_argnums" else None
        if index in (static or ()) or (static is None and keyword != "donate_argnums"):
            return False
    return True


def _defaults(node: cst.FunctionDef) -> set[str]:
    params = node.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    found: set[str] = set()
    for param in every:
        if param.default is not None:
            found |= {n.value for n in _names(param.default)}
    return found


def _names(node: cst.CSTNode) -> list[cst.Name]:
    return [n for n in walk(node) if type(n) is cst.Name]


def library_receiver(ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression) -> str | None:
    """The class of the library object `expr` holds at `stmt` (`fresh.receiver_class`),
    or, for a closure a nested function reads, where its enclosing function binds it
    once."""
    cls = receiver_class(ctx, stmt, expr)
    if cls is None and type(expr) is cst.Name:
        made = _closure_binding(ctx, stmt, expr.value)
        cls = receiver_class(ctx, made, made.node.value) if made is not None else None  # type: ignore[attr-defined]  # an Assign
    return cls


def _closure_binding(ctx: ModuleContext, stmt: Stmt, name: str) -> Stmt | None:
    """The one statement `name = call(...)` of the function enclosing `stmt`'s function,
    where `stmt`'s function reads `name` as a closure and nothing declares it nonlocal."""
    graph = ctx.graph
    fn = graph.functions.get(stmt.scope)
    if fn is None or name in fn.params or name in fn.globals:
        return None
    if any(name in s.defs for s in graph.scope_stmts(fn.qualname)):
        return None
    outer = stmt.scope.rpartition(".")[0]
    if outer not in graph.functions or any(name in f.nonlocals for f in graph.functions.values()):
        return None
    binders = [s for s in graph.scope_stmts(outer) if name in s.defs]
    node = binders[0].node if len(binders) == 1 else None
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return None
    target = node.targets[0].target
    ok = type(target) is cst.Name and target.value == name and type(node.value) is cst.Call
    return binders[0] if ok else None
