"""Can a compiled step run the whole loop, as one jitted `lax.scan`?

AO103 extracts the leading lines of an eager loop's body into a step function
(analysis/step.py). When those lines are the whole body and the loop is
`for i in range(n)` with `n` known, the loop itself can move onto the device:
`lax.scan` runs the step `n` times in one compiled program, carrying the names
the step carries and stacking the values the loop appends. This adds three
premises to the step's own:

- the loop runs a known number of times, at least once (`range` of integer
  literals or module constants: `scan` traces its body even for zero steps), and
  its variable is read neither by the step nor after the loop;
- the step returns only what it carries (a name of the last iteration read
  after the loop would have to come back from the scan too), and the loop is in
  a function (a module-level loop leaves its names as module globals);
- every carried name keeps its shape and dtype from one iteration to the next
  (analysis/carry.py) and is a floating-point array where the proof adds Python
  numbers to it (an integer array times `0.5` becomes a float array, which a
  Python loop allows and `scan` rejects). Values the step appends then have one
  shape and dtype in every iteration, so they stack.

A list that starts empty just before the loop and is read afterwards only as
`jnp.stack(xs)` (or `jnp.array(xs)`, `jnp.asarray(xs)`) can take the stacked
values themselves: stacking the rows again would give the same array, after
compiling a concatenation of `n` operands.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.carry import entry_value, unstable_carry
from autoopt.analysis.context import ModuleContext
from autoopt.analysis.exprs import is_at_update, read_names
from autoopt.analysis.fori import counted_for
from autoopt.analysis.graph import MODULE, Stmt
from autoopt.analysis.kinds import Kind
from autoopt.analysis.scan import step_count
from autoopt.analysis.step import StepPlan
from autoopt.analysis.values import model
from autoopt.analysis.walk import walk

_FLOATING = frozenset(
    {"float", "float16", "bfloat16", "float32", "float64", "single", "double", "half",
     "complex64", "complex128"}
)  # fmt: skip


@dataclass(frozen=True)
class WholeLoop:
    """A step that is its loop's whole body: the names scan carries, and how often."""

    carry: tuple[str, ...]  # in the step's return order
    inputs: tuple[str, ...]  # the other names the step takes, in its parameter order
    length: str  # the trip count, as source text (`N_STEPS`, `20 - 4`)
    doubt: str = ""  # the carry premise not proven: the loop stays a step
    # lists read only through `jnp.stack(xs)` after the loop, with those calls
    stacked: tuple[tuple[str, tuple[cst.Call, ...]], ...] = ()


def whole_loop(ctx: ModuleContext, plan: StepPlan) -> WholeLoop | None:
    """The scan form of a step (with a doubt when only the carry's type is not proven),
    or None when the loop has another shape."""
    node = plan.loop.node
    counted = counted_for(node)
    if counted is None or plan.loop.scope == MODULE:
        return None
    index, bounds = counted
    if len(plan.lines) != len(node.body.body) or _index_read(ctx, plan, index):
        return None
    if step_count(ctx, bounds) is None:
        return None
    carry = tuple(n for n in plan.returns if n in plan.params)
    rest = [n for n in plan.returns if n not in carry]
    if not all(_only_appended(ctx, plan, n) for n in rest) or not _one_array_each(ctx, plan):
        return None
    inputs = tuple(p for p in plan.params if p not in carry and p != index)
    stacked = tuple(
        (name, calls)
        for name in dict.fromkeys(a.name for a in plan.appends)
        if (calls := _stacked_only(ctx, plan, name)) is not None
    )
    doubt = _unstable(ctx, plan, carry)
    return WholeLoop(carry, inputs, _length(ctx, bounds), doubt, stacked)


def _index_read(ctx: ModuleContext, plan: StepPlan, index: str) -> bool:
    """The loop variable is read by the step, or anywhere outside the loop (it holds the
    last index after a Python loop; the scan binds nothing)."""
    return index in plan.params or bool(_readers_outside(ctx, plan, index))


def _one_array_each(ctx: ModuleContext, plan: StepPlan) -> bool:
    """Each list receives one JAX array per iteration: scan stacks a tuple leaf by leaf,
    and two appends to one list would come back as two blocks, not interleaved."""
    names = [a.name for a in plan.appends]
    if len(set(names)) != len(names):
        return False
    values = model(ctx)
    stmts = {id(s.node): s for s in ctx.graph.loop_stmts(plan.loop.id)}
    return all(
        values.value_of(stmts[id(a.node)], a.node.value.args[0].value).kind is Kind.ARRAY  # type: ignore[attr-defined]
        for a in plan.appends
    )


def _only_appended(ctx: ModuleContext, plan: StepPlan, name: str) -> bool:
    """`name` comes back only to be appended: nothing outside the loop reads it."""
    return any(a.returned == name for a in plan.appends) and not _readers_outside(ctx, plan, name)


def _readers_outside(ctx: ModuleContext, plan: StepPlan, name: str) -> list[Stmt]:
    """The statements outside the loop, in any scope, that read `name`."""
    inside = {s.id for s in ctx.graph.loop_stmts(plan.loop.id)}
    return [s for s in ctx.graph.stmts if name in s.uses and s.id not in inside]


def _unstable(ctx: ModuleContext, plan: StepPlan, carry: tuple[str, ...]) -> str:
    """Why a carried name may change its type, or "" when every one keeps it (and is
    floating unless only `.at[]` updates rebind it)."""
    body = ctx.graph.loop_stmts(plan.loop.id)
    doubts = unstable_carry(ctx, body, carry)
    if doubts:
        return doubts[0]
    for name in carry:
        if entry_value(ctx, body, name).dtype not in _FLOATING and not _at_updates_only(body, name):
            return (
                f"cannot prove `{name}` is a floating-point array, whose dtype Python numbers keep"
            )
    return ""


def _at_updates_only(body: list[Stmt], name: str) -> bool:
    """Every statement binding `name` is `name = name.at[...].op(...)`."""
    values = [s.value for s in body if name in s.defs]
    return all(isinstance(v, cst.Call) and is_at_update(v.func) for v in values)


def _length(ctx: ModuleContext, bounds: tuple[cst.BaseExpression, ...]) -> str:
    if len(bounds) == 1:
        return ctx.code(bounds[0])
    return f"{ctx.code(bounds[1])} - {ctx.code(bounds[0])}"


def _stacked_only(ctx: ModuleContext, plan: StepPlan, name: str) -> tuple[cst.Call, ...] | None:
    """The `jnp.stack(name)` calls that are all the code after the loop does with the
    list, when it starts as `[]` just before the loop (None otherwise)."""
    graph = ctx.graph
    appends = [s for s in graph.loop_stmts(plan.loop.id) if name in s.uses]
    starts = {d.id for s in appends for d in graph.reaching_defs(s, name)}
    if len(starts) != 1:
        return None
    start = graph.stmts[starts.pop()]
    header = graph.stmts[plan.loop.header]
    if not (_empty_list(start, name) and graph.dominates(start, header)):
        return None
    if start.loops != header.loops:
        return None  # an enclosing loop would fill the list once per outer iteration
    calls: list[cst.Call] = []
    for reader in _readers_outside(ctx, plan, name):
        found = _stack_calls(ctx, reader, name)
        if reader.id < header.id or found is None:
            return None
        if [d.id for d in graph.reaching_defs(reader, name)] != [start.id]:
            return None
        calls += found
    return tuple(calls)


def _empty_list(stmt: Stmt, name: str) -> bool:
    """`name = []`, or `name` bound to `[]` in `a, name = [], []`."""
    node = stmt.node
    if not isinstance(node, cst.Assign) or len(node.targets) != 1:
        return False
    target, value = node.targets[0].target, node.value
    if isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple):
        if len(target.elements) != len(value.elements):
            return False
        pairs = zip(target.elements, value.elements, strict=True)
        return any(_is(t.value, name) and _is_empty(v.value) for t, v in pairs)
    return _is(target, name) and _is_empty(value)


def _stack_calls(ctx: ModuleContext, stmt: Stmt, name: str) -> list[cst.Call] | None:
    """Every read of `name` in a simple statement is the one argument of a stack call."""
    if isinstance(stmt.node, _COMPOUND):
        return None
    calls = [
        node
        for node in walk(stmt.node)
        if isinstance(node, cst.Call)
        and ctx.is_jax(node.func, *_STACKS)
        and len(node.args) == 1
        and node.args[0].keyword is None
        and not node.args[0].star
        and _is(node.args[0].value, name)
    ]
    reads = [n for n in read_names(stmt.node) if n.value == name]
    return calls if len(reads) == len(calls) else None


def _is(node: cst.BaseExpression, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _is_empty(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.List) and not node.elements


_STACKS = ("jax.numpy.stack", "jax.numpy.array", "jax.numpy.asarray")
_COMPOUND = (cst.If, cst.For, cst.While, cst.With, cst.Try, cst.FunctionDef, cst.ClassDef)
