"""Can the body of an eager loop become one compiled step function?

`for t in range(n): <plain assignments>` (or `for batch in batches:`) in code
that runs eagerly: the body moves into a module-level function, called once per
iteration with the loop variable, the names the loop carries and the other names
it reads from its scope, and returning the names that a later iteration or the
code after the loop reads. Whether that function may be jitted (and donate its
carry) is the jit plan's question, asked on the program with the step extracted
(`rules/ao103_compiled_loop_step.py`); this module only finds the loops and
their names.

Names the body reads that its scope does not bind (module functions, imports,
constants of the module, builtins) stay global references in the step; a loop
at module level passes the names the module binds to values instead, since the
loop may rebind them.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis import execution
from autoopt.analysis.context import ModuleContext
from autoopt.analysis.fori import counted_for, index_doubts
from autoopt.analysis.graph import MODULE, Loop, Stmt

_MIN_STATEMENTS = 2  # one call alone is AO101's to jit


@dataclass(frozen=True)
class StepPlan:
    """The loop, its variable, and the names the step function takes and returns."""

    loop: Loop
    index: str
    params: tuple[str, ...]  # the loop variable (if read), carried names, other inputs
    returns: tuple[str, ...]  # names a later iteration or the code after the loop reads
    doubts: tuple[str, ...]  # what the loop variable's tracing may change


def step_plans(ctx: ModuleContext) -> list[StepPlan]:
    """A plan for every eager loop whose body can be extracted, in source order."""
    return ctx.per_module(_step_plans)


def _step_plans(ctx: ModuleContext) -> list[StepPlan]:
    found = (step_plan(ctx, loop) for loop in ctx.graph.loops.values())
    return [plan for plan in found if plan is not None]


def step_plan(ctx: ModuleContext, loop: Loop) -> StepPlan | None:
    """The extraction plan, or None when the loop does not fit."""
    node = loop.node
    if not _simple_for(node) or not execution.runs_eagerly(ctx, loop.scope):
        return None
    lines = node.body.body  # type: ignore[union-attr]
    if sum(len(line.body) for line in lines) < _MIN_STATEMENTS:  # type: ignore[attr-defined]
        return None
    index = node.target.value  # type: ignore[union-attr]
    body = ctx.graph.loop_stmts(loop.id)
    if any(index in s.defs for s in body) or _declared(ctx, loop, body):
        return None
    exposed = _exposed(body)
    returns = _returns(ctx, loop, body, exposed)
    if not returns or not _bound_before(ctx, loop, [n for n in returns if n in exposed]):
        return None
    inputs = [n for n in exposed if n != index and n not in returns and _passed(ctx, loop, n)]
    carried = [n for n in returns if n in exposed]
    params = ([index] if index in exposed else []) + carried + inputs
    counted = counted_for(node) is not None
    doubts = index_doubts(ctx, node, body, index, "the jitted step") if counted else []  # type: ignore[arg-type]
    return StepPlan(loop, index, tuple(params), tuple(returns), tuple(doubts))


def _simple_for(node: cst.For | cst.While) -> bool:
    """`for name in ...:` over a body of plain assignments to names, no `else`."""
    if not isinstance(node, cst.For) or node.orelse is not None or node.asynchronous:
        return False
    if not isinstance(node.target, cst.Name):
        return False
    return all(
        isinstance(line, cst.SimpleStatementLine)
        and all(isinstance(s, cst.Assign) and _names_only(s) for s in line.body)
        for line in node.body.body
    )


def _names_only(assign: cst.Assign) -> bool:
    def plain(target: cst.BaseExpression) -> bool:
        if isinstance(target, cst.Tuple | cst.List):
            return all(plain(e.value) for e in target.elements)
        return isinstance(target, cst.Name)

    return all(plain(t.target) for t in assign.targets)


def _declared(ctx: ModuleContext, loop: Loop, body: list[Stmt]) -> bool:
    """The body binds a name its function declares `global` or `nonlocal`: inside the
    step it would become a local."""
    fn = ctx.graph.functions.get(loop.scope)
    declared = (fn.globals | fn.nonlocals) if fn is not None else set()
    return any(s.defs & declared for s in body)


def _exposed(body: list[Stmt]) -> list[str]:
    """Names read before the body binds them, in first-read order (the body is straight
    line code, so statement order is execution order)."""
    bound: set[str] = set()
    exposed: dict[str, None] = {}
    for stmt in body:
        for name in sorted(stmt.uses - bound):
            exposed.setdefault(name)
        bound |= stmt.defs
    return list(exposed)


def _returns(ctx: ModuleContext, loop: Loop, body: list[Stmt], exposed: list[str]) -> list[str]:
    """Names the body binds that the next iteration reads (exposed) or that any other
    statement of the scope reads, in first-write order."""
    inside = {s.id for s in body}
    outside = [s for s in ctx.graph.scope_stmts(loop.scope) if s.id not in inside]
    written = dict.fromkeys(n for s in body for n in sorted(s.defs))
    return [n for n in written if n in exposed or any(n in s.uses for s in outside)]


def _bound_before(ctx: ModuleContext, loop: Loop, carried: list[str]) -> bool:
    """Every carried name is bound on every path to the loop (else the first call would
    read an unbound name where the original's first iteration did too, but later)."""
    graph = ctx.graph
    header = graph.stmts[loop.header]
    for name in carried:
        before = [s for s in graph.scope_stmts(loop.scope) if name in s.defs and s.id < header.id]
        fn = graph.functions.get(loop.scope)
        if not any(graph.dominates(s, header) for s in before) and not (
            fn is not None and name in fn.params and not before
        ):
            return False
    return True


def _passed(ctx: ModuleContext, loop: Loop, name: str) -> bool:
    """Whether the step receives `name` as an argument rather than reading it globally:
    the loop's function (or one enclosing it) binds it, or a module-level loop reads a
    name the module binds to a value (not a `def`, `class` or import)."""
    graph = ctx.graph
    scope = loop.scope
    if scope == MODULE:
        defs = [s for s in graph.scope_stmts(MODULE) if name in s.defs]
        return any(not isinstance(s.node, _DECLARATIONS) for s in defs)
    while scope != MODULE:
        fn = graph.functions[scope]
        if name in fn.params or any(name in s.defs for s in graph.scope_stmts(scope)):
            return True
        scope = fn.scope
    return False


_DECLARATIONS = (cst.FunctionDef, cst.ClassDef, cst.Import, cst.ImportFrom)
