"""AO103 compiled-loop-step."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import libcst as cst

from autoopt.analysis.plans.fori import counted_for
from autoopt.analysis.plans.nnx_loop import NnxLoop, nnx_loop
from autoopt.analysis.plans.step import LateLines, StepPlan, late_lines
from autoopt.analysis.plans.whole_loop import WholeLoop, whole_loop
from autoopt.analysis.semantic import MODULE, Loop, ModuleContext, Stmt, overlays, semantic
from autoopt.model import Applicability, Edit, Finding
from autoopt.rewrite.jit import add_decorator, claim_name, jit_decorator
from autoopt.rewrite.nnx_loop import nnx_loop_edits
from autoopt.rewrite.step import step_edits
from autoopt.rewrite.whole_loop import guarded_loop_edits, whole_loop_edits
from autoopt.rules.base import Rule
from autoopt.rules.deferred import DeferredEdits
from autoopt.rules.loop_owner import StepVerdict, fori_owned, step_verdicts


class CompiledLoopStep(Rule):
    """
    ## What it does
    Finds a loop of code running eagerly whose body starts with device work
    spread over several statements (calls, operators, `.at[]` updates, the glue
    between them, values appended to lists) and compiles it, in the largest of
    these forms whose premises are proven:

    - **step**: those statements become one jitted step function, placed above the
      loop's function, that the loop calls once per iteration; carried arrays are
      donated where that is proven harmless, so XLA updates them in place;
    - **whole loop**: where the step is the whole body of `for _ in range(n)` with
      `n` known, or of a counted `while i < N: ...; i += 1`, one jitted function runs
      the step `n` times with `lax.scan` and the lists receive the stacked appended
      values; appends under `if i % k == 0:` are stacked every step, and the list
      receives the rows of the steps where the condition holds;
    - **step after a block**: where the body begins with statements that form no
      step (a periodic evaluation under `if step % k == 0:`, host bookkeeping), the run
      of device work after them becomes the step, called where that run stood; its
      trailing lines of host arithmetic (`progress = min(step / n, 1.0)`) stay in the
      loop, and each `next(it)` its lines make is called by the loop just before the
      step, in their order, the step taking the value;
    - **step after a prelude**: where the step would return a Python number its lines
      compute from the loop variable and constants (`progress = epoch / n`, read after
      the loop), those lines stay in the loop, run before the step, which takes the
      number, and each piece of Python arithmetic it does on it (`1.0 - progress`,
      computed by the loop in float64 as before), as traced arguments: one compilation;
    - **guarded whole loop**: where only the carry's type is unproven, the loop
      checks the step's types with `jax.eval_shape` when it starts, and runs the
      scan or else the loop of jitted steps.

    A step that takes its batch from a dataset on the device by the loop variable
    (`xb = x_dev[i * BATCH : (i + 1) * BATCH]`, after AO301 put `x_dev` there) takes it
    with `lax.dynamic_slice_in_dim(x_dev, i * BATCH, BATCH)`, so the index is traced
    (one compilation, and a scan of the whole epoch); where a batch may run past the
    data (a ragged last batch, rows not proven) the loop is reported with no fix, the
    batch named.

    A loop whose step would be one call (`rank, change = sweep(rank, ...)`) is
    taken only in the whole-loop forms: as a step it would only be AO101's jit of
    the call. A step that changes nnx modules in place (`optimizer.update(model,
    grads)`, a call of an `nnx.jit` function given the module) is compiled with
    `@nnx.jit` instead, the modules passed as its arguments (**nnx step**): `nnx.jit`
    writes their state back after each call, which a `jax.jit` step cannot. A counted
    loop whose body is one call of an `nnx.jit` step (`train_step(model, optimizer, x,
    y)`) then an `if i % k == 0:` block that reads the model runs the steps between the
    reads as one compiled loop (**nnx whole loop**): `nnx.fori_loop` under `@nnx.jit`,
    the modules its carry, so every state variable (parameters, optimizer state,
    `nnx.Rngs` counts, BatchNorm statistics) goes from step to step as before and is
    written back when it returns; the loop still counts the steps and runs the pending
    ones at the top of the block, which stays eager, at the same iterations. Where a
    premise of these forms fails, or the body changes a module otherwise, the loop is
    reported with no fix, the premise named. A step of device work whose
    purity is unproven (it calls code autoopt cannot see: another library's object, a
    function made at run time other than by a factory of the module) is reported with no
    fix, naming the call; so is a loop whose device work follows a statement that forms
    no step where the premise of the step after it fails, naming it.

    ## Why is this bad?
    Jitting the functions a loop calls one by one (AO101) leaves the glue
    between them eager: every operator is dispatched from Python on its own and
    every `.at[].set` copies its whole array. One compiled step runs the
    iteration as a single fused XLA program, and a donated carry is updated in
    place instead of copied. Measured on a 2-core CPU, whole programs: a Kalman
    filter 1.35x, an RNN over 200 steps 1.68x faster (91% and 98% of what the
    hand-written `lax.scan` versions gain). The scan form also removes the
    per-iteration dispatch: the Burgers corpus program (700 steps) reaches
    what its hand-written scan gains (docs/benchmarks/rules.md).

    ## Fix safety
    **Safe** only when every premise of the form is proven; where one of the step's
    is not, the finding names it and offers **no fix**, and the loop keeps the other
    rules' per-statement fixes. Results agree to float rounding (jit fuses
    operations).

    - the loop runs eagerly (in the module, or a function it calls, a `main()` or one
      absl's `app.run` calls): `analysis/core/execution.py`, `analysis/overlays/absl.py`
    - the lines that begin the body (or the run of device work after a block) form a
      step and carry names bound before the loop:
      `analysis/plans/step.py`
    - a step after a block: the statements before it change no name it reads; each
      `next(it)` it makes runs on every iteration, on an iterator its lines read nowhere
      else, and, past its first statement (an iterator that ends raises there), in a
      function with no `try` or `with` around the loop; the value goes only to functions
      under a bare `@jax.jit` (traced there already) or is otherwise proven:
      `analysis/plans/tail_step.py`, `analysis/facts/jit_forwarded.py`
    - a step after a prelude: each prelude line binds one name to a Python float from
      the loop's `range` variable, integer and float constants nothing in the loop
      rebinds, earlier prelude names, literals, arithmetic and `min`/`max`/`abs`/`float`;
      one after a step line raises nothing (bounded integers, nonzero divisors) and no
      step line before it reads or binds its name; the arithmetic the loop computes for
      the step reads only prelude names and literals, divides by nonzero literals only,
      and is in no lambda, comprehension or conditional: `analysis/plans/prelude.py`
    - the step is jittable, asked of the program with the step extracted (AO101's
      plan: what every function it calls or hands on, `jax.grad(loss_fn)`, reads from
      outside is unchanging; a Python float a Python sum cancels, `1.0 - keep`, takes
      a remainder of, or converts to a dtype not proven float32, is a constant made
      static): `analysis/facts/jit_plan.py`, `analysis/facts/summaries.py`;
      among them, no code of the module or of a project module it imports relies on a
      rounding XLA's simplifier folds away (`(t + 1.5 * 2**23) - 1.5 * 2**23`, `x + 0.0`):
      `analysis/facts/rounding_tricks.py`
    - the loop variable and the carry are never needed static, and no carry grows
      (AO402's): `rules/loop_owner.py`
    - rows indexed by the traced loop variable clamp as before: `analysis/plans/fori.py`
    - a batch taken by the traced loop variable is a block of one size inside the
      dataset's proven rows at every index: `analysis/plans/batches.py`
    - a donated carry is read nowhere else (AO201's proof): `analysis/facts/aliases.py`
    - the loop is counted, its variable only picks rows, each list gets one array per
      step, a kept append's condition is the loop's own: `analysis/plans/whole_loop.py`
    - each carry keeps its shape and dtype: `analysis/plans/carry.py`,
      `analysis/plans/carry_types.py`
    - one owner per loop: `rules/loop_owner.py`
    - the body changes no nnx module in place (the receiver, or the argument of an
      `nnx.jit` function, proven an nnx object): `analysis/facts/nnx_modules.py`; the
      nnx step: the modules proven, passed as arguments, changed only through the
      overlay's calls, and an `nnx.jit` function it calls pure but for those:
      `analysis/plans/nnx_step.py`; the nnx whole loop: the loop counted, its body the
      step's call (its result unused, given proven nnx objects and arrays, not the loop
      variable) then one `if` without `else` whose condition reads only the loop
      variable and unchanging numbers, nothing in the loop rebinding what the step is
      given or changing a module outside it, and the step function pure but for its
      module updates and reading nothing from outside that changes (it is traced again,
      inside the compiled loop; a call of the model, whose `__call__` autoopt does not
      follow, leaves the fix unsafe): `analysis/plans/nnx_loop.py`
    - every call the step makes is seen and pure: `analysis/facts/purity.py`; a module-level
      name bound once to JAX transforms of a module function (`grad_fn = jax.grad(loss)`)
      or to what a factory of the module returns (`mse_loss = make_loss(xs, ys)`, its one
      `return` naming a nested function, `jax.jit` of it or not) is followed into that
      function: `analysis/facts/closures.py`; what it reads from outside (a global the
      program rebinds, a factory variable a `nonlocal` setter rebinds, a list it was given)
      must be unchanging, as for the step's own callees: `analysis/facts/summaries.py`; an optax
      optimizer it calls (`opt.update(...)`, a local bound once before the loop) is a
      static argument, immutable and hashable: `analysis/overlays/optax.py`; so is an evosax
      strategy or benchmark problem built by a constructor the overlay lists, given only
      its data options and evosax's own fitness-shaping and metrics functions (its `ask`,
      `tell`, `eval` are pure; one of unproven kind, given a function of the program's
      own, or rebuilt in the loop is not): `analysis/overlays/evosax.py`; a function a
      global optimizer holds (its schedule) reads nothing that changes:
      `analysis/facts/held_functions.py`; in a loop at module level, a global the program
      rebinds (`model = nn.Dense(...)` cell after cell) whose one binding reaching the loop
      is a linen layer the overlay lists, built from plain values, never aliased, changed
      or rebound while the loop runs, has pure `model.init`/`model.apply` for the step:
      `analysis/facts/held_globals.py`
    """

    id = "AO103"
    name = "compiled-loop-step"
    summary = "Eager loop body doing device work in several statements, one dispatch each"
    fixes = (
        "moves the loop body into one jitted step function that donates the carried arrays, "
        "or runs a counted loop as one jitted `lax.scan` of it"
    )

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        verdicts = step_verdicts(ctx)
        for verdict in verdicts:
            if not verdict.problem:
                yield self._finding(ctx, verdict)
            elif verdict.plan.start and _device_step(verdict):
                yield self._late_blocked(ctx, verdict)
            elif _device_step(verdict):
                yield from self._blocked(ctx, verdict)
        judged = {verdict.plan.loop.id for verdict in verdicts}
        taken = {
            n
            for v in verdicts
            for n in (v.names.function, v.names.loop, v.names.scan, *v.names.items)
        }
        for loop in ctx.graph.loops.values():
            if loop.id not in judged:
                found = list(self._module_updates(ctx, loop, taken))
                yield from found or self._late(ctx, loop)

    def _late(self, ctx: ModuleContext, loop: Loop) -> Iterator[Finding]:
        """An eager loop whose device work (two statements of it at least) follows a
        statement that forms no step (an `if` block, a print), where those lines form no
        step either (no tail plan: nothing carried, one computing statement): no fix."""
        late = late_lines(ctx, loop)
        if late is None or fori_owned(ctx, loop.id) or not _device_work(ctx, loop, late):
            return
        message = (
            f"{_EAGER}; not compiled as one step: {_late_work(ctx, late.first, late.lines[0])}, "
            "and those lines form no step (one carries names bound before the loop and runs "
            "two computing statements at least, before the trailing ones of host arithmetic)"
        )
        yield self.finding(ctx, loop.node, message, Applicability.NONE)

    def _late_blocked(self, ctx: ModuleContext, verdict: StepVerdict) -> Finding:
        """A step of the device work that follows a statement forming no step (a tail
        plan, analysis/plans/tail_step.py) whose premise fails: no fix, that premise
        named (a doubt of the plan before the jit plan's problem)."""
        plan = verdict.plan
        premise = plan.doubts[0] if plan.doubts else verdict.problem
        message = (
            f"{_EAGER}; not compiled as one step (`{verdict.names.function}`) of "
            f"{_tail(ctx, plan)}: {premise}"
        )
        return self.finding(ctx, plan.loop.node, message, Applicability.NONE)

    def _module_updates(self, ctx: ModuleContext, loop: Loop, taken: set[str]) -> Iterator[Finding]:
        """An eager loop whose body changes an nnx module in place (a counted loop: also
        by calling an `nnx.jit` function on it): the nnx whole-loop form where its
        premises hold, else no fix (a `jax.jit` step cannot change its arguments), the
        premise named, and the nnx spelling."""
        values = semantic(ctx)
        if not values.runs_eagerly(loop.scope):
            return
        plan = nnx_loop(ctx, loop)
        if isinstance(plan, NnxLoop):
            yield self._nnx_loop(ctx, plan, taken)
            return
        body = [s for s in ctx.graph.loop_stmts(loop.id) if s.loops[-1] == loop.id]
        counted = type(loop.node) is cst.For and counted_for(loop.node) is not None
        premise = _in_place(ctx, body, counted)
        if premise is not None:
            message = f"{_EAGER}; not compiled as one step: {premise}"
            if plan is not None:
                message += f"; not as compiled loops of the step between the reads: {plan}"
            yield self.finding(ctx, loop.node, message, Applicability.NONE)

    def _nnx_loop(self, ctx: ModuleContext, plan: NnxLoop, taken: set[str]) -> Finding:
        """The steps between the interval reads run as one `nnx.fori_loop` under
        `@nnx.jit`, the interval block kept eager (`rewrite/nnx_loop.py`)."""
        base = "_" if plan.loop.scope == MODULE else f"_{plan.loop.scope.rsplit('.', 1)[-1]}_"
        function = claim_name(ctx, f"{base}loop", taken)
        pending = claim_name(ctx, f"{base}pending", taken)
        edits = DeferredEdits(ctx, lambda: nnx_loop_edits(ctx, plan, function, pending))
        message = (
            f"{_EAGER}: run the `nnx.jit` steps between the reads of `if "
            f"{ctx.code(plan.interval.test)}:` as one compiled loop, `{function}` "
            "(`nnx.fori_loop` under `@nnx.jit`, which writes the nnx modules back), the "
            "block kept eager at the same iterations"
        )
        fix = Applicability.SAFE
        if plan.unproven:
            message += f"; unsafe: {plan.unproven}"
            fix = Applicability.UNSAFE
        title = f"Run the nnx.jit steps between the reads as one compiled loop ({function})"
        return self.finding(ctx, plan.loop.node, message, fix, edits, title=title)

    def _blocked(self, ctx: ModuleContext, verdict: StepVerdict) -> Iterator[Finding]:
        """A step of device work kept from compiling by a premise autoopt cannot prove (a
        callee it cannot see) or by a change of an nnx module in place: no fix, that
        premise named. A premise that fails outright (a host draw, a side effect) leaves
        the loop to the other rules."""
        plan = verdict.plan
        if verdict.nnx:
            message = (
                f"{_EAGER}; not compiled as one `nnx.jit` step (`{verdict.names.function}`), "
                f"which would write back the nnx modules it changes: {verdict.problem}"
            )
            yield self.finding(ctx, plan.loop.node, message, Applicability.NONE)
            return
        moved = {id(small) for line in plan.lines for small in line.body}
        body = [s for s in ctx.graph.loop_stmts(plan.loop.id) if id(s.node) in moved]
        premise = _in_place(ctx, body, counted=True)
        batches = bool(plan.batches.doubt or plan.batches.blocks)  # a loop over batches
        if premise is None and not batches and not semantic(ctx).unproven(verdict.problem):
            return
        premise = premise or verdict.problem + _unheld(ctx, plan.loop, verdict.problem)
        message = f"{_EAGER}; not compiled as one step (`{verdict.names.function}`): {premise}"
        yield self.finding(ctx, plan.loop.node, message, Applicability.NONE)

    def _finding(self, ctx: ModuleContext, verdict: StepVerdict) -> Finding:
        plan = verdict.plan
        loop = plan.loop.node
        where = "this loop's body runs eagerly, one dispatch per operation"
        if verdict.doubts:
            what = f" of {_tail(ctx, plan)}" if plan.start else ""
            message = f"{where}; not compiled as one step{what}: {verdict.doubts[0]}"
            return self.finding(ctx, loop, message, Applicability.NONE)
        name = verdict.names.function
        if verdict.nnx:
            return self._nnx_step(ctx, verdict)
        donate = semantic(verdict.extracted).safe_donations(name)
        whole = whole_loop(ctx, plan)
        if whole is not None and not whole.doubt:
            return self._whole_loop(ctx, verdict, whole, [d for d in donate if d in whole.carry])
        if whole is not None and whole.guarded and not verdict.static:
            return self._guarded(ctx, verdict, whole, donate)
        decorator, imports = jit_decorator(ctx, verdict.static, donate)
        donated = f", donating {_listed(donate)}" if donate else ""
        message = f"{where}: compile {_what(ctx, plan)} as one jitted step, `{name}`{donated}"
        if whole is not None:
            message += f"; not the whole loop as one `lax.scan`: {whole.doubt}"
        edits = DeferredEdits(ctx, lambda: _step_edits(ctx, verdict, decorator, imports))
        title = f"Compile the loop body as {name}"
        return self.finding(ctx, loop, message, Applicability.SAFE, edits, title=title)

    def _nnx_step(self, ctx: ModuleContext, verdict: StepVerdict) -> Finding:
        """The step under `@nnx.jit`, its nnx modules passed as arguments: it writes
        their state back after every call (no donation, no scan)."""
        name = verdict.names.function
        decorator, imports = semantic(ctx).nnx_jit_spelling()
        edits = DeferredEdits(ctx, lambda: _step_edits(ctx, verdict, decorator, imports))
        message = (
            f"{_EAGER}: compile it{_prelude(verdict.plan)} as one `nnx.jit` step, `{name}`, "
            "which writes the nnx modules it changes back into them"
        )
        title = f"Compile the loop body as {name} with nnx.jit"
        return self.finding(
            ctx, verdict.plan.loop.node, message, Applicability.SAFE, edits, title=title
        )

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


_EAGER = "this loop's body runs eagerly, one dispatch per operation"


def _in_place(ctx: ModuleContext, body: list[Stmt], counted: bool) -> str | None:
    """The premise a change of an nnx module in place fails, for the first call of `body`
    that makes one: through the overlay's functions and methods, or (`counted`) through
    an `nnx.jit` function of the module; None when none does."""
    values = semantic(ctx)
    for stmt in body:
        update = values.module_update(stmt)
        if update is not None:
            return (
                f"`{update}` changes an nnx module in place, which a `jax.jit` step cannot; "
                "put the body in a function decorated with `@nnx.jit`, which writes its "
                "module arguments back"
            )
        call = values.written_back(stmt) if counted else None
        if call is not None:
            return (
                f"`{call}` is an `nnx.jit` step that changes nnx modules in place, which a "
                "`jax.jit` step cannot; run the loop in a function decorated with "
                "`@nnx.jit`, which writes its module arguments back"
            )
    return None


def _unheld(ctx: ModuleContext, loop: Loop, problem: str) -> str:
    """Why a global whose `init` or `apply` the unseen call of `problem` is, bound to a
    linen layer somewhere in the module, is not proven to hold one while the loop runs
    (`analysis/facts/held_globals.py`), as a clause; "" for any other problem."""
    values = semantic(ctx)
    for name in values.layer_globals():
        if f"`{name}.apply`" in problem or f"`{name}.init`" in problem:
            why = values.why_not_held(loop, name)
            return f" ({why})" if why else ""
    return ""


def _device_work(ctx: ModuleContext, loop: Loop, late: LateLines) -> bool:
    """At least two statements of the `late` lines call JAX, an array library the
    overlays list, or a function of the module that computes on arrays."""
    moved = {id(small) for line in late.lines for small in line.body}
    stmts = [s for s in ctx.graph.loop_stmts(loop.id) if id(s.node) in moved]
    return sum(any(_device_call(ctx, s, c) for c in s.calls) for s in stmts) >= 2


def _device_call(ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> bool:
    qual = ctx.qualify(call.func) or ""
    if qual.startswith("jax") or qual in overlays.PURE_CALLS or qual in overlays.ARRAY_CALLS:
        return True
    if type(call.func) is not cst.Name:
        return False
    fn = ctx.graph.resolve_function(call.func.value, stmt.scope)
    return fn is not None and semantic(ctx).array_function(fn)


def _device_step(verdict: StepVerdict) -> bool:
    """The extracted step computes on arrays (a JAX call, an `.at[]` update, an
    array-valued result, a helper that does): a loop worth a finding."""
    other = verdict.extracted
    return semantic(other).array_function(other.graph.functions[verdict.names.function])


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


def _what(ctx: ModuleContext, plan: StepPlan) -> str:
    """What the step runs: "it" (the lines beginning the body), or a tail plan's device
    work, with the `next(it)` calls the loop makes for it."""
    if not plan.start:
        return f"it{_prelude(plan)}"
    calls = _listed([ctx.code(h.call) for h in plan.hoisted])
    made = f", the loop calling {calls} just before it" if calls else ""
    return f"{_tail(ctx, plan)}{made},"


def _prelude(plan: StepPlan) -> str:
    """ " but for the Python numbers `progress`, which the loop computes before it," for a
    plan with a prelude (analysis/plans/prelude.py); else ""."""
    if not plan.prelude:
        return ""
    names = _listed(list(plan.prelude_names))
    return f" but for the Python numbers {names}, which the loop computes before it,"


def _tail(ctx: ModuleContext, plan: StepPlan) -> str:
    """ "its device work, from line N, after `<first>` (line M)" of a tail plan."""
    body = plan.loop.node.body.body
    return _late_work(ctx, body[plan.start - 1], plan.lines[0], "after")


def _late_work(
    ctx: ModuleContext, first: cst.CSTNode, line: cst.CSTNode, joint: str = "comes after"
) -> str:
    """ "its device work, from line N, <joint> `<first line of first>` (line M)"."""
    head = next(
        text.strip()
        for text in ctx.code(first).splitlines()
        if text.strip() and not text.strip().startswith("#")
    )
    return (
        f"its device work, from line {ctx.span(line).line}, {joint} `{head}` "
        f"(line {ctx.span(first).line})"
    )


def _listed(names: list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names)
