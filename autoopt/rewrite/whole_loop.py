"""Run a loop whose whole body is a compiled step as one jitted `lax.scan`
(plan: analysis/plans/whole_loop.py).

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

The body's lines move unchanged, comments included. A step that picks rows with the
loop variable (`xs[i]`) scans over its values: `jax.lax.scan(body, u, xs=jnp.arange(N))`.
The list receives the rows of the stacked values, one per iteration, as the loop
appended them; a list that starts empty before the loop and is only stacked after it
takes the stacked values instead (`energy = ...`, and `jnp.stack(energy)` becomes `energy`).

A value appended under a condition on the loop variable alone (`if it % 10 == 0:
norms.append(jnp.sqrt(rs))`) is stacked every step, and the list receives the rows of
the steps where the condition holds, by the same condition over the same range:

    norms.extend(norms_items[i] for i, it in enumerate(range(ITERS)) if it % 10 == 0)

A loop of module code leaves its names as globals, so the scan carries its
temporaries too, from placeholders of their proven type, the loop variable gets its
last value, and a list keeps its rows (only the stack calls take the stacked values):

    (u, lap), energy_items = _loop(u)   # scan(body, (u, jnp.zeros_like(u)), ...)
    energy.extend(energy_items[i] for i in range(N_STEPS))
    _ = N_STEPS - 1

Where only the carry's type is not proven (`WholeLoop.guarded`), the jitted step stays,
the scan calls it, and the loop's function checks the types when the loop starts:

    def _main_loop(u, dx):
        # (a docstring: why the check)
        def types(tree):
            leaves, structure = jax.tree_util.tree_flatten(jax.eval_shape(lambda x: x, tree))
            return structure, [(x.shape, x.dtype, x.weak_type) for x in leaves]

        first = jax.eval_shape(_main_step, u, dx)[0]
        if types(first) == types(u):
            return _main_scan(u, dx)
        if types(jax.eval_shape(_main_step, first, dx)[0]) == types(first):
            return _main_scan(u, dx, peel=True)
        energy = []
        for _ in range(N_STEPS):
            u, energy_item = _main_step(u, dx)
            energy.append(energy_item)
        return u, jnp.stack(energy)

A pure step given the carry's types returns them again, so when the first step keeps
them every step does, and the scan (which needs exactly that, weak types included:
it would enter a weakly typed carry promoted, which can change the first step's
numbers) runs the steps the loop would run. Where only the second step keeps them (a
weakly typed start that comes back strong), `_main_scan(..., peel=True)` (`peel` is
static) runs the first step apart, on the carry as it starts, then scans the others:

    # the first step, on the starting types
    u, first = body(u, 0)
    u, rest = jax.lax.scan(body, u, length=N_STEPS - 1)
    return u, jnp.concatenate([first[None], rest])
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.plans.step import StepPlan
from autoopt.analysis.plans.whole_loop import WholeLoop
from autoopt.model import Edit, InsertAfter, InsertBefore, Replace, RequireImport
from autoopt.rewrite.batches import batch_imports
from autoopt.rewrite.helpers import grouped, parse_function, spaced
from autoopt.rewrite.jit import fresh_name, jit_decorator
from autoopt.rewrite.spell import spell
from autoopt.rewrite.step import StepNames, anchor, appended, calling_loop, step_call, step_lines


def whole_loop_edits(
    ctx: ModuleContext, plan: StepPlan, whole: WholeLoop, names: StepNames, decorator: str
) -> list[Edit]:
    """The jitted scan function above the loop's function; the loop replaced by its call
    and, per list, one `extend` with the stacked values."""
    stacked = dict(whole.stacked)
    lists = _lists(ctx, plan, whole, names, stacked)
    definition, imports = _scan_function(
        ctx, plan, whole, names.loop, decorator, _body(ctx, plan, whole, names), lists
    )
    imports = (*imports, *batch_imports(ctx, plan.batches.blocks))
    return _edits(ctx, plan, whole, names.loop, (definition,), imports, lists, stacked)


def guarded_loop_edits(
    ctx: ModuleContext,
    plan: StepPlan,
    whole: WholeLoop,
    names: StepNames,
    step: cst.FunctionDef,
    donate: list[str],
) -> list[Edit]:
    """The jitted step (`step`), the jitted scan of it (donating `donate`) and, called
    where the loop was, the function that runs the scan when the step keeps the carry's
    types from its first step or its second, and the loop of steps otherwise (which
    appends a kept value every step too, as the scan does)."""
    assert not whole.last  # a module loop's temporaries: never guarded
    params = (*whole.carry, *whole.inputs)
    taken = (names.function, names.loop, names.scan, *names.items)
    peel, first = (fresh_name(ctx, base, taken) for base in ("peel", "first"))
    stacked = {} if whole.module else dict(whole.stacked)  # a global list keeps its rows
    stacks = {name: {ctx.qualify(c.func) for c in calls} for name, calls in stacked.items()}
    stacked = {name: calls for name, calls in stacked.items() if len(stacks[name]) == 1}
    stack_of = {name: spell(ctx, stacks[name].pop() or "") for name in stacked}
    lists = _lists(ctx, plan, whole, names, stacked)
    body = _body(ctx, plan, whole, names, [step_call(plan, names)])
    decorator, imports = jit_decorator(ctx, (peel,), [d for d in donate if d in whole.carry])
    scan, more = _scan_function(ctx, plan, whole, names.scan, decorator, body, lists, peel)
    imports = (*imports, *more)
    check, more = _check(ctx, plan, whole)
    more = (*more, *batch_imports(ctx, plan.batches.blocks))
    returned = [f"{stack_of[n][0]}({n})" if n == items else n for n, items in lists]
    ret = ", ".join(whole.carry)
    if lists:
        ret = f"{grouped(whole.carry)}, {grouped(tuple(returned))}"
    doc = (
        f'    """One jitted `lax.scan` of `{names.function}` when the step returns the carry '
        "with the\n    types it takes, as `lax.scan` needs (then every step does), from the "
        "first step on or\n    (a weakly typed start) from the second; else the loop of "
        'steps."""\n'
    )
    types = _types_name(plan, whole)
    carry = grouped(whole.carry)
    template = parse_function(
        f"def {names.loop}({', '.join(params)}):\n{doc}{check}"
        f"    {first} = {_types_after(ctx, plan, whole, names, None)}\n"
        f"    if {types}({first}) == {types}({carry}):\n"
        f"        return {names.scan}({', '.join(params)})\n"
        f"    if {types}({_types_after(ctx, plan, whole, names, first)}) == {types}({first}):\n"
        f"        return {names.scan}({', '.join(params)}, {peel}=True)\n"
        + "".join(f"    {name} = []\n" for name, _ in lists)
        + (f"    {whole.counter[0]} = {whole.counter[1]}\n" if whole.counter else "")
        + f"    return {ret}\n"
    )
    steps = _steps(plan, names)
    lines = list(template.body.body)
    block = template.body.with_changes(body=[*lines[:-1], steps, lines[-1]])
    guard = spaced(ctx, template.with_changes(body=block), anchor(ctx, plan))
    scan, guard = (d.with_changes(leading_lines=[]) for d in (scan, guard))  # the step's
    imports = (*imports, *more, *(i for _, spelled in stack_of.values() for i in spelled))
    return _edits(ctx, plan, whole, names.loop, (step, scan, guard), imports, lists, stacked)


def _peeled(
    ctx: ModuleContext,
    whole: WholeLoop,
    body: str,
    lists: list[tuple[str, str]],
    peel: str,
) -> tuple[str, tuple[RequireImport, ...]]:
    """`if not peel: return <scan>`, then the first step apart, on the carry the loop
    starts with (weak types and all: inside `jit` they stay), and the scan of the other
    steps from what it returns, its values stacked after the first step's."""
    scan, imports = spell(ctx, "jax.lax.scan")
    carry = grouped(whole.carry)
    steps, more = _trips_after_first(ctx, whole)
    imports = (*imports, *more)
    rest = f"{scan}({body}, {carry}, {steps})"
    start = _start(whole)
    if not lists:
        return (
            "    # the first step, on the starting types\n"
            f"    {carry} = {body}({carry}, {start})[0]\n"
            f"    return {rest}[0]\n",
            imports,
        )
    concatenate, more = spell(ctx, "jax.numpy.concatenate")
    imports = (*imports, *more)
    first, after = (fresh_name(ctx, base, (peel,)) for base in ("first", "rest"))
    if len(lists) == 1:  # one array a step
        stacked = f"{concatenate}([{first}[None], {after}])"
    else:
        stacked = f"tuple({concatenate}([a[None], b]) for a, b in zip({first}, {after}))"
    code = (
        "    # the first step, on the starting types\n"
        f"    {carry}, {first} = {body}({carry}, {start})\n"
        f"    {carry}, {after} = {rest}\n"
        f"    return {carry}, {stacked}\n"
    )
    return code, imports


def _trips(ctx: ModuleContext, whole: WholeLoop) -> tuple[str, tuple[RequireImport, ...]]:
    """The scan's `length=N`, or `xs=jnp.arange(...)` of the range where the step reads
    the loop variable (to pick rows: `WholeLoop.rows`)."""
    if whole.rows is None:
        return f"length={whole.length}", ()
    arange, imports = spell(ctx, "jax.numpy.arange")
    return f"xs={arange}({', '.join(whole.rows)})", imports


def _trips_after_first(
    ctx: ModuleContext, whole: WholeLoop
) -> tuple[str, tuple[RequireImport, ...]]:
    """`_trips` without the first: `length=N - 1`, or `xs=jnp.arange(start + 1, stop)`."""
    if whole.rows is None:
        length = whole.length
        return f"length={length if _plain(length) else f'({length})'} - 1", ()
    arange, imports = spell(ctx, "jax.numpy.arange")
    start = _start(whole)
    after = (
        str(int(start) + 1)
        if start.isdigit()
        else f"{start if _plain(start) else f'({start})'} + 1"
    )
    return f"xs={arange}({after}, {whole.rows[-1]})", imports


def _start(whole: WholeLoop) -> str:
    """The loop variable of the first step, as source (`0` where the step reads none)."""
    return whole.rows[0] if whole.rows is not None and len(whole.rows) == 2 else "0"


def _plain(source: str) -> bool:
    """A name or a number: no parentheses needed around it in `source - 1`."""
    return source.replace("_", "").isalnum()


def _lists(
    ctx: ModuleContext,
    plan: StepPlan,
    whole: WholeLoop,
    names: StepNames,
    stacked: dict[str, tuple[cst.Call, ...]],
) -> list[tuple[str, str]]:
    """Each list and the name its stacked values come back as: its own where the list
    takes them (`stacked`, in a function), else `<list>_items`."""
    lists: list[tuple[str, str]] = []
    for _, name, _ in appended(plan, names):
        taken = [i for _, i in lists]
        own = name in stacked and not whole.module  # a global list keeps its rows
        lists.append((name, name if own else fresh_name(ctx, f"{name}_items", taken)))
    return lists


def _scan_function(
    ctx: ModuleContext,
    plan: StepPlan,
    whole: WholeLoop,
    name: str,
    decorator: str,
    body: cst.FunctionDef,
    lists: list[tuple[str, str]],
    peel: str | None = None,
) -> tuple[cst.FunctionDef, tuple[RequireImport, ...]]:
    """`@jit def name(carry, inputs): def body(...): ...; return lax.scan(body, ...)`;
    with a `peel` flag (static), its first step apart where the flag is set (`_peeled`)."""
    scan, imports = spell(ctx, "jax.lax.scan")
    init = whole.carry
    if whole.last:
        zeros_like, more = spell(ctx, "jax.numpy.zeros_like")
        imports = (*imports, *more)
        init = (*init, *(f"{zeros_like}({like})" for _, like in whole.last))
    steps, more = _trips(ctx, whole)
    imports = (*imports, *more)
    run = f"{scan}({body.name.value}, {grouped(init)}, {steps})"
    params = ", ".join((*whole.carry, *whole.inputs))
    returned = f"    return {run if lists else f'{run}[0]'}\n"
    if peel is not None:
        params = f"{params}, {peel}=False"
        peeled, more = _peeled(ctx, whole, body.name.value, lists, peel)
        returned = f"    if not {peel}:\n    {returned}{peeled}"
        imports = (*imports, *more)
    template = parse_function(f"@{decorator}\ndef {name}({params}):\n{returned}")
    block = template.body.with_changes(body=[body, *template.body.body])
    return spaced(ctx, template.with_changes(body=block), anchor(ctx, plan)), imports


def _edits(
    ctx: ModuleContext,
    plan: StepPlan,
    whole: WholeLoop,
    function: str,
    definitions: tuple[cst.FunctionDef, ...],
    imports: tuple[RequireImport, ...],
    lists: list[tuple[str, str]],
    stacked: dict[str, tuple[cst.Call, ...]],
) -> list[Edit]:
    """`definitions` above the loop's function; the loop replaced by the call of
    `function`, the `stacked` calls by the stacked values and, per list that does not
    take them itself, one `extend`."""
    carried = (*whole.carry, *(name for name, _ in whole.last))
    params = ", ".join((*whole.carry, *whole.inputs))
    target = ", ".join(carried)
    if lists:
        target = f"{grouped(carried)}, {grouped(tuple(i for _, i in lists))}"
    call = cst.parse_statement(f"{target} = {function}({params})\n")
    kept = {a.name: a.kept for a in plan.appends if a.kept is not None}
    after = [
        _extend(ctx, plan, name, items, whole, kept.get(name))
        for name, items in lists
        if name != items
    ]
    if whole.index_last is not None:
        after.append(f"{plan.index} = {whole.index_last}")
    if whole.counter is not None and whole.counter[2]:  # what a counted `while` leaves
        after.append(f"{whole.counter[0]} = {whole.counter[2]}")
    items_of = dict(lists)
    edits: list[Edit] = [
        *imports,
        InsertBefore(anchor(ctx, plan), definitions),
        Replace(plan.loop.node, lambda node: call.with_changes(leading_lines=node.leading_lines)),
        *(
            Replace(c, lambda _, n=items_of[name]: cst.Name(n))  # type: ignore[misc]  # n: a str
            for name, calls in stacked.items()
            for c in calls
        ),
    ]
    if after:
        lines = tuple(cst.parse_statement(f"{line}\n") for line in after)
        edits.append(InsertAfter(plan.loop.node, lines))
    return edits


def _extend(
    ctx: ModuleContext,
    plan: StepPlan,
    name: str,
    items: str,
    whole: WholeLoop,
    kept: cst.If | None,
) -> str:
    """`xs.extend(xs_items)`; at module level indexed row by row (iterating an array
    compiles a slice per row, about a second for a few hundred; an index compiles one);
    for a value kept under a condition, the rows of the steps where it holds, by the
    same condition over the same range (`xs_items[i] for i, t in enumerate(range(n)) if
    t % 10 == 0`: row `i` is the `i`-th step, whatever the range starts at)."""
    if kept is not None:
        loop = plan.loop.node
        assert type(loop) is cst.For
        row = fresh_name(ctx, "i", [items])
        steps = f"enumerate({ctx.code(loop.iter)}) if {ctx.code(kept.test)}"
        return f"{name}.extend({items}[{row}] for {row}, {plan.index} in {steps})"
    if not whole.module:
        return f"{name}.extend({items})"
    return f"{name}.extend({items}[i] for i in range({whole.length}))"


def _body(
    ctx: ModuleContext,
    plan: StepPlan,
    whole: WholeLoop,
    names: StepNames,
    lines: list[cst.SimpleStatementLine] | None = None,
) -> cst.FunctionDef:
    """`def body(carry, index):` unpacking the carry, the step's lines (or `lines`), and
    the return of the new carry and this iteration's appended values."""
    carried = (*whole.carry, *(name for name, _ in whole.last))
    single = len(carried) == 1
    carry = carried[0] if single else "carry"
    head = "" if single else f"    {', '.join(carried)} = carry\n"
    items = tuple(item for _, _, item in appended(plan, names))
    out = f"{grouped(carried)}, {grouped(items)}" if items else f"{grouped(carried)}, None"
    template = parse_function(
        f"def {fresh_name(ctx, 'body')}({carry}, {_index(plan)}):\n{head}    return {out}\n"
    )
    parsed = list(template.body.body)
    block = template.body.with_changes(
        body=[*parsed[:-1], *(lines or step_lines(ctx, plan, names)), parsed[-1]],
        footer=[cst.EmptyLine(indent=False)],
    )
    return template.with_changes(body=block)


def _index(plan: StepPlan) -> str:
    """The scan body's index parameter: the loop variable, or `_` for a counted `while`
    (a fresh name where the step reads `_`)."""
    if plan.index is not None:
        return plan.index
    name = "_"
    while name in plan.params:
        name = f"_{name}"
    return name


def _check(
    ctx: ModuleContext, plan: StepPlan, whole: WholeLoop
) -> tuple[str, tuple[RequireImport, ...]]:
    """The nested `def types(tree)`: a pytree's structure and each leaf's shape, dtype
    and weak type (`jax.eval_shape` of the identity gives them for arrays and Python
    numbers alike)."""
    flatten, imports = spell(ctx, "jax.tree_util.tree_flatten")
    eval_shape, more = spell(ctx, "jax.eval_shape")
    name = _types_name(plan, whole)
    code = (
        f"\n    def {name}(tree):\n"
        f"        leaves, structure = {flatten}({eval_shape}(lambda x: x, tree))\n"
        "        return structure, [(x.shape, x.dtype, x.weak_type) for x in leaves]\n\n"
    )
    return code, (*imports, *more)


def _types_name(plan: StepPlan, whole: WholeLoop) -> str:
    """`types`, or `_types` where the guard's parameters or lists use that name."""
    name = "types"
    counter = (whole.counter[0],) if whole.counter else ()
    while name in (*whole.carry, *whole.inputs, *(a.name for a in plan.appends), *counter):
        name = f"_{name}"
    return name


def _types_after(
    ctx: ModuleContext, plan: StepPlan, whole: WholeLoop, names: StepNames, carry: str | None
) -> str:
    """`eval_shape(step, ...)` with the carry's part of what it returns: given the loop
    variable's first value (where the step reads it) and the carried names, or the
    parts of `carry` in their place (`*first` where the step takes them together)."""
    eval_shape, _ = spell(ctx, "jax.eval_shape")
    given = {plan.index: _start(whole)} if plan.index is not None else {}
    parts = [carry] if len(whole.carry) == 1 else [f"{carry}[{i}]" for i in range(len(whole.carry))]
    if carry is not None:
        given.update(zip(whole.carry, parts, strict=True))  # type: ignore[arg-type]  # carry: a str
    args = [given.get(p, p) for p in plan.params]
    if carry is not None and len(parts) > 1 and parts[0] in args:
        start = args.index(parts[0])
        if args[start : start + len(parts)] == parts:
            args[start : start + len(parts)] = [f"*{carry}"]
    returned = (*plan.returns, *names.items)
    out = f"{eval_shape}({names.function}, {', '.join(args)})"
    at = [returned.index(n) for n in whole.carry]
    if at == list(range(len(returned))):
        return out  # the step returns the carry alone
    if len(at) == 1:
        return f"{out}[{at[0]}]"
    if at == list(range(len(at))):
        return f"{out}[:{len(at)}]"
    return f"({', '.join(f'{out}[{i}]' for i in at)})"


def _steps(plan: StepPlan, names: StepNames) -> cst.BaseCompoundStatement:
    """The loop itself, calling the step (the step form), for the guard's other path."""
    return calling_loop(plan, names, plan.loop.node).with_changes(leading_lines=[])
