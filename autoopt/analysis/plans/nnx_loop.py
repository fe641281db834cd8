"""Can a counted loop of `nnx.jit` steps, read at an interval, run its steps as
compiled loops (AO103's nnx whole-loop form)?

    for i in range(301):
        train_step(model, optimizer, x, y)
        if i % 50 == 0:
            print(i, loss_fn(model, x_test, y_test))

runs the steps between two reads as one `nnx.fori_loop` under `@nnx.jit`, which carries
the state of the modules (parameters, optimizer state, `nnx.Rngs` counters, BatchNorm
statistics) from one step to the next and writes it back into them when it returns; the
`if` block stays eager, run at the same iterations, after the same steps
(rewrite/nnx_loop.py). Premises, each failing one named:

- the loop is `for i in range(...)` (`plans/fori.py`'s `counted_for`), running eagerly,
  and its body is exactly the step's line then one `if` with no `else`, its block
  indented on lines of its own;
- the step's line is one call, its result unused, of a function of this module under a
  bare `@nnx.jit` (`facts/nnx_modules.py`, `update_call`: an option such as a static
  argument would meet a traced value inside the compiled loop), given names only, not
  the loop variable: each a proven nnx object (`module_class`) or a proven array;
- no statement of the loop binds any of those names, and the `if` block changes no nnx
  module in place (`module_update`, `written_back`): the modules change only through
  the step;
- the step function is pure but for the overlay's changes of the modules it is given
  (`plans/nnx_step.py`'s `jitted_problem`): traced again inside the compiled loop, a
  `print` would run once more; what it (or a function it calls) reads from outside does
  not change (`facts/summaries.py`'s `frozen_reads`): that trace could read another
  value than the step's own trace, made at its first call. A call of a module the step
  is given (`model(x)`, in the step or a function it hands the module to, through the nnx
  transforms) runs its class's `__call__`, judged the same way, reads included, where the
  module is proven an instance (`facts/nnx_instances.py`: a class of this module, or a
  listed layer). Where only code autoopt cannot see stands in the way (a module not so
  proven, a layer the overlay does not list), the fix is unsafe (`unproven`), that call
  named;
- the condition reads only the loop variable and Python numbers the loop does not
  change, through operators and pure builtins (`plans/whole_loop.py`'s `index_test`):
  the rewrite evaluates it at the same iteration, before the pending steps run.

The block runs at the same iterations with the modules after exactly the same steps:
the steps pending since the last read run first, so whatever the block reads or changes
(an eager call of the model, a `break`) meets the state it met before.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Loop, Stmt
from autoopt.analysis.facts.nnx_instances import instance_methods
from autoopt.analysis.facts.nnx_modules import (
    library_class,
    module_class,
    update_call,
    written_back,
)
from autoopt.analysis.facts.purity import change_reason, reads_module_state
from autoopt.analysis.facts.summaries import frozen_reads
from autoopt.analysis.plans.fori import counted_for
from autoopt.analysis.plans.nnx_step import jitted_problem, step_instances
from autoopt.analysis.plans.whole_loop import index_test
from autoopt.analysis.semantic import semantic


@dataclass(frozen=True)
class NnxLoop:
    """The step's line and call, the names it is given (modules first, in call order),
    and the `if` block read at an interval."""

    loop: Loop
    index: str
    line: cst.SimpleStatementLine
    call: cst.Call
    modules: tuple[str, ...]
    inputs: tuple[str, ...]
    interval: cst.If
    unproven: str = ""  # the step's purity, where only code autoopt cannot see leaves it open


def nnx_loop(ctx: ModuleContext, loop: Loop) -> NnxLoop | str | None:
    """The plan, the premise that fails, or None where the loop is no counted loop
    whose body starts with a call of an `nnx.jit` step given a proven nnx object."""
    counted = counted_for(loop.node)
    block = loop.node.body
    if counted is None or type(block) is not cst.IndentedBlock:
        return None
    body = tuple(block.body)
    if type(body[0]) is not cst.SimpleStatementLine:
        return None
    stmts = [s for s in ctx.graph.loop_stmts(loop.id) if s.loops[-1] == loop.id]
    first = next((s for s in stmts if s.anchor is body[0]), None)
    if first is None or written_back(ctx, first) is None:
        return None
    if not semantic(ctx).runs_eagerly(loop.scope):
        return None
    index = counted[0]
    step = _step_call(first)
    if isinstance(step, str):
        return step
    interval = _interval(ctx, loop, index, body)
    if isinstance(interval, str):
        return interval
    given = _given(ctx, first, step, index)
    if isinstance(given, str):
        return given
    modules, inputs = given
    problem = _changed_in_loop(ctx, loop, first, (*modules, *inputs))
    if problem:
        return problem
    classes = {m: library_class(ctx, first, m) or "" for m in modules}
    if not update_call(ctx, first, step, classes, jitted=True):
        return (
            f"`{ctx.code(step.func)}` is not a function of this module under a bare "
            "`@nnx.jit` (a static argument would be traced inside the compiled loop)"
        )
    problem = jitted_problem(ctx, first, step, classes, "the compiled loop")
    if problem and not semantic(ctx).unproven(problem):
        return problem
    frozen, doubts = _outside_reads(ctx, first, step)
    if frozen:
        return frozen
    return NnxLoop(loop, index, body[0], step, modules, inputs, interval, problem or doubts)


def _outside_reads(ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> tuple[str, str]:
    """What the step function (or a function it calls) reads from outside that a trace
    would freeze, and changes (`facts/summaries.py`'s `frozen_reads`): a trace made
    inside the compiled loop could read another value than the step's own trace, made
    at its first call; the first such read, and the first doubt ("" for none)."""
    assert type(call.func) is cst.Name
    fn = ctx.graph.resolve_function(call.func.value, stmt.scope)
    assert fn is not None  # `written_back` resolved it
    changes, doubts = frozen_reads(ctx, fn, frozenset())
    changes += [f"reads `{n}`, which {change_reason(ctx, n)}" for n in reads_module_state(ctx, fn)]
    where = f"`{fn.name}` is traced again inside the compiled loop, and it "
    for instance in sorted(set(step_instances(ctx, stmt, call).values())):
        for method in instance_methods(ctx, instance):
            inner, inner_doubts = frozen_reads(ctx, method, frozenset())
            inner += [
                f"reads `{n}`, which {change_reason(ctx, n)}"
                for n in reads_module_state(ctx, method)
            ]
            changes += [f"calls `{method.qualname}`, which {r}" for r in inner]
            doubts += [f"calls `{method.qualname}`, which {d}" for d in inner_doubts]
    return (where + changes[0] if changes else "", where + doubts[0] if doubts else "")


def _step_call(first: Stmt) -> cst.Call | str:
    """The step's call, alone on its line with its result unused."""
    node = first.node
    alone = first.alone and type(node) is cst.Expr and type(node.value) is cst.Call
    if not alone:
        return "the step's result is used, and the compiled loop returns none"
    assert type(node) is cst.Expr and type(node.value) is cst.Call
    return node.value


def _interval(
    ctx: ModuleContext, loop: Loop, index: str, body: tuple[cst.BaseStatement, ...]
) -> cst.If | str:
    """The body's one `if` after the step, without `else`, its condition a function of
    the loop variable alone."""
    block = body[1] if len(body) == 2 else None
    if type(block) is not cst.If or block.orelse is not None or _one_line(block):
        return (
            "its body is not the step then one `if` block read at an interval "
            "(`if i % k == 0:`, no `else`)"
        )
    if not index_test(ctx, loop, index, block):
        return (
            f"the condition `{ctx.code(block.test)}` is not proven a function of "
            f"`{index}` alone (and of numbers the loop does not change)"
        )
    return block


def _one_line(block: cst.If) -> bool:
    """`if i % k == 0: read()`, the block on the `if` line."""
    return type(block.body) is not cst.IndentedBlock


def _given(
    ctx: ModuleContext, stmt: Stmt, call: cst.Call, index: str
) -> tuple[tuple[str, ...], tuple[str, ...]] | str:
    """The step's arguments: the names proven to hold nnx objects, and the names proven
    to hold arrays."""
    modules: list[str] = []
    inputs: list[str] = []
    for arg in call.args:
        value = arg.value
        if arg.star or type(value) is not cst.Name:
            return f"the step is given `{ctx.code(value)}`, not a name"
        name = value.value
        if name == index:
            return f"the step is given the loop variable `{index}`"
        if module_class(ctx, stmt, name) is not None:
            modules.append(name)
        elif semantic(ctx).value_of(stmt, value).is_arrays:
            inputs.append(name)
        else:
            return f"`{name}`, given to the step, is not proven an nnx object or an array"
    return tuple(dict.fromkeys(modules)), tuple(dict.fromkeys(inputs))


def _changed_in_loop(ctx: ModuleContext, loop: Loop, step: Stmt, names: tuple[str, ...]) -> str:
    """A statement of the loop, other than the step, that binds a name the step is given
    or changes an nnx module in place, named ("" where none does)."""
    values = semantic(ctx)
    for stmt in ctx.graph.loop_stmts(loop.id):
        if stmt is step:
            continue
        bound = sorted(stmt.defs & set(names))
        if bound:
            line = ctx.span(stmt.node).line
            return f"`{bound[0]}`, given to the step, is rebound in the loop (line {line})"
        update = values.module_update(stmt) or values.written_back(stmt)
        if update is not None:
            return (
                f"`{update}` in the interval block changes an nnx module in place too, "
                "outside the step"
            )
    return ""
