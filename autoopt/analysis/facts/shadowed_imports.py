"""A global a function reads only while it still holds an import (a shadowed module).

A notebook imports `from flax.training import train_state`, defines `create_train_state`
reading `train_state.TrainState`, then rebinds the module's name to the state it makes:
`train_state = create_train_state(...)`, later donated. The function reads the global,
but never the state: whenever it runs, the name still holds the module.
`reads_import_only(ctx, fn, name)` proves that of a module-level function `fn` and a
global `name` when all of these hold:

- every call of `fn` is known (`facts/known_callers.py`) and is a statement of the
  module's top level, in no comprehension nor lambda (which may run later);
- at each such call, every binding of `name` in the module before it is an import, and
  every other binding (the call's own statement binds after the call) comes after it in
  no loop with it: the name holds an import whenever `fn` runs;
- no function declares `name` `global` and nothing rebinds it by name
  (`facts/reflection.py`).

Anything else is not proven.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.facts.known_callers import known_call_sites
from autoopt.analysis.facts.reflection import rebinding


def reads_import_only(ctx: ModuleContext, fn: Function, name: str) -> bool:
    """Whether `name` holds an import at every call of `fn` (a module-level function)."""
    graph = ctx.graph
    if any(name in f.globals for f in graph.functions.values()):
        return False
    moved = rebinding(ctx)
    if moved.anything or name in moved.names:
        return False
    sites, unknown = known_call_sites(ctx, fn)
    binders = [s for s in graph.scope_stmts(MODULE) if name in s.defs]
    return not unknown and bool(sites) and all(_import_held(ctx, s, binders) for s in sites)


def _import_held(ctx: ModuleContext, site: CallSite, binders: list[Stmt]) -> bool:
    """At this call the name holds an import (`reads_import_only`)."""
    stmt = site.stmt
    if stmt.scope != MODULE or stmt.comprehension:
        return False
    if any(type(node) is cst.Lambda for node in ctx.ancestors(site.call)):
        return False
    before = [b for b in binders if b.id < stmt.id]
    later = [b for b in binders if b.id >= stmt.id]
    imported = all(type(b.node) in (cst.Import, cst.ImportFrom) for b in before)
    return bool(before) and imported and not any(set(b.loops) & set(stmt.loops) for b in later)
