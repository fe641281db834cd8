"""Which inputs of a jitted function may be donated: the donation verdict.

A target is a jitted function (or one AO101's plan jits) whose options may take
`donate_argnames`. An input may be donated when, at every call, the argument is a
plain name the call's result rebinds and nothing reads its buffers afterwards: not
the same call twice, not an alias (`analysis/facts/aliases.py`), not a nested or
other function, not the caller that handed it in, and no place that may keep a
reference (what autoopt cannot see, a class attribute, a module's container, a
cache: `Sharing.retained_by`). Each verdict is a fix
applicability and the premise that failed, as text. AO201 words these verdicts as
findings; AO103 asks `safe_donations` of its extracted step.

The frameworks' jits are targets too. `nnx.jit` takes jax.jit's `donate_argnames`, but
updates a module argument in place: a donation is proven only of an argument proven an
array (or a pytree of them) at every call, and unsafe otherwise. `eqx.filter_jit`
donates by mode (`overlays/equinox.py`): the array leaves of every argument (`"all"`) or
of all but the first (`"all-except-first"`); a mode is offered only when each argument
it donates may be donated, or holds no array at any call (a number, a string, None).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import MODULE, CallSite, Function
from autoopt.analysis.core.jitted import (
    call_sites,
    can_add_donation,
    is_escaping,
    jit_decorator,
    jit_options,
    jitted_callables,
)
from autoopt.analysis.facts.aliases import Sharing, is_pseudo, repeated_leaf
from autoopt.analysis.facts.attributes import attribute_verdict
from autoopt.analysis.facts.jit_plan import JitPlan, candidate_plan, plans
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model
from autoopt.model import Applicability

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE
_ORDER = {_SAFE: 0, _UNSAFE: 1, _NONE: 2}

#: A parameter that may be donated, the fix its donation allows and the note on it.
Donation = tuple[str, Applicability, str]
#: Values that hold no array: `eqx.filter_jit` has nothing of theirs to donate.
_NO_ARRAYS = frozenset({Kind.SCALAR, Kind.STRING, Kind.DTYPE, Kind.SHAPE, Kind.NONE})
#: Values an `nnx.jit` donation is proven of: no module among them.
_PLAIN_ARRAYS = frozenset({Kind.ARRAY, Kind.PYTREE})


def weakest(fixes: Iterable[Applicability]) -> Applicability:
    """The least trusted of `fixes` (none below unsafe below safe)."""
    return max(fixes, key=_ORDER.__getitem__)


@dataclass(frozen=True)
class Target:
    """A jitted function (or one AO101 jits in this run) and where its options live."""

    name: str
    function: Function
    options: dict[str, cst.BaseExpression]
    carrier: cst.CSTNode  # the decorated FunctionDef or the `jax.jit(...)` call
    plan: JitPlan | None = None  # AO101's plan, when AO101 adds the jit
    transform: str = "jax.jit"  # the jit: `jax.jit` or one of `jitted.FRAMEWORK_JITS`

    @property
    def fix(self) -> Applicability:
        """How far the jit itself is proven: AO101's plan's fix, else safe."""
        return _SAFE if self.plan is None else self.plan.fix

    @property
    def is_decorated(self) -> bool:
        return type(self.carrier) is cst.FunctionDef

    def candidates(self) -> Iterator[tuple[int, str]]:
        """(position, name) of the parameters that may be donated by name."""
        fn = self.function
        static = _literal_names(self.options.get("static_argnames"))
        numbers = _literal_ints(self.options.get("static_argnums"))
        done = _literal_names(self.options.get("donate_argnames"))
        params = fn.node.params
        named = [*params.posonly_params, *params.params, *params.kwonly_params]
        for param in named:
            name = param.name.value
            index = fn.params.index(name)
            if name not in static | done and index not in numbers:
                yield index, name


def targets(ctx: ModuleContext, name: str | None = None) -> Iterator[Target]:
    """Every jitted function and AO101 plan that may donate (only those called `name`)."""
    for jitted in jitted_callables(ctx, frameworks=True):
        fn = jitted.function
        if fn is None or {"donate_argnums", *eqx_api.DONATE_OPTION.values()} & set(jitted.options):
            continue
        if name is not None and jitted.name != name:
            continue
        jit = jitted.carrier
        spelling: cst.BaseExpression
        carrier: cst.CSTNode
        if type(jit) is cst.Decorator:
            spelling, carrier = jit.decorator, fn.node
        elif type(jit) is cst.Call:
            spelling, carrier = jit, jit
        else:
            continue  # never: a jit is a decorator or a `jax.jit(...)` call
        if not can_add_donation(spelling):
            continue  # `donate_argnames=NAMES` or `**options`: what it donates is not known
        yield Target(jitted.name, fn, jitted.options, carrier, None, jitted.transform)
    for plan in plans(ctx) if name is None else _named_plans(ctx, name):
        fn = plan.fn
        if plan.fix is _NONE or plan.wrap_at_loops or fn.scope != MODULE:
            continue
        text, _ = jit_decorator(ctx, list(plan.static))
        options = ctx.per_module(_decorator_options, text)
        yield Target(fn.name, fn, options, fn.node, plan)


def safe_donations(ctx: ModuleContext, name: str) -> list[str]:
    """The parameters of the jitted function `name` (or one AO101 jits) whose donation
    is proven harmless at every call, when the function's own jit is proven too."""
    for target in targets(ctx, name):
        if target.transform == "jax.jit" and target.fix is _SAFE and not is_escaping(ctx, name):
            donate, _ = verdicts(ctx, target)
            return [param for param, fix, _ in donate if fix is _SAFE]
    return []


def verdicts(ctx: ModuleContext, target: Target) -> tuple[list[Donation], list[str]]:
    """The parameters that may be donated, with the fix and its note, and why the
    others may not."""
    fn = target.function
    sites = [CallSite(s.stmt, s.call, fn) for s in call_sites(ctx, target.name)]
    donate: list[Donation] = []
    blocked: list[str] = []
    for index, param in target.candidates() if sites else ():
        found = [_site_verdict(ctx, site, index, param) for site in sites]
        proven = [v for v in found if v is not None]
        if len(proven) < len(found):
            continue
        fix, why = max(proven, key=lambda v: _ORDER[v[0]])
        if fix is not _NONE and target.transform == "flax.nnx.jit":
            # an nnx module updated in place is the first premise to fail, where it fails
            module_fix, module_why = _module_premise(ctx, sites, index, param)
            if module_fix is _UNSAFE:
                fix, why = module_fix, module_why
        if fix is _NONE:
            blocked.append(why)
        else:
            donate.append((param, fix, why))
    return donate, blocked


def _module_premise(
    ctx: ModuleContext, sites: list[CallSite], index: int, param: str
) -> tuple[Applicability, str]:
    """Safe when the argument for `param` is an array or a pytree of them at every call;
    otherwise it may be an nnx module, which `nnx.jit` updates in place."""
    if all(_kind(ctx, site, index, param) in _PLAIN_ARRAYS for site in sites):
        return _SAFE, ""
    return _UNSAFE, (
        f"`{param}` may be an nnx module, which `nnx.jit` updates in place: its donation is "
        "not proven safe"
    )


def _kind(ctx: ModuleContext, site: CallSite, index: int, param: str) -> Kind | None:
    expr = site.argument(index, param)
    return None if expr is None else model(ctx).value_of(site.stmt, expr).kind


def donate_mode(
    ctx: ModuleContext, target: Target, donate: list[Donation]
) -> tuple[str | None, list[Donation], str]:
    """The `donate=` mode of an `eqx.filter_jit` target that donates only what may be
    donated (`"all"` before `"all-except-first"`), the donations it makes, and else
    the argument that blocks both."""
    fn = target.function
    params = fn.node.params
    if type(params.star_arg) is cst.Param or params.star_kwarg is not None or not fn.params:
        return None, [], f"`{fn.name}` takes `*args` or `**kwargs`"
    allowed = {param: (param, fix, why) for param, fix, why in donate}
    sites = [CallSite(s.stmt, s.call, fn) for s in call_sites(ctx, target.name)]
    missing = ""
    for mode, donated in (("all", fn.params), ("all-except-first", fn.params[1:])):
        blocking = [
            p for p in donated if p not in allowed and not _holds_no_array(ctx, sites, fn, p)
        ]
        if not blocking:
            return mode, [allowed[p] for p in donated if p in allowed], ""
        missing = missing or blocking[0]
    return None, [], f"`{missing}` is not replaced by the call's output"


def _holds_no_array(ctx: ModuleContext, sites: list[CallSite], fn: Function, param: str) -> bool:
    """Whether the argument for `param` is a number, a string or None at every call."""
    index = fn.params.index(param)
    return bool(sites) and all(_kind(ctx, site, index, param) in _NO_ARRAYS for site in sites)


def _decorator_options(ctx: ModuleContext, text: str) -> dict[str, cst.BaseExpression]:
    """The options of the jit decorator `text` AO101 writes (parsed once per module)."""
    return jit_options(ctx, cst.parse_expression(text)) or {}


def _named_plans(ctx: ModuleContext, name: str) -> list[JitPlan]:
    """The plan `plans(ctx)` has for the module function `name` (not the others')."""
    fn = ctx.graph.functions.get(name)
    plan = None if fn is None else candidate_plan(ctx, fn)
    return [] if plan is None else [plan]


def _literal_names(expr: cst.BaseExpression | None) -> set[str]:
    if type(expr) is cst.SimpleString:
        return {str(expr.evaluated_value)}
    if type(expr) is cst.Tuple or type(expr) is cst.List:
        return {
            str(e.value.evaluated_value) for e in expr.elements if type(e.value) is cst.SimpleString
        }
    return set()


def _literal_ints(expr: cst.BaseExpression | None) -> set[int]:
    if type(expr) is cst.Integer:
        return {int(expr.value)}
    if type(expr) is cst.Tuple or type(expr) is cst.List:
        return {int(e.value.value) for e in expr.elements if type(e.value) is cst.Integer}
    return set()


def _site_verdict(
    ctx: ModuleContext, site: CallSite, index: int, param: str
) -> tuple[Applicability, str] | None:
    """Whether the argument for `param` is dead after this call (None: not replaced)."""
    expr = site.argument(index, param)
    node = site.stmt.node
    if type(expr) is cst.Attribute:
        return attribute_verdict(ctx, site, expr)  # `self.state = step(self.state, b)`
    if type(expr) is not cst.Name or type(node) is not cst.Assign:
        return None
    name = expr.value
    if node.value is not site.call or name not in site.stmt.defs:
        return None
    if sum(n.value == name for n in read_names(site.call)) > 1:
        line = ctx.span(site.call).line
        return _NONE, f"`{name}` is passed twice in one call at line {line}"
    repeated = repeated_leaf(ctx, site.stmt, name)
    if repeated is not None:
        why, proven = repeated
        return (_NONE if proven else _UNSAFE), why
    return _alias_verdict(ctx, site, expr, name)


def _alias_verdict(
    ctx: ModuleContext, site: CallSite, expr: cst.Name, name: str
) -> tuple[Applicability, str]:
    graph = ctx.graph
    stmt = site.stmt
    sharing = ctx.per_module(_sharing_around, stmt.scope, stmt.id)
    strong = sharing.component({name}, weak=False) - {name}
    weak = sharing.component({name}, weak=True) - strong - {name}
    others = {n.value for a in site.call.args if a.value is not expr for n in read_names(a.value)}
    for group, fix in ((strong, _NONE), (weak, _UNSAFE)):
        twice = sorted(group & others)
        if twice:
            return (
                fix,
                f"`{twice[0]}` may hold the buffers of `{name}` and is passed in the same call",
            )
        for alias in sorted(group):
            readers = graph.read_after(stmt, alias)
            if readers:
                at = ctx.span(readers[0].node).line
                return fix, f"`{alias}` may hold the buffers of `{name}` and is read at line {at}"
    reader = _outside_reader(ctx, stmt.scope, {name} | strong | weak)
    if reader:
        return _NONE, reader
    keeper = sharing.retained_by({name} | strong | weak)
    if keeper is not None:
        return _UNSAFE, f"`{name}` {keeper}"
    return _caller_value(ctx, site, name, strong | weak)


def _sharing_around(ctx: ModuleContext, scope: str, stmt_id: int) -> Sharing:
    """The may-share relation of `scope` without the statement `stmt_id` (the call whose
    arguments are judged), once for every parameter it passes."""
    return Sharing(ctx, scope, skip=ctx.graph.stmts[stmt_id])


def _outside_reader(ctx: ModuleContext, scope: str, names: set[str]) -> str | None:
    """A nested or other function that reads one of `names` from this scope."""
    fn = ctx.graph.functions.get(scope)
    if fn is not None:
        hit = sorted(names & (fn.captured | fn.globals | fn.nonlocals))
        return f"a nested function reads `{hit[0]}`" if hit else None
    for other in ctx.graph.functions.values():
        stmts = ctx.graph.scope_stmts(other.qualname)
        local = {n for s in stmts for n in s.defs} | set(other.params)
        read = {n for s in stmts for n in s.uses} - local
        if names & read:
            return f"the function `{other.name}` reads `{sorted(names & read)[0]}`"
    return None


def _caller_value(
    ctx: ModuleContext, site: CallSite, name: str, aliases: set[str]
) -> tuple[Applicability, str]:
    """Unsafe when the first call may donate an array the calling function was given."""
    fn = ctx.graph.functions.get(site.stmt.scope)
    if fn is None:
        return _SAFE, ""
    local = {n for s in ctx.graph.scope_stmts(fn.qualname) for n in s.defs}
    outside = sorted(n for n in aliases - local - set(fn.params) if not is_pseudo(n))
    if outside:
        return _UNSAFE, (
            f"`{outside[0]}` lives outside `{fn.name}` and may be read again after the first "
            "call donates it"
        )
    given = sorted(set(fn.params) & aliases)
    own = [
        d
        for d in ctx.graph.scope_stmts(fn.qualname)
        if name in d.defs and d is not site.stmt and ctx.graph.dominates(d, site.stmt)
    ]
    if name in fn.params and not own:
        given.insert(0, name)
    if given:
        return _UNSAFE, (
            f"the first call donates `{given[0]}`, the caller's array, which the caller may "
            "still read"
        )
    return _SAFE, ""
