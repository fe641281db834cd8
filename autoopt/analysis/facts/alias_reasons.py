"""Why a value passed to a jitted call may hold a donated argument's buffers, in words.

`Sharing.may_share` answers whether two names may hold one object; a finding that
refuses a donation for it names the link that is not ruled out (`why_shared`, a clause
that follows "`alias` may hold the buffers of `name`"):

- `alias` (or a variable whose value it may hold: the loader a batch comes from) is
  bound to the result of a call given `name` (`d = step(d, g)`), which may hand back
  what it was given: an `eqx.filter_jit` returns each non-array leaf its
  function returns as the trace made it, which may be an object an argument holds
  (`analysis/facts/jit_outputs.py`);
- `alias` holds `name` only through code autoopt cannot see: `name` was handed to code
  that may keep it (a method of a class of the program not proven to keep nothing runs
  in `model(x)`), and `alias` comes from such code (a batch of a library's loader); where
  that code is an `eqx.filter_jit` body given `name` whole, the premise of
  `facts/inert_modules.py` that fails for `name` (such a body sees nothing of an inert
  module);
- the call reads `alias` only as a part of it (`d.field`): a field read from a value
  holding `name`'s buffers is not proven to hold none of them.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import CallSite, Stmt
from autoopt.analysis.core.jitted import jitted_callables
from autoopt.analysis.facts.aliases import RETAINED, Sharing
from autoopt.analysis.facts.inert_modules import why_not_inert
from autoopt.analysis.facts.jit_arguments import moved_problem
from autoopt.analysis.facts.wrapper_fields import field_clear
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.overlays import flax_nnx as nnx_api


def why_shared(ctx: ModuleContext, site: CallSite, sharing: Sharing, alias: str, name: str) -> str:
    """A clause (with its leading punctuation) naming why `alias` may hold `name`'s
    buffers where `site` passes both, or "" where no single link is found."""
    part = _part_read(ctx, site, sharing, alias, name)
    parts = [p for p in (part, _link(ctx, site, sharing, alias, name)) if p]
    return "".join(parts)


def _part_read(ctx: ModuleContext, site: CallSite, sharing: Sharing, alias: str, name: str) -> str:
    """` (as `d.f`, a part read from it ...)` where the call reads `alias` only inside
    a larger argument; for a field of a name, the premise of `wrapper_fields` that
    failed."""
    args = [a.value for a in site.call.args if any(n.value == alias for n in read_names(a.value))]
    if not args or any(type(a) is cst.Name for a in args):
        return ""
    first = args[0]
    why = field_clear(ctx, sharing, site.stmt, first, name) if type(first) is cst.Attribute else ""
    return f" (as `{ctx.code(first)}`, not proven to hold none of them{': ' + why if why else ''})"


def _link(ctx: ModuleContext, site: CallSite, sharing: Sharing, alias: str, name: str) -> str:
    holder = _holder(sharing, alias, name)
    bound = "" if holder is None else _binding(ctx, site, holder, name)
    if bound and holder != alias:
        return f": `{alias}` may hold what `{holder}` holds, and {bound}"
    if bound:
        return f": {bound}"
    if name in sharing.reach(RETAINED) and RETAINED in sharing.reach(alias):
        keeper = _keeper(ctx, site, sharing, name)
        if keeper:
            return f": {keeper}, and `{alias}` may hold what such code keeps"
    return ""


def _holder(sharing: Sharing, alias: str, name: str) -> str | None:
    """The nearest variable whose value holds `name`'s directly, reached from `alias`
    through the values each variable may hold (`alias` itself, or the loader a batch
    comes from)."""
    seen, todo = {alias}, [alias]
    while todo:
        current = todo.pop(0)
        near = sharing.holds.get(current, set())
        if name in near:
            return current
        for other in sorted(near - seen):
            if other.isidentifier():
                seen.add(other)
                todo.append(other)
    return None


def _binding(ctx: ModuleContext, site: CallSite, alias: str, name: str) -> str:
    """``d` is bound at line 3 to the result of `step`, given `g`` for the statement of
    the scope that binds `alias` to a call reading `name`."""
    for stmt in ctx.graph.scope_stmts(site.stmt.scope):
        node = stmt.node
        if alias not in stmt.defs or type(node) is not cst.Assign:
            continue
        value = node.value
        if type(value) is not cst.Call:
            continue
        if not any(n.value == name for a in value.args for n in read_names(a.value)):
            continue
        line = ctx.span(node).line
        func = ctx.code(value.func)
        clause = f"`{alias}` is bound at line {line} to the result of `{func}`, given `{name}`"
        return clause + _jit_note(ctx, value)
    return ""


def _jit_note(ctx: ModuleContext, call: cst.Call) -> str:
    if type(call.func) is not cst.Name:
        return ""
    for jitted in jitted_callables(ctx, frameworks=True):
        if jitted.name == call.func.value and jitted.transform in eqx_api.FRESH_ARRAY_OUTPUTS:
            return (
                " (an `eqx.filter_jit` returns non-array leaves as the trace made them, "
                "which may be objects an argument holds)"
            )
    return ""


def _keeper(ctx: ModuleContext, site: CallSite, sharing: Sharing, name: str) -> str:
    """`model(x)` at line 5 runs code that may keep `model`'s buffers: the first call of
    the scope that hands `name` to code that may keep it."""
    codes = {code for code, kept in sharing.retainers.items() if name in kept}
    for stmt in ctx.graph.scope_stmts(site.stmt.scope):
        for call in stmt.calls:
            if ctx.code(call.func) in codes and _hands(call, name):
                line = ctx.span(stmt.node).line
                clause = f"`{ctx.code(call)}` at line {line} runs code that may keep `{name}`"
                note = _inert_note(ctx, stmt, call, name) or _statics_note(ctx, stmt, call)
                return clause + note
    return ""


def _statics_note(ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> str:
    """For an `nnx.jit` call, the premise that fails for its body to see none of the
    caller's objects holding buffers (`jit_arguments.moved_problem`)."""
    name = call.func.value if type(call.func) is cst.Name else ""
    for jitted in jitted_callables(ctx, frameworks=True):
        if jitted.name == name and jitted.transform in nnx_api.STATICS_AS_IS:
            problem = moved_problem(ctx, stmt, call, jitted)
            if problem:
                return (
                    " (`nnx.jit` shows it what a graph object keeps outside its variables: "
                    f"{problem})"
                )
    return ""


def _inert_note(ctx: ModuleContext, stmt: Stmt, call: cst.Call, name: str) -> str:
    """Where `call` runs a jit whose body sees nothing of an inert equinox module
    (`facts/inert_modules.py`) and is given `name` whole: the premise that fails."""
    if type(call.func) is not cst.Name:
        return ""
    rebuilt = any(
        j.name == call.func.value and j.transform in eqx_api.REBUILT_ARGUMENTS
        for j in jitted_callables(ctx, frameworks=True)
    )
    given = any(type(a.value) is cst.Name and a.value.value == name for a in call.args)
    why = why_not_inert(ctx, stmt, name) if rebuilt and given else ""
    return f" ({why})" if why else ""


def _hands(call: cst.Call, name: str) -> bool:
    """Whether `call` is given `name`, as an argument or as its receiver."""
    func = call.func
    while type(func) is cst.Attribute:
        func = func.value
    if type(func) is cst.Name and func.value == name:
        return True
    return any(n.value == name for a in call.args for n in read_names(a.value))
