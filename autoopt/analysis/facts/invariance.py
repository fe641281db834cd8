"""Whether the values some names hold stay the same on every iteration of a loop.

A name is loop-invariant when nothing in the loop rebinds it (the `for` target included)
and no object it may share can change in place while the loop runs: by the loop's
statements, by code they call (in this file or another of the project), or by code
autoopt cannot see that may reach it. That second half is `facts/mutation.py`'s
`change_reason`, the one authority on host values changing. A global is variant where
the module's namespace or module object may rebind it (`globals()["X"] = ...`:
`analysis/facts/reflection.py`).
"""

from __future__ import annotations

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Loop
from autoopt.analysis.facts.mutation import change_reason
from autoopt.analysis.facts.reflection import rebinding


def variant_reason(ctx: ModuleContext, loop: Loop, names: set[str]) -> str | None:
    """Why `names` may change during `loop`, or None when they are invariant."""
    changed = sorted(names & ctx.graph.written_in_loop(loop.id))
    if changed:
        return f"`{changed[0]}` changes inside the loop"
    return _reflected(ctx, loop, names) or change_reason(ctx, loop, names)


def _reflected(ctx: ModuleContext, loop: Loop, names: set[str]) -> str | None:
    """A global among `names` that the module's namespace or module object may rebind."""
    fn = ctx.graph.functions.get(loop.scope)
    local: set[str] = set()
    if fn is not None:
        bound = {n for s in ctx.graph.scope_stmts(loop.scope) for n in s.defs}
        local = (set(fn.params) | bound) - fn.globals
    found = rebinding(ctx)
    for name in sorted(names - local):
        how = found.how(name)
        if how:
            return f"`{name}` may be rebound through {how}"
    return None
