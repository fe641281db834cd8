"""Extract an eager loop's body into a step function (plan: analysis/plans/step.py).

    for t in range(n):
        h = cell(params, h, xs[t])
        out = out.at[t].set(h)

becomes

    def run_step(t, h, out, params, xs):
        h = cell(params, h, xs[t])
        out = out.at[t].set(h)
        return h, out

    for t in range(n):
        h, out = run_step(t, h, out, params, xs)

The body's lines move unchanged, comments included. `extracted` gives the
program with the step in place (undecorated) for the jit plan to judge; the
rule then decorates the step as that plan and the donation analysis say.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Loop
from autoopt.analysis.plans.step import StepPlan
from autoopt.model import Edit, InsertBefore, Replace
from autoopt.rewrite.apply import apply_edits
from autoopt.rewrite.batches import batch_imports, on_device
from autoopt.rewrite.helpers import spaced, top_statement
from autoopt.rewrite.jit import fresh_name


@dataclass(frozen=True)
class StepNames:
    """The step function's name, the name of the whole-loop form's function, per
    appended value the name it is returned as, and the name of the jitted scan a guarded
    whole loop runs (rewrite/whole_loop.py)."""

    function: str
    loop: str
    items: tuple[str, ...]
    scan: str

    def returned(self, plan: StepPlan) -> str:
        return ", ".join((*plan.returns, *self.items))


def step_names(ctx: ModuleContext, plan: StepPlan, taken: Collection[str] = ()) -> StepNames:
    """`_<function>_step` (`_step` at module level), `_<function>_loop`,
    `<list>_item` and `_<function>_scan`: private, bound nowhere in the module and not
    among `taken` (the names of other steps of the run)."""
    scope = plan.loop.scope.rsplit(".", 1)[-1]
    base = "_" if plan.loop.scope == MODULE else f"_{scope}_"
    names = [fresh_name(ctx, f"{base}step", taken)]
    names.append(fresh_name(ctx, f"{base}loop", [*taken, *names]))
    for append in plan.appends:
        if append.returned is None:
            names.append(fresh_name(ctx, f"{append.name}_item", [*taken, *names]))
    scan = fresh_name(ctx, f"{base}scan", [*taken, *names])
    return StepNames(names[0], names[1], tuple(names[2:]), scan)


def appended(plan: StepPlan, names: StepNames) -> list[tuple[cst.Expr, str, str]]:
    """Each append line, its list, and the name the step returns its value as."""
    fresh = iter(names.items)
    return [(a.node, a.name, a.returned or next(fresh)) for a in plan.appends]


def step_function(ctx: ModuleContext, plan: StepPlan, names: StepNames) -> cst.FunctionDef:
    """`def name(params): <lines>; return <names>`, spaced for its place; an appended
    value is bound to its item name instead. Built, not parsed (the same code)."""
    params = cst.Parameters([cst.Param(cst.Name(p)) for p in plan.params])
    returned = cst.SimpleStatementLine([cst.Return(_names((*plan.returns, *names.items)))])
    body = cst.IndentedBlock([*step_lines(ctx, plan, names), returned])
    definition = cst.FunctionDef(cst.Name(names.function), params, body)
    return spaced(ctx, definition, anchor(ctx, plan))


def step_lines(
    ctx: ModuleContext, plan: StepPlan, names: StepNames
) -> list[cst.SimpleStatementLine]:
    """The body lines the step runs, each appended value bound to its item name, each
    batch taken by the traced index (rewrite/batches.py)."""
    items = {id(node): item for node, _, item in appended(plan, names)}
    blocks = plan.batches.blocks
    taken = {id(h.call): h.name for h in plan.hoisted}
    hoisted = _Hoisted({**taken, **{id(c.node): c.name for c in plan.computed}})
    bound = [_bind_items(line, items) for line in plan.lines]
    return [on_device(ctx, _hoist(line, hoisted), blocks) for line in bound if line.body]


def step_edits(
    ctx: ModuleContext, plan: StepPlan, definition: cst.FunctionDef, names: StepNames
) -> list[Edit]:
    """Put `definition` above the loop's top-level statement; the loop calls it, appends
    what it returns, and runs the rest of its body as before."""
    return [
        InsertBefore(anchor(ctx, plan), (definition,)),
        Replace(plan.loop.node, lambda node: calling_loop(plan, names, node)),
        *batch_imports(ctx, plan.batches.blocks),
    ]


def calling_loop(plan: StepPlan, names: StepNames, node: cst.CSTNode) -> cst.For | cst.While:
    """The loop `node` calling the step instead of running its lines, then appending
    what it returns and running the rest of its body as before."""
    assert type(node) is cst.For or type(node) is cst.While
    appends = [
        _call_line(cst.Attribute(cst.Name(name), cst.Name("append")), [item])
        for _, name, item in appended(plan, names)
    ]
    body = node.body.body
    before = list(body[: plan.start])
    end = plan.start + len(plan.lines) + len(plan.prelude)  # the prelude: among the lines
    rest = [] if plan.kept else list(body[end:])  # `if`s: the step's
    hoisted = [_call_line(cst.Name("next"), [h.iterator], [h.name]) for h in plan.hoisted]
    computed = [_assign_line(c.name, c.node) for c in plan.computed]
    prelude = [*before, *_first(plan.prelude, not before), *computed, *hoisted]
    calls = [*prelude, step_call(plan, names), *appends, *rest]
    return node.with_changes(body=node.body.with_changes(body=calls))


def _first(lines: Sequence[cst.SimpleStatementLine], first: bool) -> list[cst.SimpleStatementLine]:
    """`lines`, the blank lines above the first dropped where it begins the body."""
    if not first or not lines:
        return list(lines)
    leading = list(lines[0].leading_lines)
    while leading and leading[0].comment is None:
        leading.pop(0)
    return [lines[0].with_changes(leading_lines=leading), *lines[1:]]


def step_call(plan: StepPlan, names: StepNames) -> cst.SimpleStatementLine:
    """`<returned> = <step>(<params>)`."""
    return _call_line(cst.Name(names.function), plan.params, (*plan.returns, *names.items))


def _call_line(
    func: cst.BaseExpression, args: Sequence[str], targets: Sequence[str] = ()
) -> cst.SimpleStatementLine:
    """`func(args)`, assigned to `targets` if any: built, not parsed (the code is the
    same, at a fraction of the cost)."""
    call = cst.Call(func, [cst.Arg(cst.Name(a)) for a in args])
    if not targets:
        return cst.SimpleStatementLine([cst.Expr(call)])
    return cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(_names(targets))], call)])


def _assign_line(name: str, value: cst.BaseExpression) -> cst.SimpleStatementLine:
    """`name = value`, the value's own parentheses dropped."""
    bare = value.with_changes(lpar=[], rpar=[])
    return cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(name))], bare)])


def _names(names: Sequence[str]) -> cst.BaseAssignTargetExpression:
    """`a`, or `a, b` (a tuple without parentheses)."""
    nodes = [cst.Name(n) for n in names]
    return nodes[0] if len(nodes) == 1 else cst.Tuple([cst.Element(n) for n in nodes], [], [])


def extracted(
    ctx: ModuleContext, plan: StepPlan, names: StepNames, definition: cst.FunctionDef
) -> cst.Module:
    """The module with the step (`step_function`, undecorated) extracted (its other
    statements are the original's nodes)."""
    return apply_edits(ctx.module, step_edits(ctx, plan, definition, names), ctx.ancestors)


def _bind_items(line: cst.SimpleStatementLine, items: dict[int, str]) -> cst.SimpleStatementLine:
    """`xs.append(value)` becomes `xs_item = value` (same line, same comment), and goes
    when `value` is the name the step returns already."""
    body = []
    for small in line.body:
        item = items.get(id(small))
        if item is None:
            body.append(small)
            continue
        value = small.value.args[0].value  # type: ignore[attr-defined]  # an append call
        if type(value) is cst.Name and value.value == item:
            continue
        target = cst.AssignTarget(cst.Name(item))
        body.append(cst.Assign([target], value, semicolon=small.semicolon))
    return line.with_changes(body=body)


def _hoist(line: cst.SimpleStatementLine, hoisted: _Hoisted) -> cst.SimpleStatementLine:
    """`line` with the `next(it)` calls and the arithmetic the loop makes before the step
    as their names (a plan that has them takes no batches: `on_device` finds its nodes by
    identity too)."""
    if not hoisted.names:
        return line
    changed = line.visit(hoisted)
    assert type(changed) is cst.SimpleStatementLine
    return changed


class _Hoisted(cst.CSTTransformer):
    """Each `next(it)` the loop calls before the step, and each piece of arithmetic the
    loop computes for it (by identity), becomes its name."""

    def __init__(self, names: dict[int, str]) -> None:
        super().__init__()
        self.names = names

    def on_leave(  # type: ignore[override]  # a Name replaces an expression node
        self, original_node: cst.CSTNode, updated_node: cst.CSTNode
    ) -> cst.CSTNode | cst.RemovalSentinel | cst.FlattenSentinel[cst.CSTNode]:
        name = self.names.get(id(original_node))
        if name is None:
            return super().on_leave(original_node, updated_node)
        return cst.Name(name)


def anchor(ctx: ModuleContext, plan: StepPlan) -> cst.CSTNode:
    """The statement the step goes above (`loop_anchor` of its loop)."""
    return loop_anchor(ctx, plan.loop)


def loop_anchor(ctx: ModuleContext, loop: Loop) -> cst.CSTNode:
    """The statement a helper of `loop` goes above: the loop's top-level function (or
    class), or for a loop of module code the outermost loop holding it."""
    header = ctx.graph.stmts[loop.header]
    if header.scope == MODULE and not header.loops:
        return loop.node
    return top_statement(ctx, header)
