"""Which inputs of a jitted function may be donated: the donation verdict.

A target is a jitted function (or one AO101's plan jits) whose options may take
`donate_argnames`. An input may be donated when, at every call, the argument is a
plain name the call's result rebinds and nothing reads its buffers afterwards: not
the same call twice, not an alias (`analysis/facts/aliases.py`: a name that may hold one
object with it, `Sharing.may_share`, not one a third value merely holds too), not a nested or
other function, not the caller that handed it in, and no place that may keep a
reference (what autoopt cannot see, a class attribute, a module's container, a
cache: `Sharing.retained_by`) of a value that may hold one object with it
(`Sharing.may_share`: a score that holds both the model and a batch from a loader
joins neither to the other). Each verdict is a fix
applicability and the premise that failed, as text. AO201 words these verdicts as
findings; AO103 asks `safe_donations` of its extracted step.

The frameworks' jits are targets too. `nnx.jit` takes jax.jit's `donate_argnames`, and
writes a module argument's state back into it after every call: a name proven to hold an
nnx module (`analysis/facts/nnx_modules.py`) is replaced by the call even where nothing
rebinds it (`loss = step(model, x)`), and its aliases are judged as a rebound array's
(unsafe for a module class of the program, which may tie two variables to one array); two
modules built one from the other and passed together are unsafe (nnx passes a module they
share once; an array they share otherwise is not ruled out). A name that shares the module's
buffers only through code autoopt cannot see is no alias when it holds no array (a loop
counter, a NumPy Generator) or was made before the module was built
(`analysis/facts/module_provenance.py`: a data batch); the module handed to such code is
then the premise that fails. A donation is proven only of
an argument proven an array, a pytree of them or such a module at every call, and unsafe
otherwise. `eqx.filter_jit`
donates by mode (`overlays/equinox.py`): the array leaves of every argument (`"all"`) or
of all but the first (`"all-except-first"`); a mode is offered only when each argument
it donates may be donated, holds no array at any call (a number, a string, None, a
function or an optimizer: `facts/no_arrays.py`), is a NumPy array (jit donates the
device copy it makes: `overlays/jax.py` `DEVICE_COPIED`), or is dead after every call
though nothing replaces it: a plain name passed once and read by nothing after the call,
a loop's new batch (`facts/loop_batches.py`) or a name whose aliases are judged as a
replaced argument's. Where that is unproven the mode's fix is unsafe, naming the premise;
where the argument may be read after the call, or a proven alias of it is, there is none.
Where neither mode fits, `kept_arguments` names the arguments to keep from donation (those
nothing replaces and not proven dead), which `plans/keep_first.py` may move first.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import is_constant, is_literal, read_names
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.core.jitted import (
    call_sites,
    can_add_donation,
    is_escaping,
    jit_decorator,
    jit_options,
    jitted_callables,
    literal_ints,
    own_exprs,
    rebound_attribute_jits,
)
from autoopt.analysis.core.jitted_methods import jitted_methods
from autoopt.analysis.facts.alias_reasons import why_shared
from autoopt.analysis.facts.aliases import RETAINED, Sharing, is_pseudo, repeated_leaf
from autoopt.analysis.facts.attributes import attribute_verdict
from autoopt.analysis.facts.escape import namespace_escape, sharing_at
from autoopt.analysis.facts.jit_plan import JitPlan, candidate_plan, plans
from autoopt.analysis.facts.known_callers import known_call_sites
from autoopt.analysis.facts.loop_batches import ARRAY_TYPES, batch_verdict
from autoopt.analysis.facts.module_provenance import made_before
from autoopt.analysis.facts.nnx_modules import built_from_fields, holds_module
from autoopt.analysis.facts.nnx_optimizers import own_optimizer
from autoopt.analysis.facts.no_arrays import holds_no_array
from autoopt.analysis.facts.reflection import locals_escape
from autoopt.analysis.facts.shadowed_imports import reads_import_only
from autoopt.analysis.facts.syntax_hooks import keeping_hook
from autoopt.analysis.facts.wrapper_fields import field_clear, holds_whole, instance
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model
from autoopt.model import Applicability

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE
_ORDER = {_SAFE: 0, _UNSAFE: 1, _NONE: 2}

#: A parameter that may be donated, the fix its donation allows and the note on it.
Donation = tuple[str, Applicability, str]
#: Values that hold no array: `eqx.filter_jit` has nothing of theirs to donate.
_NO_ARRAYS = frozenset({Kind.SCALAR, Kind.STRING, Kind.DTYPE, Kind.SHAPE, Kind.NONE})
#: Host objects (`Kind.OBJECT` details) that hold no device buffer: a NumPy Generator
#: (no attribute can be set on it). A NumPy array may: `np.asarray` of a CPU array shares
#: its memory.
_BUFFERLESS_OBJECTS = frozenset({"numpy-rng"})
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
        numbers = literal_ints(self.options.get("static_argnums"))
        done = _literal_names(self.options.get("donate_argnames"))
        if numbers is None:
            return  # static positions not read: any parameter may be static
        params = fn.node.params
        named = [*params.posonly_params, *params.params, *params.kwonly_params]
        for param in named:
            name = param.name.value
            index = fn.params.index(name)
            if name not in static | done and index not in numbers:
                yield index, name


def targets(ctx: ModuleContext, name: str | None = None) -> Iterator[Target]:
    """Every jitted function and AO101 plan that may donate (only those called `name`)."""
    for jitted in [*jitted_callables(ctx, True), *rebound_attribute_jits(ctx, True)]:
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
    for jitted in jitted_methods(ctx):  # `gan.update(...)`, `self` static
        fn = jitted.function
        decorator = jitted.carrier
        if fn is None or type(decorator) is not cst.Decorator or "donate_argnums" in jitted.options:
            continue
        if (name is None or jitted.name == name) and can_add_donation(decorator.decorator):
            yield Target(jitted.name, fn, jitted.options, fn.node)
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
    sites = [CallSite(s.stmt, s.call, fn, fn.is_method) for s in call_sites(ctx, target.name)]
    donate: list[Donation] = []
    blocked: list[str] = []
    in_place = target.transform in overlays.UPDATES_MODULES
    for index, param in target.candidates() if sites else ():
        found = [_site_verdict(ctx, site, index, param, in_place) for site in sites]
        proven = [v for v in found if v is not None]
        if len(proven) < len(found):
            continue
        fix, why = max(proven, key=lambda v: _ORDER[v[0]])
        if fix is not _NONE and target.transform == "flax.nnx.jit":
            # an nnx module updated in place is the first premise to fail, where it fails
            module_fix, module_why = _module_premise(ctx, sites, index, param)
            if module_fix is _UNSAFE:
                fix, why = module_fix, module_why
        if fix is _SAFE and keeping_hook(ctx):
            fix, why = _UNSAFE, keeping_hook(ctx)  # code no call shows may keep the buffers
        if fix is _NONE:
            blocked.append(why)
        else:
            donate.append((param, fix, why))
    return donate, blocked


def _module_premise(
    ctx: ModuleContext, sites: list[CallSite], index: int, param: str
) -> tuple[Applicability, str]:
    """Safe when the argument for `param` is an array or a pytree of them, or a name
    proven to hold an nnx module (which `nnx.jit` writes back), at every call; otherwise
    it may be a module autoopt cannot follow, updated in place."""
    if all(_plain_or_module(ctx, site, index, param) for site in sites):
        return _SAFE, ""
    return _UNSAFE, (
        f"`{param}` may be an nnx module, which `nnx.jit` updates in place: its donation is "
        "not proven safe"
    )


def _plain_or_module(ctx: ModuleContext, site: CallSite, index: int, param: str) -> bool:
    if _kind(ctx, site, index, param) in _PLAIN_ARRAYS:
        return True
    expr = site.argument(index, param)
    return type(expr) is cst.Name and holds_module(ctx, site.stmt, expr.value)


def _kind(ctx: ModuleContext, site: CallSite, index: int, param: str) -> Kind | None:
    expr = site.argument(index, param)
    return None if expr is None else model(ctx).value_of(site.stmt, expr).kind


def donate_mode(
    ctx: ModuleContext, target: Target, donate: list[Donation]
) -> tuple[str | None, list[Donation], str]:
    """The `donate=` mode of an `eqx.filter_jit` target that donates only what may be
    donated (`"all"` before `"all-except-first"`), the donations it makes (those of
    arguments nothing replaces too, with their fix), and else the argument that blocks
    both."""
    fn = target.function
    params = fn.node.params
    if type(params.star_arg) is cst.Param or params.star_kwarg is not None or not fn.params:
        return None, [], f"`{fn.name}` takes `*args` or `**kwargs`"
    allowed = {param: (param, fix, why) for param, fix, why in donate}
    sites = [CallSite(s.stmt, s.call, fn, fn.is_method) for s in call_sites(ctx, target.name)]
    missing = ""
    only_arrays = target.transform in eqx_api.DONATES_ONLY_ARRAYS
    for mode, donated in (("all", fn.params), ("all-except-first", fn.params[1:])):
        made = [allowed.get(p) or _spare(ctx, sites, fn, p, only_arrays) for p in donated]
        blocking = [d for d in made if d[1] is _NONE]
        if not blocking:
            return mode, [d for d in made if d[1] is not _SAFE or d[0] in allowed], ""
        missing = missing or blocking[0][2]
    return None, [], missing


def kept_arguments(
    ctx: ModuleContext, target: Target, donate: list[Donation]
) -> tuple[list[str], list[Donation]]:
    """Where no `donate=` mode of an `eqx.filter_jit` target fits: the parameters to keep
    from donation, those no call replaces whose donation is not proven safe (read after a
    call, or unproven dead), and the donations the others then make (as `donate_mode`'s)."""
    fn = target.function
    allowed = {param: (param, fix, why) for param, fix, why in donate}
    sites = [CallSite(s.stmt, s.call, fn) for s in call_sites(ctx, target.name)]
    only_arrays = target.transform in eqx_api.DONATES_ONLY_ARRAYS
    kept: list[str] = []
    donated: list[Donation] = []
    for param in fn.params:
        made = allowed.get(param) or _spare(ctx, sites, fn, param, only_arrays)
        if param not in allowed and made[1] is not _SAFE:
            kept.append(param)
        elif made[1] is not _SAFE or param in allowed:
            donated.append(made)
    return kept, donated


def _spare(
    ctx: ModuleContext, sites: list[CallSite], fn: Function, param: str, only_arrays: bool
) -> Donation:
    """The donation of `param` by a mode though no call replaces it: safe where its
    argument holds no array or is proven dead after every call, unsafe where that is
    unproven, none where it is (or may be) read after a call. `only_arrays`: the jit
    donates only array leaves, so a function or an optimizer holds nothing it donates."""
    index = fn.params.index(param)
    found = [_spare_at(ctx, site, index, param, only_arrays) for site in sites]
    if not found:
        return param, _NONE, f"`{param}` is neither replaced by the call's output nor proven dead"
    fix, why = max(found, key=lambda v: _ORDER[v[0]])
    return param, fix, why


def _spare_at(
    ctx: ModuleContext, site: CallSite, index: int, param: str, only_arrays: bool
) -> tuple[Applicability, str]:
    """`_spare` at one call."""
    expr = site.argument(index, param)
    if _kind(ctx, site, index, param) in _NO_ARRAYS:
        return _SAFE, ""
    if only_arrays and expr is not None and holds_no_array(ctx, site.stmt, expr):
        return _SAFE, ""
    kind = _kind(ctx, site, index, param)
    if kind is not None and ARRAY_TYPES.get(kind, "") in jax_api.DEVICE_COPIED:
        return _SAFE, ""  # a NumPy array: the call donates the device copy it makes
    if type(expr) is not cst.Name:
        return _NONE, f"`{param}` is neither replaced by the call's output nor proven dead after it"
    name = expr.value
    passed = "" if name == param else f" (passed as `{name}`)"
    readers = ctx.graph.read_after(site.stmt, name)
    if readers:
        line = ctx.span(readers[0].node).line
        return _NONE, f"`{param}`{passed} may be read after the call, at line {line}"
    if sum(n.value == name for n in read_names(site.call)) > 1:
        return _NONE, f"`{name}` is passed twice in one call at line {ctx.span(site.call).line}"
    outside = _outside_reader(ctx, site.stmt.scope, {name})
    if outside:
        return _NONE, outside
    batch = batch_verdict(ctx, site.stmt, name)
    if batch is not None:
        return batch
    repeated = repeated_leaf(ctx, site.stmt, name)
    if repeated is not None and repeated[1]:
        return _NONE, repeated[0]
    verdict = _alias_verdict(ctx, site, expr, name)
    return (_UNSAFE, repeated[0]) if repeated and verdict[0] is not _NONE else verdict


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


def _site_verdict(
    ctx: ModuleContext, site: CallSite, index: int, param: str, in_place: bool = False
) -> tuple[Applicability, str] | None:
    """Whether the argument for `param` is dead after this call (None: not replaced):
    the call's result rebinds it, or (`in_place`, a jit that writes module arguments
    back) it is a name proven to hold an nnx module."""
    expr = site.argument(index, param)
    if type(expr) is cst.Attribute:
        return attribute_verdict(ctx, site, expr)  # `self.state = step(self.state, b)`
    if type(expr) is not cst.Name:
        return None
    name = expr.value
    rebound = _rebound(site, name)
    if not rebound and not (in_place and holds_module(ctx, site.stmt, name)):
        return None
    in_place = in_place and not rebound
    if sum(n.value == name for n in read_names(site.call)) > 1:
        line = ctx.span(site.call).line
        return _NONE, f"`{name}` is passed twice in one call at line {line}"
    repeated = repeated_leaf(ctx, site.stmt, name)
    if repeated is not None and repeated[1]:
        return _NONE, repeated[0]
    verdict = _alias_verdict(ctx, site, expr, name, in_place)
    if repeated is not None and verdict[0] is not _NONE:
        return _UNSAFE, repeated[0]  # an alias read later is the stronger verdict
    if verdict[0] is _SAFE and in_place and not built_from_fields(ctx, site.stmt, name):
        return _UNSAFE, (
            f"cannot prove the leaves of `{name}` are distinct buffers: a module class of "
            "this file may hold one array in two variables (tied weights)"
        )
    return verdict


def _rebound(site: CallSite, name: str) -> bool:
    """`name = f(name, ...)`: the call's result rebinds the argument."""
    node = site.stmt.node
    return type(node) is cst.Assign and node.value is site.call and name in site.stmt.defs


def _alias_verdict(
    ctx: ModuleContext,
    site: CallSite,
    expr: cst.Name,
    name: str,
    in_place: bool = False,
    seen: frozenset[str] = frozenset(),
) -> tuple[Applicability, str]:
    graph = ctx.graph
    stmt = site.stmt
    sharing = sharing_at(ctx, stmt, name)
    strong = sharing.component({name}, weak=False) - {name}
    weak = sharing.component({name}, weak=True) - strong - {name}
    others = {n.value for a in site.call.args if a.value is not expr for n in read_names(a.value)}
    if site.bound:  # `obj.m(x)`: the instance is an input too (its attributes, as constants)
        others |= {n.value for n in read_names(site.call.func)}
    note = ""
    if in_place:  # no array, or made before the module was built: none of its buffers
        weak = {n for n in weak if not _unlike_module(ctx, stmt, n, name)}
    for group, fix in ((strong, _NONE), (weak, _UNSAFE)):
        # modules `nnx.jit` writes back: passed together, a module they share goes once
        modules = {n for n in group if in_place and holds_module(ctx, stmt, n)}
        group = {n for n in group if sharing.may_share(n, name)}  # not only held by a third
        twice = sorted(
            n for n in group & others if not _own_optimizers(ctx, stmt, n, name, in_place)
        )
        twice = [n for n in twice if not _clear_fields_only(ctx, site, sharing, expr, n, name)]
        if twice and set(twice) <= modules:
            note = note or (
                f"`{twice[0]}` is built from `{name}` and passed in the same call: `nnx.jit` "
                "passes a module they share once, but not proven to share no array otherwise"
            )
        elif twice:
            why = why_shared(ctx, site, sharing, twice[0], name)
            return (
                fix,
                f"`{twice[0]}` may hold the buffers of `{name}` and is passed in the same call"
                + why,
            )
        for alias in sorted(group - modules):
            readers = graph.read_after(stmt, alias)
            whole = _whole_holder(ctx, sharing, site, alias, name) if in_place and readers else "-"
            if readers and whole:
                at = ctx.span(readers[0].node).line
                why = f": {whole}" if whole != "-" else ""
                return (
                    fix,
                    f"`{alias}` may hold the buffers of `{name}` and is read at line {at}{why}",
                )
    verdict = _outside_verdict(ctx, site, name, sharing, strong | weak, seen)
    return (_UNSAFE, note) if note and verdict[0] is _SAFE else verdict


def _clear_fields_only(
    ctx: ModuleContext, site: CallSite, sharing: Sharing, expr: cst.Name, alias: str, name: str
) -> bool:
    """Whether the call reads `alias` only as fields (`diffusion.rates`) proven to hold
    none of `name`'s buffers (`analysis/facts/wrapper_fields.py`)."""
    if site.bound and any(n.value == alias for n in read_names(site.call.func)):
        return False
    parts = [a.value for a in site.call.args if a.value is not expr]
    reading = [p for p in parts if any(n.value == alias for n in read_names(p))]
    return all(
        type(p) is cst.Attribute and not field_clear(ctx, sharing, site.stmt, p, name)
        for p in reading
    )


def _whole_holder(
    ctx: ModuleContext, sharing: Sharing, site: CallSite, alias: str, name: str
) -> str:
    """Why `alias` may hold `name`'s buffers other than through modules the call is given,
    which `nnx.jit` writes back (`wrapper_fields.holds_whole`; empty: it holds none), or
    "-" where `alias` is no object of a class of the module."""
    if is_pseudo(alias) or not alias.isidentifier():
        return "-"
    if isinstance(instance(ctx, site.stmt, alias), str):
        return "-"
    return holds_whole(ctx, sharing, site, alias, name)


def _own_optimizers(
    ctx: ModuleContext, stmt: Stmt, one: str, other: str, deduped: bool = False
) -> bool:
    """One of the two names holds an nnx optimizer built from the module the other holds,
    sharing no array with it but that module (`analysis/facts/nnx_optimizers.py`;
    `deduped`: but variables, which `nnx.jit` passes once)."""
    return own_optimizer(ctx, stmt, one, other, deduped) or own_optimizer(
        ctx, stmt, other, one, deduped
    )


def _unlike_module(ctx: ModuleContext, stmt: Stmt, other: str, module: str) -> bool:
    """`other` holds no array where `stmt` reads it (a loop's counter, a NumPy Generator),
    or was made before the module `module` holds there was built
    (`analysis/facts/module_provenance.py`)."""
    if is_pseudo(other) or not other.isidentifier():
        return False
    kind = model(ctx).value_of(stmt, cst.Name(other)).kind
    return (
        kind in _NO_ARRAYS
        or _host_object(ctx, stmt, other)
        or made_before(ctx, stmt, other, module)
    )


def _host_object(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """Every binding of `name` in the scope of `stmt` (a local of a function, or a global
    no function declares `global`) gives an object that holds no device buffer
    (`_BUFFERLESS_OBJECTS`)."""
    fn = ctx.graph.functions.get(stmt.scope)
    if fn is not None and name in set(fn.params) | fn.globals | fn.nonlocals:
        return False
    if fn is None and any(name in f.globals for f in ctx.graph.functions.values()):
        return False
    binders = [s for s in ctx.graph.scope_stmts(stmt.scope) if name in s.defs]
    values = [model(ctx).defined(s, name) for s in binders]
    return bool(values) and all(
        v.kind is Kind.OBJECT and v.detail in _BUFFERLESS_OBJECTS for v in values
    )


def _outside_verdict(
    ctx: ModuleContext,
    site: CallSite,
    name: str,
    sharing: Sharing,
    aliases: set[str],
    seen: frozenset[str] = frozenset(),
) -> tuple[Applicability, str]:
    """The verdict on what outside the call's scope may read or keep `name`'s buffers."""
    reader = _outside_reader(ctx, site.stmt.scope, {name} | aliases)
    if reader:
        return _NONE, reader
    reflected = namespace_escape(ctx, site.stmt.scope)
    if reflected:
        return _UNSAFE, f"`{name}` is a global and {reflected}: code autoopt cannot see may read it"
    taken = locals_escape(ctx, site.stmt.scope)
    if taken:
        return _UNSAFE, f"`{name}` {taken}"
    near = sharing.component({name}, weak=False) | sharing.weak.get(name, set())
    keeper = sharing.retained_by(near)
    if keeper is not None:
        return _UNSAFE, f"`{name}` {keeper}"
    shared = {a for a in aliases - near if sharing.may_share(a, name)}  # not held by a third only
    for alias in sorted(shared - {RETAINED}):  # shared through unseen code
        keeper = sharing.retained_by({alias})
        if keeper is not None:
            if is_pseudo(alias):
                return _UNSAFE, f"`{name}` may share buffers with a value that {keeper}"
            return _UNSAFE, f"`{alias}`, which may hold the buffers of `{name}`, {keeper}"
    if RETAINED in shared | near:
        return _UNSAFE, f"`{name}` {sharing.retained_by({RETAINED})}"
    return _caller_value(ctx, site, name, aliases, seen)


def _outside_reader(ctx: ModuleContext, scope: str, names: set[str]) -> str | None:
    """A nested or other function that reads one of `names` from this scope (not a
    module function that runs only while the name holds an import,
    `facts/shadowed_imports.py`: it never reads the value bound later)."""
    fn = ctx.graph.functions.get(scope)
    if fn is not None:
        hit = sorted(names & (fn.captured | fn.globals | fn.nonlocals))
        return f"a nested function reads `{hit[0]}`" if hit else None
    for other in ctx.graph.functions.values():
        stmts = ctx.graph.scope_stmts(other.qualname)
        read = {n for s in stmts for n in s.uses} - _bound_around(ctx, other)
        hit = sorted(n for n in names & read if not reads_import_only(ctx, other, n))
        if hit:
            return f"the function `{other.name}` reads `{hit[0]}`"
    return None


def _bound_around(ctx: ModuleContext, fn: Function) -> set[str]:
    """The names `fn` reads that are not the module's: bound by `fn` itself or by a
    function it is nested in (each up to the first that declares them `global`; a class
    on the way ends the chain: what lies beyond is read as the module's)."""
    found: set[str] = set()
    inner: Function | None = fn
    declared: set[str] = set()
    while inner is not None:
        declared |= inner.globals
        stmts = ctx.graph.scope_stmts(inner.qualname)
        local = {n for s in stmts for n in s.defs} | set(inner.params)
        found |= local - declared - inner.nonlocals
        inner = ctx.graph.functions.get(inner.scope)
    return found


def _caller_value(
    ctx: ModuleContext, site: CallSite, name: str, aliases: set[str], seen: frozenset[str]
) -> tuple[Applicability, str]:
    """Unsafe when the first call may donate an array the calling function was given,
    unless every caller of that function is known and hands it a value dead after the
    call (`_callers_let_go`)."""
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
    for param in given:
        verdict = _callers_let_go(ctx, fn, param, seen)
        if verdict[0] is not _SAFE and seen:
            return verdict  # a caller's caller: the first caller words the premise
        if verdict[0] is not _SAFE:
            return _UNSAFE, (
                f"the first call donates `{param}`, the caller's array, which the caller may "
                f"still read: {verdict[1]}"
            )
    return _SAFE, ""


def _callers_let_go(
    ctx: ModuleContext, fn: Function, param: str, seen: frozenset[str]
) -> tuple[Applicability, str]:
    """Safe when every call of `fn` is known (`facts/known_callers.py`) and passes, for
    `param`, a plain name dead after the call (rebound by it or read by nothing after
    it) that no alias read later shares and that its own caller may let go in turn."""
    if fn.qualname in seen:
        return _UNSAFE, f"`{fn.name}` is reached again through its own callers"
    sites, unknown = known_call_sites(ctx, fn)
    if unknown:
        return _UNSAFE, unknown
    if not sites:
        return _UNSAFE, f"`{fn.name}` is never called in this module"
    for site in sites:
        verdict = _let_go_at(ctx, site, fn, param, seen | {fn.qualname})
        if verdict[0] is not _SAFE:
            return verdict
    return _SAFE, ""


def _let_go_at(
    ctx: ModuleContext, site: CallSite, fn: Function, param: str, seen: frozenset[str]
) -> tuple[Applicability, str]:
    """`_callers_let_go` at one call of `fn`."""
    called = f"`{fn.name}`"
    line = ctx.span(site.call).line
    if any(type(node) is cst.Lambda for node in ctx.ancestors(site.call)):
        return _UNSAFE, f"the call of {called} at line {line} is in a lambda"
    expr = site.argument(fn.params.index(param), param)
    if _passes_no_array(ctx, site, fn, param, expr):
        return _SAFE, ""
    if site.stmt.comprehension:
        return _UNSAFE, f"the call of {called} at line {line} is in a comprehension"
    if type(expr) is not cst.Name:
        return _UNSAFE, f"the call of {called} at line {line} passes `{param}` no plain name"
    name = expr.value
    if _reads_in(site.stmt, name) > 1:
        return _UNSAFE, f"`{name}` is read again in the call of {called} at line {line}"
    readers = ctx.graph.read_after(site.stmt, name)
    if readers:
        at = ctx.span(readers[0].node).line
        return _UNSAFE, (
            f"`{name}`, passed to {called} at line {line}, may be read after the call, at line {at}"
        )
    repeated = repeated_leaf(ctx, site.stmt, name)  # `train((w, w))`: `w` donated twice
    if repeated is not None:
        return _UNSAFE, f"at the call of {called} at line {line}, {repeated[0]}"
    verdict = _alias_verdict(ctx, site, expr, name, seen=seen)
    if verdict[0] is not _SAFE:
        return _UNSAFE, f"at the call of {called} at line {line}, {verdict[1]}"
    return _SAFE, ""


def _passes_no_array(
    ctx: ModuleContext,
    site: CallSite,
    fn: Function,
    param: str,
    expr: cst.BaseExpression | None,
) -> bool:
    """The call binds `param` to a value with no array: one written out in the call
    (`core.exprs.is_literal`), a default no call can change (`is_constant`: a list
    default may be appended to) where the call spreads no `*args`/`**kwargs`, or a value
    the value model knows holds none."""
    if expr is None:
        if any(arg.star for arg in site.call.args):
            return False
        params = fn.node.params
        found = [p for p in (*params.params, *params.kwonly_params) if p.name.value == param]
        expr = found[0].default if found else None
        return expr is not None and is_constant(expr)
    if is_literal(expr):
        return True
    return model(ctx).value_of(site.stmt, expr).kind in _NO_ARRAYS


def _reads_in(stmt: Stmt, name: str) -> int:
    """How often the statement itself reads `name` (an assignment's plain name targets,
    which it binds, not counted)."""
    node = stmt.node
    exprs: list[cst.CSTNode] = own_exprs(stmt)
    if type(node) is cst.Assign and _only_names(node):
        exprs = [node.value]
    return sum(n.value == name for e in exprs for n in read_names(e))


def _only_names(node: cst.Assign) -> bool:
    """Every target is a name or a (nested) tuple or list of names."""

    def names(target: cst.BaseExpression) -> bool:
        if type(target) is cst.Name:
            return True
        if type(target) is cst.Tuple or type(target) is cst.List:
            return all(names(e.value) for e in target.elements)
        return False

    return all(names(t.target) for t in node.targets)
