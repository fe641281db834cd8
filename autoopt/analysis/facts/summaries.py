"""Function summaries on the value model: what jit would need to know about a function.

A summary answers, once per function and shared by every rule: does the
function compute on JAX arrays (directly, through helpers, operators, `.at[]`
or array methods); what does it return; what would change if it ran traced
once and replayed (its impurities, `analysis/facts/purity.py`); where would a traced
value reach the host (NumPy calls, `isinstance`, text formatting, boolean-mask
indexing, data-dependent shapes, Python number modules like `math`, a cache
that hashes its arguments); and which outside state does it read that
jit would freeze at its first value (closures and globals the program may
change, host objects, NumPy buffers), through every module function it calls.

Calls are followed into the project functions they run, of this file or another
(`analysis/core/project.py`), with the arguments that receive a traced value.
A callee's decorator other than `jax.jit` is a doubt (`functools.lru_cache` a
handoff), and so is Python integer arithmetic on a traced Python number
(`tracing.TraceFacts.python_math`: exact eagerly, int32 traced) and a sum that may cancel
a traced Python float (`float_math`: float64 eagerly, float32 traced; a function's own
such parameter is made static where every call passes a constant, `jit_plan.py`). `handoffs_of`
answers the same for tracing some parameters only (the ones `vmap` maps).

A global is a constant of the trace only where nothing rebinds it: a name the
program changes (`analysis/facts/purity.py`, `changed_module_names`: assignments,
`global`, in-place changes, and rebinding by name through `globals()`, `setattr` on
the module object or another file's `mod.X = ...`, `analysis/facts/reflection.py`)
is a known change; where the module's namespace is reached in a way that may
rebind any global (`setattr(sys.modules[__name__], name, v)`), every global the
function reads is a doubt. A global of another project file read as an attribute
of its module (`cfg.GAIN`) is judged by that file's analysis alike (its value must
be immutable too); the attributes of installed modules are not. A closure's variable
is a constant of the trace only where the enclosing function binds it once, outside
its loops, and no function nested in it declares it `nonlocal`.

A parameter's default is evaluated once, when the `def` runs, and a traced call
that leaves the parameter to it reads that object as a constant of the trace. A
default that some call may leave alone (a call the module shows without it, or
any call when the function is used other than by direct calls) must be proven
immutable: a JAX array, a Python number, string, None, dtype, shape, callable,
module, a tuple of arrays or of constants, an instance of the module's immutable
pytree classes. Any other default (a NumPy buffer, a list or dict, a host object,
a value autoopt cannot see) is a doubt, and a known change where a name it reads
is changed in place by the module (`analysis/values/mutable.py`); so is every
default of a function the module changes itself (`f.__defaults__ = ...`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.execution import only_called
from autoopt.analysis.core.exprs import evaluated_exprs, is_at_update, read_names
from autoopt.analysis.core.graph import MODULE, Function, Stmt
from autoopt.analysis.core.jitted import jit_options
from autoopt.analysis.core.project import project_function, project_module
from autoopt.analysis.core.walk import walk
from autoopt.analysis.facts import purity, tracing
from autoopt.analysis.facts.closures import factory_closure
from autoopt.analysis.facts.data_fields import data_field
from autoopt.analysis.facts.held_functions import Held, held_by, registered_rules, state_changes
from autoopt.analysis.facts.library_objects import library_object, refers_to_global
from autoopt.analysis.facts.reflection import rebinding
from autoopt.analysis.overlays import flax_nnx as nnx_api
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.values.lattice import UNKNOWN, Kind, Value, join_all
from autoopt.analysis.values.model import model, parameter_default
from autoopt.analysis.values.mutable import changed_names

#: Outside values jit may bake in when nothing rebinds them: immutable ones.
_FROZEN_SAFE = (
    Kind.ARRAY, Kind.PYTREE, Kind.MODULE, Kind.CALLABLE, Kind.DTYPE, Kind.NONE, Kind.SCALAR,
    Kind.STRING, Kind.SHAPE,
)  # fmt: skip
#: Values that a field keeps unchanged once stored (no array changed in place).
_FIXED = frozenset({Kind.ARRAY, Kind.SCALAR, Kind.STRING, Kind.DTYPE, Kind.SHAPE, Kind.NONE})
_CODE = (Kind.MODULE, Kind.CALLABLE)  # globals named last in a doubt: modules, functions
#: Kinds of values nothing can change in place (a default of them is a constant).
_IMMUTABLE = (
    Kind.ARRAY, Kind.MODULE, Kind.CALLABLE, Kind.DTYPE, Kind.NONE, Kind.SCALAR, Kind.STRING,
    Kind.SHAPE,
)  # fmt: skip


@dataclass
class Summary:
    """What jit would need to know about one function."""

    fn: Function
    returns: Value
    array_function: bool
    impurities: list[str] = field(default_factory=list)  # jit would change what it does
    handoffs: list[str] = field(default_factory=list)  # a traced value would reach the host
    doubts: list[str] = field(default_factory=list)  # premises autoopt cannot prove


def summary(ctx: ModuleContext, fn: Function) -> Summary:
    """The summary of `fn`, computed once per module."""
    return ctx.per_function(_summary, fn)


def _summary(ctx: ModuleContext, fn: Function) -> Summary:
    return _summarise(ctx, fn, frozenset())


def _summarise(ctx: ModuleContext, fn: Function, seen: frozenset[str]) -> Summary:
    facts = tracing.analyse(ctx, fn)
    impure = purity.impurities(ctx, fn) + [
        f"reads `{n}`, which {purity.change_reason(ctx, n)} (jit would freeze it)"
        for n in purity.reads_module_state(ctx, fn)
    ]
    result = Summary(fn, model(ctx).returns(fn), _computes_on_arrays(ctx, fn, seen), impure)
    result.handoffs, result.doubts = _traced_uses(ctx, fn, seen)
    result.doubts += _number_doubts(ctx, fn, set(fn.params), floats=False)
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        result.doubts += _index_checks(ctx, stmt, facts.traced)[1]
    frozen, doubts = frozen_reads(ctx, fn, seen | {_key(ctx, fn)})
    result.impurities = list(dict.fromkeys(result.impurities + frozen))
    result.doubts += doubts
    result.doubts = list(dict.fromkeys(result.doubts))
    return result


def handoffs_of(ctx: ModuleContext, fn: Function, params: set[str]) -> list[str]:
    """Where tracing only `params` of `fn` (`vmap` maps them) hands a traced value to the
    host, through the project functions it calls: `Summary.handoffs` for those."""
    return _traced_uses(ctx, fn, frozenset(), tracing.reached(ctx, fn, params))[0]


def _traced_uses(
    ctx: ModuleContext, fn: Function, seen: frozenset[str], traced: set[str] | None = None
) -> tuple[list[str], list[str]]:
    """Where `fn`'s traced values (every non-static parameter's, unless `traced` says)
    would reach the host, and where that is unproven (Python arithmetic on a traced
    number, a decorator), through the project functions it calls."""
    traced = tracing.analyse(ctx, fn).traced if traced is None else traced
    found: list[str] = []
    doubts: list[str] = []
    inner = seen | {_key(ctx, fn)}
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        found += _handoffs(ctx, stmt, traced) + _index_checks(ctx, stmt, traced)[0]
        handoffs, unproven = _callee_uses(ctx, stmt, traced, inner)
        found += handoffs
        doubts += unproven
    return list(dict.fromkeys(found)), list(dict.fromkeys(doubts))


def _number_doubts(
    ctx: ModuleContext, fn: Function, params: set[str], floats: bool = True
) -> list[str]:
    """Python arithmetic on the traced Python numbers `params` of `fn`; sums on its Python
    floats too where `floats` (`jit_plan.py` judges `fn`'s own: static where constant)."""
    facts = tracing.analyse(ctx, fn)
    math = facts.python_math
    found = [
        f"`{p}` may be a Python int beyond int32, which a traced argument cannot hold"
        if math[p] == p
        else f"`{p}` may be a Python int that `{math[p]}` computes on exactly; traced, it is an "
        "int32 that wraps around"
        for p in sorted(params & math.keys())
    ]
    sums = facts.float_math if floats else {}
    return found + [float_doubt(p, sums[p]) for p in sorted(params & sums.keys())]


def float_doubt(param: str, use: tracing.FloatUse) -> str:
    """The premise a traced Python float `param` fails where `use` may change it."""
    return (
        f"`{param}` is a Python float and `{use.expr}` is computed in float64 eagerly, "
        f"float32 traced, where {use.why}"
    )


def _computes_on_arrays(ctx: ModuleContext, fn: Function, seen: frozenset[str]) -> bool:
    """JAX calls, `.at[]`, array-valued expressions, or a module helper that does."""
    values = model(ctx)
    if values.returns(fn).is_arrays:
        return True
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        for call in stmt.calls:
            qual = ctx.qualify(call.func) or ""
            if qual.startswith("jax") or is_at_update(call.func) or _project_arrays(ctx, qual):
                return True
            callee = _module_callee(ctx, stmt, call)
            inner = seen | {fn.qualname}
            if callee and callee.qualname not in inner and _computes_on_arrays(ctx, callee, inner):
                return True
    return False


def _project_arrays(ctx: ModuleContext, qual: str) -> bool:
    """A function of another project file that returns arrays or calls JAX itself."""
    found = project_function(ctx, qual)
    if found is None:
        return False
    other, fn = found
    if model(other).returns(fn).is_arrays:
        return True
    calls = (c for s in other.graph.scope_stmts(fn.qualname) for c in s.calls)
    return any((other.qualify(c.func) or "").startswith("jax") for c in calls)


def _module_callee(ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> Function | None:
    if type(call.func) is cst.Name:
        return ctx.graph.resolve_function(call.func.value, stmt.scope)
    return None


def _callee_uses(
    ctx: ModuleContext, stmt: Stmt, traced: set[str], seen: frozenset[str]
) -> tuple[list[str], list[str]]:
    """A traced value passed to a project function (of this file or another) that would
    hand it to the host, branch on it, need it as a Python value (a shape, a `range`
    bound) or hash it (a cache); a decorator autoopt cannot see through is a doubt."""
    found: list[str] = []
    doubts: list[str] = []
    for call in stmt.calls:
        target = _callee(ctx, stmt, call)
        if target is None or _key(*target) in seen:
            continue
        other, callee = target
        passed = _traced_params(callee, call, traced)
        if not passed:
            continue
        where = f"passes a traced value to `{callee.name}`"
        wrapper = _unseen_decorator(other, callee)
        if wrapper in python_api.CACHING_DECORATORS:
            found.append(
                f"{where}, which `{wrapper}` caches by its arguments (tracers are unhashable)"
            )
            continue
        if wrapper:
            doubts.append(f"{where}, whose decorator `{wrapper}` autoopt cannot see through")
        facts = tracing.analyse(other, callee)
        inner, inner_doubts = _traced_uses(other, callee, seen)
        static = sorted(p for p in passed if p in facts.static)
        if static:
            found.append(f"{where}, which needs `{static[0]}` as a Python value")
        elif facts.traced_control:
            found.append(f"{where}, where {facts.traced_control[0]}")
        elif inner:
            found.append(f"{where}, which {inner[0]}")
        doubts += [f"{where}, where {d}" for d in _number_doubts(other, callee, passed)]
        doubts += [f"{where}, which {d}" for d in inner_doubts]
    return found, doubts


def _unseen_decorator(ctx: ModuleContext, fn: Function) -> str:
    """The first decorator of `fn` other than `jax.jit`, a bare `nnx.jit` and
    `functools.partial(jax.jit, ...)` with donation options alone (qualified where
    known): traced, each is inlined into the caller's trace, where donation does nothing."""
    for decorator in fn.node.decorators:
        node = decorator.decorator
        func = node.func if type(node) is cst.Call else node
        if ctx.qualify(node) in nnx_api.JIT_LIKE:
            continue
        options = jit_options(ctx, node)
        if options is not None and set(options) <= _DONATION:
            continue
        if not ctx.is_jax(func, "jax.jit"):
            return ctx.qualify(func) or ctx.code(func)
    return ""


_DONATION = frozenset({"donate_argnums", "donate_argnames"})


def _traced_params(callee: Function, call: cst.Call, traced: set[str]) -> set[str]:
    """The callee's parameters that receive a traced value at this call (every one, when
    an argument is unpacked with `*` or `**`)."""
    passed = set()
    for position, arg in enumerate(call.args):
        if not _reads(arg.value, traced):
            continue
        if arg.star:
            return set(callee.params)
        if arg.keyword is not None:
            passed.add(arg.keyword.value)
        elif position < len(callee.positional):
            passed.add(callee.positional[position])
        else:
            return set(callee.params)
    return passed


def _handoffs(ctx: ModuleContext, stmt: Stmt, traced: set[str]) -> list[str]:
    """Where this statement would hand a traced value to Python or NumPy."""
    found = []
    for node in stmt.own_nodes:
        if type(node) is cst.Call:
            found += _call_handoff(ctx, node, traced)
        elif type(node) is cst.FormattedString and _reads(node, traced):
            found.append("formats a traced value as text")
    return found


def _call_handoff(ctx: ModuleContext, call: cst.Call, traced: set[str]) -> list[str]:
    qual = ctx.qualify(call.func) or ""
    args = [a.value for a in call.args]
    touched = sorted({n for a in args for n in _reads(a, traced)})
    if qual.startswith("numpy.") and touched:
        return [f"hands the traced `{touched[0]}` to NumPy (`{qual}`)"]
    if qual.partition(".")[0] in python_api.HOST_NUMBER_MODULES and touched:
        return [f"hands the traced `{touched[0]}` to `{qual}`, which needs a Python number"]
    name = call.func.value if type(call.func) is cst.Name else ""
    if name == "isinstance" and args and _reads(args[0], traced):
        return [f"tests `isinstance` on the traced `{ctx.code(args[0])}`"]
    if name in ("str", "repr", "format") and touched:
        return [f"formats the traced `{touched[0]}` as text"]
    if not qual.startswith("jax.numpy."):
        return []
    name = qual.removeprefix("jax.numpy.")
    needed = jax_api.CONCRETE_UNLESS.get(name) or (("size", None) if name == "where" else None)
    if needed is None or (name == "where" and len(args) != 1) or _given(call, *needed):
        return []
    keyword, value = needed
    wanted = f"{keyword}={value}" if value else f"{keyword}="
    return [f"calls `{qual}` without `{wanted}`: it needs concrete values (a data-dependent shape)"]


def _given(call: cst.Call, keyword: str, value: str | None) -> bool:
    """`call` passes `keyword` (with the literal `value`, unless None)."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return value is None or (type(arg.value) is cst.Name and arg.value.value == value)
    return False


def _index_checks(ctx: ModuleContext, stmt: Stmt, traced: set[str]) -> tuple[list[str], list[str]]:
    """Indexing a traced array with a boolean mask (fails under jit: a data-dependent
    shape) or with an array whose element type is unproven: (handoffs, doubts)."""
    values = model(ctx)
    masks, doubts = [], []
    for node in stmt.own_nodes:
        if type(node) is not cst.Subscript or not _reads(node.value, traced):
            continue
        for element in node.slice:
            index = element.slice
            if type(index) is not cst.Index:
                continue
            value = values.value_of(stmt, index.value)
            code = ctx.code(index.value)
            array = value.kind in (Kind.ARRAY, Kind.HOST_ARRAY)
            if not (array or type(index.value) is cst.Comparison) or value.detail == "int":
                continue
            traced_test = type(index.value) is cst.Comparison and _reads(index.value, traced)
            if value.detail == "bool" or traced_test:
                masks.append(f"indexes with the boolean mask `{code}` (a data-dependent shape)")
            else:
                doubts.append(f"cannot prove the index `{code}` is not a boolean mask")
    return masks, doubts


def frozen_reads(
    ctx: ModuleContext, fn: Function, seen: frozenset[str], within: str = ""
) -> tuple[list[str], list[str]]:
    """Outside state `fn` (or a module function it calls) reads that jit would freeze:
    (values the program changes, values autoopt cannot prove unchanging). `within`: the
    function `fn` is nested in that hands it on, whose variables are its own, not outside."""
    changes: list[str] = []
    doubts: list[str] = []
    anything = rebinding(ctx).anything
    reflected: set[tuple[bool, str]] = set()  # (holds code, name): globals anything rebinds
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        outside = sorted(_free_reads(ctx, fn, stmt) - _enclosing_names(ctx, fn, within))
        for name in outside:
            reason, doubt = _frozen(ctx, fn, stmt, name)
            changes += [reason] if reason else []
            doubts += [doubt] if doubt else []
            if anything and not reason and _global(ctx, fn, name):
                reflected.add((model(ctx).name(stmt, name).kind in _CODE, name))
        for reason, doubt in _project_globals(ctx, stmt.own_nodes):
            changes += [reason] if reason else []
            doubts += [doubt] if doubt else []
        for call in stmt.calls:
            found = _callee(ctx, stmt, call) or _held_function(ctx, stmt, call)
            if found is None or _key(*found) in seen:
                continue
            other, callee = found
            inner, inner_doubts = frozen_reads(other, callee, seen | {_key(other, callee)})
            changes += [f"calls `{callee.name}`, which {r}" for r in inner]
            doubts += [f"`{callee.name}` {d}" for d in inner_doubts]
        for other, used in _function_values(ctx, stmt):
            if _key(other, used) in seen:
                continue
            nested = other is ctx and used.qualname.startswith(f"{fn.qualname}.")
            inner, inner_doubts = frozen_reads(
                other, used, seen | {_key(other, used)}, fn.qualname if nested else ""
            )
            changes += [f"uses the function `{used.name}`, which {r}" for r in inner]
            doubts += [f"`{used.name}` {d}" for d in inner_doubts]
        for name in outside:
            if _global(ctx, fn, name) and _held_name(ctx, stmt, cst.Name(name)) is None:
                inner, inner_doubts = holder_reads(ctx, name, seen)
                changes += inner
                doubts += inner_doubts
    rule_changes, rule_doubts = _rules_reads(ctx, fn, seen)
    default_changes, default_doubts = frozen_defaults(ctx, fn)
    changes = default_changes + changes + rule_changes
    return changes, _reflected(reflected, anything) + default_doubts + doubts + rule_doubts


def holder_reads(
    ctx: ModuleContext, name: str, seen: frozenset[str] = frozenset()
) -> tuple[list[str], list[str]]:
    """What the functions the module-level `name` holds read (`held_functions.py`): a
    call through it may run them."""
    changes: list[str] = []
    doubts: list[str] = []
    for held in held_by(ctx, name):
        inner, inner_doubts = _held_reads(ctx, held, seen)
        changes += [f"reads `{name}`, which holds {held.what}, which {r}" for r in inner]
        doubts += [f"reads `{name}`, which holds {held.what}, which {d}" for d in inner_doubts]
    return changes, doubts


def _rules_reads(
    ctx: ModuleContext, fn: Function, seen: frozenset[str]
) -> tuple[list[str], list[str]]:
    """What the derivative rules registered on `fn` (`f.defvjp(fwd, bwd)`) read: they
    are part of the function (`held_functions.registered_rules`)."""
    changes: list[str] = []
    doubts: list[str] = []
    for held in registered_rules(ctx, fn):
        inner, inner_doubts = _held_reads(ctx, held, seen)
        changes += [f"has {held.what}, which {r}" for r in inner]
        doubts += [f"has {held.what}, which {d}" for d in inner_doubts]
    return changes, doubts


def _held_reads(
    ctx: ModuleContext, held: Held, seen: frozenset[str]
) -> tuple[list[str], list[str]]:
    """What one held function reads from outside that jit would freeze: (changes, doubts)."""
    if held.unseen:
        return [], ["may be a function autoopt cannot see (jit would freeze what it reads)"]
    if held.lam is not None:
        return _lambda_reads(ctx, held.stmt, held.lam, seen)
    assert held.fn is not None
    home = held.home or ctx
    if _key(home, held.fn) in seen:
        return [], []
    changes, doubts = frozen_reads(home, held.fn, seen | {_key(home, held.fn)})
    if held.receiver and _reads_self(ctx, held.fn):
        changes += [
            f"reads the state of `{held.receiver}`, which {where} changes (jit would freeze it)"
            for where in state_changes(ctx, held.receiver)
        ]
    return changes, doubts


def _reads_self(ctx: ModuleContext, method: Function) -> bool:
    me = method.params[0] if method.params else ""
    return any(me in s.uses for s in ctx.graph.scope_stmts(method.qualname))


def _lambda_reads(
    ctx: ModuleContext, stmt: Stmt, lam: cst.Lambda, seen: frozenset[str]
) -> tuple[list[str], list[str]]:
    """What a lambda at module level reads from outside that jit would freeze: the
    globals it reads, and what the functions it names (or their holders) read."""
    key = f"{ctx.path}::<lambda {ctx.span(lam).line}:{ctx.span(lam).column}>"
    if key in seen:
        return [], []
    seen = seen | {key}
    changes: list[str] = []
    doubts: list[str] = []
    names = {n.value: n for n in read_names(lam)}
    for name in sorted(names.keys() - {"True", "False", "None"}):
        target = _named_function(ctx, stmt, names[name])
        if target is not None:
            if _key(*target) not in seen:
                inner, inner_doubts = frozen_reads(*target, seen | {_key(*target)})
                changes += [f"uses the function `{target[1].name}`, which {r}" for r in inner]
                doubts += [f"`{target[1].name}` {d}" for d in inner_doubts]
            continue
        reason, doubt = _frozen(ctx, None, stmt, name)
        changes += [reason] if reason else []
        doubts += [doubt] if doubt else []
        inner, inner_doubts = holder_reads(ctx, name, seen)
        changes += inner
        doubts += inner_doubts
    for reason, doubt in _project_globals(ctx, walk(lam.body)):
        changes += [reason] if reason else []
        doubts += [doubt] if doubt else []
    return changes, doubts


def _reflected(names: set[tuple[bool, str]], anything: str) -> list[str]:
    """The doubt of reading globals that `anything` may rebind, naming data first."""
    if not names:
        return []
    first = min(names)[1]
    more = ", as may every global it reads" if len(names) > 1 else ""
    return [f"reads `{first}`, which may be rebound through {anything}{more} (jit would freeze it)"]


def frozen_defaults(ctx: ModuleContext, fn: Function) -> tuple[list[str], list[str]]:
    """The defaults of `fn` a call may leave alone that are not proven immutable:
    (changed in place by the module, unproven)."""
    changes, doubts = [], []
    header = ctx.graph.stmts[fn.header]
    mutated = ctx.per_module(changed_names).mutated
    for name in fn.params:
        default = parameter_default(fn, name)
        if default is None or not _default_read(ctx, fn, name):
            continue
        what = f"the default of `{name}` (`{ctx.code(default)}`)"
        if fn.name in mutated:  # `f.__defaults__ = ...`, `f.__kwdefaults__["w"] = ...`
            changes.append(
                f"reads {what}, which the module may replace: it changes `{fn.name}` itself "
                "(jit would freeze it)"
            )
            continue
        value = model(ctx).value_of(header, default)
        if _immutable(value):
            continue
        if any(n.value in mutated for n in read_names(default)):
            changes.append(f"reads {what}, which the module changes in place (jit would freeze it)")
        else:
            doubts.append(
                f"reads {what}, {value.kind.value}: jit would freeze it at its first value"
            )
    return changes, doubts


def _default_read(ctx: ModuleContext, fn: Function, name: str) -> bool:
    """Whether a call of `fn` may leave `name` to its default."""
    if not only_called(ctx, fn):
        return True
    index = fn.params.index(name)
    return any(site.argument(index, name) is None for site in ctx.graph.call_sites(fn))


def _immutable(value: Value) -> bool:
    """A value no code can change in place: of an immutable kind, a hashable tuple of
    constants, a tuple of arrays, an instance of the module's immutable pytree classes, an
    immutable library object (an optax optimizer: `overlays.STATIC_CLASSES`)."""
    if value.kind in _IMMUTABLE or (value.kind is Kind.CONTAINER and value.constant):
        return True
    if value.kind is Kind.OBJECT and value.detail in overlays.STATIC_CLASSES:
        return True
    return value.container == "tuple" or (
        value.kind is Kind.PYTREE and (value.detail or "").startswith("class:")
    )


def _callee(
    ctx: ModuleContext, stmt: Stmt, call: cst.Call
) -> tuple[ModuleContext, Function] | None:
    """The function a call runs: of this module, or of another file of the project."""
    local = _module_callee(ctx, stmt, call)
    if local is not None:
        return ctx, local
    qual = ctx.qualify(call.func)
    return project_function(ctx, qual) if qual else None


def _held_function(
    ctx: ModuleContext, stmt: Stmt, call: cst.Call
) -> tuple[ModuleContext, Function] | None:
    """The function a module-level name holds that a call runs: JAX transforms of a module
    function (`g = jax.grad(loss)`), what a factory returns (`closures.py`), or the
    function a haiku transform runs (`net.apply(...)` of `net = hk.transform(f)`)."""
    func = call.func
    haiku = type(func) is cst.Attribute and func.attr.value in ("apply", "init")
    head = func.value if type(func) is cst.Attribute and haiku else func
    if type(head) is not cst.Name or _local_name(ctx, stmt, head.value):
        return None
    if haiku:
        fn = purity.transformed_by_haiku(ctx, head.value)
        return (ctx, fn) if fn is not None else None
    return _held_name(ctx, stmt, head)


def _held_name(
    ctx: ModuleContext, stmt: Stmt, node: cst.Name
) -> tuple[ModuleContext, Function] | None:
    """The function the module-level name `node` holds, read in `stmt` where nothing
    around it binds that name: JAX transforms of a module function (`vf =
    jax.vmap(f)`), or what a factory returns (`closures.py`). Called or named (handed
    to a transform, called in a lambda's body), what it runs is judged alike."""
    if _local_name(ctx, stmt, node.value):
        return None
    fn = purity.transformed_function(ctx, node.value) or factory_closure(ctx, node.value)
    return (ctx, fn) if fn is not None else None


def _local_name(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """Whether `name` is bound in the scope of `stmt` or a function around it."""
    fn = ctx.graph.functions.get(stmt.scope)
    while fn is not None:
        if name in fn.params or any(name in s.defs for s in ctx.graph.scope_stmts(fn.qualname)):
            return True
        fn = ctx.graph.functions.get(fn.scope)
    return False


def _function_values(ctx: ModuleContext, stmt: Stmt) -> list[tuple[ModuleContext, Function]]:
    """The project functions `stmt` names other than as the callee of one of its calls:
    handed to a transform, a tree map, a partial, a `lax` loop or branch, a callback, or
    called in a lambda's body. Whatever runs them may run them traced, so what they read
    is judged as a direct call's."""
    callees = {id(call.func) for call in stmt.calls}
    found: dict[str, tuple[ModuleContext, Function]] = {}
    for expr in evaluated_exprs(stmt.node):
        for node in _function_refs(expr):
            if id(node) in callees:
                continue
            target = _named_function(ctx, stmt, node)
            if target is not None:
                found.setdefault(_key(*target), target)
    return list(found.values())


def _enclosing_names(ctx: ModuleContext, fn: Function, within: str) -> set[str]:
    """The names bound in the scopes around `fn` up to `within` (included)."""
    names: set[str] = set()
    scope = ctx.graph.functions.get(fn.scope) if within else None
    while scope is not None and (scope.qualname + ".").startswith(within + "."):
        names |= set(scope.params) | {
            n for s in ctx.graph.scope_stmts(scope.qualname) for n in s.defs
        }
        scope = ctx.graph.functions.get(scope.scope)
    return names


def _function_refs(expr: cst.CSTNode) -> list[cst.BaseExpression]:
    """The names `expr` reads and the dotted attributes it evaluates (`mod.loss`)."""
    names: list[cst.BaseExpression] = list(read_names(expr))
    return names + [n for n in walk(expr) if type(n) is cst.Attribute]


def _named_function(
    ctx: ModuleContext, stmt: Stmt, node: cst.BaseExpression
) -> tuple[ModuleContext, Function] | None:
    """The function of this module or of another project file that `node` names, or
    that the module-level name `node` holds (`_held_name`); None for a variable of the
    function `stmt` is in (`loss = ...; return loss`), which no function of the module
    is."""
    if type(node) is cst.Name:
        if _local_variable(ctx, stmt.scope, node.value):
            return None
        local = ctx.graph.resolve_function(node.value, stmt.scope)
        if local is not None:
            return ctx, local
        held = _held_name(ctx, stmt, node)
        if held is not None:
            return held
    qual = ctx.qualify(node)
    return project_function(ctx, qual) if qual else None


def _local_variable(ctx: ModuleContext, scope: str, name: str) -> bool:
    """`name` is a variable the function `scope` binds in its body, not a function it
    defines, a parameter (a default may hold the module function: `loss=loss`) or a
    global."""
    fn = ctx.graph.functions.get(scope)
    if fn is None or f"{scope}.{name}" in ctx.graph.functions:
        return False
    if name in fn.params or name in fn.globals | fn.nonlocals:
        return False
    return any(name in s.defs for s in ctx.graph.scope_stmts(scope))


def _key(ctx: ModuleContext, fn: Function) -> str:
    return f"{ctx.path}::{fn.qualname}"


def _free_reads(ctx: ModuleContext, fn: Function, stmt: Stmt) -> set[str]:
    local = {n for s in ctx.graph.scope_stmts(fn.qualname) for n in s.defs} | set(fn.params)
    return set(stmt.uses) - local - {"True", "False", "None"}


def _frozen(ctx: ModuleContext, fn: Function | None, stmt: Stmt, name: str) -> tuple[str, str]:
    """Why reading the outside `name` under jit may change results: (known, doubt).
    `fn` None: read by a lambda at module level (a global)."""
    nested = fn is not None and fn.scope != MODULE
    if fn is not None and nested and _rebound_in(ctx, fn.scope, name):
        return f"reads `{name}`, which the enclosing function rebinds (jit would freeze it)", ""
    if fn is not None and nested and _rebound_nonlocal(ctx, fn.scope, name):
        return f"reads `{name}`, which a function rebinds with `nonlocal` (jit would freeze it)", ""
    is_global = fn is None or _global(ctx, fn, name)
    if name in ctx.held and is_global:
        return "", ""  # one linen layer while the loop runs (`facts/held_globals.py`)
    if name in purity.changed_module_names(ctx) and is_global:
        return f"reads `{name}`, which {purity.change_reason(ctx, name)} (jit would freeze it)", ""
    if library_object(ctx, name) and refers_to_global(ctx, fn, name):
        return "", ""  # an optimizer bound once, never changed (`library_objects.py`)
    if purity.transformed_by_haiku(ctx, name) is not None:
        return "", ""  # `hk.transform(f)` bound once, never changed: purity reads `f`
    if _fixed_fields(ctx, stmt, name):
        return "", ""  # `diffusion.rates`: arrays its constructor alone stored
    value = model(ctx).name(stmt, name)
    if value.kind is Kind.UNKNOWN and nested and is_global:
        defs = [s for s in ctx.graph.scope_stmts(MODULE) if name in s.defs]
        value = join_all([model(ctx).defined(d, name) for d in defs]) if defs else UNKNOWN
    if value.kind in _FROZEN_SAFE:
        return "", ""
    if value.kind is Kind.UNKNOWN and not any(name in s.defs for s in ctx.graph.stmts):
        return "", ""  # a builtin or a name bound outside the module: purity judges calls
    return "", f"reads `{name}` ({value.kind.value}) from outside; jit would freeze its value"


def _fixed_fields(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """Every read of `name` by `stmt` is a field of a plain object that holds, from its
    construction on, one JAX array, number or string (`facts/data_fields.py`): jit
    freezes what the field holds all along."""
    reads = [n for n in read_names(stmt.node) if n.value == name]
    fields = [
        node
        for node in walk(stmt.node)
        if type(node) is cst.Attribute and type(node.value) is cst.Name and node.value.value == name
    ]
    return (
        bool(reads)
        and len(fields) == len(reads)
        and all(data_field(ctx, stmt, f, _FIXED) for f in fields)
    )


def _project_globals(ctx: ModuleContext, nodes: Iterable[cst.CSTNode]) -> list[tuple[str, str]]:
    """`(known, doubt)` for each global of another project file `nodes` (a statement's)
    read as an attribute of its module (`cfg.GAIN`): frozen unless that file proves it is
    never rebound and holds an immutable value (installed modules are not read)."""
    found = []
    for node in nodes:
        if type(node) is not cst.Attribute:
            continue
        qual = ctx.qualify(node.value)
        if not qual:
            continue
        other = project_module(ctx, qual)
        name = node.attr.value
        if other is not None and project_module(ctx, f"{qual}.{name}") is None:  # no submodule
            found.append(_other_global(other, qual, f"`{ctx.code(node)}`", name))
    return [f for f in found if f != ("", "")]


def _other_global(other: ModuleContext, module: str, code: str, name: str) -> tuple[str, str]:
    if name in purity.changed_module_names(other):
        why = purity.change_reason(other, name, f"`{module}`")
        return f"reads {code}, which {why} (jit would freeze it)", ""
    how = rebinding(other).anything
    if how:
        return "", f"reads {code}, which may be rebound through {how} (jit would freeze it)"
    defs = [s for s in other.graph.scope_stmts(MODULE) if name in s.defs]
    value = join_all([model(other).defined(d, name) for d in defs]) if defs else UNKNOWN
    if value.kind in _FROZEN_SAFE:
        return "", ""
    return "", f"reads {code} ({value.kind.value}) from another module; jit would freeze its value"


def _global(ctx: ModuleContext, fn: Function, name: str) -> bool:
    """Whether `fn` reads `name` from the module (or the builtins), not from an
    enclosing function."""
    scope = ctx.graph.functions.get(fn.scope)
    while scope is not None:
        if name in scope.params or any(
            name in s.defs for s in ctx.graph.scope_stmts(scope.qualname)
        ):
            return name in scope.globals
        scope = ctx.graph.functions.get(scope.scope)
    return True


def _rebound_in(ctx: ModuleContext, scope: str, name: str) -> bool:
    defs = [s for s in ctx.graph.scope_stmts(scope) if name in s.defs | s.mutates]
    return len(defs) > 1 or any(s.loops for s in defs)


def _rebound_nonlocal(ctx: ModuleContext, scope: str, name: str) -> bool:
    """Whether a function nested in `scope` declares `name` `nonlocal` (and may rebind it)."""
    return any(
        name in f.nonlocals and f.qualname.startswith(f"{scope}.")
        for f in ctx.graph.functions.values()
    )


def _reads(node: cst.CSTNode, traced: set[str]) -> set[str]:
    return tracing.dynamic_names(node) & traced
