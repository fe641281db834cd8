"""AO501 loop-to-vmap."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.plans.per_item import (
    ItemBody,
    PerItem,
    counted_array,
    indexed_by,
    is_python_list,
    item_body,
    per_item,
    proven_array,
    range_count,
    reads,
    rows,
    simple,
)
from autoopt.analysis.semantic import Blocks, Function, ModuleContext, jax_api, semantic
from autoopt.model import Applicability, Edit, Finding, Replace, RequireImport
from autoopt.rewrite.per_item import decorators, extracted, item_edits, item_name, keep_comments
from autoopt.rewrite.spell import spell
from autoopt.rules.base import Rule


@dataclass(frozen=True)
class _Plan:
    """How to call vmap: the mapped/unmapped arguments and what proves the fix."""

    fn: Function
    args: tuple[str, ...]
    axes: tuple[int | None, ...]
    doubt: str = ""  # why the fix is only unsafe
    imports: tuple[RequireImport, ...] = ()


class LoopToVmap(Rule):
    """
    ## What it does
    Finds a loop or list comprehension that computes one value per example
    of an array and stacks the results. When the value is one call of a
    module function, it becomes `jax.vmap(f)(xs)` (with `in_axes=None` for
    the arguments that are the same for every example). When the body is
    several statements (assignments of names, then `out.append(value)`), or
    the element an expression of several calls, the body becomes a function
    of the example and the loop-invariant names it reads, placed above the
    loop's function, jitted and vmapped, and the stack becomes one call:
    `fits = _main_per_item(keys, x, y)`.

    ## Why is this bad?
    The loop dispatches one small computation per example and then copies
    every result into a new array; `vmap` runs one batched computation.
    Measured on CPU for 256 examples of a 64x64 matvec+tanh: 35-47x faster
    eagerly, and 8.8x faster under `jit` (the unrolled loop also compiles
    slower). A body of several calls, jitted as one vmapped function, also
    fuses the calls and compiles once for every example: on CPU it makes
    corpus/bootstrap_per_item.py (400 resample-and-fit replicates) 3.15x
    faster, more than the hand-written jitted vmap (2.76x).

    ## Fix safety
    **Safe** when every premise below is proven; results agree to float rounding
    (measured 3e-7 relative in f32), not bit for bit. **Unsafe** when autoopt cannot
    prove the examples come from one array (the fix then stacks them first), that
    the function stages no host effect (`jax.debug.print`) into its trace, that it
    returns one array, that every mapped array has as many rows as
    the loop runs, or what an argument of the jitted form receives (a NumPy array
    becomes a float32 device array). The one-call form offers **no fix**, with the
    premise named, when one is refuted; a body of several statements with a
    premise refuted is not reported.

    - the body assigns names and appends one value, carries nothing, and the list
      is read only by the stack: `analysis/plans/per_item.py`
    - the loop runs once per row of each array it indexes: `analysis/plans/per_item.py`
    - the examples come from one JAX array: `analysis/plans/per_item.py`,
      `analysis/values/model.py`
    - the function is pure and does not branch in Python on a traced value:
      `analysis/facts/purity.py`, `analysis/facts/tracing.py`
    - it stages no host effect into its trace (`jax.debug.print`, callbacks), whose
      order vmap would change: `analysis/facts/effects.py`
    - it returns one array: `analysis/values/arrays.py`
    - the jitted form's premises, asked of the program with the body extracted (no
      rounding trick XLA folds away among them: `analysis/facts/rounding_tricks.py`):
      `analysis/facts/jit_plan.py`
    - one owner per loop (AO501 takes only loops that carry nothing, which AO103
      never takes): `rules/loop_owner.py`

    One difference is accepted rather than proven away: with no examples at all,
    `jnp.stack([])` raises `ValueError` where the batched call returns an empty array.
    A program can only see that difference by handling the error, so the fix is
    unsafe where the stack sits inside a `try` of its function; an error handled by a
    caller in another function is not looked for.
    """

    id = "AO501"
    name = "loop-to-vmap"
    summary = "a Python loop computing one value per example, then stacking"
    fixes = (
        "replaces a per-example loop or comprehension plus `jnp.stack` with `jax.vmap(f, "
        "in_axes=...)`, or a body of several statements with one jitted, vmapped function"
    )

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        blocks: Blocks | None = None
        taken: list[str] = []  # the names of this run's per-item functions
        for stmt in ctx.graph.stmts:
            for call in stmt.calls:
                if not ctx.is_jax(call.func, *jax_api.STACKS):
                    continue
                blocks = blocks or semantic(ctx).blocks()
                found = per_item(ctx, blocks, stmt, call)
                plan = _plan(ctx, found) if found is not None and not found.lines else None
                if plan is not None:
                    yield self._finding(ctx, found, plan)  # type: ignore[arg-type]  # found: not None
                elif found is not None:
                    yield from self._body_finding(ctx, found, taken)

    def _finding(self, ctx: ModuleContext, p: PerItem, plan: _Plan | str) -> Finding:
        if isinstance(plan, str):
            where = f"`{ctx.code(p.value.func)}` is applied to each example and stacked"  # type: ignore[attr-defined]  # the stacked value: a call
            return self.finding(ctx, p.stack, f"{where}, but {plan}", Applicability.NONE)
        vmap, imports = spell(ctx, "jax.vmap")
        axes = set(plan.axes)
        options = "" if axes == {0} else f", in_axes=({', '.join(map(str, plan.axes))})"
        text = f"{vmap}({plan.fn.name}{options})({', '.join(plan.args)})"
        edits: list[Edit] = [*imports, *plan.imports]
        edits.append(Replace(p.stack, lambda _n: cst.parse_expression(text)))
        edits += [Replace(node, lambda _n: cst.RemovalSentinel.REMOVE) for node in p.removed]
        if p.leading:
            edits.append(keep_comments(ctx, p))
        message = (
            f"`{plan.fn.name}` is applied to one example at a time and the results "
            f"stacked: use `{text}`, one batched computation"
        )
        return self._fix(ctx, p, message, plan.doubt, edits, plan.fn.name)

    def _body_finding(self, ctx: ModuleContext, p: PerItem, taken: list[str]) -> Iterator[Finding]:
        body = item_body(ctx, p)
        name = item_name(ctx, p, taken) if body is not None else ""
        doubts = _body_doubts(ctx, p, body, name) if body is not None else None
        if body is None or doubts is None:
            return
        taken.append(name)
        args, imports = _stacked(ctx, p, body, doubts)
        decorated, more = decorators(ctx, body)
        edits = [*imports, *more, *item_edits(ctx, p, body, name, args, decorated)]
        message = (
            f"the body runs once per item of `{ctx.code(body.sources[0])}` and the results "
            f"are stacked: `{name}(...)`, its jitted `jax.vmap`, computes them in one call"
        )
        yield self._fix(ctx, p, message, "; ".join(doubts), edits, name)

    def _fix(
        self, ctx: ModuleContext, p: PerItem, message: str, doubt: str, edits: list, target: str
    ) -> Finding:
        doubt = "; ".join(d for d in (doubt, _caught(ctx, p)) if d)
        fix = Applicability.UNSAFE if doubt else Applicability.SAFE
        message += f"; {doubt}" if doubt else ""
        return self.finding(ctx, p.stack, message, fix, edits, target=target, title="Use jax.vmap")


def _caught(ctx: ModuleContext, p: PerItem) -> str:
    """The one difference vmap makes: with no examples `jnp.stack([])` raises and the
    batched call returns an empty array. It changes a result only where the function
    handles the error, so a stack inside a `try` of its function is a doubt."""
    for node in reversed(ctx.ancestors(p.stack)):
        if type(node) in (cst.FunctionDef, cst.Lambda):
            break
        if type(node) in (cst.Try, cst.TryStar):
            return (
                "the stack is inside a `try`: with no examples `jnp.stack` raises, "
                "the batched call returns an empty array"
            )
    return ""


def _body_doubts(ctx: ModuleContext, p: PerItem, body: ItemBody, name: str) -> list[str] | None:
    """What is not proven about vmapping and jitting the body, asked of the program with
    the per-item function extracted; None when a premise fails (impure, Python control
    flow on a traced value, an argument jit cannot take, a tuple returned)."""
    module = extracted(ctx, p, body, name)
    other = ctx.derived(module)
    fn = other.graph.functions[name]
    asked = semantic(other)
    plan = asked.jit_plan(fn, asked.eager_loop_sites(fn))
    if plan.problem or plan.static or _returns_tuple(other, fn):
        return None
    doubts = [*body.doubts, *plan.doubts]
    if not asked.returns_one_array(fn, frozenset(body.mapped)):
        doubts.append("cannot prove the body gives one array per item (vmap would stack each leaf)")
    return doubts + _effect_doubts(other, fn)


def _stacked(
    ctx: ModuleContext, p: PerItem, body: ItemBody, doubts: list[str]
) -> tuple[tuple[str, ...], tuple[RequireImport, ...]]:
    """The batched call's arguments: an array not proven one JAX array is stacked first."""
    args = list(body.args)
    imports: tuple[RequireImport, ...] = ()
    for index, source in enumerate(body.sources):
        if not proven_array(ctx, p, source):
            doubts.insert(
                0, f"cannot prove `{ctx.code(source)}` is one array, so the fix stacks it first"
            )
            stack, imports = spell(ctx, "jax.numpy.stack")
            args[index] = f"{stack}({args[index]})"
    return tuple(args), imports


def _returns_tuple(ctx: ModuleContext, fn: Function) -> bool:
    returns = [s.node for s in ctx.graph.scope_stmts(fn.qualname) if type(s.node) is cst.Return]
    return any(type(r.value) in (cst.Tuple, cst.List, cst.Dict) for r in returns)


def _plan(ctx: ModuleContext, p: PerItem) -> _Plan | str | None:
    """The vmap call, a reason for no fix, or None when the pattern does not apply."""
    call = p.value
    if type(call) is not cst.Call or type(call.func) is not cst.Name or not call.args:
        return None
    fn = ctx.graph.resolve_function(call.func.value, p.at.scope)
    if fn is None or fn.is_method:
        return None
    mapping = _map_args(ctx, p, call)
    if mapping is None:
        return None
    args, axes, source, doubts = mapping
    mapped = frozenset(p for p, axis in zip(fn.params, axes, strict=False) if axis == 0)
    problem = _function_problem(ctx, fn, mapped)
    if problem:
        return problem
    if is_python_list(ctx, p.at.scope, source):
        return (
            f"the examples come from a Python list (`{ctx.code(source)}`), whose shapes may differ"
        )
    imports: tuple[RequireImport, ...] = ()
    if not proven_array(ctx, p, source):
        what = ctx.code(source)
        doubts.insert(0, f"cannot prove `{what}` is one array, so the fix stacks it first")
        stack, imports = spell(ctx, "jax.numpy.stack")
        args = tuple(f"{stack}({a})" if ax == 0 else a for a, ax in zip(args, axes, strict=True))
    if not semantic(ctx).returns_one_array(fn, mapped):
        doubts.append(f"cannot prove `{fn.name}` returns one array (vmap would stack each leaf)")
    doubts += _effect_doubts(ctx, fn)
    return _Plan(fn, args, axes, "; ".join(doubts), imports)


def _effect_doubts(ctx: ModuleContext, fn: Function) -> list[str]:
    """A host effect in the trace: vmap runs every example's in one computation, grouped
    by statement, in no guaranteed order (the one-at-a-time loop runs them in turn)."""
    effects = semantic(ctx).traced_effects(fn)
    if not effects:
        return []
    return [
        f"`{fn.name}` {effects[0]}: under vmap every example's effects run in one "
        "computation, grouped by statement and in no guaranteed order"
    ]


def _map_args(
    ctx: ModuleContext, p: PerItem, call: cst.Call
) -> tuple[tuple[str, ...], tuple[int | None, ...], cst.BaseExpression, list[str]] | None:
    """Each argument as (code, axis): the example (0) or the same for all (None); the
    expression the examples come from; doubts about the row counts."""
    count = range_count(p.iter)
    counted = counted_array(count)
    args: list[str] = []
    axes: list[int | None] = []
    doubts: list[str] = []
    source: cst.BaseExpression | None = counted
    for arg in call.args:
        if arg.keyword is not None or arg.star:
            return None
        value = arg.value
        if count is None and type(value) is cst.Name and value.value == p.target:
            source = p.iter
            args.append(ctx.code(p.iter))
        elif count is not None and indexed_by(value, p.target):
            array = value.value  # type: ignore[attr-defined]  # indexed_by: a Subscript
            source = source or array
            visited = rows(ctx, p, array, count, counted, doubts)
            if visited is None:
                return None
            args.append(visited)
        elif reads(value, p.target) or not simple(value):
            return None
        else:
            args.append(ctx.code(value))
            axes.append(None)
            continue
        axes.append(0)
    if source is None or 0 not in axes:
        return None
    return tuple(args), tuple(axes), source, doubts


def _function_problem(ctx: ModuleContext, fn: Function, mapped: frozenset[str]) -> str:
    reasons = semantic(ctx).impurities(fn)
    if reasons:
        return f"`{fn.name}` is not pure: it {reasons[0]}"
    if any(not ctx.is_jax(d.decorator, "jax.jit") for d in fn.node.decorators):
        return f"`{fn.name}` has a decorator autoopt cannot see through (donation included)"
    facts = semantic(ctx).trace_facts(fn)
    needs = [p for p in mapped if p in facts.static]
    if facts.traced_control or needs:
        why = facts.traced_control[0] if facts.traced_control else facts.static[needs[0]]
        return f"`{fn.name}` uses the example in Python control flow or shapes ({why})"
    handoffs = semantic(ctx).handoffs_of(fn, set(mapped))
    if handoffs:
        return f"`{fn.name}` {handoffs[0]}, which fails under vmap"
    if _returns_tuple(ctx, fn):
        return f"`{fn.name}` returns a tuple, which vmap would not stack into one array"
    return ""
