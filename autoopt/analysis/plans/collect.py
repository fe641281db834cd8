"""Can a loop's host conversions stay on the device until it ends (AO302's list form)?

    losses = []
    for batch in batches:
        params, loss = step(params, batch)
        losses.append(float(loss))

keeps `loss` on the device in the list and converts the list once after the loop.
The list (or a running sum) must start empty (zero) just before the loop (a local list
every statement sets empty, in a loop not under a `try` or `with`, may hold anything:
the values are collected apart and added to it after the loop, `CollectPlan.extends`), nothing
else may read or change it until the loop ends (no other statement of the loop, no
alias, and no code that reads it when it runs: a function reading it as a free
variable, a lambda, introspection; `facts/mutation.py`'s `late_reader`), the loop may
not `return` or `yield` first, and no later call in the loop may donate a kept value. When every
conversion of a loop is collected this way and the loop fits `lax.scan`
(analysis/plans/scan.py), the whole loop becomes one scan.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import Loop, Stmt
from autoopt.analysis.core.walk import walk
from autoopt.analysis.facts.aliases import Sharing, scope_sharing
from autoopt.analysis.facts.call_donation import May, call_donation
from autoopt.analysis.facts.mutation import late_reader
from autoopt.analysis.plans.scan import Collect, ScanPlan, scan_plan
from autoopt.analysis.values.placement import Place, Placement

_FUNCTIONS = ("float", "numpy.asarray", "numpy.array", "jax.device_get")
_METHODS = frozenset({"item", "tolist"})
#: Conversions to a Python scalar: collecting them keeps no array on the device.
SCALAR = frozenset({"float", "item"})
PRINTED = "it is printed every step; printing after the loop would change the output"
CONTROL = "the host value is used for control flow in the loop, so the sync must stay"


@dataclass(frozen=True)
class Sync:
    """One device-to-host conversion: the call, the device value, and its kind."""

    call: cst.Call
    value: cst.BaseExpression
    kind: str  # "float", "item", "tolist", "numpy.asarray", "numpy.array", "jax.device_get"


def find_sync(ctx: ModuleContext, call: cst.Call) -> Sync | None:
    """The conversion `call` is, or None (whether its value is on the device aside)."""
    func = call.func
    if type(func) is cst.Attribute and func.attr.value in _METHODS and not call.args:
        if ctx.qualify(func) is None:
            return Sync(call, func.value, func.attr.value)
        return None
    qual = ctx.qualify(func) or (func.value if type(func) is cst.Name else "")
    if qual not in _FUNCTIONS or not call.args:
        return None
    if call.args[0].keyword is not None or call.args[0].star:
        return None
    if qual in ("float", "jax.device_get") and len(call.args) != 1:
        return None
    return Sync(call, call.args[0].value, qual)


def device_syncs(ctx: ModuleContext, places: Placement, stmt: Stmt) -> Iterator[Sync]:
    """The conversions of device values among the calls of `stmt`, in order."""
    for call in stmt.calls:
        sync = find_sync(ctx, call)
        if sync is not None and places.place_of(stmt, sync.value) is Place.DEVICE:
            yield sync


def collector(stmt: Stmt, sync: Sync) -> tuple[str, str] | None:
    """("append" | "sum", the list or accumulator name) when the sync is only collected."""
    node = stmt.node
    if type(node) is cst.Expr and type(node.value) is cst.Call:
        call = node.value
        func = call.func
        if (
            type(func) is cst.Attribute
            and func.attr.value == "append"
            and type(func.value) is cst.Name
            and len(call.args) == 1
            and call.args[0].value is sync.call
        ):
            return "append", func.value.value
    if (
        type(node) is cst.AugAssign
        and type(node.operator) is cst.AddAssign
        and type(node.target) is cst.Name
        and node.value is sync.call
        and sync.kind in SCALAR
    ):
        return "sum", node.target.value
    return None


def host_use(ctx: ModuleContext, stmt: Stmt, sync: Sync) -> str | None:
    """Why the host value is needed inside the loop (PRINTED when it is printed every
    step); None: not worth a report."""
    loop = ctx.graph.loops[stmt.loops[-1]]
    every_step = stmt.block == ctx.graph.stmts[_first_body_stmt(ctx, loop)].block
    if type(stmt.node) in (cst.If, cst.While):
        return CONTROL
    if _inside_print(stmt.node, sync.call):
        return PRINTED if every_step else None
    node = stmt.node
    if type(node) is cst.Assign and node.value is sync.call:
        names = {n.value for t in node.targets for n in read_names(t.target)}
        readers = [s for s in ctx.graph.loop_stmts(loop.id) if names & s.uses and s is not stmt]
        if any(type(other.node) in (cst.If, cst.While) for other in readers):
            return CONTROL
        if not every_step:
            return None
        later = [s for s in readers if s.id > stmt.id]
        if not later:
            return "the host value is used inside the loop"
        code = ctx.code(later[0].node).strip().splitlines()[0]
        return (
            f"the host value is used inside the loop: line {ctx.span(later[0].node).line} "
            f"reads it (`{code}`)"
        )
    return None


def _first_body_stmt(ctx: ModuleContext, loop: Loop) -> int:
    return min(s.id for s in ctx.graph.loop_stmts(loop.id) if s.id != loop.header)


def _inside_print(node: cst.CSTNode, call: cst.Call) -> bool:
    return any(
        type(printed) is cst.Call
        and type(printed.func) is cst.Name
        and printed.func.value == "print"
        and any(inner is call for inner in walk(printed))
        for printed in walk(node)
    )


@dataclass
class CollectPlan:
    """Keep `sync.value` on the device in `stmt`, collect it, convert after the loop."""

    ctx: ModuleContext
    stmt: Stmt
    sync: Sync
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

    @property
    def dropped(self) -> tuple[Stmt, ...]:
        """Statements of the loop the fix removes, or rewrites to link nothing read
        elsewhere (`donation_problem`)."""
        return ()

    @property
    def used_inside(self) -> str:
        """The problem of a name the loop also reads: the interval form's case."""
        return f"`{self.name}` is also used inside the loop"

    def problem(self, donation: bool = True) -> str | None:
        """Why the values cannot stay on the device; with `donation` False, for the scan
        form, where nothing stays on the device between calls."""
        loop = self.loop
        if not self._only_collected(loop):
            return self.used_inside
        reader = late_reader(self.ctx, loop, self.name)  # the first: it explains the others
        if reader:
            return f"{reader} and could run during the loop"
        if self.start(loop) is None and not self.extends(loop):
            what = "an empty list" if self.how == "append" else "a number"
            return f"`{self.name}` is not {what} set just before the loop"
        if exits_early(loop):
            return "the loop can `return` or `yield` before the values are converted"
        return donation_problem(self.ctx, loop, self.sync.value) if donation else None

    def _only_collected(self, loop: Loop) -> bool:
        for other in self.ctx.graph.loop_stmts(loop.id):
            if self.name in other.uses | other.mutates | other.defs:
                collected = collected_by(self.ctx, other, self.sync.kind)
                if collected != (self.how, self.name):
                    return False
        node = loop.node
        return node.orelse is None or self.name not in {n.value for n in read_names(node.orelse)}

    def start(self, loop: Loop) -> Stmt | None:
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
        if not sets_start(start.node, self.name, self.how) or not self.unaliased(loop):
            return None
        return start

    def extends(self, loop: Loop) -> bool:
        """Whether the loop's values may be added to the list after it, whatever the list
        holds when the loop starts (`losses` set empty before an outer loop that reads
        it between runs of this one): a local of a function that every statement binds
        to an empty list only, that no alias links, and that no `try` or `with` (which
        may suppress an exception) around the loop in the function lets code read after
        an exception left the loop early."""
        graph = self.ctx.graph
        fn = graph.functions.get(loop.scope)
        if self.how != "append" or fn is None or self.name in fn.params:
            return False
        if self.name in fn.globals | fn.nonlocals:
            return False
        binders = [s for s in graph.scope_stmts(loop.scope) if self.name in s.defs]
        if not binders or not all(sets_start(s.node, self.name, "append") for s in binders):
            return False
        inside = self.ctx.ancestors(loop.node)[:-1]
        body = inside[inside.index(fn.node) + 1 :]
        if any(type(node) in (cst.Try, cst.TryStar, cst.With) for node in body):
            return False
        return self.unaliased(loop)

    def unaliased(self, loop: Loop) -> bool:
        """Whether no other name may hold the list (or what it holds)."""
        return scope_sharing(self.ctx, loop.scope).component({self.name}, weak=True) == {self.name}


def collect_plan(ctx: ModuleContext, stmt: Stmt, sync: Sync) -> CollectPlan | None:
    """The plan when `stmt` only collects the conversion, else None."""
    collected = collector(stmt, sync)
    return CollectPlan(ctx, stmt, sync, *collected) if collected is not None else None


def loop_scan(
    ctx: ModuleContext, loop: Loop, places: Placement
) -> tuple[ScanPlan, list[CollectPlan]] | None:
    """The scan plan of `loop` and a collect plan per conversion in it, when every
    conversion in the loop is collected into a list and the loop fits one scan."""
    plans = []
    for stmt in ctx.graph.loop_stmts(loop.id):
        for sync in device_syncs(ctx, places, stmt):
            plan = collect_plan(ctx, stmt, sync)
            if plan is None or plan.how != "append" or sync.kind == "jax.device_get":
                return None
            if plan.loop.id != loop.id or plan.problem(donation=False):
                return None
            if plan.start(loop) is None:
                return None  # added to what the list holds: the list form's
            plans.append(plan)
    if not plans or len({p.name for p in plans}) != len(plans):
        return None
    if any(p.sync.kind not in SCALAR for p in plans):
        return None  # stacking arrays every step costs device memory: the list form decides
    collects = [Collect(p.stmt, p.name, p.sync.value) for p in plans]
    scan = scan_plan(ctx, loop, collects)
    return (scan, plans) if scan is not None else None


def exits_early(loop: Loop) -> bool:
    return any(type(n) in (cst.Return, cst.Yield) for n in walk(loop.node.body))


def donation_problem(
    ctx: ModuleContext, loop: Loop, value: cst.BaseExpression, dropped: Sequence[Stmt] = ()
) -> str | None:
    """A value kept on the device must share no buffer with a name the loop passes to a
    call that replaces it (the call could donate its buffer): not the name itself, nor a
    value it was unpacked or read from (`w, loss = state`, `cur = state.loss`); and every
    other call handed a value that may share its buffer must be proven not to donate it
    (else the list would hold a deleted array). `dropped`: statements the fix removes or
    rewrites so that they link nothing read elsewhere, left out of the sharing too."""
    sharing = Sharing(ctx, loop.scope, skips=dropped) if dropped else scope_sharing(ctx, loop.scope)
    kept = sharing.shares(value).names()
    for other in ctx.graph.loop_stmts(loop.id):
        if other in dropped:
            continue
        problem = _replaced_problem(ctx, other, kept, sharing) or _handed_to_donor(
            ctx, other, kept, sharing
        )
        if problem:
            return problem
    return None


def _replaced_problem(
    ctx: ModuleContext, stmt: Stmt, kept: set[str], sharing: Sharing
) -> str | None:
    """Why a call of `stmt` that replaces a name sharing a kept buffer could donate it."""
    if not any(_may_donate(ctx, call) for call in stmt.calls):
        return None
    for name in sorted(stmt.defs & stmt.uses):
        held = sorted(k for k in kept if sharing.may_share(k, name))
        if name in kept:
            return (
                f"`{name}` is replaced by a call in the loop that could donate it, so "
                "keeping it on the device is not proven safe"
            )
        if held:
            return (
                f"`{held[0]}` may hold the buffers of `{name}`, which a call in the loop "
                "replaces and could donate, so keeping it on the device is not proven safe"
            )
    return None


def _handed_to_donor(
    ctx: ModuleContext, stmt: Stmt, kept: set[str], sharing: Sharing
) -> str | None:
    """Why a call of `stmt` given a value that may share a kept name's buffer (the name,
    or an alias of it: `kept = loss`) may donate it (`facts/call_donation.py`);
    `float(loss)` shares none."""
    for call in stmt.calls:
        passed = {n for arg in call.args for n in sharing.shares(arg.value).names()}
        given = sorted(n for n in passed if n in kept or any(sharing.may_share(k, n) for k in kept))
        verdict = call_donation(ctx, stmt, call) if given else None
        if verdict is not None and verdict.may is not May.NO:
            return (
                f"`{given[0]}` is also passed to a call at line {ctx.span(call).line} that may"
                f" donate it ({verdict.why or verdict.may.value}), so keeping it on the device"
                " is not proven safe"
            )
    return None


def _may_donate(ctx: ModuleContext, call: cst.Call) -> bool:
    """Any call but one of `jax.numpy`, `jax.lax`, `jax.nn` or NumPy, which never donate."""
    qual = ctx.qualify(call.func) or ""
    return not qual.startswith(("jax.numpy.", "jax.lax.", "jax.nn.", "numpy."))


def collected_by(ctx: ModuleContext, stmt: Stmt, kind: str) -> tuple[str, str] | None:
    for call in stmt.calls:
        sync = find_sync(ctx, call)
        if sync is not None and sync.kind == kind:
            found = collector(stmt, sync)
            if found is not None:
                return found
    return None


def sets_start(node: cst.CSTNode, name: str, how: str) -> bool:
    """`name = []` (or `a, name = 0, []`) for a list, `name = 0.0` for a sum."""
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return False
    target, value = node.targets[0].target, node.value
    if type(target) is cst.Tuple and type(value) is cst.Tuple:
        if len(target.elements) != len(value.elements):
            return False
        pairs = [(t.value, v.value) for t, v in zip(target.elements, value.elements, strict=True)]
    else:
        pairs = [(target, value)]
    for t, v in pairs:
        if type(t) is cst.Name and t.value == name:
            if how == "append":
                return type(v) is cst.List and not v.elements
            return type(v) in (cst.Integer, cst.Float)
    return False
