"""Module names that only ever hold a library initializer built from constants.

`googlenet_kernel_init = nn.initializers.kaiming_normal()` at module level, read by a
model's code as `nn.Conv(64, kernel_init=googlenet_kernel_init)`, is the same object as
the call written in place: the audit of `facts/initializers.py` clears it as it clears
`kernel_init=nn.initializers.kaiming_normal()`. A name is one where every statement
binding it is a plain module-level assignment of a library initializer
(`initializers.library_initializer`: `*.initializers.*` of a library the overlays know,
called with constants only, or named without a call), the module's code mentions it
nowhere else but as the value of a keyword `*_init` or `init` (`kernel_init=k`: no
function parameter, loop or comprehension variable shadows it where the audit reads it
by its spelling, and no `global` statement rebinds it), and nothing rebinds it through
the module's namespace or module object (`facts/reflection.py`). Such an initializer
makes a new buffer at each call, whichever layers share it (tests/analysis/overlays);
`nn.initializers.constant(W)` is no such call: it returns `W` itself where the shapes
match.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.facts.initializers import initializer_keyword, library_initializer
from autoopt.analysis.facts.reflection import module_binders, rebinding
from autoopt.analysis.facts.self_attrs import walk_parents


def initializer_globals(ctx: ModuleContext) -> frozenset[str]:
    """The module names only ever bound to a library initializer built from constants."""
    return ctx.per_module(_initializer_globals)


def _initializer_globals(ctx: ModuleContext) -> frozenset[str]:
    graph = ctx.graph
    if rebinding(ctx).anything:
        return frozenset()
    binders = module_binders(ctx)
    found = {
        name
        for name, nodes in binders.items()
        if name not in rebinding(ctx).names and all(_bound_to_initializer(ctx, n) for n in nodes)
    }
    if not found:
        return frozenset()
    targets = {
        id(t.target)
        for stmt in graph.scope_stmts(MODULE)
        if type(stmt.node) is cst.Assign
        for t in stmt.node.targets
    }
    for node, parent in walk_parents(ctx.module, None):
        if type(node) is not cst.Name or node.value not in found or id(node) in targets:
            continue
        if not _initializer_keyword(node, parent):
            found.discard(node.value)
    return frozenset(found)


def _initializer_keyword(node: cst.Name, parent: cst.CSTNode | None) -> bool:
    """`node` is the value of `kernel_init=node` (a keyword `*_init` or `init`)."""
    if type(parent) is not cst.Arg or parent.value is not node or parent.keyword is None:
        return False
    return initializer_keyword(parent.keyword.value)


def _bound_to_initializer(ctx: ModuleContext, node: cst.CSTNode) -> bool:
    """`node` is `k = nn.initializers.normal(0.02)` (names only as targets)."""
    if type(node) is not cst.Assign:
        return False
    named = all(type(t.target) is cst.Name for t in node.targets)
    return named and library_initializer(ctx, node.value)
