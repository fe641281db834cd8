"""Can a collecting loop run as one jitted `lax.scan`?

The loop, `for i in range(...)` in a function, may only rebind names to
expressions built from jitted module functions, public JAX functions, names and
rows `xs[i]` of JAX arrays the loop does not change, and append one value per
iteration to the list being collected. Then the whole loop is one compiled
program scanning over the indices: names it rebinds that are defined before it
are the carry, and the appended values come back stacked. A traced index reads
the same row as a Python one, out-of-range rows included: JAX clamps both.

AO302 takes this form only when every conversion in the loop is a scalar one (`float`,
`.item()`: stacking whole arrays every step would cost device memory) appended to its
own list, directly or under an `if` on the index alone (`if t % 10 == 0:`: the value is
stacked every step and the kept steps picked after the loop); the `range` has literal or
module-constant bounds and runs at least once (scan traces its body even for zero
steps); the jitted functions take no static arguments; the index is used for nothing
else; every carried name keeps its shape and dtype (analysis/plans/carry.py); and no
name of the last step is read after the loop. A module that rounds by a trick XLA folds
(`analysis/facts/rounding_tricks.py`) gets no scan: it would compile the loop's calls into
one program, where `encode` adding `1.5 * 2**23` and `decode` subtracting it fold; the
list form keeps each call its own program.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Function, Loop, Stmt
from autoopt.analysis.core.jitted import jitted_callables
from autoopt.analysis.facts import rounding_tricks
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.plans.carry import unstable_carry
from autoopt.analysis.plans.fori import LoopPlan, counted_for, loop_carry
from autoopt.analysis.values import ints
from autoopt.analysis.values.ints import module_constant
from autoopt.analysis.values.placement import Place, Placement

_TRANSFERS = frozenset({"jax.numpy.asarray", "jax.numpy.array"})  # AO301 hoists these


@dataclass(frozen=True)
class Collect:
    """`name.append(<conversion of value>)` in the loop, maybe under `if <condition>:`."""

    stmt: Stmt
    name: str
    value: cst.BaseExpression
    condition: cst.BaseExpression | None = None  # on the index only, e.g. `t % 10 == 0`
    line: cst.BaseStatement | None = None  # the loop-body line holding it (the `if`)


@dataclass(frozen=True)
class ScanPlan(LoopPlan):
    """A loop for `lax.scan`: what it reads besides its carry, and what it collects."""

    inputs: tuple[str, ...]  # other local names the body reads
    collects: tuple[Collect, ...]


def scan_plan(ctx: ModuleContext, loop: Loop, collects: list[Collect]) -> ScanPlan | None:
    """The plan for a loop whose only effects besides rebinding are `collects`, else None."""
    fn = ctx.graph.functions.get(loop.scope)
    node = loop.node
    counted = counted_for(node)
    if fn is None or counted is None or _nested_loop(ctx, loop) or rounding_tricks.premise(ctx):
        return None
    index, bounds = counted
    if not _runs(ctx, bounds):
        return None
    placed = _placed(ctx, node, collects)  # type: ignore[arg-type]  # a For: counted_for
    if placed is None:
        return None
    body = ctx.graph.loop_stmts(loop.id)
    owned = {id(c.stmt) for c in placed} | {id(s) for s in body if _owns_collect(s, placed)}
    if not all(id(s) in owned or _rebinding(s) for s in body):
        return None
    terms = _Terms(ctx, fn, loop, index)
    exprs = [(s, s.node.value) for s in body if id(s) not in owned]  # type: ignore[attr-defined]  # _rebinding: assignments
    exprs += [(c.stmt, c.value) for c in placed]
    if not all(terms.allowed_at(s, e) for s, e in exprs):
        return None
    carry = loop_carry(ctx, loop, [s for s in body if type(s.node) is not cst.If], index)
    if carry is None or not _carry_arrays(ctx, body, carry):
        return None
    if unstable_carry(ctx, body, carry):
        return None
    written = {n for s in body for n in s.defs}
    inputs = sorted(terms.locals_read - written)
    return ScanPlan(fn, loop, index, bounds, carry, tuple(inputs), tuple(placed))


def _placed(ctx: ModuleContext, node: cst.For, collects: list[Collect]) -> list[Collect] | None:
    """Each collect with the body line holding it: its own line, or an `if` on the index
    with that line alone; None when one sits elsewhere."""
    placed = []
    for c in collects:
        for line in node.body.body:
            if line is c.stmt.anchor:
                placed.append(Collect(c.stmt, c.name, c.value, None, line))
                break
            if _guards(line, c.stmt) and _index_condition(ctx, c.stmt, line.test):  # type: ignore[union-attr]  # an If
                placed.append(Collect(c.stmt, c.name, c.value, line.test, line))  # type: ignore[union-attr, arg-type]  # an If
                break
        else:
            return None
    return placed


def _guards(line: cst.BaseStatement | cst.BaseSmallStatement, stmt: Stmt) -> bool:
    """`if <test>:` whose whole body is the line of `stmt`, with no `else`."""
    return (
        type(line) is cst.If
        and line.orelse is None
        and type(line.body) is cst.IndentedBlock
        and len(line.body.body) == 1
        and line.body.body[0] is stmt.anchor
    )


def _owns_collect(stmt: Stmt, placed: list[Collect]) -> bool:
    """The `if` header statement of a guarded collect."""
    return any(c.line is stmt.node for c in placed if c.condition is not None)


def _index_condition(ctx: ModuleContext, stmt: Stmt, test: cst.BaseExpression) -> bool:
    """A comparison of integer arithmetic on `range` indices, literals and module
    constants (evaluated again after the loop, to pick the kept steps)."""
    if type(test) is cst.Comparison:
        sides = [test.left, *(c.comparator for c in test.comparisons)]
        return all(ints.is_int(ctx, stmt, e) for e in sides)
    return False


def _nested_loop(ctx: ModuleContext, loop: Loop) -> bool:
    return any(loop.id in other.loops for other in ctx.graph.loops.values())


def _rebinding(stmt: Stmt) -> bool:
    """A lone `name = ...` or `a, b = ...` line."""
    node = stmt.node
    if type(node) is not cst.Assign or not stmt.alone:
        return False
    return all(_plain(t.target) for t in node.targets)


def _plain(target: cst.BaseExpression) -> bool:
    if type(target) is cst.Tuple or type(target) is cst.List:
        return all(_plain(e.value) for e in target.elements)
    return type(target) is cst.Name


class _Terms:
    """Which expressions the scanned body may hold, and what they read."""

    def __init__(self, ctx: ModuleContext, fn: Function, loop: Loop, index: str) -> None:
        self.ctx, self.loop, self.index = ctx, loop, index
        self.locals = _locals(ctx, fn)
        self.jitted = {
            j.name
            for j in jitted_callables(ctx)
            if set(j.options) <= jax_api.DONATION_OPTIONS and _bound_at_module(ctx, j.name)
        }
        self.written = ctx.graph.written_in_loop(loop.id)
        self.places = Placement(ctx)
        self.at = ctx.graph.stmts[loop.header]
        self.locals_read: set[str] = set()

    def allowed_at(self, stmt: Stmt, expr: cst.BaseExpression) -> bool:
        """Whether `expr`, evaluated at `stmt`, may be traced in the scanned body."""
        self.at = stmt
        return self.allowed(expr)

    def allowed(self, expr: cst.BaseExpression) -> bool:
        if type(expr) in (cst.Integer, cst.Float):
            return True
        if type(expr) is cst.Name:
            return self._name(expr.value)
        if type(expr) is cst.BinaryOperation:
            return self.allowed(expr.left) and self.allowed(expr.right)
        if type(expr) is cst.UnaryOperation:
            return self.allowed(expr.expression)
        if type(expr) is cst.Subscript:
            return self._row(expr)
        if type(expr) is cst.Call:
            return self._call(expr)
        return False

    def _name(self, name: str) -> bool:
        if name == self.index:
            return False  # the traced index would replace a Python int
        if name in self.locals:
            self.locals_read.add(name)
            return True
        return self._module_constant(name)

    def _module_constant(self, name: str) -> bool:
        """A module name bound once to a number: the helper reads the same value."""
        return type(module_constant(self.ctx, name)) in (cst.Integer, cst.Float)

    def _row(self, sub: cst.Subscript) -> bool:
        """`xs[i]`: a row of a JAX array the loop does not change."""
        if len(sub.slice) != 1 or type(sub.slice[0].slice) is not cst.Index:
            return False
        at = sub.slice[0].slice.value
        array = sub.value
        if not (type(at) is cst.Name and at.value == self.index):
            return False
        if type(array) is not cst.Name or array.value not in self.locals:
            return False
        if array.value in self.written:
            return False
        if self.places.place_of(self.at, array) is not Place.DEVICE:
            return False  # NumPy raises on a row out of range; a traced index clamps
        self.locals_read.add(array.value)
        return True

    def _call(self, call: cst.Call) -> bool:
        func = call.func
        known = type(func) is cst.Name and func.value in self.jitted
        if not known:
            qual = self.ctx.qualify(func)
            known = (
                qual is not None
                and qual.startswith(jax_api.TRACEABLE_PREFIXES)
                and qual not in _TRANSFERS
            )
            if type(func) is cst.Name and func.value in self.locals:
                known = False
        if not known or any(a.star for a in call.args):
            return False
        return all(self.allowed(a.value) for a in call.args)


def _locals(ctx: ModuleContext, fn: Function) -> set[str]:
    names = set(fn.params)
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        names |= stmt.defs
    return names


def _bound_at_module(ctx: ModuleContext, name: str) -> bool:
    return all(s.scope == MODULE for s in ctx.graph.stmts if name in s.defs)


def _carry_arrays(ctx: ModuleContext, body: list[Stmt], carry: tuple[str, ...]) -> bool:
    """Every carried name is rebound to JAX arrays, as `scan` hands its carry back."""
    places = Placement(ctx)
    return all(
        places.defined(s, name) is Place.DEVICE for name in carry for s in body if name in s.defs
    )


def _runs(ctx: ModuleContext, bounds: tuple[cst.BaseExpression, ...]) -> bool:
    return step_count(ctx, bounds) is not None


def step_count(ctx: ModuleContext, bounds: tuple[cst.BaseExpression, ...]) -> int | None:
    """How often `range(n)` or `range(a, b)` of literals or module constants runs, when
    at least once (`scan` traces its body even for zero steps, where the loop would run
    nothing); else None."""
    values = [_literal(ctx, b) for b in bounds]
    if any(v is None for v in values):
        return None
    low, high = (0, *values) if len(values) == 1 else values
    return high - low if low >= 0 and high > low else None  # type: ignore[operator]  # no None: returned above


def _literal(ctx: ModuleContext, expr: cst.BaseExpression) -> int | None:
    """The value of an integer literal or integer module constant."""
    if type(expr) is cst.Name:
        expr = module_constant(ctx, expr.value) or expr
    return int(expr.evaluated_value) if type(expr) is cst.Integer else None
