"""AO201 missing-donation."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import MODULE, CallSite, Function
from autoopt.analysis.facts.aliases import RETAINED, Sharing, repeated_leaf
from autoopt.analysis.facts.jit_plan import JitPlan, candidate_plan, plans
from autoopt.analysis.facts.jitted import (
    call_sites,
    escapes,
    is_escaping,
    jit_options,
    jitted_callables,
)
from autoopt.model import Applicability, Edit, Finding, Replace
from autoopt.rewrite.jit import (
    add_decorator,
    can_add_donation,
    is_spelling,
    jit_decorator,
    with_donation,
)
from autoopt.rules.base import Rule
from autoopt.rules.examples import ao201_missing_donation as examples

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE
_ORDER = {_SAFE: 0, _UNSAFE: 1, _NONE: 2}


class MissingDonation(Rule):
    """
    ## What it does
    Finds a jitted function whose input is dead after every call in the module
    because the call's output replaces it (`state = step(state, batch)`,
    `params, opt = update(params, opt, grads)`), and donates that input with
    `donate_argnames`, merged into the existing `jax.jit` options. Functions
    that AO101 jits in the same run are included: AO201's finding sits on the
    same name and runs after AO101, so its edit merges the donation into AO101's
    decorator, or adds that decorator itself when AO101's fix is not applied,
    never with weaker safety than AO101's.

    ## Why is this bad?
    Without donation XLA must keep the old buffers alive while it writes the new
    ones: every step allocates and fills a second copy of the state. Donated,
    the output reuses the input's memory. Measured on CPU for a 200 MB state:
    7.7x faster per step for `s + 1`, 250x for a scattered update, and the peak
    memory of the loop no longer doubles.

    ## Fix safety
    A donated buffer is deleted by the call, so the fix is **safe** only when
    autoopt proves nothing reads it afterwards; **unsafe** when an alias or a
    caller can only be ruled out for code autoopt cannot see (a public function of
    a library module, the caller's own parameter, a closure or a global, a value
    handed to code that may keep it, pytree leaves not shown distinct); **no fix**
    when a proven alias is read later, the same buffer is passed twice, or one
    buffer fills two leaves of the donated value (XLA refuses to donate it twice).

    - every call site passes a plain name that the call's result rebinds:
      `analysis/facts/jitted.py` (the call sites), `analysis/core/graph.py` (liveness)
    - the function cannot be called from code autoopt does not see:
      `analysis/facts/jitted.py` (`escapes`)
    - no other name or container that may hold the buffer is read after the call,
      and no code it is handed to keeps it: `analysis/facts/aliases.py`
    - no buffer is passed twice or fills two leaves: `analysis/facts/aliases.py`
      (`repeated_leaf`)
    - no nested or other function reads it, and the first call donates no array of
      the caller's or from outside it: `analysis/core/graph.py`, `analysis/facts/aliases.py`
    - the jit premises of a function AO101 jits: `analysis/facts/jit_plan.py`
    """

    id = "AO201"
    name = "missing-donation"
    summary = "Jitted function whose input is dead after every call is not donated"
    goal = "memory"
    fixes = (
        "adds `donate_argnames` for jitted inputs that every call replaces with the output "
        "(`state = step(state, batch)`), after a liveness and alias check"
    )

    VALID = examples.VALID
    INVALID = examples.INVALID

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        for target in _targets(ctx):
            finding = self._finding(ctx, target)
            if finding is not None:
                yield finding

    def _finding(self, ctx: ModuleContext, target: _Target) -> Finding | None:
        donate, blocked = _verdicts(ctx, target)
        if donate:
            return self._fix(ctx, target, donate, blocked)
        if blocked:
            where = f"`{target.name}` could donate its input"
            message = f"{where}, but {blocked[0]}; donating it would delete a live buffer"
            return self.finding(ctx, target.anchor, message, _NONE, target=target.name)
        return None

    def _fix(self, ctx, target: _Target, donate, blocked: list[str]) -> Finding:
        names = [p for p, _, _ in donate]
        fixes = [f for _, f, _ in donate] + [target.fix]
        notes = [why for _, _, why in donate if why]
        escape = escapes(ctx, target.name)
        if escape:
            fixes.append(_UNSAFE)
            notes.append(f"{escape}: callers autoopt cannot see may read the donated input")
        fix = max(fixes, key=_ORDER.__getitem__)
        listed = ", ".join(f"`{n}`" for n in names)
        message = (
            f"{listed} {'is' if len(names) == 1 else 'are'} dead after every call of "
            f"`{target.name}` and replaced by its output: donate "
            f"{'it' if len(names) == 1 else 'them'} (`donate_argnames`) so XLA reuses the buffer"
        )
        if fix is _UNSAFE and notes:
            message += f"; unsafe: {notes[0]}"
        if blocked:
            message += f"; not donated: {blocked[0]}"
        edits = target.edits(ctx, names)
        title = f"Donate {', '.join(names)}"
        return self.finding(
            ctx, target.anchor, message, fix, edits, target=target.name, title=title
        )


def safe_donations(ctx: ModuleContext, name: str) -> list[str]:
    """The parameters of the jitted function `name` (or one AO101 jits) whose donation
    is proven harmless at every call, when the function's own jit is proven too."""
    for target in _targets(ctx, name):
        if target.fix is _SAFE and not is_escaping(ctx, name):
            donate, _ = _verdicts(ctx, target)
            return [param for param, fix, _ in donate if fix is _SAFE]
    return []


def _verdicts(
    ctx: ModuleContext, target: _Target
) -> tuple[list[tuple[str, Applicability, str]], list[str]]:
    """The parameters that may be donated, with the fix and its note, and why the
    others may not."""
    fn = target.function
    sites = [CallSite(s.stmt, s.call, fn) for s in call_sites(ctx, target.name)]
    donate: list[tuple[str, Applicability, str]] = []
    blocked: list[str] = []
    for index, param in target.candidates() if sites else ():
        verdicts = [_site_verdict(ctx, site, index, param) for site in sites]
        if any(v is None for v in verdicts):
            continue
        fix, why = max(verdicts, key=lambda v: _ORDER[v[0]])  # type: ignore[index]
        if fix is _NONE:
            blocked.append(why)
        else:
            donate.append((param, fix, why))
    return donate, blocked


@dataclass
class _Target:
    """A jitted function (or one AO101 jits in this run) and where its options live."""

    name: str
    function: Function
    options: dict[str, cst.BaseExpression]
    carrier: cst.CSTNode  # the decorated FunctionDef or the `jax.jit(...)` call
    ao101: Replace | None = None  # AO101's decorator edit, when AO101 adds the jit
    fix: Applicability = _SAFE
    imports: tuple[Edit, ...] = ()  # the imports AO101's decorator needs

    @property
    def anchor(self) -> cst.CSTNode:
        return self.function.node.name if self.ao101 or self.is_decorated else self.carrier

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

    def edits(self, ctx: ModuleContext, names: list[str]) -> list[Edit]:
        imports = ctx.ref("functools.partial")[1]
        if not self.is_decorated:
            return [Replace(self.carrier, lambda node: with_donation(ctx, node, names)[0])]
        ao101 = self.ao101.transform if self.ao101 else None

        def transform(node: cst.CSTNode) -> cst.CSTNode:
            assert type(node) is cst.FunctionDef
            if ao101 is not None and _jit_decorator(ctx, node) is None:
                node = ao101(node)  # type: ignore[assignment]
            decorators = list(node.decorators)  # type: ignore[attr-defined]
            index = _jit_decorator(ctx, node)
            assert index is not None
            new, _ = with_donation(ctx, decorators[index].decorator, names)
            decorators[index] = decorators[index].with_changes(decorator=new)
            return node.with_changes(decorators=decorators)  # type: ignore[attr-defined]

        return [Replace(self.carrier, transform), *imports, *self.imports]


def _jit_decorator(ctx: ModuleContext, node: cst.FunctionDef) -> int | None:
    """The index of the decorator that jits `node`, as written or as AO101 writes it."""
    for i, decorator in enumerate(node.decorators):
        expr = decorator.decorator
        if is_spelling(ctx, expr, "jax.jit"):
            return i
        if type(expr) is cst.Call and expr.args:
            head = expr.args[0].value
            jit = is_spelling(ctx, expr.func, "jax.jit")
            partial = is_spelling(ctx, expr.func, "functools.partial")
            if jit or (partial and is_spelling(ctx, head, "jax.jit")):
                return i
    return None


def _targets(ctx: ModuleContext, name: str | None = None) -> Iterator[_Target]:
    """Every jitted function and AO101 plan that may donate (only those called `name`)."""
    for jitted in jitted_callables(ctx):
        fn = jitted.function
        if fn is None or "donate_argnums" in jitted.options:
            continue
        if name is not None and jitted.name != name:
            continue
        spelling = (
            jitted.carrier.decorator if type(jitted.carrier) is cst.Decorator else jitted.carrier
        )
        if spelling is None or not can_add_donation(spelling):
            continue  # `donate_argnames=NAMES` or `**options`: what it donates is not known
        carrier = fn.node if type(jitted.carrier) is cst.Decorator else jitted.carrier
        yield _Target(jitted.name, fn, jitted.options, carrier)  # type: ignore[arg-type]
    for plan in plans(ctx) if name is None else _named_plans(ctx, name):
        fn = plan.fn
        if plan.fix is _NONE or plan.wrap_at_loops or fn.scope != MODULE:
            continue
        text, imports = jit_decorator(ctx, list(plan.static))
        options = ctx.per_module(_decorator_options, text)
        edit = Replace(fn.node, add_decorator(ctx, text))
        yield _Target(fn.name, fn, options, fn.node, edit, plan.fix, imports)


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
    if type(expr) in (cst.Tuple, cst.List):
        return {
            str(e.value.evaluated_value) for e in expr.elements if type(e.value) is cst.SimpleString
        }
    return set()


def _literal_ints(expr: cst.BaseExpression | None) -> set[int]:
    if type(expr) is cst.Integer:
        return {int(expr.value)}
    if type(expr) in (cst.Tuple, cst.List):
        return {int(e.value.value) for e in expr.elements if type(e.value) is cst.Integer}
    return set()


def _site_verdict(
    ctx: ModuleContext, site: CallSite, index: int, param: str
) -> tuple[Applicability, str] | None:
    """Whether the argument for `param` is dead after this call (None: not replaced)."""
    expr = site.argument(index, param)
    node = site.stmt.node
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
        return _UNSAFE, f"`{name}` is handed to `{keeper}`, which may keep it"
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
    outside = sorted(aliases - local - set(fn.params) - {RETAINED})
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
