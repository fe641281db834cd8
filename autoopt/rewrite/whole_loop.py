"""Run a loop whose whole body is a compiled step as one jitted `lax.scan`
(plan: analysis/whole_loop.py).

    for _ in range(N_STEPS):
        u = advance(u, dx)
        energy.append(jnp.sum(u**2))

becomes

    @functools.partial(jax.jit, donate_argnames=("u",))
    def _main_loop(u, dx):
        def body(u, _):
            u = advance(u, dx)
            energy_item = jnp.sum(u**2)
            return u, energy_item

        return jax.lax.scan(body, u, length=N_STEPS)

    u, energy_items = _main_loop(u, dx)
    energy.extend(energy_items)

The body's lines move unchanged, comments included. The list receives the rows
of the stacked values, one per iteration, as the loop appended them; a list that
starts empty before the loop and is only stacked after it takes the stacked
values instead (`energy = ...`, and `jnp.stack(energy)` becomes `energy`).

A loop of module code leaves its names as globals, so the scan carries its
temporaries too, from placeholders of their proven type, the loop variable gets its
last value, and a list keeps its rows (only the stack calls take the stacked values):

    (u, lap), energy_items = _loop(u)   # scan(body, (u, jnp.zeros_like(u)), ...)
    energy.extend(energy_items[i] for i in range(N_STEPS))
    _ = N_STEPS - 1
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.context import ModuleContext
from autoopt.analysis.step import StepPlan
from autoopt.analysis.whole_loop import WholeLoop
from autoopt.model import Edit, InsertAfter, InsertBefore, Replace
from autoopt.rewrite.helpers import grouped, parse_function, spaced
from autoopt.rewrite.jit import fresh_name
from autoopt.rewrite.spell import spell
from autoopt.rewrite.step import StepNames, anchor, appended, step_lines


def whole_loop_edits(
    ctx: ModuleContext, plan: StepPlan, whole: WholeLoop, names: StepNames, decorator: str
) -> list[Edit]:
    """The jitted scan function above the loop's function; the loop replaced by its call
    and, per list, one `extend` with the stacked values."""
    scan, imports = spell(ctx, "jax.lax.scan")
    stacked = dict(whole.stacked)
    lists: list[tuple[str, str]] = []
    for _, name, _ in appended(plan, names):
        taken = [i for _, i in lists]
        own = name in stacked and not whole.module  # a global list keeps its rows
        lists.append((name, name if own else fresh_name(ctx, f"{name}_items", taken)))
    body = _body(ctx, plan, whole, names)
    carried = (*whole.carry, *(name for name, _ in whole.last))
    init = whole.carry
    if whole.last:
        zeros_like, more = spell(ctx, "jax.numpy.zeros_like")
        imports = (*imports, *more)
        init = (*init, *(f"{zeros_like}({like})" for _, like in whole.last))
    run = f"{scan}({body.name.value}, {grouped(init)}, length={whole.length})"
    params = ", ".join((*whole.carry, *whole.inputs))
    returned = run if lists else f"{run}[0]"
    template = parse_function(f"@{decorator}\ndef {names.loop}({params}):\n    return {returned}\n")
    block = template.body.with_changes(body=[body, *template.body.body])
    definition = spaced(ctx, template.with_changes(body=block), anchor(ctx, plan))
    target = ", ".join(carried)
    if lists:
        target = f"{grouped(carried)}, {grouped(tuple(i for _, i in lists))}"
    call = cst.parse_statement(f"{target} = {names.loop}({params})\n")
    after = [_extend(name, items, whole) for name, items in lists if name != items]
    if whole.index_last is not None:
        after.append(f"{plan.index} = {whole.index_last}")
    items_of = dict(lists)
    edits: list[Edit] = [
        *imports,
        InsertBefore(anchor(ctx, plan), (definition,)),
        Replace(plan.loop.node, lambda node: call.with_changes(leading_lines=node.leading_lines)),
        *(
            Replace(c, lambda _, n=items_of[name]: cst.Name(n))
            for name, calls in whole.stacked
            for c in calls
        ),
    ]
    if after:
        lines = tuple(cst.parse_statement(f"{line}\n") for line in after)
        edits.append(InsertAfter(plan.loop.node, lines))
    return edits


def _extend(name: str, items: str, whole: WholeLoop) -> str:
    """`xs.extend(xs_items)`; at module level indexed row by row (iterating an array
    compiles a slice per row, about a second for a few hundred; an index compiles one)."""
    if not whole.module:
        return f"{name}.extend({items})"
    return f"{name}.extend({items}[i] for i in range({whole.length}))"


def _body(
    ctx: ModuleContext, plan: StepPlan, whole: WholeLoop, names: StepNames
) -> cst.FunctionDef:
    """`def body(carry, index):` unpacking the carry, the step's lines, and the return of
    the new carry and this iteration's appended values."""
    carried = (*whole.carry, *(name for name, _ in whole.last))
    single = len(carried) == 1
    carry = carried[0] if single else "carry"
    head = "" if single else f"    {', '.join(carried)} = carry\n"
    items = tuple(item for _, _, item in appended(plan, names))
    out = f"{grouped(carried)}, {grouped(items)}" if items else f"{grouped(carried)}, None"
    template = parse_function(
        f"def {fresh_name(ctx, 'body')}({carry}, {plan.index}):\n{head}    return {out}\n"
    )
    parsed = list(template.body.body)
    block = template.body.with_changes(
        body=[*parsed[:-1], *step_lines(plan, names), parsed[-1]],
        footer=[cst.EmptyLine(indent=False)],
    )
    return template.with_changes(body=block)
