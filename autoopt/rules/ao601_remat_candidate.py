"""AO601 remat-candidate."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.semantic import (
    MODULE,
    Function,
    Jitted,
    Loop,
    ModuleContext,
    Stmt,
    bound_names,
    calls_in,
    jax_api,
    read_names,
    semantic,
)
from autoopt.model import Applicability, Edit, Finding, InsertBefore, Replace
from autoopt.rewrite.jit import fresh_name
from autoopt.rewrite.spell import spell
from autoopt.rules import layer_loops
from autoopt.rules.base import Rule

_SCAN = "jax.lax.scan"
_POLICY_NAME = "dots_with_no_batch_dims_saveable"
_POLICY = f"jax.checkpoint_policies.{_POLICY_NAME}"
#: A Python loop with fewer layers than this saves too little to pay for recomputing.
MIN_LAYERS = 4


class RematCandidate(Rule):
    """
    ## What it does
    Finds repeated layers inside a function that is differentiated with
    `jax.grad`, `jax.value_and_grad`, `jax.vjp` or `jax.jacrev` (directly or
    through the functions it calls): the body of a `lax.scan` over stacked
    layers, or a layer function applied in a Python loop to its own output.
    It wraps the layer in `jax.checkpoint` with an explicit policy,
    `jax.checkpoint_policies.dots_with_no_batch_dims_saveable`: matmul
    results are kept, everything elementwise is recomputed on the backward
    pass. A Python loop of fewer than 4 layers is not reported (a shallow model
    saves too little to pay for recomputing).

    It also finds layers applied in a Python loop inside a linen or equinox module's
    `__call__`, in a module that differentiates (`jax.grad`, `eqx.filter_grad`,
    `nnx.grad`, ...), and checkpoints each layer with the framework's own transform:
    `x = Block(...)(x, train=train)` in an `@nn.compact` method becomes
    `x = nn.remat(Block, static_argnums=(2,))(..., name=f"Block_{i}")(x, train)`
    (the names linen would give, so the parameter tree is unchanged; Python values such
    as `train` passed by position and static), and `for layer in self.layers: x =
    layer(x)` in an equinox module becomes `x = eqx.filter_checkpoint(layer)(x)`
    (non-array leaves stay static).

    ## Why is this bad?
    Reverse-mode differentiation keeps every intermediate of every layer
    until the backward pass, so activation memory grows with depth and often
    limits the batch size. Checkpointing keeps only each layer's input (and,
    with this policy, its matmul outputs) and recomputes the rest. Measured
    on CPU for 8 MLP blocks under `lax.scan`: compiled temp memory 558 MiB
    without checkpoint, 122 MiB with this policy, 50 MiB with full remat
    (`nothing_saveable`), for about 10% more time.

    **On CPU, checkpoint only helps inside `lax.scan` (or another loop
    primitive).** Around the layers of an unrolled Python loop, XLA:CPU drops
    the rematerialization barriers and merges the recomputation away: same
    compiled program, no memory change, sometimes more temp memory. Stack the
    layer parameters and run them with `lax.scan` to get the saving there. On TPU
    it does help: 8 unrolled MLP layers (512 -> 2048 -> 512, batch 4096) under
    `jax.grad` took 298.5 MiB compiled temp without checkpoint and 39.3 MiB with
    plain `jax.checkpoint` per layer (what `nn.remat` and `eqx.filter_checkpoint`
    apply), while `dots_with_no_batch_dims_saveable` kept it at 298.3 MiB
    (`docs/benchmarks/rules.md`).

    ## Fix safety
    Checkpointing never changes values (measured: bit-identical gradients);
    it trades time for memory. The fix is **safe** for the pure body of a
    `lax.scan` that stages no host effect into its trace; **unsafe** for a layer
    applied in a Python loop (values stay the same, but on CPU the memory saving is
    optimized away, and on any device the trade is worth it only when activations
    dominate memory); **no fix** when a premise below is refuted.

    - the layer is pure (its effects would run again on recomputation):
      `analysis/facts/purity.py`
    - it stages no host effect into its trace (`jax.debug.print`, callbacks: the
      backward pass would run them again): `analysis/facts/effects.py`
    - it needs no Python value for an argument (checkpoint traces every argument):
      `analysis/facts/tracing.py`
    - the layer runs under a reverse-mode transform, directly or through the
      functions it calls: `analysis/core/graph.py` (calls)
    - a jitted function reaches the layer, for verification to compile:
      `analysis/core/jitted.py`

    For a loop of layers in a module's `__call__` the fix is **unsafe** at best (a
    Python loop, as above), and the message names what else is unproven: that the
    differentiated function reaches this module (autoopt does not follow a module
    through `apply` or an argument), a field called that no annotation proves a
    layer (`self.act_fn`), and, for linen, that the module is not called twice in one
    `init` (measured: `nn.remat` layers then draw other initial parameters). There is
    **no fix** when a layer (through the layers and methods it calls) prints or stages
    a host effect, or writes a variable collection (`self.sow`, `self.variable`,
    `self.put_variable`); when linen's names cannot be written (a loop not over
    `range(n)`, the class built twice in the method, the call under an `if` or in a
    nested loop); or when a Python value is passed by keyword and cannot move to its
    position. No finding when nothing in the module differentiates, or the loop is
    written out shorter than 4 layers. Facts about `nn.remat` and `filter_checkpoint`
    (names, static arguments, which library layers recompute the same, `BatchNorm`
    statistics and `Dropout` masks included) are in `analysis/overlays/flax_linen.py`
    and `equinox.py`, tested against the installed libraries; the layer checks are
    `analysis/facts/module_layers.py`.

    Verification keeps the fix only when it measures a drop in compiled temp
    memory (`memory_analysis().temp_size_in_bytes`; the device peak where no
    compiled figure exists) with equal outputs, never on peak RSS alone. It
    compiles a module-level jitted function whose computation reaches the
    rewritten layer (e.g. `grad_step = jax.jit(jax.value_and_grad(loss))`), on
    the arguments of its first calls, before and after the rewrite; with no such
    function (an eager `jax.grad`), the fix is not kept. `--memory-budget SIZE`
    (or `memory-budget = "64MiB"` in `[tool.autoopt]`) drops a rewrite whose
    measured temp memory before is below the budget, "below memory budget"; the
    size of activations cannot be known from the source, so `autoopt check` and
    `rewrite` without `--verify` list the finding and note that it was not checked.
    """

    id = "AO601"
    name = "remat-candidate"
    summary = "memory-heavy repeated layers under jax.grad without jax.checkpoint"
    goal = "memory"
    fixes = (
        "wraps repeated layers under `jax.grad` in `jax.checkpoint` with an explicit policy "
        "(effective on CPU only under `lax.scan`)"
    )

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        for fn in _differentiated(ctx):
            for stmt in ctx.graph.scope_stmts(fn.qualname):
                for call in stmt.calls:
                    finding = self._scan(ctx, stmt, call) or self._loop_layer(ctx, stmt, call)
                    if finding is not None:
                        yield finding
        yield from layer_loops.findings(self, ctx, _shallow)

    def _scan(self, ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> Finding | None:
        if not ctx.is_jax(call.func, _SCAN) or not call.args:
            return None
        body = _layer(ctx, stmt, call.args[0].value)
        if body is None:
            return None
        where = (
            f"the `lax.scan` body `{body.name}` runs under reverse-mode differentiation and "
            "keeps every step's intermediates for the backward pass"
        )
        plan = _Remat(body, call.args[0].value, stmt.anchor, scan=True)
        advice = "to keep only each step's input and matmul outputs"
        return self._remat(ctx, stmt, call, plan, where, advice, "Checkpoint the scan body")

    def _loop_layer(self, ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> Finding | None:
        if not stmt.loops:
            return None
        loop = ctx.graph.loops[stmt.loops[-1]]
        if not _feeds_itself(stmt, call, loop):
            return None
        layer = _layer(ctx, stmt, call.func)
        if layer is None or _shallow(loop):
            return None
        where = (
            f"`{layer.name}` is applied layer after layer in a Python loop under reverse-mode "
            "differentiation, which keeps every layer's intermediates"
        )
        advice = (
            "; on CPU this is optimized away around an unrolled Python loop (no memory "
            "change): stack the layers and use lax.scan, and keep the fix only if "
            "verification measures a drop in temp memory"
        )
        plan = _Remat(layer, call.func, loop.node, scan=False)
        return self._remat(ctx, stmt, call, plan, where, advice, "Checkpoint each layer")

    def _remat(
        self,
        ctx: ModuleContext,
        stmt: Stmt,
        call: cst.Call,
        plan: _Remat,
        where: str,
        advice: str,
        title: str,
    ) -> Finding:
        """The finding for checkpointing `plan.layer`: safe for a scan body (scan keeps
        its carry), unsafe for a Python loop's layer (XLA may undo it on CPU)."""
        problem = _problem(ctx, plan.layer, static_ok=plan.scan)
        if problem:
            return self.finding(ctx, call, f"{where}, but {problem}", Applicability.NONE)
        name, edits = _wrapped(ctx, plan.layer, plan.anchor, scan=plan.scan)
        what = "it" if plan.scan else "each layer"
        sep = " " if plan.scan else ""
        message = f"{where}: checkpoint {what} (`{name}`, policy {_POLICY_NAME}){sep}{advice}"
        edits.append(Replace(plan.replaced, lambda _n: cst.Name(name)))
        fix = Applicability.SAFE if plan.scan else Applicability.UNSAFE
        target = _measured_by(ctx, stmt.scope)
        return self.finding(ctx, call, message, fix, edits, target=target, title=title)


@dataclass(frozen=True)
class _Remat:
    """A layer to checkpoint, the expression that names it, and where its wrapper goes."""

    layer: Function
    replaced: cst.BaseExpression
    anchor: cst.CSTNode
    scan: bool


def _differentiated(ctx: ModuleContext) -> list[Function]:
    """Functions passed to a reverse-mode transform, and every module function they call."""
    todo: list[Function] = []
    for stmt in ctx.graph.stmts:
        for call in stmt.calls:
            if ctx.is_jax(call.func, *jax_api.REVERSE_MODE) and call.args:
                first = call.args[0].value
                if type(first) is cst.Name:
                    fn = ctx.graph.resolve_function(first.value, stmt.scope)
                    todo += [fn] if fn else []
    return list(_reachable(ctx, todo).values())


def _reachable(
    ctx: ModuleContext, todo: list[Function], *, referenced: bool = False
) -> dict[str, Function]:
    """These functions and every module function they call, directly or not, by qualname;
    with `referenced`, also those they name otherwise (`jax.grad(loss)`, a scan body)."""
    seen: dict[str, Function] = {}
    while todo:
        fn = todo.pop()
        if fn.qualname in seen:
            continue
        seen[fn.qualname] = fn
        for stmt in ctx.graph.scope_stmts(fn.qualname):
            names = [c.func.value for c in stmt.calls if type(c.func) is cst.Name]
            for name in [*names, *(stmt.uses if referenced else ())]:
                callee = ctx.graph.resolve_function(name, fn.qualname)
                todo += [callee] if callee else []
    return seen


def _measured_by(ctx: ModuleContext, changed: str) -> str | None:
    """The module-level jitted function whose computation reaches the function `changed`,
    preferring one that differentiates (`grad_step = jax.jit(jax.value_and_grad(loss))`):
    the verifier captures its arguments and compiles it before and after the rewrite to
    compare temp memory. None when no such function exists (e.g. eager `jax.grad`)."""
    found = []
    for jitted in semantic(ctx).jitted_callables():
        roots = _compiled_roots(ctx, jitted)
        if roots is None:
            continue
        reached = _reachable(ctx, roots, referenced=True)
        if changed in reached:
            differentiates = any(
                ctx.is_jax(c.func, *jax_api.REVERSE_MODE) for c in calls_in(jitted.carrier)
            )
            differentiates = differentiates or any(
                ctx.is_jax(call.func, *jax_api.REVERSE_MODE)
                for fn in reached.values()
                for stmt in ctx.graph.scope_stmts(fn.qualname)
                for call in stmt.calls
            )
            found.append((not differentiates, jitted.name))
    return sorted(found, key=lambda pair: pair[0])[0][1] if found else None


def _compiled_roots(ctx: ModuleContext, jitted: Jitted) -> list[Function] | None:
    """The module functions `jitted` compiles, if it is bound at module level (where the
    verifier can capture its calls): the decorated or wrapped function, else the functions
    named in the wrapped expression (`jax.jit(jax.value_and_grad(loss))` -> `loss`)."""
    binder = next((s for s in ctx.graph.stmts if jitted.name in s.defs), None)
    if binder is None or binder.scope != MODULE:
        return None
    if jitted.function is not None:
        return [jitted.function]
    if type(jitted.carrier) is not cst.Call or not jitted.carrier.args:
        return None
    names = read_names(jitted.carrier.args[0].value)
    found = [ctx.graph.resolve_function(n.value, MODULE) for n in names]
    return [fn for fn in found if fn is not None]


def _layer(ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression) -> Function | None:
    """The module function `expr` names, unless it is already checkpointed."""
    if type(expr) is not cst.Name:
        return None
    fn = ctx.graph.resolve_function(expr.value, stmt.scope)
    if fn is None or fn.is_method:
        return None
    if any(
        ctx.is_jax(_decorator_callee(d.decorator), *jax_api.CHECKPOINTS) for d in fn.node.decorators
    ):
        return None
    return fn


def _decorator_callee(node: cst.BaseExpression) -> cst.BaseExpression:
    return node.func if type(node) is cst.Call else node


def _feeds_itself(stmt: Stmt, call: cst.Call, loop: Loop) -> bool:
    """`h = layer(p, h)`: the call is the whole value, takes its own target as an
    argument, and another argument comes from the loop variable (the layer's weights)."""
    node = stmt.node
    if type(node) is not cst.Assign or node.value is not call or len(node.targets) != 1:
        return False
    targets = set(bound_names(node.targets[0].target))
    per_layer = set(bound_names(loop.node.target)) if type(loop.node) is cst.For else set()
    carried = any(type(a.value) is cst.Name and a.value.value in targets for a in call.args)
    weights = any(n.value in per_layer for a in call.args for n in read_names(a.value))
    return carried and weights


def _shallow(loop: Loop) -> bool:
    """A loop over fewer than MIN_LAYERS layers, when the count is written out."""
    node = loop.node
    if type(node) is not cst.For:
        return False
    it = node.iter
    if type(it) is cst.Tuple or type(it) is cst.List:
        return len(it.elements) < MIN_LAYERS
    if type(it) is cst.Call and type(it.func) is cst.Name and it.func.value == "range":
        bounds = [a.value for a in it.args]
        if len(bounds) == 1 and type(bounds[0]) is cst.Integer:
            return int(bounds[0].value) < MIN_LAYERS
    return False


def _problem(ctx: ModuleContext, fn: Function, *, static_ok: bool) -> str:
    reasons = semantic(ctx).impurities(fn)
    if reasons:
        return f"`{fn.name}` is not pure: it {reasons[0]} (recomputation would repeat it)"
    effects = semantic(ctx).traced_effects(fn)
    if effects:
        return f"`{fn.name}` {effects[0]}, which recomputation would repeat"
    facts = semantic(ctx).trace_facts(fn)
    if facts.static and not static_ok:
        param, why = next(iter(facts.static.items()))
        return f"`{fn.name}` needs a Python value for `{param}` ({why}), which checkpoint traces"
    return ""


def _wrapped(
    ctx: ModuleContext, fn: Function, anchor: cst.CSTNode, *, scan: bool
) -> tuple[str, list[Edit]]:
    """`<fn>_remat = jax.checkpoint(fn, ..., policy=...)` inserted before `anchor`."""
    checkpoint, imports = spell(ctx, "jax.checkpoint")
    policy, more = spell(ctx, _POLICY)
    name = fresh_name(ctx, f"{fn.name}_remat")
    options = [fn.name, *(["prevent_cse=False"] if scan else []), f"policy={policy}"]
    inner = "".join(f"    {o},\n" for o in options)
    statement = cst.parse_statement(f"{name} = {checkpoint}(\n{inner})\n")
    return name, [*imports, *more, InsertBefore(anchor, (statement,))]
