"""Where a value lives: a NumPy array on the host, a JAX array on the device, or unknown.

The inference is syntactic and conservative. NumPy calls (and the methods of
what they return, a random `Generator` included) give host arrays; `jax.numpy`,
`jax.random`, `jax.device_put` and jitted callables give device arrays;
`jax.device_get` gives host arrays. Names follow their reaching definitions,
tuple unpacking of a module function follows its `return` statements, and a
parameter follows the arguments of every call site.
"""

from __future__ import annotations

from enum import Enum

import libcst as cst

from autoopt.analysis.context import ModuleContext
from autoopt.analysis.graph import MODULE, Function, Stmt
from autoopt.analysis.jitted import call_sites, jitted_callables
from autoopt.analysis.names import dotted

_DEVICE_MODULES = ("jax.numpy.", "jax.random.", "jax.nn.", "jax.lax.", "jax.scipy.")
_TO_PYTHON = frozenset({"item", "tolist"})


class Place(str, Enum):
    HOST = "host"  # a NumPy array or NumPy value
    DEVICE = "device"  # a JAX array
    OTHER = "other"  # unknown, or a Python value


class Placement:
    """Answers `place_of` for one module, remembering the names it has placed."""

    def __init__(self, ctx: ModuleContext) -> None:
        self.ctx = ctx
        self.jitted = {j.name for j in jitted_callables(ctx)}
        self._names: dict[tuple[int, str], Place] = {}

    def place_of(self, stmt: Stmt, expr: cst.BaseExpression) -> Place:
        """Where the value of `expr`, evaluated at `stmt`, lives."""
        if isinstance(expr, cst.Name):
            return self._name(stmt, expr.value)
        if isinstance(expr, cst.Subscript):
            return self.place_of(stmt, expr.value)
        if isinstance(expr, cst.Attribute):
            return self.place_of(stmt, expr.value) if expr.attr.value == "T" else Place.OTHER
        if isinstance(expr, cst.UnaryOperation):
            return self.place_of(stmt, expr.expression)
        if isinstance(expr, cst.BinaryOperation):
            return self._binary(stmt, expr)
        if isinstance(expr, cst.Call):
            return self._call(stmt, expr)
        return Place.OTHER

    def _binary(self, stmt: Stmt, expr: cst.BinaryOperation) -> Place:
        sides = [e for e in (expr.left, expr.right) if not isinstance(e, cst.BaseNumber)]
        places = {self.place_of(stmt, e) for e in sides}
        if Place.DEVICE in places:
            return Place.DEVICE
        return Place.HOST if places == {Place.HOST} else Place.OTHER

    def _call(self, stmt: Stmt, call: cst.Call) -> Place:
        qual = self.ctx.qualify(call.func) or ""
        name = dotted(call.func) or ""
        if name in self.jitted:
            return Place.DEVICE
        if qual == "jax.device_get" or qual.startswith("numpy."):
            return Place.HOST
        if qual == "jax.device_put" or qual.startswith(_DEVICE_MODULES):
            return Place.DEVICE
        if isinstance(call.func, cst.Attribute) and not qual:
            if call.func.attr.value in _TO_PYTHON:
                return Place.OTHER
            return self.place_of(stmt, call.func.value)
        fn = self._function(name, stmt)
        return self._returned(fn, None) if fn is not None else Place.OTHER

    def _function(self, name: str, stmt: Stmt) -> Function | None:
        if not name or "." in name:
            return None
        return self.ctx.graph.resolve_function(name, stmt.scope)

    def _returned(self, fn: Function, index: int | None) -> Place:
        """Where a module function's return value (or its `index`-th element) lives."""
        places = set()
        for stmt in self.ctx.graph.scope_stmts(fn.qualname):
            if not isinstance(stmt.node, cst.Return) or stmt.node.value is None:
                continue
            value = stmt.node.value
            if index is not None:
                if not isinstance(value, cst.Tuple) or index >= len(value.elements):
                    return Place.OTHER
                value = value.elements[index].value
            places.add(self.place_of(stmt, value))
        return places.pop() if len(places) == 1 else Place.OTHER

    def _name(self, stmt: Stmt, name: str) -> Place:
        key = (stmt.id, name)
        if key not in self._names:
            self._names[key] = Place.OTHER  # a cycle through loop-carried definitions
            self._names[key] = self._resolve_name(stmt, name)
        return self._names[key]

    def _resolve_name(self, stmt: Stmt, name: str) -> Place:
        graph = self.ctx.graph
        defs = graph.reaching_defs(stmt, name)
        caller = graph.functions.get(stmt.scope)
        if not defs and caller is not None and name in caller.params:
            return self._parameter(caller, name)
        if not defs and stmt.scope != MODULE:
            defs = [s for s in graph.scope_stmts(MODULE) if name in s.defs]
        places = {self.defined(d, name) for d in defs}
        return places.pop() if len(places) == 1 else Place.OTHER

    def _parameter(self, fn: Function, name: str) -> Place:
        sites = self.ctx.graph.call_sites(fn) or call_sites(self.ctx, fn.name)
        places = set()
        for site in sites:
            expr = site.argument(fn.params.index(name), name)
            places.add(Place.OTHER if expr is None else self.place_of(site.stmt, expr))
        return places.pop() if len(places) == 1 else Place.OTHER

    def defined(self, stmt: Stmt, name: str) -> Place:
        """Where the value `stmt` binds to `name` lives."""
        node = stmt.node
        if not isinstance(node, cst.Assign):
            return Place.OTHER
        places = {self._assigned(stmt, t.target, node.value, name) for t in node.targets}
        places.discard(None)
        return places.pop() if len(places) == 1 else Place.OTHER  # type: ignore[return-value]

    def _assigned(
        self, stmt: Stmt, target: cst.BaseExpression, value: cst.BaseExpression, name: str
    ) -> Place | None:
        if isinstance(target, cst.Name):
            return self.place_of(stmt, value) if target.value == name else None
        if not isinstance(target, cst.Tuple | cst.List):
            return None
        names = [e.value.value if isinstance(e.value, cst.Name) else None for e in target.elements]
        if name not in names:
            return None
        index = names.index(name)
        if isinstance(value, cst.Tuple) and len(value.elements) == len(names):
            return self.place_of(stmt, value.elements[index].value)
        if not isinstance(value, cst.Call):
            return Place.OTHER
        if self._call(stmt, value) is Place.DEVICE:
            return Place.DEVICE
        fn = self._function(dotted(value.func) or "", stmt)
        return self._returned(fn, index) if fn is not None else Place.OTHER
