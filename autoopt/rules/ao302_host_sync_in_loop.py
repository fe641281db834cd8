"""AO302 host-sync-in-loop."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.aliases import Sharing
from autoopt.analysis.context import ModuleContext
from autoopt.analysis.exprs import read_names
from autoopt.analysis.graph import Loop, Stmt
from autoopt.analysis.jitted import jitted_callables
from autoopt.analysis.placement import Place, Placement
from autoopt.analysis.scan import Collect, ScanPlan, scan_plan
from autoopt.analysis.walk import walk
from autoopt.model import (
    Applicability,
    Edit,
    Finding,
    InsertAfter,
    InsertBefore,
    Replace,
    RequireImport,
)
from autoopt.rewrite.jit import claim_name, fresh_name
from autoopt.rewrite.replay import Printed, replay_edits, replay_problem
from autoopt.rewrite.scan import scan_edits
from autoopt.rules.base import Rule
from autoopt.rules.examples import ao302_host_sync_in_loop as examples

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE
_FUNCTIONS = {"float": "float", "numpy.asarray": "np.asarray", "numpy.array": "np.array"}
_METHODS = frozenset({"item", "tolist"})
_SCALAR = frozenset({"float", "item"})


@dataclass(frozen=True)
class _Sync:
    """One device-to-host conversion: the call, the device value, how to redo it on host."""

    call: cst.Call
    value: cst.BaseExpression
    kind: str  # "float", "item", "tolist", "numpy.asarray", "numpy.array", "jax.device_get"

    def redo(self, ctx: ModuleContext, element: str) -> str:
        """The same conversion applied to `element`, a host value from `jax.device_get`."""
        if self.kind in _METHODS:
            return f"{element}.{self.kind}()"
        if self.kind == "jax.device_get":
            return element
        args = [ctx.code(a) for a in self.call.args[1:]]
        return f"{ctx.code(self.call.func)}({', '.join([element, *args])})"


class HostSyncInLoop(Rule):
    """
    ## What it does
    Finds device-to-host conversions inside a loop: `float(x)`, `x.item()`,
    `x.tolist()`, `np.asarray(x)`, `np.array(x)` and `jax.device_get(x)` of a
    JAX array. When the host value is only collected (appended to a list, or
    added to a Python number), it keeps the device value in the loop and
    converts everything with one `jax.device_get` after the loop. When the
    whole loop is made of jitted (or JAX) calls, `for i in range(n)` with a
    known positive `n`, it goes further: the loop becomes one jitted
    `lax.scan` over the indices, which returns the collected values stacked
    (several lists at once, and lists filled every k-th step).
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
    fix is **safe** for scalar conversions (`float`, `.item()`) when the list
    (or the sum) starts empty (zero) just before the loop, nothing else reads or
    changes it until the loop ends, the loop cannot `return` or `yield` out
    before the conversion, and the kept value cannot be donated by a later call
    in the loop. It is **unsafe** for conversions of whole arrays (`np.asarray`,
    `.tolist()`, `jax.device_get`): the arrays then stay in device memory until
    the loop ends. There is **no fix** when the host value is used for control
    flow, printed, or used otherwise inside the loop: the sync is then needed
    where it is, or the program's output would change.

    Printing after the loop is **unsafe**: the text is the same (the loop index
    and module constants the print reads are recorded with the values, each
    conversion is redone on the fetched value), but the lines appear when the
    loop ends rather than as it runs, and not at all if the loop raises. There
    is no fix when the print reads other names, when the loop prints anything
    else, or when it can `return` first.

    The scan form is **safe** under the same conditions, and only when: every
    conversion in the loop is a scalar one (`float`, `.item()`: stacking whole
    arrays every step would cost device memory) appended to its own list,
    directly or under an `if` on the index alone (`if t % 10 == 0:`: the value
    is then stacked every step and the kept steps picked after the loop); the
    loop runs `range` of
    literal or module-constant bounds, at least once (scan traces its body
    even for zero steps); every other line rebinds names to calls of
    module-level jitted functions without static arguments or of `jax.numpy`
    / `jax.lax` / `jax.nn` functions, on names, numbers and rows `xs[i]` of
    JAX arrays the loop does not change (a traced index reads the same row as
    a Python one, out-of-range rows included: JAX clamps both; NumPy rows are
    left alone, NumPy raises); the index is used for nothing else; every
    carried name is rebound to JAX arrays whose shape and dtype provably stay
    the same from step to step (`analysis/carry.py`: `.at[]` updates, weakly
    typed arithmetic, `jax.grad` with respect to it, helpers that return such
    a value, or known equal shapes and dtypes; a Python loop may broadcast or
    promote its carry, where scan would raise); and no name of the last step is
    read after the loop. Otherwise the list form is used. Like adding `jit`, it
    may round floats differently.
    """

    id = "AO302"
    name = "host-sync-in-loop"
    summary = "Device-to-host conversion inside a loop, only to collect the value"
    severity = "warning"
    fixes = (
        "keeps collected `float(x)`/`.item()`/`np.asarray(x)` values on the device and converts"
        " them with one `jax.device_get` after the loop; a loop of jitted calls becomes one "
        "jitted `lax.scan`; a print every step can be replayed after the loop (unsafe)"
    )

    VALID = examples.VALID
    INVALID = examples.INVALID

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        places = Placement(ctx)
        compiled = {j.function.qualname for j in jitted_callables(ctx) if j.function}
        names: set[str] = set()
        for stmt in ctx.graph.stmts:
            if not stmt.loops or stmt.scope in compiled or _is_compound_body(stmt):
                continue
            for call in stmt.calls:
                sync = _sync(ctx, call)
                if sync is None or places.place_of(stmt, sync.value) is not Place.DEVICE:
                    continue
                finding = self._finding(ctx, stmt, sync, names, places)
                if finding is not None:
                    yield finding

    def _finding(
        self, ctx: ModuleContext, stmt: Stmt, sync: _Sync, names: set[str], places: Placement
    ) -> Finding | None:
        loop = ctx.graph.loops[stmt.loops[-1]]
        where = (
            f"`{ctx.code(sync.call)}` waits for the device on every iteration of the loop "
            f"at line {ctx.span(loop.node).line}"
        )
        collected = _collector(ctx, stmt, sync)
        if collected is None:
            reason = _host_use(ctx, stmt, sync)
            if reason is None:
                return None
            if reason == _PRINTED:
                return self._print_finding(ctx, stmt, sync, where, names, places)
            return self.finding(ctx, sync.call, f"{where}; {reason}", _NONE)
        plan = _Plan(ctx, stmt, sync, *collected)
        scanned = _loop_scan(ctx, loop, places)
        if scanned is not None:
            return self._scan_finding(ctx, sync, where, *scanned)
        problem = plan.problem()
        if problem:
            return self.finding(ctx, sync.call, f"{where}, but {problem}", _NONE)
        edits, how = plan.edits(names)
        scalar = sync.kind in _SCALAR
        fix = _SAFE if scalar else _UNSAFE
        message = f"{where}: {how}"
        if not scalar:
            message += "; unsafe: the collected arrays stay in device memory until the loop ends"
        title = "Collect on the device, transfer once after the loop"
        return self.finding(ctx, sync.call, message, fix, edits, title=title)

    def _scan_finding(
        self, ctx: ModuleContext, sync: _Sync, where: str, scan: ScanPlan, plans: list[_Plan]
    ) -> Finding | None:
        """The whole loop as one jitted scan: one finding, at the loop's first conversion."""
        if plans[0].sync.call is not sync.call:
            return None
        edits, helper = scan_edits(ctx, scan)
        after = []
        for plan, collect in zip(plans, scan.collects, strict=True):
            text, imports = plan.conversion(_picked(ctx, scan, collect))
            after.append(cst.parse_statement(text + "\n"))
            edits.extend(imports)
        edits.append(InsertAfter(scan.loop.node, tuple(after)))
        others = "".join(f", `{ctx.code(p.sync.call)}`" for p in plans[1:])
        how = (
            f"run the loop as one jitted `lax.scan` (`{helper}`), which returns the values "
            f"of `{ctx.code(sync.call)}`{others} stacked, converted once after it"
        )
        title = "Run the loop as one jitted lax.scan, transfer once"
        return self.finding(ctx, sync.call, f"{where}: {how}", _SAFE, edits, title=title)

    def _print_finding(
        self,
        ctx: ModuleContext,
        stmt: Stmt,
        sync: _Sync,
        where: str,
        names: set[str],
        places: Placement,
    ) -> Finding | None:
        """Printed every step: replay the same lines after the loop (unsafe), one finding
        per print, at its first conversion of a device value."""
        loop = ctx.graph.loops[stmt.loops[-1]]
        printed = [
            Printed(s.call, s.value, lambda element, s=s: s.redo(ctx, element))
            for call in walk(stmt.node)
            if isinstance(call, cst.Call)
            and (s := _sync(ctx, call)) is not None
            and places.place_of(stmt, s.value) is Place.DEVICE
        ]
        if printed[0].call is not sync.call:
            return None
        donated = (_donation(ctx, loop, p.value) for p in printed)
        problem = replay_problem(ctx, stmt, loop, printed) or next(filter(None, donated), "")
        if problem:
            return self.finding(ctx, sync.call, f"{where}; {_PRINTED}, and {problem}", _NONE)
        edits, how = replay_edits(ctx, stmt, loop, printed, names)
        message = (
            f"{where}; it is printed every step: {how}; unsafe: the lines appear when the "
            "loop ends, not as it runs, and not at all if it raises"
        )
        title = "Print the same lines after the loop"
        return self.finding(ctx, sync.call, message, _UNSAFE, edits, title=title)


_PRINTED = "it is printed every step; printing after the loop would change the output"


def _is_compound_body(stmt: Stmt) -> bool:
    return isinstance(stmt.node, cst.For | cst.With | cst.FunctionDef | cst.ClassDef)


def _sync(ctx: ModuleContext, call: cst.Call) -> _Sync | None:
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in _METHODS and not call.args:
        if ctx.qualify(func) is None:
            return _Sync(call, func.value, func.attr.value)
        return None
    qual = ctx.qualify(func) or (func.value if isinstance(func, cst.Name) else "")
    if qual not in (*_FUNCTIONS, "jax.device_get") or not call.args:
        return None
    if call.args[0].keyword is not None or call.args[0].star:
        return None
    if qual in ("float", "jax.device_get") and len(call.args) != 1:
        return None
    return _Sync(call, call.args[0].value, qual)


def _collector(ctx: ModuleContext, stmt: Stmt, sync: _Sync) -> tuple[str, str] | None:
    """("append" | "sum", the list or accumulator name) when the sync is only collected."""
    node = stmt.node
    if isinstance(node, cst.Expr) and isinstance(node.value, cst.Call):
        call = node.value
        func = call.func
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value == "append"
            and isinstance(func.value, cst.Name)
            and len(call.args) == 1
            and call.args[0].value is sync.call
        ):
            return "append", func.value.value
    if (
        isinstance(node, cst.AugAssign)
        and isinstance(node.operator, cst.AddAssign)
        and isinstance(node.target, cst.Name)
        and node.value is sync.call
        and sync.kind in _SCALAR
    ):
        return "sum", node.target.value
    return None


def _host_use(ctx: ModuleContext, stmt: Stmt, sync: _Sync) -> str | None:
    """Why the host value is needed inside the loop (None: not worth a report)."""
    loop = ctx.graph.loops[stmt.loops[-1]]
    every_step = stmt.block == ctx.graph.stmts[_first_body_stmt(ctx, loop)].block
    if isinstance(stmt.node, cst.If | cst.While):
        return "the host value is used for control flow in the loop, so the sync must stay"
    if _inside_print(stmt.node, sync.call):
        if not every_step:
            return None
        return _PRINTED
    node = stmt.node
    if isinstance(node, cst.Assign) and node.value is sync.call:
        names = {n.value for t in node.targets for n in read_names(t.target)}
        for other in ctx.graph.loop_stmts(loop.id):
            if names & other.uses and isinstance(other.node, cst.If | cst.While):
                return "the host value is used for control flow in the loop, so the sync must stay"
        return "the host value is used inside the loop" if every_step else None
    return None


def _first_body_stmt(ctx: ModuleContext, loop: Loop) -> int:
    return min(s.id for s in ctx.graph.loop_stmts(loop.id) if s.id != loop.header)


def _inside_print(node: cst.CSTNode, call: cst.Call) -> bool:
    return any(
        isinstance(printed, cst.Call)
        and isinstance(printed.func, cst.Name)
        and printed.func.value == "print"
        and any(inner is call for inner in walk(printed))
        for printed in walk(node)
    )


@dataclass
class _Plan:
    """Keep `sync.value` on the device in `stmt`, collect it, convert after the loop."""

    ctx: ModuleContext
    stmt: Stmt
    sync: _Sync
    how: str  # "append" or "sum"
    name: str  # the list, or the accumulator

    @property
    def loop(self) -> Loop:
        """The outermost loop that only collects into `name` (it must start empty)."""
        graph = self.ctx.graph
        best = graph.loops[self.stmt.loops[-1]]
        for loop_id in reversed(self.stmt.loops[:-1]):
            loop = graph.loops[loop_id]
            if not self._only_collected(loop):
                break
            best = loop
        return best

    def problem(self, donation: bool = True) -> str | None:
        """Why the values cannot stay on the device; with `donation` False, for the scan
        form, where nothing stays on the device between calls."""
        loop = self.loop
        if not self._only_collected(loop):
            return f"`{self.name}` is also used inside the loop"
        if self._start(loop) is None:
            what = "an empty list" if self.how == "append" else "a number"
            return f"`{self.name}` is not {what} set just before the loop"
        if _exits_early(loop):
            return "the loop can `return` or `yield` before the values are converted"
        return _donation(self.ctx, loop, self.sync.value) if donation else None

    def _only_collected(self, loop: Loop) -> bool:
        for other in self.ctx.graph.loop_stmts(loop.id):
            if self.name in other.uses | other.mutates | other.defs:
                collected = _collected(self.ctx, other, self.sync.kind)
                if collected != (self.how, self.name):
                    return False
        node = loop.node
        return node.orelse is None or self.name not in {n.value for n in read_names(node.orelse)}

    def _start(self, loop: Loop) -> Stmt | None:
        """The statement that sets the list empty (the sum to a number) before `loop`."""
        graph = self.ctx.graph
        header = graph.stmts[loop.header]
        earlier = [
            s
            for s in graph.scope_stmts(loop.scope)
            if s.id < header.id and self.name in s.uses | s.mutates | s.defs
        ]
        start = earlier[-1] if earlier else None
        outer = tuple(i for i in header.loops if i != loop.id)  # a `while` test is inside
        if start is None or start.loops != outer or not graph.dominates(start, header):
            return None  # runs once per run of the loop, and on every path to it
        if not _sets_start(start.node, self.name, self.how):
            return None
        if Sharing(self.ctx, loop.scope).component({self.name}, weak=True) != {self.name}:
            return None
        return start

    def conversion(self, where: str = "") -> tuple[str, tuple[RequireImport, ...]]:
        """`losses = [float(value) for value in jax.device_get(losses)]`, and its imports;
        `where` is a comprehension clause that picks the elements (`for t, value in ...`)."""
        ctx = self.ctx
        device_get, imports = ctx.ref("jax.device_get")
        if self.sync.kind == "jax.device_get":
            return f"{self.name} = {device_get}({self.name})", imports
        element = fresh_name(ctx, "value")  # local to the comprehension
        redo = self.sync.redo(ctx, element)
        source = f"{device_get}({self.name})"
        clause = where.format(element=element, source=source) or f"for {element} in {source}"
        return f"{self.name} = [{redo} {clause}]", imports

    def edits(self, names: set[str]) -> tuple[list[Edit], str]:
        ctx = self.ctx
        kept = lambda _node: self.sync.value  # noqa: E731
        loop = self.loop
        if self.how == "append":
            text, imports = self.conversion()
            after = (cst.parse_statement(text + "\n"),)
            edits: list[Edit] = [Replace(self.sync.call, kept), InsertAfter(loop.node, after)]
            return [*edits, *imports], f"keep the device values, then `{text}` after the loop"
        device_get, imports = ctx.ref("jax.device_get")
        element = fresh_name(ctx, "value")  # local to the final loop
        parts = claim_name(ctx, f"{self.name}_parts", names)
        redo = self.sync.redo(ctx, element)
        after = cst.parse_statement(
            f"for {element} in {device_get}({parts}):\n    {self.name} += {redo}\n"
        )
        append = cst.Expr(cst.parse_expression(f"{parts}.append({ctx.code(self.sync.value)})"))
        edits = [
            InsertBefore(loop.node, (cst.parse_statement(f"{parts} = []\n"),)),
            Replace(self.stmt.node, lambda _node: append),
            InsertAfter(loop.node, (after,)),
            *imports,
        ]
        how = f"collect the device values in `{parts}` and add them to `{self.name}` after the loop"
        return edits, how


def _loop_scan(
    ctx: ModuleContext, loop: Loop, places: Placement
) -> tuple[ScanPlan, list[_Plan]] | None:
    """The scan plan of `loop` and a collect plan per conversion in it, when every
    conversion in the loop is collected into a list and the loop fits one scan."""
    plans = []
    for stmt in ctx.graph.loop_stmts(loop.id):
        for call in stmt.calls:
            sync = _sync(ctx, call)
            if sync is None or places.place_of(stmt, sync.value) is not Place.DEVICE:
                continue
            collected = _collector(ctx, stmt, sync)
            if collected is None or collected[0] != "append" or sync.kind == "jax.device_get":
                return None
            plan = _Plan(ctx, stmt, sync, *collected)
            if plan.loop.id != loop.id or plan.problem(donation=False):
                return None
            plans.append(plan)
    if not plans or len({p.name for p in plans}) != len(plans):
        return None
    if any(p.sync.kind not in _SCALAR for p in plans):
        return None  # stacking arrays every step costs device memory: the list form decides
    collects = [Collect(p.stmt, p.name, p.sync.value) for p in plans]
    scan = scan_plan(ctx, loop, collects)
    return (scan, plans) if scan is not None else None


def _picked(ctx: ModuleContext, scan: ScanPlan, collect: Collect) -> str:
    """The comprehension clause keeping the steps a guarded append ran on (empty: all)."""
    if collect.condition is None:
        return ""
    bounds = ", ".join(ctx.code(b) for b in scan.bounds)
    test = ctx.code(collect.condition)
    return f"for {scan.index}, {{element}} in zip(range({bounds}), {{source}}) if {test}"


def _exits_early(loop: Loop) -> bool:
    return any(isinstance(n, cst.Return | cst.Yield) for n in walk(loop.node.body))


def _donation(ctx: ModuleContext, loop: Loop, value: cst.BaseExpression) -> str | None:
    """A value kept on the device must not be a name the loop passes to a call that
    replaces it (the call could donate its buffer)."""
    kept = Sharing(ctx, loop.scope).shares(value).names()
    for other in ctx.graph.loop_stmts(loop.id):
        replaced = kept & other.defs & other.uses
        if replaced and any(_may_donate(ctx, call) for call in other.calls):
            return (
                f"`{sorted(replaced)[0]}` is replaced by a call in the loop that could donate "
                "it, so keeping it on the device is not proven safe"
            )
    return None


def _may_donate(ctx: ModuleContext, call: cst.Call) -> bool:
    """Any call but one of `jax.numpy`, `jax.lax`, `jax.nn` or NumPy, which never donate."""
    qual = ctx.qualify(call.func) or ""
    return not qual.startswith(("jax.numpy.", "jax.lax.", "jax.nn.", "numpy."))


def _collected(ctx: ModuleContext, stmt: Stmt, kind: str) -> tuple[str, str] | None:
    for call in stmt.calls:
        sync = _sync(ctx, call)
        if sync is not None and sync.kind == kind:
            found = _collector(ctx, stmt, sync)
            if found is not None:
                return found
    return None


def _sets_start(node: cst.CSTNode, name: str, how: str) -> bool:
    """`name = []` (or `a, name = 0, []`) for a list, `name = 0.0` for a sum."""
    if not isinstance(node, cst.Assign) or len(node.targets) != 1:
        return False
    target, value = node.targets[0].target, node.value
    if isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple):
        if len(target.elements) != len(value.elements):
            return False
        pairs = [(t.value, v.value) for t, v in zip(target.elements, value.elements, strict=True)]
    else:
        pairs = [(target, value)]
    for t, v in pairs:
        if isinstance(t, cst.Name) and t.value == name:
            if how == "append":
                return isinstance(v, cst.List) and not v.elements
            return isinstance(v, cst.Integer | cst.Float)
    return False
