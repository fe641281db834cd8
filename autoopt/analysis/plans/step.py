"""Can the device work of an eager loop become one compiled step function?

In a `for name in ...:` or `while ...:` loop of code that runs eagerly, the
leading lines of the body that are plain assignments to names and
`xs.append(value)` calls move into a module-level function. The loop calls it
once per iteration with the loop variable, the names the loop carries and the
other names the lines read from their scope; it returns the names that the rest
of the body (printing, logging, a `break`), a later iteration or the code after
the loop read, and the values to append, which the loop then appends. Whether
that function may be jitted (and donate its carry) is the jit plan's question,
asked on the program with the step extracted (`rules/loop_owner.py`); this
module only finds the loops and their names.

A `for` loop over `range(...)` whose body ends with `if <condition>:` blocks that only
append (`if it % 10 == 0: norms.append(jnp.sqrt(rs))`) also gets a kept plan
(`StepPlan.kept`): those appends move into the step as if unconditional, for the
whole-loop form alone, which then keeps the rows of the steps where the condition
holds (analysis/plans/whole_loop.py judges the condition). Its `narrow` plan, without
them, is the step form's.

A plan of one computing statement (one call; appends of names do not count) is
marked `StepPlan.single`: its step form would be AO101's jit of the call alone, so
rules/loop_owner.py keeps it only where the whole loop runs as one scan.

The names a step carries must be bound before the loop; a loop that carries nothing is
per-item work, left to AO501's vmap. A carry that changes shape or dtype keeps the
results of the step form (jit compiles again for each new type, unlike `lax.scan`), so
only the whole-loop form asks that it keeps them; one that provably grows every
iteration is AO402's (rules/loop_owner.py: the step would compile every time).

Names the step reads that its scope does not bind (module functions, imports,
constants of the module, builtins) stay global references in the step; a loop
at module level passes the names the module binds to values instead, since the
loop may rebind them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import libcst as cst

from autoopt.analysis.core import execution
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import calls_in, read_names
from autoopt.analysis.core.free_names import fresh_name
from autoopt.analysis.core.graph import MODULE, Loop, Stmt
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.plans.batches import NO_BLOCKS, Blocks, batch_blocks
from autoopt.analysis.plans.fori import counted_for, index_doubts
from autoopt.analysis.plans.prelude import host_terms, prelude_lines

_MIN_STATEMENTS = 2  # one call alone is AO101's to jit (and what a step leaves)


@dataclass(frozen=True)
class Append:
    """`name.append(value)` in the step's lines; `returned` is the step's own name for
    the value when the value is a name the step binds last before it (else the rewrite
    returns it under a new name)."""

    node: cst.Expr
    name: str
    returned: str | None
    kept: cst.If | None = None  # the `if` whose condition keeps the value (kept plans)


@dataclass(frozen=True)
class Hoisted:
    """`next(it)` in a step's lines, called in the loop just before the step, which
    takes its value as the parameter `name` (analysis/plans/tail_step.py)."""

    call: cst.Call
    name: str
    iterator: str


@dataclass(frozen=True)
class Computed:
    """A piece of Python arithmetic over the prelude's floats in a step's lines
    (analysis/plans/prelude.py), which the loop computes just before the step, the step
    taking its value as the parameter `name`."""

    node: cst.BaseExpression
    name: str


@dataclass(frozen=True)
class StepPlan:
    """The loop, the body lines that become the step, and the names it takes and
    returns."""

    loop: Loop
    index: str | None  # the loop variable of a `for`; None for a `while`
    lines: tuple[cst.SimpleStatementLine, ...]  # the leading body lines the step runs
    params: tuple[str, ...]  # the loop variable (if read), carried names, other inputs
    returns: tuple[str, ...]  # names the rest of the loop, a later iteration or later code read
    appends: tuple[Append, ...]  # the `xs.append(value)` lines, in order
    doubts: tuple[str, ...]  # what the loop variable's tracing may change
    kept: tuple[cst.If, ...] = ()  # the `if`s ending the body, whose appends the step runs
    narrow: StepPlan | None = None  # a kept plan's own plan without them, if any
    # fewer than `_MIN_STATEMENTS` computing statements (one call): a step of it is only
    # AO101's jit of the callee, so the plan stands only where the loop runs as one scan
    single: bool = False
    # the batches the step takes by the loop variable, `lax.dynamic_slice_in_dim` in the
    # step (analysis/plans/batches.py), or the premise that fails for one
    batches: Blocks = NO_BLOCKS
    start: int = 0  # the body's statements before the step's lines (a tail plan's)
    hoisted: tuple[Hoisted, ...] = ()  # the `next(it)` calls the loop makes for the step
    # the lines among the step's that bind Python floats, which the loop runs before the
    # step (analysis/plans/prelude.py), and the arithmetic on them it computes for it
    prelude: tuple[cst.SimpleStatementLine, ...] = ()
    computed: tuple[Computed, ...] = ()

    @property
    def prelude_names(self) -> tuple[str, ...]:
        """The names the prelude's lines bind."""
        return tuple(line.body[0].targets[0].target.value for line in self.prelude)  # type: ignore[attr-defined]  # prelude: `name = value` lines


def step_plans(ctx: ModuleContext) -> list[StepPlan]:
    """A plan for every eager loop whose body can be extracted, in source order."""
    return ctx.per_module(_step_plans)


def _step_plans(ctx: ModuleContext) -> list[StepPlan]:
    found = (kept_plan(ctx, loop) or step_plan(ctx, loop) for loop in ctx.graph.loops.values())
    return [plan for plan in found if plan is not None]


def step_plan(ctx: ModuleContext, loop: Loop) -> StepPlan | None:
    """The extraction plan, or None when the loop does not fit."""
    node = loop.node
    if not _plain_loop(node) or not execution.runs_eagerly(ctx, loop.scope):
        return None
    lines = _device_lines(ctx, node)
    plan = lines_plan(ctx, loop, lines)
    return (_after_prelude(ctx, plan) or plan) if plan is not None else None


def _after_prelude(ctx: ModuleContext, plan: StepPlan) -> StepPlan | None:
    """The plan of the step without the body's prelude (analysis/plans/prelude.py), which
    the loop runs before it, where the step of all its lines would return a name the
    prelude binds (a Python number it would return as an array); None where it would
    not, or the other lines form no step."""
    loop, lines = plan.loop, list(plan.lines)
    found = prelude_lines(ctx, loop, lines)
    names = [name for _, name in found]
    kept = {id(line) for line, _ in found}
    rest = [line for line in lines if id(line) not in kept]
    if not set(names) & set(plan.returns) or not rest:
        return None
    later = lines_plan(ctx, loop, rest)
    if later is None or set(names) & set(later.returns) or later.batches.blocks:
        return None  # the step rebinds a prelude name, or takes batches (by identity)
    terms = host_terms(ctx, rest, names)
    computed: list[Computed] = []
    for node, read in terms:
        taken = [*later.params, *(c.name for c in computed)]
        computed.append(Computed(node, fresh_name(ctx, f"{read}_value", taken)))
    inside = {id(n) for node, _ in terms for n in read_names(node)}
    bare = {n.value for line in rest for n in read_names(line) if id(n) not in inside}
    params = (
        *(p for p in later.params if p not in names or p in bare),
        *(c.name for c in computed),
    )
    prelude = tuple(line for line, _ in found)
    return replace(later, params=params, prelude=prelude, computed=tuple(computed))


def kept_plan(ctx: ModuleContext, loop: Loop) -> StepPlan | None:
    """The plan whose step also runs the appends of the `if` blocks ending the body of
    `for i in range(...)` (each only appends, with no `else`; the step's lines and they
    are the whole body), with the plan without them as `narrow`; None where there are
    none, or the loop does not fit."""
    node = loop.node
    if type(node) is not cst.For or counted_for(node) is None:
        return None
    if not _plain_loop(node) or not execution.runs_eagerly(ctx, loop.scope):
        return None
    lines = _device_lines(ctx, node)
    kept = node.body.body[len(lines) :]
    if not kept or not all(_appends_only(ctx, block) for block in kept):
        return None
    inner = [line for block in kept for line in block.body.body]  # type: ignore[union-attr]  # _appends_only: Ifs
    plan = lines_plan(ctx, loop, [*lines, *inner], tuple(kept))  # type: ignore[arg-type]  # lines of Ifs
    if plan is None:
        return None
    return replace(plan, kept=tuple(kept), narrow=step_plan(ctx, loop))  # type: ignore[arg-type]  # _appends_only: Ifs


def _appends_only(ctx: ModuleContext, block: cst.BaseStatement | cst.BaseSmallStatement) -> bool:
    """`if <test>:` with no `else` whose lines are `xs.append(value)` calls, none of them
    converting a value for the host."""
    if type(block) is not cst.If or block.orelse is not None:
        return False
    lines = block.body.body
    return all(
        type(line) is cst.SimpleStatementLine
        and all(_append(small) is not None for small in line.body)
        and not any(_host_conversion(ctx, call) for call in calls_in(line))
        for line in lines
    )


def lines_plan(
    ctx: ModuleContext,
    loop: Loop,
    lines: list[cst.SimpleStatementLine],
    kept: tuple[cst.If, ...] = (),
) -> StepPlan | None:
    """The plan of a step running `lines` (those inside the `kept` blocks included)."""
    node = loop.node
    computing = sum(_computes(small) for line in lines for small in line.body)
    if not computing:
        return None
    target = node.target if type(node) is cst.For else None  # `_plain_loop`: a Name
    index = target.value if type(target) is cst.Name else None
    body = ctx.graph.loop_stmts(loop.id)
    moved = {id(small) for line in lines for small in line.body}
    step = [s for s in body if id(s.node) in moved]
    if any(index in s.defs for s in body) or _declared(ctx, loop, body):
        return None
    appends = _appends(lines, kept)
    lists = {a.name for a in appends}
    if any(_reads_list(s, lists) for s in step) or any(s.defs & lists for s in step):
        return None
    exposed = [n for n in _exposed(step) if n not in lists]
    returns = _returns(ctx, loop, step, exposed)
    appends = tuple(_named(a, step) for a in appends)
    returns += [a.returned for a in appends if a.returned and a.returned not in returns]
    carried = [n for n in returns if n in exposed]
    if not carried or not _bound_before(ctx, loop, carried):
        return None  # iterations that carry nothing are per-item work: AO501's vmap
    inputs = [n for n in exposed if n != index and n not in returns and _passed(ctx, loop, n)]
    params = ([index] if index in exposed else []) + carried + inputs
    counted = counted_for(node) is not None
    traced = "the jitted step"
    doubts = index_doubts(ctx, node, step, index, traced) if counted else []  # type: ignore[arg-type]  # counted: a For with an index
    single = computing < _MIN_STATEMENTS
    names = (tuple(params), tuple(returns))
    batches = batch_blocks(ctx, loop, step, index) if counted and index else NO_BLOCKS
    return StepPlan(
        loop, index, tuple(lines), *names, appends, tuple(doubts), single=single, batches=batches
    )


def _plain_loop(node: cst.For | cst.While) -> bool:
    """`for name in ...:` or `while ...:` with no `else`."""
    if node.orelse is not None:
        return False
    if type(node) is cst.While:
        return True
    return type(node) is cst.For and node.asynchronous is None and type(node.target) is cst.Name


@dataclass(frozen=True)
class LateLines:
    """Lines of an eager loop's body that could form a step but do not begin the body:
    `first`, the statement that does, comes before them, `start` statements of the body
    in all."""

    first: cst.BaseStatement | cst.BaseSmallStatement
    lines: tuple[cst.SimpleStatementLine, ...]
    start: int


def late_lines(ctx: ModuleContext, loop: Loop) -> LateLines | None:
    """The first run of step lines (`_device_lines`) with at least two computing
    statements in the body of an eager plain loop whose own first lines form no step:
    a step is taken only from the lines that begin the body. None where there is none."""
    node = loop.node
    if not _plain_loop(node) or not execution.runs_eagerly(ctx, loop.scope):
        return None
    body = node.body.body
    if _lines(ctx, body):
        return None  # the body begins with step lines: `step_plan` judges them
    for start in range(1, len(body)):
        run = _lines(ctx, body[start:])
        if sum(_computes(small) for line in run for small in line.body) >= _MIN_STATEMENTS:
            return LateLines(body[0], tuple(run), start)
    return None


def _device_lines(ctx: ModuleContext, node: cst.For | cst.While) -> list[cst.SimpleStatementLine]:
    """The leading lines of the body made of plain assignments to names and
    `xs.append(value)` calls, up to the first that converts a value for the host: the
    part a step can run. The lines after them (printing, logging, `float(loss)`, a
    `break`) stay in the loop, where the other rules may still fix them."""
    return _lines(ctx, node.body.body)


def _lines(
    ctx: ModuleContext, statements: Sequence[cst.BaseStatement | cst.BaseSmallStatement]
) -> list[cst.SimpleStatementLine]:
    """The step lines (`_device_lines`) that begin `statements`."""
    lines = []
    for line in statements:
        if type(line) is not cst.SimpleStatementLine:
            break
        if not all(_assigns_names(s) or _append(s) is not None for s in line.body):
            break
        if any(_host_conversion(ctx, call) for call in calls_in(line)):
            break
        lines.append(line)
    return lines


def _host_conversion(ctx: ModuleContext, call: cst.Call) -> bool:
    """`float(x)`, `x.item()`, `np.asarray(x)`, `jax.device_get(x)` and the like."""
    func = call.func
    if type(func) is cst.Name:
        return func.value in python_api.HOST_BUILTINS
    if type(func) is cst.Attribute and func.attr.value in jax_api.SYNC_METHODS:
        return True
    qual = ctx.qualify(func) or ""
    return qual.startswith("numpy.") or qual == "jax.device_get"


def _assigns_names(small: cst.BaseSmallStatement) -> bool:
    def plain(target: cst.BaseExpression) -> bool:
        if type(target) is cst.Tuple or type(target) is cst.List:
            return all(plain(e.value) for e in target.elements)
        return type(target) is cst.Name

    return type(small) is cst.Assign and all(plain(t.target) for t in small.targets)


def _append(small: cst.BaseSmallStatement) -> str | None:
    """The list `xs` of a line `xs.append(value)`."""
    if type(small) is not cst.Expr or type(small.value) is not cst.Call:
        return None
    call = small.value
    func = call.func
    if not (type(func) is cst.Attribute and func.attr.value == "append"):
        return None
    if type(func.value) is not cst.Name or len(call.args) != 1:
        return None
    arg = call.args[0]
    return func.value.value if arg.keyword is None and not arg.star else None


def _computes(small: cst.BaseSmallStatement) -> bool:
    """An assignment, or an append of more than a name (the lines a step already
    returns to are one call and appends of names)."""
    if type(small) is cst.Assign:
        return True
    call = small.value if type(small) is cst.Expr else None  # else: an append call
    return type(call) is cst.Call and type(call.args[0].value) is not cst.Name


def _appends(lines: list[cst.SimpleStatementLine], kept: tuple[cst.If, ...]) -> tuple[Append, ...]:
    """The step's appends, each with the `kept` block it stands in (if any)."""
    blocks = {id(line): block for block in kept for line in block.body.body}
    found = []
    for line in lines:
        for small in line.body:
            name = _append(small)
            if name is not None and type(small) is cst.Expr:
                found.append(Append(small, name, None, blocks.get(id(line))))
    return tuple(found)


def _named(append: Append, step: list[Stmt]) -> Append:
    """The append with its value's own name, when the step binds that name before the
    append and not after it."""
    call = append.node.value  # an append call
    value = call.args[0].value if type(call) is cst.Call else None
    if type(value) is not cst.Name:
        return append
    at = next(i for i, s in enumerate(step) if s.node is append.node)
    before = any(value.value in s.defs for s in step[:at])
    after = any(value.value in s.defs for s in step[at + 1 :])
    return replace(append, returned=value.value) if before and not after else append


def _reads_list(stmt: Stmt, lists: set[str]) -> bool:
    """A statement of the step reads a collected list other than to append to it."""
    node = stmt.node
    if type(node) is cst.Expr and type(node.value) is cst.Call and _append(node) is not None:
        value = node.value.args[0].value
        return any(n.value in lists for n in read_names(value))
    return bool(stmt.uses & lists)


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
    """Names the step binds that the next iteration reads (exposed) or that any other
    statement may read, in first-write order: at module level every name (they are the
    module's globals, which any function or importer may read), else those read by a
    statement outside the body in any scope (the rest of the loop, code after it, a
    nested function reading the enclosing name)."""
    written = dict.fromkeys(n for s in body for n in sorted(s.defs))
    if loop.scope == MODULE:
        return list(written)
    inside = {s.id for s in body}
    outside = [s for s in ctx.graph.stmts if s.id not in inside]
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
    name the module binds to a value more than once, in a loop, or not before the loop
    on every path (a value bound once before the loop is a global the step reads, and
    the jit plan checks that nothing changes it)."""
    graph = ctx.graph
    scope = loop.scope
    if scope == MODULE:
        defs = [s for s in graph.scope_stmts(MODULE) if name in s.defs]
        values = [s for s in defs if not isinstance(s.node, _DECLARATIONS)]
        return (
            len(defs) > 1
            or any(s.loops for s in values)
            or (bool(values) and not _before(ctx, loop, values[0]))
        )
    return any(
        name in fn.params or any(name in s.defs for s in graph.scope_stmts(fn.qualname))
        for fn in graph.enclosing_functions(scope)
    )


def _before(ctx: ModuleContext, loop: Loop, definition: Stmt) -> bool:
    """`definition` runs before the loop on every path."""
    return ctx.graph.dominates(definition, ctx.graph.stmts[loop.header])


_DECLARATIONS = (cst.FunctionDef, cst.ClassDef, cst.Import, cst.ImportFrom)
