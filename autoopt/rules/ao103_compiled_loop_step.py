"""AO103 compiled-loop-step."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import libcst as cst

from autoopt.analysis.plans.whole_loop import WholeLoop, whole_loop
from autoopt.analysis.semantic import ModuleContext, semantic
from autoopt.model import Applicability, Edit, Finding
from autoopt.rewrite.jit import add_decorator, jit_decorator
from autoopt.rewrite.step import step_edits
from autoopt.rewrite.whole_loop import guarded_loop_edits, whole_loop_edits
from autoopt.rules.base import Rule
from autoopt.rules.deferred import DeferredEdits
from autoopt.rules.examples import ao103_compiled_loop_step as examples
from autoopt.rules.loop_owner import StepVerdict, step_verdicts


class CompiledLoopStep(Rule):
    """
    ## What it does
    Finds a loop of code running eagerly whose body starts with device work
    spread over several statements (calls, operators, `.at[]` updates, the glue
    between them, values appended to lists) and moves those statements into one
    jitted step function placed above the loop's function. The loop calls the
    step once per iteration with its variable, the names it carries and the
    other names it reads; the step returns what the rest of the body, the next
    iteration or the code after the loop reads, and the values the loop then
    appends. Carried arrays are donated where that is proven harmless, so XLA
    updates them in place. When the step is the whole body of `for _ in
    range(n)` with `n` known, or of a counted `while` (`i = 0; while i < N:
    ...; i += 1`), the whole loop goes onto the device instead: one
    jitted function runs the step `n` times with `lax.scan`, carrying the
    carried names and stacking the appended values, which the lists then
    receive with one `extend` each (a `while` loop's counter is then set to
    the value the loop leaves, `i = N`). A `for` loop whose body ends with
    `if i % k == 0: xs.append(value)` runs as one scan too: the scan emits
    the value every step, and the list receives the rows of the steps where
    the condition holds. A loop whose step would be one call (its body one
    assignment from a call, with appends of names: `rank, change =
    sweep(rank, ...)`, `changes.append(change)`) is taken only in the
    whole-loop form: as a step it would only be AO101's jit of the call, but
    as one scan it leaves no dispatch per iteration.

    ## Why is this bad?
    Jitting the functions a loop calls one by one (AO101) leaves the glue
    between them eager: every operator is dispatched from Python on its own and
    every `.at[].set` copies its whole array. One compiled step runs the
    iteration as a single fused XLA program, and a donated carry is updated in
    place instead of copied. Measured on a 2-core CPU, whole programs: a Kalman
    filter 1.35x, an RNN over 200 steps 1.68x faster (91% and 98% of what the
    hand-written `lax.scan` versions gain). The scan form also removes the
    per-iteration dispatch: the Burgers corpus program (700 steps) reaches
    what its hand-written scan gains (docs/benchmarks.md).

    ## Fix safety
    The fix is **safe** only when the extracted step passes every premise of
    AO101's jit plan on the program with the step in place: it is pure (no
    print, I/O, host RNG, writes to globals or arguments, through every
    callee), no traced value reaches Python control flow, NumPy or text, it
    returns arrays, and every argument is a JAX array, a pytree of arrays, a
    Python number used only as data, or a hashable constant made static; the
    loop variable and the carried names are never needed static (that would
    recompile every iteration); every value indexed by the (now traced) loop
    variable of `for i in range(...)` is a JAX array (which clamps an
    out-of-range index the same way eagerly and traced) or the array the loop
    ranges over (a NumPy array or a list would raise where a traced index
    clamps). The step is the leading lines of the body that are plain
    assignments to names or `xs.append(value)`; the lines after them
    (printing, logging, a `break` on a returned value) stay in the loop and
    read what the step returns, and the loop appends the values the step
    returns. Names it carries must be bound before the loop, and a loop that
    carries nothing is per-item work, left to AO501. A carried array that
    provably grows (`concatenate`, `append`, `stack`, `pad` of itself) is left
    to AO402: the step would compile again for every new shape. Other changes
    of a carry's shape or dtype keep the results (jit compiles again for them,
    unlike `lax.fori_loop`, which raises), so they are not a premise;
    verification measures their cost.
    Donation follows AO201's proof. Results agree to float rounding (jit
    fuses operations). Where a premise of the step is not proven the finding
    names it and offers **no fix**: the loop then keeps the per-statement
    fixes of the other rules, which a step rewrite would conflict with.

    The whole-loop (`lax.scan`) form is **safe** only when, besides the
    step's premises: the step is the loop's whole body; the loop is
    `for _ in range(...)` with bounds that are integer literals or module
    constants and at least one iteration (scan traces its body even for
    none); the loop variable is not read after the loop, and in the body (of
    a function) only as the one index of subscripts of JAX arrays that the
    step's premises accept (`xs[i]`, `ys[i]`: the scan then runs over
    `jnp.arange` of the range, and each step picks the row the loop picked;
    any other use could see a traced index's type);
    or the loop is a counted `while`: its condition is `i < N`, `i <= N` or
    `N > i` with `N` an integer literal or module constant, `i` is bound to
    one (the only definition of `i` reaching the loop from before it), the
    body's last statement is `i += 1` and nothing else in the body, nor any
    function, reads or binds `i`, and it runs at least once (the step is
    then the body without the increment, and `i` is set after the scan to
    what the loop leaves: `N`, or `N + 1` for `<=`);
    in a function, the step returns only what it carries and what the loop
    appends (a value of the last iteration read after the loop, in the
    function or a function nested in it, would need returning too; another
    function's name of the same spelling is its own); each list receives one
    JAX array per iteration (scan stacks a tuple leaf by leaf, and two
    appends to one list would come back as two blocks); and every carried
    name provably keeps its shape and dtype (`analysis/plans/carry.py`: related to
    itself, or computed from what the code spells out, through matrix
    products, reductions, NamedTuple fields and arrays built on the host,
    `analysis/plans/carry_types.py`) and is a
    floating-point array where the proof adds Python numbers to it (an
    integer array times `0.5` becomes a float array: a Python loop allows
    that, `scan` raises). A float32 value combined with a default-float one
    (`jnp.zeros(n)`, `jnp.eye(n)`, a float64 NumPy array) is float64 under
    `JAX_ENABLE_X64`, so such a carry is never proven. The lists then hold the rows
    of the stacked values, equal to the values appended before; a list that
    starts empty just before the loop and is read after it only as
    `jnp.stack(xs)` (or `jnp.array`, `jnp.asarray`) takes the stacked array
    itself, the same array those calls built.
    A loop of module code leaves every name its body binds as a module
    global that an importer or a function may read. There the scan also
    carries each name the body binds without carrying it (a temporary such
    as `lap`), from `jnp.zeros_like(u)` of a carried `u` whose shape and
    dtype the same proof shows the temporary has after every iteration (the
    body binds it in every iteration and there is at least one, so the
    placeholder is never what is left); the loop variable gets its last
    value after the call (`_ = N_STEPS - 1`); and a list keeps being a list
    of the values appended (it receives the rows; only the stack calls after
    the loop take the stacked array). Every module global the loop leaves
    then has the value it had.

    A loop over `range(...)` whose body ends with `if` blocks that only append
    (`if it % RECORD_EVERY == 0: norms.append(jnp.sqrt(rs))`, no `else`)
    takes the whole-loop form as if those appends ran every step: the step
    computes each such value, the scan stacks it, and after the loop the
    list receives the rows of the steps where the condition holds, by the
    same condition over the same range (`norms.extend(norms_items[i] for i,
    it in enumerate(range(ITERS)) if it % RECORD_EVERY == 0)`), so it ends
    with the values, in the order, the loop appended. This is **safe** only when,
    besides every premise above for that step (the value a JAX array the jit
    plan proves pure, not read from the loop variable, one per list a step),
    the condition reads only the loop variable and Python numbers that
    nothing in the loop rebinds, through operators, comparisons and the
    builtins `abs`, `min`, `max`, `round`, `int` and `bool` (no other call,
    attribute or subscript: it has no effect and gives the same answer after
    the loop), and no other line reads the list. Such a list always receives
    rows (a `jnp.stack(xs)` after the loop stays). The scan holds every
    step's value until the rows are picked (`n` where the loop kept `n / k`;
    verification measures the memory). In the guarded form the
    loop of steps appends every step's value too, so both of its paths
    return one row per step. Otherwise the loop keeps what it had: the step
    form of the lines before the `if` blocks, or, with fewer than two, no
    fix.

    Where the carry's type is the one premise not proven, and no iteration
    provably changes it (with x64 off and on alike), the fix is still **safe**
    as a guarded whole loop: the step stays a jitted function, a jitted
    `lax.scan` calls it, and the function called where the loop was checks,
    with `jax.eval_shape` of the step on the starting carry, that the step
    returns the carry's pytree structure, shapes, dtypes and weak types. Then
    it runs the scan: a pure step given the same types returns the same types,
    so every iteration would have. Weak types count too: a carry that starts
    weakly typed (`jnp.full(n, 0.5)`, a Python number) and comes back strong
    would enter `lax.scan` promoted, and its first step can then compute other
    numbers (a weak integer meeting an int8 array wraps; a strong one does
    not). Where the first step changes only such types and the second keeps
    them (`eval_shape` of the step on the first step's types), the scan runs
    the first step apart, on the carry as the loop starts with it (inside
    `jit`, weak types stay), then the other steps, and stacks the first
    step's values before theirs. Otherwise (a float32 carry
    meeting a default-float value under `JAX_ENABLE_X64`, an integer carry
    times `0.5`, a shape that changes) it runs the loop of jitted steps, as the
    step form does; each time the loop starts, it checks again. The message
    names the guard and the premise it checks. A step with static arguments, a
    module loop that leaves temporaries, or a module that binds names with
    `:=` keeps the step form. Otherwise the loop keeps the step form, and where
    only the carry premise is missing (or a temporary's type) the message
    names it.

    A loop of one computing statement (one call; appends of names do not
    count) gets a fix only where the step is proven and the loop then runs as
    one scan, plain or guarded, by every premise above; its step form would be
    only AO101's jit of the call. Everywhere else (a host statement or a
    `break` after the call, a loop of unknown count, two appends to one list,
    a step not proven) AO103 reports nothing for it and the loop keeps AO101's
    jit and AO201's donation of the function it calls. The guarded form's own
    loop of steps, run only where the step changes the carry's types, is not
    taken again.

    One owner per loop (`rules/loop_owner.py`): a loop that AO401 runs as
    `lax.fori_loop` is not a step; in a loop that is a proven step, AO102,
    AO301, AO302, AO401 and AO402 do not fix the statements the step
    compiles.
    """

    id = "AO103"
    name = "compiled-loop-step"
    summary = "Eager loop body doing device work in several statements, one dispatch each"
    fixes = (
        "moves the loop body into one jitted step function that donates the carried arrays, "
        "or runs a counted loop as one jitted `lax.scan` of it"
    )

    VALID = examples.VALID
    INVALID = examples.INVALID

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        for verdict in step_verdicts(ctx):
            if not verdict.problem:
                yield self._finding(ctx, verdict)

    def _finding(self, ctx: ModuleContext, verdict: StepVerdict) -> Finding:
        plan = verdict.plan
        loop = plan.loop.node
        where = "this loop's body runs eagerly, one dispatch per operation"
        if verdict.doubts:
            message = f"{where}; not compiled as one step: {verdict.doubts[0]}"
            return self.finding(ctx, loop, message, Applicability.NONE)
        name = verdict.names.function
        donate = semantic(verdict.extracted).safe_donations(name)
        whole = whole_loop(ctx, plan)
        if whole is not None and not whole.doubt:
            return self._whole_loop(ctx, verdict, whole, [d for d in donate if d in whole.carry])
        if whole is not None and whole.guarded and not verdict.static:
            return self._guarded(ctx, verdict, whole, donate)
        decorator, imports = jit_decorator(ctx, verdict.static, donate)
        donated = f", donating {_listed(donate)}" if donate else ""
        message = f"{where}: compile it as one jitted step, `{name}`{donated}"
        if whole is not None:
            message += f"; not the whole loop as one `lax.scan`: {whole.doubt}"
        edits = DeferredEdits(ctx, lambda: _step_edits(ctx, verdict, decorator, imports))
        title = f"Compile the loop body as {name}"
        return self.finding(ctx, loop, message, Applicability.SAFE, edits, title=title)

    def _guarded(
        self, ctx: ModuleContext, verdict: StepVerdict, whole: WholeLoop, donate: list[str]
    ) -> Finding:
        """The jitted step, the jitted `lax.scan` of it, and a function that runs the scan
        when the step keeps the carry's types (checked when the loop starts), else the
        loop of steps: where the carry's type is the one premise not proven."""
        plan, names = verdict.plan, verdict.names
        decorator, imports = jit_decorator(ctx, (), donate)
        edits = DeferredEdits(
            ctx, lambda: _guarded_edits(ctx, verdict, whole, decorator, donate, imports)
        )
        donated = f", donating {_listed(donate)}" if donate else ""
        message = (
            "this loop's body runs eagerly, one dispatch per operation: run the whole loop "
            "as one jitted `lax.scan` when the carry keeps its types (checked when the loop "
            f"starts: `{names.loop}` runs `{names.scan}`, else `{names.function}` once per "
            f"iteration){donated}; statically, {whole.doubt}"
        )
        title = f"Run the loop as one jitted lax.scan when its carry keeps its types ({names.loop})"
        return self.finding(ctx, plan.loop.node, message, Applicability.SAFE, edits, title=title)

    def _whole_loop(
        self, ctx: ModuleContext, verdict: StepVerdict, whole: WholeLoop, donate: list[str]
    ) -> Finding:
        """The whole loop as one jitted `lax.scan` of the step's lines."""
        name = verdict.names.loop
        static = [p for p in verdict.static if p in whole.inputs]
        decorator, imports = jit_decorator(ctx, static, donate)
        plan, names = verdict.plan, verdict.names
        edits = DeferredEdits(
            ctx, lambda: [*whole_loop_edits(ctx, plan, whole, names, decorator), *imports]
        )
        donated = f", donating {_listed(donate)}" if donate else ""
        message = (
            "this loop's body runs eagerly, one dispatch per operation: run the whole loop "
            f"as one jitted `lax.scan`, `{name}`{donated}"
        )
        if whole.last:
            temps = _listed([n for n, _ in whole.last])
            message += f"; it carries {temps} too, for the last values the loop leaves as globals"
        title = f"Run the loop as one jitted lax.scan ({name})"
        return self.finding(
            ctx, verdict.plan.loop.node, message, Applicability.SAFE, edits, title=title
        )


def _decorated(ctx: ModuleContext, verdict: StepVerdict, decorator: str) -> cst.FunctionDef:
    """The verdict's step function under `decorator`."""
    step = add_decorator(ctx, decorator)(verdict.definition)
    assert type(step) is cst.FunctionDef
    return step


def _step_edits(
    ctx: ModuleContext, verdict: StepVerdict, decorator: str, imports: Sequence[Edit]
) -> list[Edit]:
    """The loop body moved into the decorated step function, called in the loop."""
    step = _decorated(ctx, verdict, decorator)
    return [*step_edits(ctx, verdict.plan, step, verdict.names), *imports]


def _guarded_edits(
    ctx: ModuleContext,
    verdict: StepVerdict,
    whole: WholeLoop,
    decorator: str,
    donate: list[str],
    imports: Sequence[Edit],
) -> list[Edit]:
    """The decorated step, the scan of it and the guard that picks one per run."""
    step = _decorated(ctx, verdict, decorator)
    plan, names = verdict.plan, verdict.names
    return [*guarded_loop_edits(ctx, plan, whole, names, step, donate), *imports]


def _listed(names: list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names)
