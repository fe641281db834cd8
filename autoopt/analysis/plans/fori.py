"""Can a Python `for i in range(...)` loop become `lax.fori_loop` inside one `jit`?

The loop must be the body of a module function that jit can trace as a whole
(pure, no Python control flow on traced values, no argument needed as a
Python value), with a body of plain assignments. Names the loop writes and
that are defined before it become the carry; names it only uses inside one
iteration stay local to the body function.

The function must be module-level and undecorated and return arrays, and read no
outside state jit would freeze (`analysis/facts/summaries.py`: a global the program
rebinds, a default not proven immutable, through its callees too); every carried name
an array defined before the loop (call sites prove array arguments) whose shape and
dtype provably stay the same (analysis/plans/carry.py: a Python loop may broadcast or
promote it, where `fori_loop` raises); names local to an iteration are not read after
it, and the index is not read after the loop. Every value indexed by the (now traced)
index must be a JAX array or the one the loop ranges over (`index_doubts`).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import MODULE, Function, Loop, Stmt
from autoopt.analysis.core.walk import child_list
from autoopt.analysis.facts import purity, rounding_tricks, summaries, tracing
from autoopt.analysis.plans.carry import unstable_carry
from autoopt.analysis.values import arrays
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model


@dataclass(frozen=True)
class LoopPlan:
    """A `for index in range(*bounds)` loop to turn into a lax loop: the function it
    is in, the loop, its index and bounds, and the names it carries."""

    fn: Function
    loop: Loop
    index: str
    bounds: tuple[cst.BaseExpression, ...]
    carry: tuple[str, ...]


@dataclass(frozen=True)
class ForiPlan(LoopPlan):
    """A loop for `lax.fori_loop`."""

    doubts: tuple[str, ...]  # why the rewrite is only unsafe


def fori_plan(ctx: ModuleContext, loop: Loop) -> ForiPlan | None:
    """The plan, or None when the loop or its function does not fit."""
    node = loop.node
    fn = ctx.graph.functions.get(loop.scope)
    counted = counted_for(node)
    if fn is None or loop.loops or counted is None or not _assignments_only(node):
        return None
    frozen, frozen_doubts = summaries.frozen_reads(ctx, fn, frozenset())
    if frozen or not _jittable(ctx, fn):
        return None
    index, bounds = counted
    body = ctx.graph.loop_stmts(loop.id)
    if any(index in s.defs for s in body):
        return None
    carry = loop_carry(ctx, loop, body, index)
    if not carry or not _index_traceable(body, index):
        return None
    doubts = index_doubts(ctx, node, body, index) + _carry_doubts(ctx, fn, body, carry)  # type: ignore[arg-type]  # the loop: a For
    doubts += frozen_doubts + rounding_tricks.premise(ctx)
    return ForiPlan(fn, loop, index, bounds, carry, tuple(doubts))


def counted_for(node: cst.For | cst.While) -> tuple[str, tuple[cst.BaseExpression, ...]] | None:
    """The index and the `range` arguments of `for i in range(a[, b]):` with no `else`."""
    if type(node) is not cst.For or node.orelse is not None or node.asynchronous:
        return None
    target, it = node.target, node.iter
    if not (
        type(target) is cst.Name
        and type(it) is cst.Call
        and type(it.func) is cst.Name
        and it.func.value == "range"
        and 1 <= len(it.args) <= 2
        and all(a.keyword is None and not a.star for a in it.args)
    ):
        return None
    return target.value, tuple(a.value for a in it.args)


def _assignments_only(node: cst.For | cst.While) -> bool:
    """A loop body of plain assignments."""
    lines = node.body.body
    return all(
        type(line) is cst.SimpleStatementLine
        and all(type(s) is cst.Assign and _plain_targets(s) for s in line.body)
        for line in lines
    )


def _plain_targets(assign: cst.Assign) -> bool:
    def plain(t: cst.BaseExpression) -> bool:
        if type(t) is cst.Tuple or type(t) is cst.List:
            return all(plain(e.value) for e in t.elements)
        return type(t) is cst.Name

    return all(plain(t.target) for t in assign.targets)


def _jittable(ctx: ModuleContext, fn: Function) -> bool:
    node = fn.node
    if fn.scope != MODULE or fn.is_method or node.decorators or node.asynchronous:
        return False
    if fn.is_generator or purity.impurities(ctx, fn):
        return False
    if purity.reads_module_state(ctx, fn) or fn.captured:
        return False
    facts = tracing.analyse(ctx, fn)
    return not facts.static and not facts.traced_control and _returns_arrays(ctx, fn)


def _returns_arrays(ctx: ModuleContext, fn: Function) -> bool:
    """Every return gives an array or a tuple of arrays (jit would turn Python values
    into arrays)."""
    known = _array_params(ctx, fn)
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        if type(stmt.node) is not cst.Return:
            continue
        value = stmt.node.value
        parts = [e.value for e in value.elements] if type(value) is cst.Tuple else [value]
        if not all(p is not None and arrays.is_array(ctx, stmt, p, known) for p in parts):
            return False
    return True


def _array_params(ctx: ModuleContext, fn: Function) -> frozenset[str]:
    """Parameters that receive a provable array at every call site (positionally)."""
    sites = ctx.graph.call_sites(fn)
    if not sites:
        return frozenset()
    return frozenset(
        param
        for position, param in enumerate(fn.params)
        if all(_array_arg(ctx, site.stmt, site.call, position) for site in sites)
    )


def _array_arg(ctx: ModuleContext, stmt: Stmt, call: cst.Call, position: int) -> bool:
    args = call.args
    if position >= len(args) or args[position].keyword or args[position].star:
        return False
    return arrays.is_array(ctx, stmt, args[position].value, frozenset())


def loop_carry(
    ctx: ModuleContext, loop: Loop, body: list[Stmt], index: str
) -> tuple[str, ...] | None:
    """Names the loop rebinds that were bound before it, in first-write order; None when
    the index or a name of one iteration is read after the loop, or a name is read
    before its first write in the body without being bound before the loop."""
    graph = ctx.graph
    header = graph.stmts[loop.header]
    last = max(s.id for s in body)
    after = [s for s in graph.scope_stmts(loop.scope) if s.id > last]
    if any(index in s.uses for s in after):
        return None
    carry: list[str] = []
    for name in dict.fromkeys(n for s in body for n in sorted(s.defs)):
        before = [s for s in graph.scope_stmts(loop.scope) if name in s.defs and s.id < header.id]
        if any(graph.dominates(s, header) for s in before):
            carry.append(name)
            continue
        first = next(s for s in body if name in s.uses | s.defs)
        if before or name in first.uses or any(name in s.uses for s in after):
            return None
    return tuple(carry)


def _index_traceable(body: list[Stmt], index: str) -> bool:
    """The index, and names computed from it, appear only in integer arithmetic that
    ends in a subscript `x[...]` (or `x.at[...]`): inside fori_loop the index is
    traced, and a traced value cannot be a slice bound, a shape or a Python int."""
    derived = _derived(body, index)
    allowed: set[int] = set()
    for stmt in body:
        value = stmt.node.value  # type: ignore[attr-defined]  # plain assignments
        if _arithmetic(value):
            allowed |= {id(n) for n in read_names(value)}
        for sub in _subscripts(stmt.node, derived):
            for element in sub.slice:
                if type(element.slice) is cst.Index and _arithmetic(element.slice.value):
                    allowed |= {id(n) for n in read_names(element.slice.value)}
    # the statements are plain assignments to names: only their values read anything
    reads = (n for stmt in body for n in read_names(stmt.node.value))  # type: ignore[attr-defined]  # plain assignments
    return all(id(n) in allowed for n in reads if n.value in derived)


def _derived(body: list[Stmt], index: str) -> set[str]:
    """The index and the names computed from it by integer arithmetic (`j = i + 1`)."""
    derived = {index}
    for stmt in body:  # plain assignments, in order
        value = stmt.node.value  # type: ignore[attr-defined]  # plain assignments
        if _arithmetic(value) and derived & {n.value for n in read_names(value)}:
            derived |= stmt.defs
    return derived


def _arithmetic(expr: cst.BaseExpression) -> bool:
    """Names and integers joined by `+ - * // %` and unary minus."""
    if type(expr) in (cst.Name, cst.Integer):
        return True
    if type(expr) is cst.UnaryOperation:
        return type(expr.operator) is cst.Minus and _arithmetic(expr.expression)
    if type(expr) is cst.BinaryOperation:
        ops = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)
        return isinstance(expr.operator, ops) and _arithmetic(expr.left) and _arithmetic(expr.right)
    return False


def index_doubts(
    ctx: ModuleContext, node: cst.For, body: list[Stmt], index: str, tracer: str = "fori_loop"
) -> list[str]:
    """Indexing with the (now traced) loop index clamps where a NumPy array or a list
    would raise. A JAX array clamps an out-of-range index the same way eagerly and traced
    (JAX's documented out-of-bounds semantics), so only other bases are in doubt."""
    counted = _counted(node)
    values = model(ctx)
    derived = _derived(body, index)  # `x[j]` with `j = i + 1` indexes with it too
    doubts = []
    for stmt in body:
        for sub in _subscripts(stmt.node, derived):
            if not _reads_index(sub, derived) or _is_at(sub):
                continue
            if values.value_of(stmt, sub.value).kind is Kind.ARRAY:
                continue
            first = sub.slice[0].slice
            proven = (
                counted is not None
                and ctx.code(sub.value) == counted
                and type(first) is cst.Index
                and type(first.value) is cst.Name
                and first.value.value == index
            )
            if not proven:
                doubts.append(
                    f"`{ctx.code(sub)}` indexes with the loop index, which {tracer} traces: "
                    "an out-of-range index would clamp where this value, not proven a JAX "
                    "array, may raise"
                )
    return doubts


def _carry_doubts(
    ctx: ModuleContext, fn: Function, body: list[Stmt], carry: tuple[str, ...]
) -> list[str]:
    """Carried names not proven to be arrays (fori_loop needs a fixed shape and dtype)."""
    known = _array_params(ctx, fn)
    doubts = []
    for name in carry:
        reader = next((s for s in body if name in s.uses), None)
        if reader is None or not arrays.is_array(ctx, reader, cst.Name(name), known):
            doubts.append(f"cannot prove the loop-carried `{name}` is an array of fixed shape")
    return doubts + unstable_carry(ctx, body, carry)


def _counted(node: cst.For) -> str | None:
    """`xs` for `range([k, ]xs.shape[0])` or `range([k, ]len(xs))` (`k` a literal
    integer, so never negative), else None."""
    args = node.iter.args  # type: ignore[attr-defined]  # a range(...) call
    if len(args) == 2 and type(args[0].value) is not cst.Integer:
        return None
    count = args[-1].value
    if type(count) is cst.Call and type(count.func) is cst.Name and count.func.value == "len":
        return cst.Module([]).code_for_node(count.args[0].value) if len(count.args) == 1 else None
    if (
        type(count) is cst.Subscript
        and type(count.value) is cst.Attribute
        and count.value.attr.value == "shape"
        and cst.Module([]).code_for_node(count.slice[0]) == "0"
    ):
        return cst.Module([]).code_for_node(count.value.value)
    return None


def _subscripts(node: cst.CSTNode, names: set[str]) -> list[cst.Subscript]:
    """The subscripts in `node`, in LibCST's visiting order, where a name in `names`
    occurs in it (otherwise none that reads one, all the callers look at)."""
    if not _names_in(node, names):
        return []
    found: list[cst.Subscript] = []

    class Visitor(cst.CSTVisitor):
        def visit_Subscript(self, sub: cst.Subscript) -> None:
            found.append(sub)

    node.visit(Visitor())
    return found


def _names_in(node: cst.CSTNode, names: set[str]) -> bool:
    """Whether a name in `names` occurs anywhere in `node`: a walk, far cheaper than
    LibCST's visit, that also enters the `*args` and `**kwargs` `walk` skips."""
    stack = [node]
    while stack:
        current = stack.pop()
        if type(current) is cst.Name and current.value in names:
            return True
        stack += child_list(current)
        if type(current) is cst.Parameters:
            stack += [p for p in (current.star_arg, current.star_kwarg) if type(p) is cst.Param]
    return False


def _reads_index(sub: cst.Subscript, derived: set[str]) -> bool:
    return any(n.value in derived for e in sub.slice for n in read_names(e))


def _is_at(sub: cst.Subscript) -> bool:
    """`x.at[...]`: out-of-range updates are dropped the same way traced or not."""
    return type(sub.value) is cst.Attribute and sub.value.attr.value == "at"
