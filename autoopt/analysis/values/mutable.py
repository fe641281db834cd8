"""Which names may hold a list or dict that code changes in place.

The value model knows a list or dict of JAX arrays (`Value.container`) only through a name
whose object nothing may change: a `.append(1.0)` or `d["n"] = 3` makes the same object hold
a host value. Both sets below are over-approximations by name, over the whole module (two
variables of one name in different functions count as one):

- *mutated*: changed in place by code autoopt sees (`a.append(x)`, `a[k] = x`, `a += [x]`,
  NumPy's in-place functions and `out=`: `Stmt.mutates`; not the appends that fill a
  list a function builds, whose values the model joins: `analysis/values/filled.py`),
  or linked to such a name: aliased (`b = a`), passed as an argument to such a
  parameter, returned from a function whose calls are bound to such a name. The value
  model then knows nothing of it.
- *escaping*: mutated, linked to an escaping name, or used other than in these harmless
  ways, which read the object without keeping or changing it:
  - an append that fills a list a function builds (`analysis/values/filled.py`);
  - `a[k]` (reading, or the key of another subscript), `a.keys()`/`.values()`/`.items()`/
    `.get(...)`/`.copy()`/`.index(...)`/`.count(...)`;
  - iterating it (`for x in a`, a comprehension's `in a`), testing it (`if a:`), comparing
    it, an operand of an arithmetic operator, a formatted value, a bare expression;
  - `return a` (or `a` in a returned tuple) from a function only called from the module:
    the name is then linked to the names its calls are bound to (`s = f(...)`,
    `s, x = f(...)`), and escapes where a call is used in any other way;
  - `b = a` (linked) and `x, y = a` (unpacked);
  - a positional or keyword argument of a JAX or NumPy function, of a transformed function
    (`jax.grad(f)(a)`: JAX hands `f` new containers of tracers), of a builtin other than
    `getattr`/`setattr`/`vars`/`iter`, or of a module function (linked to its parameter).
  Anything else (stored in a literal or another object, `a or b`, a method of another
  object, a function autoopt cannot see, `*a`) may keep the object and change it later:
  the value model then keeps only that it is a pytree of arrays, as it did before it knew
  containers.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.execution import only_called
from autoopt.analysis.core.exprs import bound_names
from autoopt.analysis.core.graph import Stmt
from autoopt.analysis.core.jitted import own_exprs
from autoopt.analysis.core.walk import child_list
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.values.filled import filled_appends

_HARMLESS_PARENTS = (
    cst.Return,
    cst.Expr,
    cst.Comparison,
    cst.ComparisonTarget,
    cst.BinaryOperation,
    cst.UnaryOperation,
    cst.FormattedStringExpression,
    cst.Index,
    cst.Slice,
)
_TESTED = (cst.For, cst.If, cst.While)  # a header that iterates or tests its expression
_SCOPES = (cst.FunctionDef, cst.ClassDef)  # their own statements in the graph


@dataclass(frozen=True)
class Changed:
    """Names whose object code in the module changes in place (`mutated`), and names whose
    object may be changed, by that code or by code autoopt cannot see (`escaping`)."""

    mutated: frozenset[str]
    escaping: frozenset[str]


def changed_names(ctx: ModuleContext) -> Changed:
    """The module's `Changed` names (use through `ctx.per_module`)."""
    fills = ctx.per_module(filled_appends)
    uses = _Uses(ctx, fills)
    mutated: set[str] = set()
    for stmt in ctx.graph.stmts:
        mutated |= {n for n in stmt.mutates if (stmt.id, n) not in fills}
        uses.run(stmt)
    uses.link_returns()
    mutated = _closure(mutated | uses.extended, uses.aliases, uses.passed)
    escaping = _closure(uses.escaping | mutated, uses.aliases, uses.passed)
    return Changed(frozenset(mutated), frozenset(escaping))


def _closure(
    names: set[str], aliases: list[tuple[str, str]], passed: list[tuple[str, str]]
) -> set[str]:
    """`names`, with every name aliased to one of them and every argument bound to a
    parameter among them."""
    names = set(names)
    grown = True
    while grown:
        grown = False
        for a, b in aliases:
            if (a in names) != (b in names):
                names |= {a, b}
                grown = True
        for argument, param in passed:
            if param in names and argument not in names:
                names.add(argument)
                grown = True
    return names


class _Uses:
    """Sorts every read of a name into harmless and escaping, statement by statement."""

    def __init__(self, ctx: ModuleContext, fills: frozenset[tuple[int, str]]) -> None:
        self.ctx = ctx
        self.fills = fills  # the appends that fill a list (`values/filled.py`): harmless
        self.bound = {n for s in ctx.graph.stmts for n in s.defs}
        self.escaping: set[str] = set()
        self.extended: set[str] = set()  # `a += [x]`: changed in place
        self.aliases: list[tuple[str, str]] = []
        self.passed: list[tuple[str, str]] = []  # (argument name, parameter name)
        self.returned: list[tuple[str, str, int]] = []  # (function, name, index in a tuple)
        self.stmt: Stmt | None = None

    def run(self, stmt: Stmt) -> None:
        self.stmt = stmt
        if type(stmt.node) is cst.FunctionDef:
            self._walk(stmt.node.params, set())  # a default is kept by the function
        for root in own_exprs(stmt):
            if type(root) is cst.Name:
                if not isinstance(stmt.node, _TESTED):
                    self.escaping.add(root.value)  # `with a:`, `match a:`, `@a`
                continue
            self._walk(root, set())

    def link_returns(self) -> None:
        """A name a function returns (alone or in a tuple) is the name its callers bind
        the call to (`s = f(...)`, `s, x = f(...)`); it escapes where a call is used in
        any other way or the function may be called from elsewhere."""
        graph = self.ctx.graph
        for scope, name, index in self.returned:
            fn = graph.functions.get(scope)
            if fn is None or not only_called(self.ctx, fn):
                self.escaping.add(name)
                continue
            for site in graph.call_sites(fn):
                node = site.stmt.node
                if type(node) is not cst.Assign or node.value is not site.call:
                    self.escaping.add(name)
                    continue
                targets = [n for t in node.targets for n in _receivers(t.target, index)]
                self.aliases.extend((name, t) for t in targets)

    def _walk(self, node: cst.CSTNode, skipped: set[int]) -> None:
        skipped |= {id(n) for n in _not_reads(node)}
        if type(node) is cst.Return and type(node.value) is cst.Tuple:
            for i, element in enumerate(node.value.elements):
                if type(element) is cst.Element and type(element.value) is cst.Name:
                    self._returns(element.value, i)
                else:
                    self._walk(element, skipped)
            return
        if type(node) is cst.Call:
            self._walk_call(node, skipped)
            return
        for child in child_list(node):
            if id(child) in skipped:
                continue
            if type(child) is cst.Name:
                self._classify(child, node)
            elif not isinstance(child, _SCOPES):
                self._walk(child, skipped)

    def _walk_call(self, call: cst.Call, skipped: set[int]) -> None:
        if type(call.func) is not cst.Name:  # a called name is never a list or dict
            self._walk(call.func, skipped)
        for arg in call.args:
            if type(arg.value) is cst.Name:
                self._argument(arg.value, arg, call)
            else:
                self._walk(arg.value, skipped)

    def _returns(self, name: cst.Name, index: int = -1) -> None:
        assert self.stmt is not None
        self.returned.append((self.stmt.scope, name.value, index))

    def _classify(self, name: cst.Name, parent: cst.CSTNode) -> None:
        value = name.value
        if type(parent) is cst.Return:
            self._returns(name)
            return
        if type(parent) is cst.Attribute:
            assert self.stmt is not None
            if (self.stmt.id, value) in self.fills:
                return
            if parent.attr.value not in python_api.READ_METHODS:
                self.escaping.add(value)
            return
        if isinstance(parent, (cst.Subscript, cst.CompFor, *_HARMLESS_PARENTS)):
            return  # read, indexed, iterated (`in a`), compared, returned
        if type(parent) is cst.Assign:
            targets = [t.target for t in parent.targets]
            if all(type(t) is cst.Name for t in targets):
                self.aliases.extend((value, t.value) for t in targets if type(t) is cst.Name)
            elif not all(type(t) in (cst.Tuple, cst.List) for t in targets):
                self.escaping.add(value)
            return  # `x, y = a` unpacks its elements, never keeps it
        if type(parent) is cst.AugAssign and parent.value is name:
            return  # `n += a` reads it as an operand
        if type(parent) is cst.AugAssign:
            self.extended.add(value)  # `a += [x]` extends a list in place
            return
        self.escaping.add(value)  # kept in another object, starred, `a or b`, ...

    def _argument(self, name: cst.Name, arg: cst.Arg, call: cst.Call) -> None:
        value = name.value
        if arg.star:
            self.escaping.add(value)
            return
        qual = self.ctx.qualify(call.func)
        if qual is not None and qual.startswith(("jax.", "numpy.")):
            return
        if type(call.func) is cst.Call and _jax_function(self.ctx, call.func.func):
            return  # `jax.grad(f)(a)`: the transform hands `f` new containers of tracers
        func = call.func
        if type(func) is not cst.Name:
            self.escaping.add(value)
            return
        assert self.stmt is not None
        fn = self.ctx.graph.resolve_function(func.value, self.stmt.scope)
        if fn is not None:
            param = _parameter(fn.positional, fn.params, call, arg)
            if param is None:
                self.escaping.add(value)
            else:
                self.passed.append((value, param))
            return
        builtin = func.value in python_api.PURE_BUILTINS or func.value in python_api.IO_BUILTINS
        if not builtin or func.value in self.bound or func.value in python_api.KEEPING_BUILTINS:
            self.escaping.add(value)


def _jax_function(ctx: ModuleContext, func: cst.BaseExpression) -> bool:
    return (ctx.qualify(func) or "").startswith("jax.")


def _receivers(target: cst.BaseExpression, index: int) -> list[str]:
    """The names a call's result bound to `target` may hold the returned name in: the
    `index`-th of a tuple target (a tuple returned), else every name it binds."""
    if index >= 0 and (type(target) is cst.Tuple or type(target) is cst.List):
        elements = target.elements
        plain = not any(type(e) is cst.StarredElement for e in elements)
        if plain and index < len(elements):
            return list(bound_names(elements[index].value))
    return list(bound_names(target))


def _parameter(
    positional: list[str], params: list[str], call: cst.Call, arg: cst.Arg
) -> str | None:
    """The parameter of a module function that `arg` binds, or None (`*args`, unknown)."""
    if arg.keyword is not None:
        return arg.keyword.value if arg.keyword.value in params else None
    index = [i for i, a in enumerate(call.args) if a.keyword is None and a is arg]
    before = [a for a in call.args[: index[0]] if a.keyword is None] if index else []
    return positional[len(before)] if index and len(before) < len(positional) else None


def _not_reads(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The names under `node` that are not reads of a variable: binding targets,
    attribute names and parameter names."""
    if type(node) is cst.AssignTarget or type(node) is cst.CompFor or type(node) is cst.NamedExpr:
        return _bound(node.target)
    if type(node) is cst.AnnAssign:
        return [*_bound(node.target), node.annotation]
    if type(node) is cst.Attribute:
        return [node.attr]
    if type(node) is cst.Param or type(node) is cst.AsName:
        return [node.name]
    return []


def _bound(target: cst.CSTNode) -> list[cst.CSTNode]:
    """The name nodes a binding target binds (a subscript or attribute target is a read)."""
    if type(target) is cst.Name:
        return [target]
    if type(target) is cst.Tuple or type(target) is cst.List:
        return [target, *(n for e in target.elements for n in _bound(e))]
    if type(target) is cst.Element or type(target) is cst.StarredElement:
        return _bound(target.value)
    return []
