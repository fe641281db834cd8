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
(`tracing.TraceFacts.python_math`: exact eagerly, int32 traced). `handoffs_of`
answers the same for tracing some parameters only (the ones `vmap` maps).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import is_at_update
from autoopt.analysis.core.graph import MODULE, Function, Stmt
from autoopt.analysis.core.project import project_function
from autoopt.analysis.facts import purity, tracing
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.values.lattice import Kind, Value
from autoopt.analysis.values.model import model

#: Outside values jit may bake in when nothing rebinds them: immutable ones.
_FROZEN_SAFE = (
    Kind.ARRAY, Kind.PYTREE, Kind.MODULE, Kind.CALLABLE, Kind.DTYPE, Kind.NONE, Kind.SCALAR,
    Kind.STRING, Kind.SHAPE,
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
        f"reads `{n}`, which the module changes (jit would freeze it)"
        for n in purity.reads_module_state(ctx, fn)
    ]
    result = Summary(fn, model(ctx).returns(fn), _computes_on_arrays(ctx, fn, seen), impure)
    result.handoffs, result.doubts = _traced_uses(ctx, fn, seen)
    result.doubts += _number_doubts(ctx, fn, set(fn.params))
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        result.doubts += _index_checks(ctx, stmt, facts.traced)[1]
    frozen, doubts = frozen_reads(ctx, fn, seen | {_key(ctx, fn)})
    result.impurities += frozen
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


def _number_doubts(ctx: ModuleContext, fn: Function, params: set[str]) -> list[str]:
    """Python arithmetic on the traced Python numbers `params` of `fn`."""
    math = tracing.analyse(ctx, fn).python_math
    return [
        f"`{p}` may be a Python int that `{math[p]}` computes on exactly; traced, it is an "
        "int32 that wraps around"
        for p in sorted(params & math.keys())
    ]


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
    """The first decorator of `fn` other than `jax.jit` (qualified where known)."""
    for decorator in fn.node.decorators:
        node = decorator.decorator
        func = node.func if type(node) is cst.Call else node
        if not ctx.is_jax(func, "jax.jit"):
            return ctx.qualify(func) or ctx.code(func)
    return ""


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
    last = qual.rsplit(".", 1)[-1]
    sized = any(a.keyword is not None and a.keyword.value == "size" for a in call.args)
    dynamic = last in jax_api.DYNAMIC_SHAPE or (last == "where" and len(args) == 1)
    if qual.startswith("jax.numpy.") and dynamic and not sized:
        return [f"calls `{qual}` without `size=`: its shape depends on the data"]
    return []


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
    ctx: ModuleContext, fn: Function, seen: frozenset[str]
) -> tuple[list[str], list[str]]:
    """Outside state `fn` (or a module function it calls) reads that jit would freeze:
    (values the program changes, values autoopt cannot prove unchanging)."""
    changes: list[str] = []
    doubts: list[str] = []
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        for name in sorted(_free_reads(ctx, fn, stmt)):
            reason, doubt = _frozen(ctx, fn, stmt, name)
            changes += [reason] if reason else []
            doubts += [doubt] if doubt else []
        for call in stmt.calls:
            found = _callee(ctx, stmt, call)
            if found is None or _key(*found) in seen:
                continue
            other, callee = found
            inner, inner_doubts = frozen_reads(other, callee, seen | {_key(other, callee)})
            changes += [f"calls `{callee.name}`, which {r}" for r in inner]
            doubts += [f"`{callee.name}` {d}" for d in inner_doubts]
    return changes, doubts


def _callee(
    ctx: ModuleContext, stmt: Stmt, call: cst.Call
) -> tuple[ModuleContext, Function] | None:
    """The function a call runs: of this module, or of another file of the project."""
    local = _module_callee(ctx, stmt, call)
    if local is not None:
        return ctx, local
    qual = ctx.qualify(call.func)
    return project_function(ctx, qual) if qual else None


def _key(ctx: ModuleContext, fn: Function) -> str:
    return f"{ctx.path}::{fn.qualname}"


def _free_reads(ctx: ModuleContext, fn: Function, stmt: Stmt) -> set[str]:
    local = {n for s in ctx.graph.scope_stmts(fn.qualname) for n in s.defs} | set(fn.params)
    return set(stmt.uses) - local - {"True", "False", "None"}


def _frozen(ctx: ModuleContext, fn: Function, stmt: Stmt, name: str) -> tuple[str, str]:
    """Why reading the outside `name` under jit may change results: (known, doubt)."""
    if fn.scope != MODULE and _rebound_in(ctx, fn.scope, name):
        return f"reads `{name}`, which the enclosing function rebinds (jit would freeze it)", ""
    if fn.scope == MODULE and name in purity.changed_module_names(ctx):
        return f"reads `{name}`, which the module changes (jit would freeze it)", ""
    value = model(ctx).name(stmt, name)
    if value.kind in _FROZEN_SAFE:
        return "", ""
    if value.kind is Kind.UNKNOWN and not any(name in s.defs for s in ctx.graph.stmts):
        return "", ""  # a builtin or a name bound outside the module: purity judges calls
    return "", f"reads `{name}` ({value.kind.value}) from outside; jit would freeze its value"


def _rebound_in(ctx: ModuleContext, scope: str, name: str) -> bool:
    defs = [s for s in ctx.graph.scope_stmts(scope) if name in s.defs | s.mutates]
    return len(defs) > 1 or any(s.loops for s in defs)


def _reads(node: cst.CSTNode, traced: set[str]) -> set[str]:
    return tracing.dynamic_names(node) & traced
