"""Names a rewrite may bind: nothing in the module uses them yet."""

from __future__ import annotations

from collections.abc import Collection

from autoopt.analysis.core.context import ModuleContext


def fresh_name(ctx: ModuleContext, base: str, also_taken: Collection[str] = ()) -> str:
    """`base`, or `base_2`, ... : a name nothing in the module (nor `also_taken`) uses yet."""
    taken = {s for stmt in ctx.graph.stmts for s in stmt.defs | stmt.uses}
    taken |= set(ctx.imports.bindings) | set(also_taken)
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    return name
