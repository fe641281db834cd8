"""Can a function called in an eager loop be compiled with `jax.jit`, and how?

The plan states every premise of the rewrite and which one failed, so the rule
only turns it into a finding. A fix is safe only when each premise is proven
on the value model (`analysis/values/model.py`, `analysis/facts/summaries.py`):

- some call runs eagerly, in a loop of the program (`analysis/core/execution.py`);
- the function is pure and reads no outside state that jit would freeze;
- no traced value reaches Python control flow, NumPy or text;
- it returns arrays (or a pytree of them);
- every argument at every call site is a JAX array, a pytree of arrays (also through
  a library object's method: `analysis/facts/library_arrays.py`), a Python number used
  only as data, or a hashable constant made static.

A premise that fails outright is the `problem` (no fix); one autoopt cannot
prove is a `doubt` (the fix is unsafe).

Doubts (unsafe): an argument of unknown kind or a NumPy array (jit converts it, and
float64 becomes float32), a host object read from outside, an index that may be a
boolean mask, a static argument not shown constant. Problems (no fix): the function is
impure, branches in Python on an array, returns a Python value, receives a host object
or a config dict, or a static argument changes on every call (it would compile again on
every call). A function handed to pickling or multiprocessing keeps its plain definition
and is jitted at the loops instead (`wrap_at_loops`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core import execution
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import CallSite, Function
from autoopt.analysis.facts import purity, rounding_tricks, tracing
from autoopt.analysis.facts.callsites import ArgKind, classify
from autoopt.analysis.facts.held_functions import held_locally
from autoopt.analysis.facts.jit_forwarded import forwarded_to_jits
from autoopt.analysis.facts.library_arrays import arrays_at_calls
from autoopt.analysis.facts.library_objects import enclosing_function, refers_to_global
from autoopt.analysis.facts.summaries import float_doubt, holder_reads, summary
from autoopt.analysis.facts.writes import writes
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.values.lattice import UNKNOWN, Kind, Value, join_all
from autoopt.analysis.values.model import model, parameter_default
from autoopt.model import Applicability

_REFUSED = (Kind.OBJECT, Kind.MODULE, Kind.CONTAINER)


@dataclass
class JitPlan:
    """How to jit `fn`: its static arguments, or why not, or what is unproven."""

    fn: Function
    sites: list[CallSite]
    static: dict[str, str] = field(default_factory=dict)  # parameter -> why it is static
    wrap_at_loops: bool = False  # pickled elsewhere: keep `def` plain, jit at the loops
    problem: str = ""
    doubts: list[str] = field(default_factory=list)

    @property
    def fix(self) -> Applicability:
        if self.problem:
            return Applicability.NONE
        return Applicability.UNSAFE if self.doubts else Applicability.SAFE


def plans(ctx: ModuleContext) -> list[JitPlan]:
    """A plan for every candidate function with calls repeated in eager loops, once."""
    return ctx.per_module(_plans)


def _plans(ctx: ModuleContext) -> list[JitPlan]:
    return [plan for fn in ctx.graph.functions.values() if (plan := candidate_plan(ctx, fn))]


def candidate_plan(ctx: ModuleContext, fn: Function) -> JitPlan | None:
    """`fn`'s plan in `plans`, or None when it is not a candidate called in eager loops."""
    sites = eager_loop_sites(ctx, fn)
    return jit_plan(ctx, fn, sites) if sites and is_candidate(ctx, fn) else None


def eager_loop_sites(ctx: ModuleContext, fn: Function) -> list[CallSite]:
    """Calls of `fn` repeated by a loop or comprehension in code that runs eagerly."""
    return [
        site
        for site in ctx.graph.call_sites(fn)
        if site.in_loop and execution.runs_eagerly(ctx, site.stmt.scope)
    ]


def is_candidate(ctx: ModuleContext, fn: Function) -> bool:
    """A plain module function, not compiled elsewhere, that computes on JAX arrays."""
    node = fn.node
    if fn.is_method or node.asynchronous is not None or node.decorators:
        return False
    if fn.name in jitted_elsewhere(ctx) or fn.is_generator:
        return False
    return summary(ctx, fn).array_function


def jitted_elsewhere(ctx: ModuleContext) -> set[str]:
    """Names handed to a jit spelling anywhere in the module (`fast = jax.jit(step)`,
    `eqx.filter_jit(step)`, `nnx.jit(step)`), or to a call that keeps the function as
    written to run it in its own frame (`hk.transform(forward)`): never jitted again."""
    return ctx.per_module(_jitted_elsewhere)


def _jitted_elsewhere(ctx: ModuleContext) -> set[str]:
    names = set()
    for stmt in ctx.graph.stmts:
        for call in stmt.calls:
            wraps = ctx.qualify(call.func) in overlays.WRAPS_FUNCTION
            if (wraps or execution.is_jit(ctx, call.func)) and call.args:
                first = call.args[0].value
                if type(first) is cst.Name:
                    names.add(first.value)
    return names


def jit_plan(
    ctx: ModuleContext,
    fn: Function,
    sites: list[CallSite],
    exempt: frozenset[int] = frozenset(),
    modules: frozenset[str] = frozenset(),
) -> JitPlan:
    """The plan for jitting `fn`, with the first failed premise or every doubt. For
    `nnx.jit` (`plans/nnx_step.py`): the calls in `exempt` change nnx objects in place,
    which it writes back, and the parameters in `modules` receive proven nnx objects,
    which it splits into their state."""
    plan = JitPlan(fn, sites, wrap_at_loops=escapes_to_pickling(ctx, fn))
    facts = tracing.analyse(ctx, fn)
    info = summary(ctx, fn)
    impure = _impurities(ctx, fn, exempt, modules)
    if impure:
        plan.problem = f"it is not pure: it {impure[0]}"
    elif facts.traced_control:
        plan.problem = f"{facts.traced_control[0]}; use lax.cond/jnp.where"
    else:
        plan.problem = _return_problem(info.returns, plan)
    if not plan.problem and info.handoffs:
        plan.problem = f"it {info.handoffs[0]}, which fails under jit"
    if plan.problem:
        return plan
    for param in (p for p in fn.params if p not in modules):
        _plan_parameter(ctx, plan, param, facts)
        if plan.problem:
            return plan
    plan.doubts[:0] = rounding_tricks.premise(ctx)
    plan.doubts += info.doubts
    if plan.static:
        _check_static(ctx, plan)
    return plan


def _impurities(
    ctx: ModuleContext, fn: Function, exempt: frozenset[int], modules: frozenset[str]
) -> list[str]:
    """The summary's impurities, those of `fn`'s own code without the `exempt` calls and
    their changes of `modules`."""
    info = summary(ctx, fn)
    if not exempt:
        return info.impurities
    own = purity.impurities(ctx, fn)
    rest = [reason for reason in info.impurities if reason not in own]
    return [*purity.impurities_except(ctx, fn, exempt, modules), *rest]


def _return_problem(returns: Value, plan: JitPlan) -> str:
    if returns.is_arrays:
        return ""
    if returns.kind is Kind.UNKNOWN:
        plan.doubts.append("cannot prove it returns arrays")
        return ""
    return f"it returns {returns.kind.value}, not an array"


def _received(ctx: ModuleContext, plan: JitPlan, param: str) -> Value:
    """What `param` receives from the calls the rewrite compiles: every call for a
    decorator, only the loop's calls when the loop gets its own jitted wrapper."""
    values = model(ctx)
    if not plan.wrap_at_loops:
        return values.parameter(plan.fn, param)
    index = plan.fn.params.index(param)
    received = []
    for site in plan.sites:
        expr = site.argument(index, param)
        received.append(UNKNOWN if expr is None else values.value_of(site.stmt, expr))
    return join_all(received)


def _library_arrays(ctx: ModuleContext, plan: JitPlan, param: str) -> bool:
    """`param` receives arrays through a library method (`facts/library_arrays.py`) at
    the calls the rewrite compiles, all of them seen."""
    fn = plan.fn
    if plan.wrap_at_loops:
        sites = plan.sites
    elif execution.only_called(ctx, fn):
        sites = ctx.graph.call_sites(fn)
    else:
        return False
    return arrays_at_calls(ctx, sites, fn.params.index(param), param)


def _plan_parameter(ctx: ModuleContext, plan: JitPlan, param: str, facts) -> None:
    value = _received(ctx, plan, param)
    unknown = value.kind is Kind.UNKNOWN and param not in facts.static
    if unknown and (_library_arrays(ctx, plan, param) or forwarded_to_jits(ctx, plan.fn, param)):
        return  # traced by the jit of a library method, or of the functions it goes to
    if param in facts.static:
        if value.is_arrays:
            plan.problem = f"`{param}` is needed as a Python value but receives an array"
        else:
            plan.static[param] = facts.static[param]
    elif value.kind is Kind.SCALAR and param in facts.float_math:
        _plan_float(ctx, plan, param, facts.float_math[param])
    elif value.is_arrays or value.kind is Kind.SCALAR:
        return
    elif value.is_static_kind:
        plan.static[param] = f"it receives {value.kind.value}"
    elif value.kind is Kind.OBJECT and value.detail in overlays.STATIC_CLASSES:
        plan.static[param] = f"it receives an object of `{value.detail}`, immutable and hashable"
        _static_holders(ctx, plan, param)
    elif value.kind is Kind.HOST_ARRAY and value.dtype in jax_api.DEVICE_KEPT_DTYPES:
        why = _not_device_like(ctx, plan.fn, param)
        if why:  # in place, `x *= 2` writes the caller's array; traced, it rebinds `x`
            plan.doubts.append(f"`{param}` receives a NumPy array, which {why}")
    elif value.kind is Kind.HOST_ARRAY:
        plan.doubts.append(
            f"`{param}` receives a NumPy array, which jit turns into a device array "
            "(float64 becomes float32)"
        )
    elif value.kind is Kind.CALLABLE:
        plan.static[param] = "it receives a function"
        plan.doubts.append(f"`{param}` receives a function, which jit keeps as a static value")
    elif value.kind in _REFUSED:
        plan.problem = (
            f"`{param}` receives {value.kind.value}, which jit can neither trace nor keep "
            "as a constant without freezing its state"
        )
    else:
        plan.doubts.append(f"cannot prove what `{param}` receives")


def _static_holders(ctx: ModuleContext, plan: JitPlan, param: str) -> None:
    """A static library object runs the functions it holds (an optax schedule) at trace
    time only: what they read must not change (`facts/held_functions.py`). A global
    passed (or left to a default naming it) is judged as the step's own read; a local
    bound once to a call holding no function is a constant; any other is unproven."""
    index = plan.fn.params.index(param)
    for site in ctx.graph.call_sites(plan.fn):
        expr = site.argument(index, param)
        scope = site.stmt.scope if expr is not None else plan.fn.scope  # or its default's
        expr = expr if expr is not None else parameter_default(plan.fn, param)
        if type(expr) is not cst.Name:
            plan.doubts.append(f"cannot prove what functions `{param}` holds")
            return
        fn = enclosing_function(ctx, scope)
        if refers_to_global(ctx, fn, expr.value):
            changes, doubts = holder_reads(ctx, expr.value)
            if changes:
                plan.problem = f"`{param}` is kept static and it {changes[0]}"
                return
            plan.doubts += [f"`{param}` is kept static and it {d}" for d in doubts]
            continue
        held = held_locally(ctx, fn.qualname, expr.value) if fn is not None else None
        if held is None:
            plan.doubts.append(f"cannot prove what functions `{param}` (`{expr.value}`) holds")
        elif held:
            plan.doubts.append(
                f"`{param}` receives `{expr.value}`, which holds {held[0].what}; jit keeps it "
                "static, so it would freeze what that reads"
            )


def _plan_float(ctx: ModuleContext, plan: JitPlan, param: str, use: tracing.FloatUse) -> None:
    """A Python float that a Python sum may cancel (`1 - decay`, float32 traced): static
    where every call passes a constant (a few compilations, each computing as eagerly),
    else the premise is unproven."""
    index = plan.fn.params.index(param)
    sites = ctx.graph.call_sites(plan.fn)
    kinds = [
        _default_kind(ctx, plan.fn, param) if expr is None else classify(ctx, site, expr)
        for site in sites
        for expr in [site.argument(index, param)]
    ]
    if sites and all(kind is ArgKind.CONSTANT for kind in kinds):
        plan.static[param] = f"`{use.expr}` is computed in float64 eagerly, float32 traced"
    else:
        plan.doubts.append(float_doubt(param, use))


def _check_static(ctx: ModuleContext, plan: JitPlan) -> None:
    """Every static argument must be one hashable constant at every call site."""
    fn = plan.fn
    if type(fn.node.params.star_arg) is cst.Param:
        plan.problem = "its static arguments follow `*args`"
        return
    if execution.runs_traced(ctx, fn):
        plan.doubts.append("it is also called from traced code, where a static argument fails")
    for name in plan.static:
        index = fn.params.index(name)
        for site in ctx.graph.call_sites(fn):
            expr = site.argument(index, name)
            kind = _default_kind(ctx, fn, name) if expr is None else classify(ctx, site, expr)
            problem = _static_kind_problem(ctx, name, expr, kind)
            if problem:
                plan.problem = problem
                return
            if kind is ArgKind.UNKNOWN:
                plan.doubts.append(
                    f"cannot prove every call passes a hashable constant for `{name}`"
                )


def _default_kind(ctx: ModuleContext, fn: Function, name: str) -> ArgKind:
    """A parameter left to its default: constant when the default is a hashable constant."""
    default = parameter_default(fn, name)
    if default is None:
        return ArgKind.UNKNOWN
    value = model(ctx).value_of(ctx.graph.stmts[fn.header], default)
    return ArgKind.CONSTANT if value.constant else ArgKind.UNKNOWN


def _static_kind_problem(
    ctx: ModuleContext, name: str, expr: cst.BaseExpression | None, kind: ArgKind
) -> str:
    if kind is ArgKind.VARYING and expr is not None:
        return (
            f"`{name}` must be static and changes on every iteration "
            f"(`{ctx.code(expr)}`): jit would recompile on every call"
        )
    if kind is ArgKind.UNHASHABLE:
        return f"`{name}` must be static and receives an unhashable value; pass a tuple"
    if kind is ArgKind.ARRAY:
        return f"`{name}` is needed as a Python value but receives an array"
    return ""


def escapes_to_pickling(ctx: ModuleContext, fn: Function) -> bool:
    """Whether `fn` is handed to pickling or multiprocessing (it must stay a plain `def`)."""
    for stmt in ctx.graph.references(fn.name):
        for call in stmt.calls:
            passed = any(type(a.value) is cst.Name and a.value.value == fn.name for a in call.args)
            if not passed:
                continue
            qual = ctx.qualify(call.func) or ""
            method = call.func.attr.value if type(call.func) is cst.Attribute else ""
            if (
                qual.startswith(python_api.PICKLING_PREFIXES)
                or method in python_api.PICKLING_METHODS
            ):
                return True
    return False


def _not_device_like(ctx: ModuleContext, fn: Function, param: str) -> str:
    """Why a NumPy array of a dtype jit keeps may not be replaced by its device copy in
    `fn` ("" when it may): `fn`, or code it calls, may write it in place (`x *= 2` writes
    the caller's array; traced, it rebinds `x`). Asking its type is a tracing problem
    (`facts/tracing.py`)."""
    changed = writes(ctx, fn)
    if changed is None or param in changed.params:
        return f"`{fn.name}` may change in place (a traced array is rebound instead)"
    return ""
