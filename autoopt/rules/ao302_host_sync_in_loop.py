"""AO302 host-sync-in-loop."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import libcst as cst

from autoopt.analysis.plans.collect import (
    PRINTED,
    SCALAR,
    CollectPlan,
    Sync,
    collect_plan,
    device_syncs,
    donation_problem,
    find_sync,
    host_use,
    loop_scan,
)
from autoopt.analysis.plans.fed import FedPlan, fed_plan
from autoopt.analysis.plans.interval import interval_plan
from autoopt.analysis.plans.replay import Printed, replay_problem
from autoopt.analysis.plans.scan import ScanPlan
from autoopt.analysis.semantic import ModuleContext, Place, Placement, Stmt, semantic, walk
from autoopt.model import Applicability, Edit, Finding, InsertAfter
from autoopt.rewrite.apply import apply_edits
from autoopt.rewrite.collect import collect_edits, conversion, picked, redo
from autoopt.rewrite.interval import fed_edits, interval_edits
from autoopt.rewrite.replay import replay_edits
from autoopt.rewrite.scan import scan_edits
from autoopt.rules.base import Rule
from autoopt.rules.loop_owner import step_owned

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE


class HostSyncInLoop(Rule):
    """
    ## What it does
    Finds device-to-host conversions inside a loop: `float(x)`, `x.item()`,
    `x.tolist()`, `np.asarray(x)`, `np.array(x)` and `jax.device_get(x)` of a
    JAX array. When the host value is only collected (appended to a list, or
    added to a Python number), it keeps the device value in the loop and
    converts everything with one `jax.device_get` after the loop (a list that
    already holds values when the loop starts, as in an inner loop, gets the
    converted values appended after it). When the
    whole loop is made of jitted (or JAX) calls, `for i in range(n)` with a
    known positive `n`, it goes further: the loop becomes one jitted
    `lax.scan` over the indices, which returns the collected values stacked
    (several lists at once, and lists filled every k-th step). When the
    list (or sum) is also read in the loop, but only under an `if` (a mean
    printed every k steps), the device values wait in a pending list that is
    converted into it, in order, just before each statement that reads it and
    after the loop. A host copy made only to feed such lists (`results =
    jax.device_get(results)`, then `losses.append(results["loss"])`) is dropped, each
    list collecting its device leaf the same way.
    When the host value steers the loop (`if loss < tol: break`) it reports the
    sync without rewriting it. When it is printed every step, the unsafe fix
    records the printed values on the device and prints the same lines after
    the loop.

    ## Why is this bad?
    JAX dispatches work asynchronously: Python runs ahead and queues the next
    step while the device computes. A host conversion waits for the device to
    finish, every iteration, so Python and the device take turns instead of
    overlapping. Measured on CPU for a small training step: 2.35x faster when
    the losses are collected on the device and fetched once. The scan form also
    removes the per-step dispatch: a warm call of the loss_sync_train corpus
    program took 0.10-0.16 s with the list form and 0.015 s as one scan.

    ## Fix safety
    After the rewrite the list holds the same Python values as before, made by
    the same conversion, and a sum adds the same floats in the same order. The
    list form is **safe** for scalar conversions (`float`, `.item()`) and
    **unsafe** for whole arrays (`np.asarray`, `.tolist()`, `jax.device_get`: they
    stay in device memory until the loop ends). Printing after the loop is
    **unsafe**: the text is the same, but it appears when the loop ends, and not at
    all if the loop raises. There is **no fix** when the host value steers the loop
    or is used otherwise in it. The scan form is **safe** under the list form's
    premises and its own; like adding `jit`, it may round floats differently.
    The interval form is **safe** under its premises, and **unsafe** at module
    level, for a global, or under a `with`: an exception leaving the loop skips
    the flush while the value stays readable.

    - the value converted is a device array: `analysis/values/placement.py`
    - the list (or sum) starts empty just before the loop, or is a local list that
      every statement sets empty, whatever it holds when the loop starts, in a loop no
      `try` or `with` encloses (the values are collected apart and added to it after
      the loop), nothing else reads or changes it, the loop cannot leave first, no
      call that replaces the kept value, or a value it may share buffers with (a state
      it was unpacked or read from, `w, loss = state`, `state.loss`, which AO201 may
      donate), may donate it, and every other call handed a value that may share its
      buffer is proven not to donate (`consume(loss)` with `consume` jitted with a
      donation, or unseen, is not): `analysis/plans/collect.py`,
      `analysis/facts/call_donation.py`
    - a value read at an interval is read only by statements under an `if` of
      the loop that does not hold the collection, and the loop leaves only where
      the after-loop flush covers it (no `return`, no `try` around it):
      `analysis/plans/interval.py`
    - a host copy dropped is read only by the appends that feed the lists, and an item
      taken from it by string keys is the same leaf of the device value (proven for a
      dict, list or tuple of arrays, else unsafe): `analysis/plans/fed.py`
    - an eqx.filter_jit step's output proven an array is a new buffer, sharing none of
      the model's: `analysis/facts/jit_outputs.py`
    - no code that runs during the loop reads the list (or sum) either: a function
      reading it as a free variable (late binding) that the loop may run, a lambda,
      introspection: `analysis/facts/mutation.py`
    - a print reads only device values, the loop index and module constants:
      `analysis/plans/replay.py`
    - the loop is counted and its lines are calls of jitted or JAX functions on rows
      of unchanged JAX arrays: `analysis/plans/scan.py`, `analysis/core/jitted.py`
    - no code of the module or of a project module it imports relies on a rounding
      XLA's simplifier folds away, as one scan would fuse `encode(x)` adding
      `1.5 * 2**23` with `decode(code)` subtracting it (else the list form):
      `analysis/facts/rounding_tricks.py`
    - each carry keeps its shape and dtype: `analysis/plans/carry.py`
    - a carry the scan donates is read nowhere else (AO201's proof, asked of the
      rewritten program, so that a second run adds nothing): `analysis/facts/donation.py`
    - one owner per loop (a loop AO302 scans collects values, which an AO103 step
      never does): `rules/loop_owner.py`
    """

    id = "AO302"
    name = "host-sync-in-loop"
    summary = "Device-to-host conversion inside a loop, only to collect the value"
    severity = "warning"
    fixes = (
        "keeps collected `float(x)`/`.item()`/`np.asarray(x)` values on the device and converts"
        " them with one `jax.device_get` after the loop; a loop of jitted calls becomes one "
        "jitted `lax.scan`; a value read every k steps is converted just before each read; a "
        "print every step can be replayed after the loop (unsafe)"
    )

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        places = semantic(ctx).placement()
        compiled = {j.function.qualname for j in semantic(ctx).jitted_callables() if j.function}
        names: set[str] = set()
        for stmt in ctx.graph.stmts:
            if not stmt.loops or stmt.scope in compiled or _is_compound_body(stmt):
                continue
            if step_owned(ctx, stmt):
                continue
            for sync in device_syncs(ctx, places, stmt):
                finding = self._finding(ctx, stmt, sync, names, places)
                if finding is not None:
                    yield finding

    def _finding(
        self, ctx: ModuleContext, stmt: Stmt, sync: Sync, names: set[str], places: Placement
    ) -> Finding | None:
        loop = ctx.graph.loops[stmt.loops[-1]]
        where = (
            f"`{ctx.code(sync.call)}` waits for the device on every iteration of the loop "
            f"at line {ctx.span(loop.node).line}"
        )
        plan = collect_plan(ctx, stmt, sync)
        if plan is None:
            fed = fed_plan(ctx, stmt, sync)
            if isinstance(fed, FedPlan):
                return self._fed_finding(ctx, sync, where, fed, names)
            reason = fed or host_use(ctx, stmt, sync)
            if reason is None:
                return None
            if reason == PRINTED:
                return self._print_finding(ctx, stmt, sync, where, names, places)
            return self.finding(ctx, sync.call, f"{where}; {reason}", _NONE)
        scanned = loop_scan(ctx, loop, places)
        if scanned is not None:
            return self._scan_finding(ctx, sync, where, *scanned)
        problem = plan.problem()
        if problem == plan.used_inside:
            return self._interval_finding(ctx, sync, where, plan, names)
        if problem:
            return self.finding(ctx, sync.call, f"{where}, but {problem}", _NONE)
        edits, how = collect_edits(plan, names)
        scalar = sync.kind in SCALAR
        fix = _SAFE if scalar else _UNSAFE
        message = f"{where}: {how}"
        if not scalar:
            message += "; unsafe: the collected arrays stay in device memory until the loop ends"
        title = "Collect on the device, transfer once after the loop"
        return self.finding(ctx, sync.call, message, fix, edits, title=title)

    def _interval_finding(
        self, ctx: ModuleContext, sync: Sync, where: str, plan: CollectPlan, names: set[str]
    ) -> Finding:
        """Read at an interval: flush the device values into it just before each read."""
        interval = interval_plan(plan)
        if isinstance(interval, str):
            return self.finding(ctx, sync.call, f"{where}, but {interval}", _NONE)
        edits, how = interval_edits(interval, names)
        doubt = interval.unproven or (
            "" if sync.kind in SCALAR else "the collected arrays stay in device memory until read"
        )
        message = f"{where}: {how}" + (f"; unsafe: {doubt}" if doubt else "")
        title = "Collect on the device, convert where the value is read"
        fix = _UNSAFE if doubt else _SAFE
        return self.finding(ctx, sync.call, message, fix, edits, title=title)

    def _fed_finding(
        self, ctx: ModuleContext, sync: Sync, where: str, plan: FedPlan, names: set[str]
    ) -> Finding:
        """A host copy only fed to lists read at an interval: keep it on the device."""
        edits, how = fed_edits(plan, names)
        message = f"{where} only to feed lists read at an interval: {how}"
        if plan.unproven:
            message += f"; unsafe: {plan.unproven}"
        title = "Keep the value on the device, convert where the lists are read"
        fix = _UNSAFE if plan.unproven else _SAFE
        return self.finding(ctx, sync.call, message, fix, edits, title=title)

    def _scan_finding(
        self,
        ctx: ModuleContext,
        sync: Sync,
        where: str,
        scan: ScanPlan,
        plans: list[CollectPlan],
    ) -> Finding | None:
        """The whole loop as one jitted scan: one finding, at the loop's first conversion."""
        if plans[0].sync.call is not sync.call:
            return None
        edits, helper = _scan_edits(ctx, scan, plans, ())
        rewritten = ctx.derived(apply_edits(ctx.module, edits, ctx.ancestors))
        donate = [d for d in semantic(rewritten).safe_donations(helper) if d in scan.carry]
        if donate:
            edits, helper = _scan_edits(ctx, scan, plans, donate)
        others = "".join(f", `{ctx.code(p.sync.call)}`" for p in plans[1:])
        donated = "".join(f"{', donating' if i == 0 else ','} `{d}`" for i, d in enumerate(donate))
        how = (
            f"run the loop as one jitted `lax.scan` (`{helper}`{donated}), which returns the "
            f"values of `{ctx.code(sync.call)}`{others} stacked, converted once after it"
        )
        title = "Run the loop as one jitted lax.scan, transfer once"
        return self.finding(ctx, sync.call, f"{where}: {how}", _SAFE, edits, title=title)

    def _print_finding(
        self,
        ctx: ModuleContext,
        stmt: Stmt,
        sync: Sync,
        where: str,
        names: set[str],
        places: Placement,
    ) -> Finding | None:
        """Printed every step: replay the same lines after the loop (unsafe), one finding
        per print, at its first conversion of a device value."""
        loop = ctx.graph.loops[stmt.loops[-1]]
        printed = [
            Printed(s.call, s.value, lambda element, s=s: redo(ctx, s, element))  # type: ignore[misc]  # a lambda with a default
            for call in walk(stmt.node)
            if type(call) is cst.Call
            and (s := find_sync(ctx, call)) is not None
            and places.place_of(stmt, s.value) is Place.DEVICE
        ]
        if printed[0].call is not sync.call:
            return None
        donated = (donation_problem(ctx, loop, p.value) for p in printed)
        problem = replay_problem(ctx, stmt, loop, printed) or next(filter(None, donated), "")
        if problem:
            return self.finding(ctx, sync.call, f"{where}; {PRINTED}, and {problem}", _NONE)
        edits, how = replay_edits(ctx, stmt, loop, printed, names)
        message = (
            f"{where}; it is printed every step: {how}; unsafe: the lines appear when the "
            "loop ends, not as it runs, and not at all if it raises"
        )
        title = "Print the same lines after the loop"
        return self.finding(ctx, sync.call, message, _UNSAFE, edits, title=title)


def _scan_edits(
    ctx: ModuleContext, scan: ScanPlan, plans: list[CollectPlan], donate: Sequence[str]
) -> tuple[list[Edit], str]:
    """The loop as the scan helper (donating `donate`) and the conversions after it."""
    edits, helper = scan_edits(ctx, scan, donate)
    after = []
    for plan, collect in zip(plans, scan.collects, strict=True):
        text, imports = conversion(plan, picked(ctx, scan, collect))
        after.append(cst.parse_statement(text + "\n"))
        edits.extend(imports)
    edits.append(InsertAfter(scan.loop.node, tuple(after)))
    return edits, helper


def _is_compound_body(stmt: Stmt) -> bool:
    return type(stmt.node) in (cst.For, cst.With, cst.FunctionDef, cst.ClassDef)
