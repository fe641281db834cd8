"""AO101 missing-jit."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from autoopt.analysis.semantic import CallSite, Function, JitPlan, ModuleContext, semantic
from autoopt.model import Applicability, Edit, Finding, InsertBefore, Replace
from autoopt.rewrite.jit import add_decorator, fresh_name, jit_call, jit_decorator
from autoopt.rules.base import Rule

_NONE = Applicability.NONE


class MissingJit(Rule):
    """
    ## What it does
    Finds a pure array function that a loop (or comprehension) of code running
    eagerly calls over and over without `jax.jit`, and decorates it with
    `@jax.jit`. Arguments the body needs as Python values (shapes such as
    `jnp.zeros(n)`, `range(n)`, `if` conditions, slice bounds, `axis=`) and
    arguments that are strings, dtypes or shape tuples become `static_argnames`.
    A function handed to pickling or multiprocessing keeps its plain definition
    and is wrapped at the loop instead.

    ## Why is this bad?
    Without `jit`, JAX dispatches every operation on its own, from Python, one
    at a time. Compiled, the whole function runs as one fused XLA program.
    Measured on a 2-core CPU: an MLP training step went 4-5x faster, a chain of
    small elementwise operations 13-24x.

    ## Fix safety
    **Safe** only when every premise of the jit plan is proven, **unsafe** when one
    cannot be proven, **no fix** (the finding says why) when one is refuted; which
    failure is which is listed in `analysis/facts/jit_plan.py`. Results agree with
    the original within float tolerance: XLA fuses and reorders float operations.

    - a call runs eagerly, in a loop of the program: `analysis/core/execution.py`
    - the function is pure, through every helper it calls: `analysis/facts/purity.py`
    - a library object it calls methods of (an optax optimizer) is a global bound once
      to it, never changed, and each method is listed pure by the library's overlay:
      `analysis/facts/library_objects.py`
    - it reads no outside state jit would freeze (a global nothing rebinds, by
      reflection either; defaults proven immutable), nor does a function it calls or
      hands on (to a transform, a tree map, a partial, a `lax` body, in a lambda),
      nor a function a global it reads holds (a schedule given to `optax.sgd`, the
      function of a module-level `jax.vmap`, a bound method and its receiver's state),
      nor a `custom_vjp`/`custom_jvp` rule registered on a function it calls:
      `analysis/facts/summaries.py`, `analysis/facts/held_functions.py`,
      `analysis/facts/reflection.py`
    - no traced value reaches Python control flow, NumPy, text, a mask or a shape,
      nor a parameter of a JAX function that takes no array data (`k` of `lax.top_k`,
      from jax's own signatures), nor the exponent of `**` as a Python whole number
      (exact eagerly, `lax.pow` traced): `analysis/facts/summaries.py`,
      `analysis/facts/tracing.py`, `analysis/facts/jax_parameters.py`,
      `analysis/overlays/jax_signatures.py`
    - it returns arrays: `analysis/facts/summaries.py`
    - every argument at every call site is an array, a pytree of arrays, a number used
      as data or a hashable constant made static: `analysis/values/model.py`,
      `analysis/facts/callsites.py`, `analysis/facts/tracing.py`; a Python float that a
      Python sum computes on before it meets an array (`1 - decay`: float64 eagerly,
      float32 traced, where cancellation loses digits), or a remainder or floor, or a
      conversion to a dtype not proven float32 (`jnp.asarray(lr, dtype=w.dtype)`: an
      int dtype may truncate to another number), is made static where every call
      passes a constant, else unproven: `analysis/facts/jit_plan.py`
    - a NumPy argument has a dtype jit's device copy keeps (float32, not float64), and
      parameters made by a library object's method are arrays (the `init` of
      `hk.transform` of sealed code): `analysis/facts/jit_plan.py`,
      `analysis/facts/library_arrays.py`
    - no code of the module, nor of a project module it imports, relies on a rounding
      XLA's simplifier folds away (`(t + 1.5 * 2**23) - 1.5 * 2**23` rounds eagerly,
      `x + 0.0` turns `-0.0` into `0.0`): `analysis/facts/rounding_tricks.py`
    """

    id = "AO101"
    name = "missing-jit"
    summary = "Pure array function called repeatedly without jax.jit"
    fixes = "adds `@jax.jit` (with `static_argnames`) to pure array functions called in loops"

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        for plan in semantic(ctx).jit_plans():
            yield self._finding(ctx, plan)

    def _finding(self, ctx: ModuleContext, plan: JitPlan) -> Finding:
        fn = plan.fn
        where = f"`{fn.name}` is called in a loop without `jax.jit`"
        if plan.problem:
            return self.finding(ctx, fn.node.name, f"{where}, but {plan.problem}", _NONE)
        static = list(plan.static)
        if plan.wrap_at_loops:
            edits = _wrap_at_loops(ctx, fn, plan.sites, static)
            how = "wrap it with `jax.jit` before the loop (it is also pickled, so keep `def` plain)"
        else:
            text, imports = jit_decorator(ctx, static)
            edits = [Replace(fn.node, add_decorator(ctx, text)), *imports]
            how = f"add `@{text}`"
        why = "; ".join(f"`{p}` is needed as a Python value ({plan.static[p]})" for p in static)
        note = f" ({why})" if why else ""
        if plan.doubts:
            note += f"; unsafe: {plan.doubts[0]}"
        title = "Add @jax.jit" + (f" (static: {', '.join(static)})" if static else "")
        return self.finding(
            ctx, fn.node.name, f"{where}: {how}{note}", plan.fix, edits, target=fn.name, title=title
        )


def _wrap_at_loops(
    ctx: ModuleContext, fn: Function, sites: list[CallSite], static: list[str]
) -> list[Edit]:
    """`f_jit = jax.jit(f)` before each outermost loop, and the calls renamed."""
    name = fresh_name(ctx, f"{fn.name}_jit")
    text, imports = jit_call(ctx, fn.name, static)
    edits: list[Edit] = list(imports)
    anchors = []
    for site in sites:
        loop = ctx.graph.loops[site.stmt.loops[0]] if site.stmt.loops else None
        anchor = loop.node if loop is not None else site.stmt.anchor
        if anchor not in anchors:
            anchors.append(anchor)
        edits.append(Replace(site.call.func, lambda _node, n=name: cst.Name(n)))  # type: ignore[misc]  # a lambda with a default
    for anchor in anchors:
        edits.append(InsertBefore(anchor, (cst.parse_statement(f"{name} = {text}\n"),)))
    return edits
