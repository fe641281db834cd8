"""Can a host copy that only feeds lists read at an interval stay on the device (AO302's
fed form)?

    for step in range(n):
        params, results = train_step(params, batch)
        results = jax.device_get(results)
        losses.append(results["loss"])
        errors.append(results["stats"]["error"])
        if step % 100 == 0:
            print(np.mean(losses[-100:]), np.mean(errors[-100:]))

copies the whole `results` to the host every step only to append some of its leaves. The
copy goes (the conversion rebinds the name it converts, which then keeps the device
value) and each list collects its device leaf by the interval form (`plans/interval.py`):
`jax.device_get` of a list of the leaves gives the leaves `jax.device_get(results)` held,
and a bare `loss = float(loss)` appended is `float` of the same value, later.
Premises, each failing one named:

- the conversion is a statement `name = <conversion>` of its own line, in the loop's
  body block;
- every statement that may read the value it binds (`core/graph.py`'s `uses_of`) is an
  `append` to a list, in the same block, of the name itself or (for `jax.device_get`) of
  string-keyed items of it (`results["stats"]["error"]`), each list fed once;
  no statement of another scope reads the name, nor other code while the loop runs
  (`facts/mutation.py`'s `late_reader`);
- each list meets the interval form's premises (read only under an `if` of the loop,
  started empty just before it, no kept value donated, no early exit);
- an item taken by string keys is taken from the same leaves on the host copy: proven when
  the value model (`analysis/values/model.py`) knows the value is a dict, list or tuple of
  arrays; else (a pytree of unknown containers, whose `__getitem__` might compute) the fix
  is unsafe.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Loop, Stmt
from autoopt.analysis.facts.aliases import Sharing
from autoopt.analysis.facts.mutation import late_reader
from autoopt.analysis.plans.collect import CONTROL, SCALAR, CollectPlan, Sync
from autoopt.analysis.plans.interval import IntervalPlan, interval_plan
from autoopt.analysis.values.model import model


@dataclass
class FedCollect(CollectPlan):
    """A list fed a leaf of the host copy: the appends that feed the lists (`feeds`) link
    them to the copy, which no other name holds once the copy is gone; any other link
    counts. The copy and the feeds are `dropped`: the fix removes the copy and makes the
    feeds fill pending lists that nothing else reads."""

    feeds: tuple[Stmt, ...] = ()
    copy: Stmt | None = None

    @property
    def dropped(self) -> tuple[Stmt, ...]:
        return (*self.feeds, self.copy) if self.copy is not None else self.feeds

    def unaliased(self, loop: Loop) -> bool:
        """No alias of the list made before the loop ends (one made after it, `plot(xs)`,
        sees it flushed)."""
        sharing = Sharing(self.ctx, loop.scope, skips=self.feeds, until=self.stmt)
        return sharing.component({self.name}, weak=True) == {self.name}


@dataclass(frozen=True)
class FedPlan:
    """Drop `stmt` (`name = sync`, rebinding `name` to the device value instead) and
    collect each list's device leaf by its interval plan."""

    stmt: Stmt
    name: str
    sync: Sync
    intervals: tuple[IntervalPlan, ...]
    unproven: str  # why the fix is only unsafe; empty when every premise is proven


def fed_plan(ctx: ModuleContext, stmt: Stmt, sync: Sync) -> FedPlan | str | None:
    """The plan, the premise that fails, or None when `stmt` binds no name to `sync`."""
    if sync.kind not in SCALAR and sync.kind != "jax.device_get":
        return None  # `np.asarray(x)`: NumPy's conversion, not `jax.device_get`'s
    name = _bound_name(stmt, sync)
    if name is None:
        return None
    loop = ctx.graph.loops[stmt.loops[-1]]
    readers = ctx.graph.uses_of(stmt, name)
    if not readers:
        return None
    if any(type(r.node) in (cst.If, cst.While) for r in readers):
        return CONTROL
    plans = []
    for reader in readers:
        fed = _fed_list(ctx, stmt, reader, name, sync.kind)
        if isinstance(fed, str):
            return fed
        target, piece = fed
        collect = Sync(sync.call, piece, sync.kind)
        plans.append(FedCollect(ctx, reader, collect, "append", target, tuple(readers), stmt))
    keyed = any(type(p.sync.value) is cst.Subscript for p in plans)
    if len({p.name for p in plans}) != len(plans):
        return "a list is fed twice from the host copy"
    problem = _name_problem(ctx, stmt, name, readers, loop)
    if problem:
        return problem
    intervals = []
    for plan in plans:
        interval = interval_plan(plan)
        if isinstance(interval, str):
            return interval
        intervals.append(interval)
    doubts = _first_doubt(intervals)
    if keyed and model(ctx).value_of(stmt, sync.value).container is None:
        doubts.append(
            f"cannot prove `{ctx.code(sync.value)}` is a dict, list or tuple of arrays, whose "
            "items its host copy holds converted"
        )
    return FedPlan(stmt, name, sync, tuple(intervals), "; ".join(doubts))


def _bound_name(stmt: Stmt, sync: Sync) -> str | None:
    """`name` of a statement `name = <sync>` alone on its line that converts `name`
    itself (`results = jax.device_get(results)`): dropping it leaves `name` bound to the
    device value."""
    node = stmt.node
    anchor = stmt.anchor
    if type(node) is not cst.Assign or node.value is not sync.call or len(node.targets) != 1:
        return None
    if type(anchor) is not cst.SimpleStatementLine or len(anchor.body) != 1:
        return None
    target, value = node.targets[0].target, sync.value
    if type(target) is not cst.Name or type(value) is not cst.Name or value.value != target.value:
        return None
    return target.value


def _fed_list(
    ctx: ModuleContext, stmt: Stmt, reader: Stmt, name: str, kind: str
) -> tuple[str, cst.BaseExpression] | str:
    """(the list, the value appended) of a reader `xs.append(name[...])`, else why not."""
    line = ctx.span(reader.node).line
    code = ctx.code(reader.node).strip().splitlines()[0]
    where = "inside the loop" if stmt.loops[-1] in reader.loops else "after the loop"
    why = f"the host value is used {where}: line {line} reads it (`{code}`)"
    node = reader.node
    if reader.block != stmt.block or reader.id < stmt.id or type(node) is not cst.Expr:
        return why
    call = node.value
    func = call.func if type(call) is cst.Call else None
    if (
        type(call) is not cst.Call
        or type(func) is not cst.Attribute
        or func.attr.value != "append"
        or type(func.value) is not cst.Name
        or len(call.args) != 1
        or call.args[0].keyword is not None
        or call.args[0].star
    ):
        return why
    piece = call.args[0].value
    if not _leaf_of(piece, name, kind) or func.value.value == name:
        return why
    return func.value.value, piece


def _leaf_of(expr: cst.BaseExpression, name: str, kind: str) -> bool:
    """`name`, or for `jax.device_get` `name["k"]["j"]...` (string keys only)."""
    while type(expr) is cst.Subscript and kind == "jax.device_get":
        elements = expr.slice
        if len(elements) != 1 or type(elements[0].slice) is not cst.Index:
            return False
        key = elements[0].slice.value
        if type(key) is not cst.SimpleString:
            return False
        expr = expr.value
    return type(expr) is cst.Name and expr.value == name


def _name_problem(
    ctx: ModuleContext, stmt: Stmt, name: str, readers: list[Stmt], loop: Loop
) -> str | None:
    """Why code other than the appends could read the host copy."""
    allowed = {stmt.id, *(r.id for r in readers)}
    for other in ctx.graph.references(name):
        if other.id in allowed:
            continue
        if other.scope != stmt.scope and not _own_local(ctx, other.scope, name):
            return f"`{name}` is read at line {ctx.span(other.node).line}, in another scope"
    late = late_reader(ctx, loop, name)
    return f"{late} and could run during the loop" if late else None


def _own_local(ctx: ModuleContext, scope: str, name: str) -> bool:
    """Whether `name` in the function `scope` is a variable of its own (a parameter, or
    bound there and declared neither global nor nonlocal)."""
    fn = ctx.graph.functions.get(scope)
    if fn is None or name in fn.globals | fn.nonlocals:
        return False
    return name in fn.params or any(name in s.defs for s in ctx.graph.scope_stmts(scope))


def _first_doubt(intervals: list[IntervalPlan]) -> list[str]:
    """The first list's unproven premise, naming the other lists it holds for."""
    doubtful = [i for i in intervals if i.unproven]
    if not doubtful:
        return []
    others = ", ".join(f"`{i.collect.name}`" for i in doubtful[1:])
    return [doubtful[0].unproven + (f" (so too {others})" if others else "")]
