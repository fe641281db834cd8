"""One owner per loop: which whole-loop rewrite, if any, takes an eager loop.

AO101, AO102, AO201, AO301, AO302, AO401, AO402, AO501 and AO103 can all see
the same loop. The plan that moves the most work onto the device wins, then the
smallest edit:

1. AO401's `lax.fori_loop` form: the loop's whole function jitted with the loop
   inside (a proven fori plan for a loop that holds an `.at` update);
2. AO302's `lax.scan` form: a loop that collects converted values (its body
   appends, so it never competes with 3);
3. AO103's compiled step: the loop body, extracted, is proven jittable (a body of
   one call only where the whole loop then runs as one scan);
4. AO501's jitted `vmap` of a per-item loop (it carries nothing, so it never
   competes with 3): the loop goes, replaced by one batched call.

A loop owned by 1, the statements that 3 moves into its step and the loops that
a safe fix of 4 replaces get no per-statement fix (AO102's hoist, AO301's
transfer, AO302's list form, AO401's helper, AO402): the owner compiles them
already, or they would be left behind unused. The lines after a step (a
`float(loss)` collected, a print) stay in the loop and keep those fixes. AO101
and AO201 still apply to the functions the loop calls; under an outer `jit` they
compose (an inner `jit` is inlined).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import calls_in, is_at_update, read_names
from autoopt.analysis.core.graph import MODULE, Function, Stmt
from autoopt.analysis.core.suppress import is_suppressed, suppressions
from autoopt.analysis.facts.held_globals import held_layers
from autoopt.analysis.facts.jit_plan import eager_loop_sites, jit_plan
from autoopt.analysis.plans.fori import fori_plan
from autoopt.analysis.plans.nnx_step import callee_problem, step_modules, update_calls
from autoopt.analysis.plans.step import StepPlan, step_plans
from autoopt.analysis.plans.tail_step import tail_plans
from autoopt.analysis.plans.whole_loop import scan_form, whole_loop
from autoopt.analysis.semantic import Kind, semantic
from autoopt.model import Applicability, Replace
from autoopt.rewrite.step import StepNames, extracted, step_function, step_names
from autoopt.rules.ao501_loop_to_vmap import LoopToVmap


@dataclass(frozen=True)
class StepVerdict:
    """AO103's judgement of one loop: the step's name, the step (undecorated), the
    program with it extracted, its static arguments, and why it cannot (`problem`) or
    may not (`doubts`) be compiled."""

    plan: StepPlan
    names: StepNames
    definition: cst.FunctionDef
    extracted: ModuleContext
    static: tuple[str, ...] = ()
    problem: str = ""
    doubts: tuple[str, ...] = ()
    nnx: bool = False  # compiled with `nnx.jit`: it changes nnx modules, its arguments

    @property
    def proven(self) -> bool:
        return not self.problem and not self.doubts


def step_verdicts(ctx: ModuleContext) -> list[StepVerdict]:
    """AO103's verdict for every extractable loop that no earlier owner takes."""
    return ctx.per_module(_step_verdicts)


def _step_verdicts(ctx: ModuleContext) -> list[StepVerdict]:
    """One verdict per loop; each step gets a name no other step of the module has (they
    are all inserted at module level)."""
    verdicts: list[StepVerdict] = []
    plans = sorted([*step_plans(ctx), *tail_plans(ctx)], key=lambda plan: plan.loop.header)
    for plan in plans:
        if not fori_owned(ctx, plan.loop.id):
            taken = [
                n
                for v in verdicts
                for n in (v.names.function, v.names.loop, v.names.scan, *v.names.items)
            ]
            verdict = _kept_verdict(ctx, plan, taken)
            if verdict is not None:
                verdicts.append(verdict)
    return verdicts


def _kept_verdict(ctx: ModuleContext, plan: StepPlan, taken: list[str]) -> StepVerdict | None:
    """The verdict of a plan; for a kept plan (`StepPlan.kept`), only where the loop then
    runs as one scan, else that of the plan without the kept appends (if any)."""
    verdict = _plan_verdict(ctx, plan, taken)
    if verdict is not None and (not plan.kept or _scan(ctx, verdict)):
        return verdict
    narrow = plan.narrow
    return None if not plan.kept or narrow is None else _plan_verdict(ctx, narrow, taken)


def _plan_verdict(ctx: ModuleContext, plan: StepPlan, taken: list[str]) -> StepVerdict | None:
    """The verdict of a plan; for one of a single computing statement (`StepPlan.single`),
    only where it is proven and the loop then runs as one scan, else None: its step form
    would only be AO101's jit of the one call, so the loop keeps AO101's and AO201's
    fixes (and no AO103 finding)."""
    if plan.single and (not scan_form(whole_loop(ctx, plan), ()) or _declined(ctx, plan)):
        return None  # no scan form with any static arguments: spare the extraction
    verdict = _verdict(ctx, plan, step_names(ctx, plan, taken))
    return None if plan.single and not _scan(ctx, verdict) else verdict


def _declined(ctx: ModuleContext, plan: StepPlan) -> bool:
    """The loop is the other path of a guard on the types of what it calls: an earlier
    statement of its function is `if <test>: ... return ...` whose test calls
    `jax.eval_shape(f, ...)` of a function `f` the loop's statement calls. That is the
    guarded form's loop of steps (rewrite/whole_loop.py), which runs only where the step
    changes the carry's types: a scan of it was declined already."""
    if plan.loop.scope == MODULE:
        return False
    called = {
        call.func.value
        for line in plan.lines
        for call in calls_in(line)
        if type(call.func) is cst.Name
    }
    for stmt in ctx.graph.functions[plan.loop.scope].node.body.body:
        if stmt is plan.loop.node:
            return False
        if type(stmt) is cst.If and _returns(stmt) and _checks(ctx, stmt.test, called):
            return True
    return False


def _returns(block: cst.If) -> bool:
    """The `if` block ends with a `return` (`if ...: return x` on one line included)."""
    last = block.body.body[-1] if block.body.body else None
    if type(last) is cst.SimpleStatementLine:
        last = last.body[-1]
    return type(last) is cst.Return


def _checks(ctx: ModuleContext, test: cst.BaseExpression, called: set[str]) -> bool:
    """`test` calls `jax.eval_shape(f, ...)` of one of the `called` functions."""
    return any(
        ctx.qualify(call.func) == "jax.eval_shape"
        and call.args
        and type(call.args[0].value) is cst.Name
        and call.args[0].value.value in called
        for call in calls_in(test)
    )


def _scan(ctx: ModuleContext, verdict: StepVerdict) -> bool:
    """The verdict is proven and AO103 runs its loop as one scan (guarded or not); an
    `nnx.jit` step never is (the scan would not write its modules back)."""
    return (
        verdict.proven
        and not verdict.nnx
        and scan_form(whole_loop(ctx, verdict.plan), verdict.static)
    )


def fori_owned(ctx: ModuleContext, loop_id: int) -> bool:
    """AO401 runs the loop as `lax.fori_loop`: a proven plan, and an `.at` update."""
    body = [s for s in ctx.graph.loop_stmts(loop_id) if s.loops[-1] == loop_id]
    if not any(_at_update(s) for s in body):
        return False
    plan = fori_plan(ctx, ctx.graph.loops[loop_id])
    return plan is not None and not plan.doubts


def step_owned(ctx: ModuleContext, stmt: Stmt) -> bool:
    """Whether a whole-loop owner takes `stmt` (no other fix for it): it moves into
    AO103's proven step, or its loop goes for AO501's safe vmap, with that rule enabled
    and not suppressed there. The lines after a step stay in the loop and keep the
    other rules' fixes."""
    if not stmt.loops:
        return False
    if _enabled(ctx, "AO103") and id(stmt.node) in ctx.per_module(_moved):
        return True
    return _enabled(ctx, "AO501") and bool(set(stmt.loops) & ctx.per_module(_vmapped))


def _enabled(ctx: ModuleContext, rule: str) -> bool:
    return ctx.rules is None or rule in ctx.rules


def _moved(ctx: ModuleContext) -> frozenset[int]:
    """The statements of every proven, unsuppressed step, by identity."""
    table = suppressions(ctx.source)
    return frozenset(
        id(small)
        for verdict in step_verdicts(ctx)
        if verdict.proven and not _suppressed(ctx, verdict.plan.loop.node, table)
        for line in verdict.plan.lines
        for small in line.body
    )


def _vmapped(ctx: ModuleContext) -> frozenset[int]:
    """The loops, by id, that a safe, unsuppressed AO501 fix removes."""
    table = suppressions(ctx.source)
    removed = {
        id(edit.target)
        for finding in LoopToVmap.findings(ctx)
        if finding.fix is Applicability.SAFE
        and not is_suppressed("AO501", range(finding.span.line, finding.span.end_line + 1), table)
        for edit in finding.edits
        if isinstance(edit, Replace) and type(edit.target) is cst.For
    }
    return frozenset(loop.id for loop in ctx.graph.loops.values() if id(loop.node) in removed)


def _suppressed(ctx: ModuleContext, loop: cst.CSTNode, table: dict[int, frozenset[str]]) -> bool:
    span = ctx.span(loop)
    return is_suppressed("AO103", range(span.line, span.end_line + 1), table)


def _verdict(ctx: ModuleContext, plan: StepPlan, names: StepNames) -> StepVerdict:
    """The `jax.jit` step's verdict; where it fails and the step changes nnx modules in
    place, the `nnx.jit` step's (`analysis/plans/nnx_step.py`)."""
    plan = _held_read(ctx, plan)
    verdict = _jit_verdict(ctx, plan, names)
    if not verdict.problem:
        return verdict
    modules = step_modules(ctx, plan)
    if not modules:
        return verdict
    wider = replace(plan, params=(*plan.params, *(m for m in modules if m not in plan.params)))
    nnx = _jit_verdict(ctx, wider, names, modules)
    return nnx if nnx.nnx else verdict


def _held_read(ctx: ModuleContext, plan: StepPlan) -> StepPlan:
    """The plan with each global that holds a listed linen layer while the loop runs
    (`analysis/facts/held_globals.py`) read by the step from the module, not passed: a
    module-level loop passes the names the module binds more than once
    (`analysis/plans/step.py`), and jit could not trace a layer."""
    held = held_layers(ctx, plan.loop)
    params = tuple(p for p in plan.params if p not in held)
    return plan if params == plan.params else replace(plan, params=params)


def _jit_verdict(
    ctx: ModuleContext, plan: StepPlan, names: StepNames, modules: dict[str, str] | None = None
) -> StepVerdict:
    """The verdict of the step under `jax.jit`, or (`modules`, proven nnx objects among its
    parameters) under `nnx.jit`; `nnx` is set only where the step changes them."""
    definition = step_function(ctx, plan, names)
    other = ctx.derived(extracted(ctx, plan, names, definition), held_layers(ctx, plan.loop))
    fn = other.graph.functions[names.function]
    exempt = update_calls(other, fn, modules) if modules else frozenset()
    if modules and not exempt:
        return StepVerdict(plan, names, definition, other)
    jit = jit_plan(other, fn, eager_loop_sites(other, fn), exempt, frozenset(modules or ()))
    static = tuple(p for p in fn.params if p in jit.static)
    numbers = {*plan.prelude_names, *(c.name for c in plan.computed)}  # the loop's, per step
    varying = [p for p in static if p == plan.index or p in plan.returns or p in numbers]
    problem = _returned(other, fn, jit.problem) or _growth(ctx, plan)
    if plan.batches.doubt and plan.index in static and problem == jit.problem:
        problem = (
            f"its batches are not taken by the traced `{plan.index}` (a Python slice would "
            f"need it static, one compilation per batch): {plan.batches.doubt}"
        )
    if modules and not problem:
        problem = callee_problem(other, fn, modules)
    if varying and not problem:
        problem = f"`{varying[0]}` changes every iteration and would have to be static"
    if modules and static and not problem:
        problem = f"`{static[0]}` would have to be static, which the `nnx.jit` step does not spell"
    doubts = (*plan.doubts, *(_computed(ctx, plan, doubt) for doubt in jit.doubts))
    problem = _computed(ctx, plan, problem)
    return StepVerdict(plan, names, definition, other, static, problem, doubts, bool(modules))


def _computed(ctx: ModuleContext, plan: StepPlan, problem: str) -> str:
    """`problem`, saying what the first name the loop computes for the step it names is."""
    for computed in plan.computed:
        if f"`{computed.name}`" in problem:
            code = ctx.code(computed.node)
            return f"{problem} (`{computed.name}` is `{code}`, which the loop computes for it)"
    return problem


def _returned(ctx: ModuleContext, fn: Function, problem: str) -> str:
    """`problem`, where the step's tuple of returned names is not all arrays naming the
    first that is not (a Python number the loop leaves to the code after it)."""
    if not problem.startswith(_CONTAINER):
        return problem
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        value = stmt.node.value if type(stmt.node) is cst.Return else None
        for element in value.elements if type(value) is cst.Tuple else ():
            kind = semantic(ctx).value_of(stmt, element.value)
            known = kind.kind is not Kind.UNKNOWN and not kind.is_arrays
            if known and type(element.value) is cst.Name:
                return (
                    f"it returns `{element.value.value}`, {kind.kind.value} the loop leaves "
                    "to the code after it, which the jitted step would return as an array"
                )
    return problem


_CONTAINER = f"it returns {Kind.CONTAINER.value}"


def _growth(ctx: ModuleContext, plan: StepPlan) -> str:
    """A carried array rebuilt bigger every iteration (AO402's pattern): a jitted step
    would compile again for every new shape."""
    for stmt in ctx.graph.loop_stmts(plan.loop.id):
        value = stmt.value
        if type(value) is not cst.Call or (ctx.qualify(value.func) or "") not in _GROWING:
            continue
        grown = stmt.defs & {n.value for n in read_names(value)} & set(plan.returns)
        if grown:
            return f"`{min(grown)}` grows every iteration (the step would compile each time)"
    return ""


_GROWING = frozenset(
    f"jax.numpy.{f}"
    for f in ("concatenate", "append", "stack", "vstack", "hstack", "column_stack", "pad")
)


def _at_update(stmt: Stmt) -> bool:
    value = stmt.value
    return type(value) is cst.Call and is_at_update(value.func)
