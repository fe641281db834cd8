"""AO401 inplace-update."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.plans.fori import ForiPlan, fori_plan
from autoopt.analysis.plans.splice import Splice, find_splice, start_in_range, strongly_typed
from autoopt.analysis.semantic import MODULE, ModuleContext, Stmt, jax_api, semantic
from autoopt.model import Applicability, Edit, Finding, InsertBefore, Replace
from autoopt.rewrite.fori import fori_edits
from autoopt.rewrite.helpers import (
    UpdateForm,
    at_update,
    donating_helper,
    slice_update,
    splice_update,
    top_statement,
)
from autoopt.rewrite.jit import claim_name, fresh_name
from autoopt.rules.base import Rule
from autoopt.rules.loop_owner import step_owned


@dataclass(frozen=True)
class _Update:
    """`x = x.at[index].op(value)`."""

    stmt: Stmt
    name: str
    op: str
    index: tuple[cst.SubscriptElement, ...]
    value: cst.BaseExpression


class InplaceUpdate(Rule):
    """
    ## What it does
    Finds `x = x.at[i].set(v)` (or `.add`, `.multiply`, `.min`, `.max`, ...)
    in a Python loop outside `jit`. Where the loop is the body of a function
    that `jit` can trace whole, it runs the loop as `lax.fori_loop` inside
    `@jax.jit` on that function; otherwise it moves the update into a jitted
    helper that donates `x`, so XLA writes into the existing buffer. An index
    over several axes keeps its static elements (`:`, `...`, slices with
    integer-literal bounds) in the helper's subscript and passes the others:
    `img.at[:, h, w, c].set(v)` becomes `img_set_at(img, (h, w, c), v)`, whose
    body is `array.at[:, index[0], index[1], index[2]].set(value)`. It does
    the same for a splice, `x = jnp.concatenate([x[:i], v, x[i + k:]])`, which
    replaces rows `i` to `i + k - 1`: the helper writes `v` there with
    `lax.dynamic_update_slice_in_dim`. A splice is never run as `fori_loop` (its
    slices need static bounds); in a loop AO401 runs as `fori_loop` for an `.at`
    update, it is left to jit.

    ## Why is this bad?
    Outside `jit`, every `.at[].set` copies the whole array: a loop of `K`
    updates on an array of `N` elements costs `K * N` (measured: 1.44 s for
    1000 updates of 1e6 elements). Under `jit` the update is in place:
    `fori_loop` inside one `jit` took 0.83 ms for the same work, and a
    donating helper is 250x faster than the eager update for a 200 MB state.
    A pixel written with `img.at[:, h, w, c].set(v)` into a 16x28x28x1 image
    took 1.6 ms eagerly and 10 us in the helper on XLA:CPU (TPU v5e: 1.9 ms and
    0.6 ms, the same as a `dynamic_update_slice` helper, up to 256x128x128x3).
    A splice copies the whole array as well, and every new `i` gives new
    slice shapes that JAX compiles again: 12.5 s of compiles for 100 splices,
    245 s for 1000; a donated `dynamic_update_slice` of a 200 MB state took
    0.19 ms.

    ## Fix safety
    The `fori_loop` form is **safe** only when its plan is proven (results agree
    to float rounding); otherwise autoopt uses the helper. Inside the helper the
    update is the same `.at[...]` operation (the same subscript, its static
    elements as written), so values, dtypes and out-of-range indices are as
    before; it is **safe** when the passed indices are built from integers and
    donating is proven harmless, **unsafe** when an index may be a mask, the
    array may be shared, the function is called only from code that may run
    under `jit` (where the update is in place already), or the update is a
    slice with a variable start
    (`dynamic_update_slice` clamps a start out of range, where the slice drops
    the update or fails). A splice's fix is **safe** when its premises
    are proven and **unsafe**, naming what is not, otherwise. A win is not
    guaranteed on every backend (XLA:CPU has regressed on small dynamic updates),
    so keep the rewrite only when verification measures one. There is **no fix**
    inside a jitted function (the update is already in place) or for a slice
    bounded by a variable that is stepped, has no start or shares the index
    with other axes.

    - the function is module-level, undecorated, pure, traceable whole and returns
      arrays; the loop is counted over plain assignments: `analysis/plans/fori.py`
    - no code of the module or of a project module it imports relies on a rounding
      XLA's simplifier folds away (`(t + 1.5 * 2**23) - 1.5 * 2**23`, `x + 0.0`; else the
      helper, whose one update folds nothing): `analysis/facts/rounding_tricks.py`
    - every carry is an array defined before the loop that keeps its shape and
      dtype: `analysis/plans/carry.py`
    - rows indexed by the traced loop index clamp as before: `analysis/plans/fori.py`
    - the index is built from integers: `analysis/values/ints.py`
    - a function called in the module is called from code that runs eagerly (not only
      from methods and functions nothing here calls): `analysis/core/execution.py`
    - the array is fresh, read by nothing else before or in the loop, and this
      update is its only write: `analysis/facts/loop_vars.py`
    - a splice is an update in place (`v` has `k` rows, `0 <= i <= len(x) - k`,
      `x` strongly typed): `analysis/plans/splice.py`
    - one owner per loop (a loop AO401 runs as `lax.fori_loop` is never an AO103
      step): `rules/loop_owner.py`
    """

    id = "AO401"
    name = "inplace-update"
    summary = (
        "x = x.at[i].set(v), or a concatenate splice of x, in a Python loop copies the whole "
        "array each time"
    )
    fixes = (
        "runs a loop of `x = x.at[i].set(v)` as `lax.fori_loop` inside `@jax.jit`, or moves the"
        " update (or a `jnp.concatenate([x[:i], v, x[i+k:]])` splice) into a jitted helper that"
        " donates `x` (in place)"
    )

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        jitted = _jitted_functions(ctx)
        done: set[int] = set()  # loops already rewritten to fori_loop
        helpers: dict[tuple[str, str], str] = {}  # (base name, subscript) -> helper
        for stmt in ctx.graph.stmts:
            if not stmt.loops or stmt.loops[-1] in done:
                continue
            if not _outside(ctx, stmt.scope, jitted) or step_owned(ctx, stmt):
                continue
            update = _update(stmt)
            if update is None:
                splice = find_splice(ctx, stmt)
                if splice is not None and _fori(ctx, stmt.loops[-1]) is None:
                    yield self._splice_finding(ctx, splice)
                continue
            plan = _fori(ctx, stmt.loops[-1])
            if plan is not None:
                done.add(plan.loop.id)
                yield self._fori_finding(ctx, update, plan)
            else:
                yield self._finding(ctx, update, helpers)

    def _fori_finding(self, ctx: ModuleContext, u: _Update, plan: ForiPlan) -> Finding:
        message = (
            f"{_where(u)}: run the loop as `lax.fori_loop` inside `@jax.jit` on "
            f"`{plan.fn.name}`, one compiled program whose updates are in place"
        )
        title = "Run the loop as lax.fori_loop inside jit"
        edits = fori_edits(ctx, plan)
        return self.finding(ctx, u.stmt.node, message, Applicability.SAFE, edits, title=title)

    def _finding(
        self, ctx: ModuleContext, u: _Update, helpers: dict[tuple[str, str], str]
    ) -> Finding:
        where = _where(u)
        if any(type(e.slice) is cst.Index and e.slice.star for e in u.index):
            message = f"{where}; not rewritten: a starred index has no dynamic form"
            return self.finding(ctx, u.stmt.node, message, _NONE)
        indexed = all(type(e.slice) is cst.Index or _static(e) for e in u.index)
        if not indexed and not _simple_slice(u):
            why = "a multi-axis slice" if len(u.index) > 1 else "a slice with no start"
            why = "a stepped slice" if _stepped(u) else why
            return self.finding(
                ctx,
                u.stmt.node,
                f"{where}; not rewritten: {why} whose bounds are not integer literals has no "
                "dynamic form",
                _NONE,
            )
        doubts = _donation_doubts(ctx, u.stmt, u.name, u.value)
        if not indexed:
            edits, helper = _slice_fix(ctx, u)
            doubts.insert(0, _CLAMP)
        else:
            edits, helper = _index_fix(ctx, u, helpers)
            if not all(semantic(ctx).is_int(u.stmt, i) for i in _indices(u)):
                doubts.insert(0, "cannot prove the index is an integer (a mask cannot be traced)")
        return self._helper_finding(ctx, u.stmt, where, helper, edits, doubts)

    def _splice_finding(self, ctx: ModuleContext, s: Splice) -> Finding:
        call = s.stmt.value
        assert type(call) is cst.Call
        func = ctx.code(call.func)
        where = (
            f"`{s.name} = {func}([{s.name}[:...], ..., {s.name}[...:]])` in a Python loop "
            f"copies all of `{s.name}` on every iteration (and compiles again for every "
            "new slice shape)"
        )
        edits, helper = _splice_fix(ctx, s)
        return self._helper_finding(ctx, s.stmt, where, helper, edits, _splice_doubts(ctx, s))

    def _helper_finding(
        self,
        ctx: ModuleContext,
        stmt: Stmt,
        where: str,
        helper: str,
        edits: list[Edit],
        doubts: list[str],
    ) -> Finding:
        """The donating helper's finding: safe unless something is in doubt."""
        callers = ", ".join(f"`{c}`" for c in semantic(ctx).unproven_callers(stmt.scope))
        if callers:
            name = ctx.graph.functions[stmt.scope].name
            doubts.append(f"`{name}` is called only from {callers}, {_MAY_BE_TRACED}")
        message = f"{where}: update it in a jitted helper that donates it (`{helper}`)"
        fix = Applicability.UNSAFE if doubts else Applicability.SAFE
        if doubts:
            message += "; " + "; ".join(doubts)
        title = "Update in place in a jitted, donating helper"
        return self.finding(ctx, stmt.node, message, fix, edits, title=title)


_NONE = Applicability.NONE
_MAY_BE_TRACED = (
    "which autoopt cannot prove to run eagerly (under `jit` the update is in place already)"
)


def _fori(ctx: ModuleContext, loop_id: int) -> ForiPlan | None:
    """The fori_loop plan of a loop that holds an `.at` update, when it has no doubts."""
    holds = any(_update(s) for s in ctx.graph.loop_stmts(loop_id) if s.loops[-1] == loop_id)
    plan = fori_plan(ctx, ctx.graph.loops[loop_id]) if holds else None
    return plan if plan is not None and not plan.doubts else None


def _where(u: _Update) -> str:
    return (
        f"`{u.name} = {u.name}.at[...].{u.op}(...)` in a Python loop copies all of "
        f"`{u.name}` on every iteration (eager updates are never in place)"
    )


_CLAMP = (
    "`dynamic_update_slice` clamps an out-of-range start (the update lands on the last rows) "
    "where the slice drops the update or fails, and does not broadcast the value: autoopt "
    "cannot prove the start in range"
)


def _update(stmt: Stmt) -> _Update | None:
    assigned = stmt.call_assigned
    if assigned is None:
        return None
    name, call = assigned
    func = call.func
    if not (
        type(func) is cst.Attribute
        and func.attr.value in jax_api.AT_METHODS
        and type(func.value) is cst.Subscript
        and type(func.value.value) is cst.Attribute
        and func.value.value.attr.value == "at"
        and type(func.value.value.value) is cst.Name
        and func.value.value.value.value == name
    ):
        return None
    if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        return None
    return _Update(stmt, name, func.attr.value, tuple(func.value.slice), call.args[0].value)


def _splice_fix(ctx: ModuleContext, s: Splice) -> tuple[list[Edit], str]:
    helper = fresh_name(ctx, f"{s.name}_splice")
    call = f"{helper}({s.name}, {ctx.code(s.start)}, {ctx.code(s.value)})"
    return _helper_edits(ctx, s.stmt, helper, splice_update(ctx), call), helper


def _splice_doubts(ctx: ModuleContext, s: Splice) -> list[str]:
    """Why the helper might not compute what the concatenate does."""
    doubts = []
    if not start_in_range(ctx, s):
        doubts.append(
            f"cannot prove `{ctx.code(s.start)}` in range (0 to `len({s.name})` - {s.rows}): "
            "`dynamic_update_slice` clamps a start out of range where the concatenate "
            f"changes the size of `{s.name}`"
        )
    if s.value_rows is None:
        doubts.append(
            f"cannot prove the spliced value has {s.rows} row{'s' * (s.rows > 1)} on axis 0: "
            f"any other length makes the concatenate resize `{s.name}`, not the helper"
        )
    donation = _donation_doubts(ctx, s.stmt, s.name, s.value)
    entry = semantic(ctx).entry_def(ctx.graph.loops[s.stmt.loops[-1]], s.name, s.stmt)
    if not donation and entry is not None and not strongly_typed(ctx, entry):
        doubts.append(
            f"`{s.name}` may be weakly typed (made without `dtype=`): the concatenate keeps "
            "a weak type the helper drops"
        )
    return doubts + donation


def _index_fix(
    ctx: ModuleContext, u: _Update, helpers: dict[tuple[str, str], str]
) -> tuple[list[Edit], str]:
    """The helper `array.at[index].op(value)`, the update's static elements (`:`, `...`,
    slices with literal bounds) written in its subscript and the others passed as `index`.
    Helpers of one subscript share a name; another subscript gets another name."""
    subscript = _subscript(ctx, u)
    key = (f"{u.name}_{u.op}_at", subscript)
    if key not in helpers:
        helpers[key] = claim_name(ctx, key[0], set(helpers.values()))
    helper = helpers[key]
    indices = _indices(u)
    index = ", ".join(ctx.code(i) for i in indices)
    index = f"({index})" if len(indices) > 1 else index
    args = ", ".join([u.name, index] if indices else [u.name])
    call = f"{helper}({args}, {ctx.code(u.value)})"
    form = at_update(u.op, subscript, bool(indices))
    return _helper_edits(ctx, u.stmt, helper, form, call), helper


def _subscript(ctx: ModuleContext, u: _Update) -> str:
    """The helper's subscript: `index` where every element is passed, else the update's
    elements with `index` (or `index[k]`, the `k`th passed) for those passed."""
    if not any(_static(e) for e in u.index):
        return "index"
    passed = len(_indices(u))
    parts, k = [], 0
    for element in u.index:
        if _static(element):
            parts.append(ctx.code(element.slice))
            continue
        parts.append("index" if passed == 1 else f"index[{k}]")
        k += 1
    return ", ".join(parts)


def _slice_fix(ctx: ModuleContext, u: _Update) -> tuple[list[Edit], str]:
    helper = fresh_name(ctx, f"{u.name}_update_slice")
    lower = u.index[0].slice
    assert type(lower) is cst.Slice and lower.lower is not None
    call = f"{helper}({u.name}, {ctx.code(lower.lower)}, {ctx.code(u.value)})"
    return _helper_edits(ctx, u.stmt, helper, slice_update(ctx), call), helper


def _helper_edits(
    ctx: ModuleContext, stmt: Stmt, helper: str, form: UpdateForm, call: str
) -> list[Edit]:
    """The donating helper above the code, and the update replaced by `call`."""
    anchor = top_statement(ctx, stmt)
    definition, imports = donating_helper(ctx, helper, form, anchor)
    replaced = cst.parse_expression(call)
    assert stmt.value is not None
    return [
        *imports,
        InsertBefore(anchor, (definition,)),
        Replace(stmt.value, lambda _n: replaced),
    ]


def _indices(u: _Update) -> list[cst.BaseExpression]:
    """The index expressions of the elements that are not slices or `...`."""
    return [e.slice.value for e in u.index if type(e.slice) is cst.Index and not _static(e)]


def _static(element: cst.SubscriptElement) -> bool:
    """`...`, or a slice whose bounds and step are absent or integer literals: the same
    on every call, so the helper writes it as the update does."""
    part = element.slice
    if type(part) is cst.Index:
        return type(part.value) is cst.Ellipsis
    if type(part) is not cst.Slice:
        return False
    return all(b is None or _literal(b) for b in (part.lower, part.upper, part.step))


def _literal(node: cst.BaseExpression) -> bool:
    """An integer literal, `3` or `-3`."""
    if type(node) is cst.UnaryOperation and type(node.operator) is cst.Minus:
        node = node.expression
    return type(node) is cst.Integer


def _donation_doubts(
    ctx: ModuleContext, stmt: Stmt, name: str, value: cst.BaseExpression
) -> list[str]:
    """Why donating `name` (updated to `value` at `stmt`) on the first iteration might
    delete a value still in use."""
    graph = ctx.graph
    sem = semantic(ctx)
    loop = graph.loops[stmt.loops[-1]]
    if not sem.only_writer(loop, name, stmt):
        return [f"`{name}` is also written elsewhere in the loop, so donation is not proven"]
    if sem.other_readers(loop, name, stmt) or _bare(value, name):
        return [f"`{name}` is read elsewhere in the loop, where a donated buffer would be gone"]
    entry = sem.entry_def(loop, name, stmt)
    if entry is None or not _fresh(ctx, entry) or sem.rebinds_outside(stmt.scope, name):
        return [f"`{name}` is not created in this scope by a fresh constructor, so donating "
                "it may delete an array the caller still uses"]  # fmt: skip
    last = max(s.id for s in graph.loop_stmts(loop.id))
    early = [
        s
        for s in graph.uses_of(entry, name)
        if s is not stmt and s.id <= last and not sem.reads_only_shape(s, name)
    ]
    if early or sem.function_reading(stmt.scope, name):
        return [f"`{name}` is read before the loop or by another function; donation would "
                "delete that value"]  # fmt: skip
    return []


def _fresh(ctx: ModuleContext, stmt: Stmt) -> bool:
    node = stmt.assign
    if node is None or len(node.targets) != 1:
        return False
    value = node.value
    qual = (ctx.qualify(value.func) if type(value) is cst.Call else None) or ""
    return qual.startswith("jax.numpy.") and qual.rsplit(".", 1)[1] in jax_api.FRESH_CONSTRUCTORS


def _simple_slice(u: _Update) -> bool:
    element = u.index[0].slice if len(u.index) == 1 else None
    return (
        u.op == "set"
        and type(element) is cst.Slice
        and element.lower is not None
        and element.step is None
    )


def _stepped(u: _Update) -> bool:
    return any(type(e.slice) is cst.Slice and e.slice.step is not None for e in u.index)


def _bare(node: cst.BaseExpression, name: str) -> bool:
    return type(node) is cst.Name and node.value == name


def _jitted_functions(ctx: ModuleContext) -> set[str]:
    """Functions decorated with jit or passed to `jax.jit(...)` in the module."""
    names = {
        fn.qualname
        for fn in ctx.graph.functions.values()
        if any("jit" in ctx.code(d.decorator) for d in fn.node.decorators)
    }
    for stmt in ctx.graph.stmts:
        for call in stmt.calls:
            if ctx.is_jax(call.func, "jax.jit") and call.args:
                first = call.args[0].value
                if type(first) is cst.Name:
                    target = ctx.graph.resolve_function(first.value, stmt.scope)
                    names |= {target.qualname} if target else set()
    return names


def _outside(ctx: ModuleContext, scope: str, jitted: set[str]) -> bool:
    """Whether `scope` and every function enclosing it are not jitted."""
    while scope != MODULE and scope in ctx.graph.functions:
        if scope in jitted:
            return False
        scope = ctx.graph.functions[scope].scope
    return True
