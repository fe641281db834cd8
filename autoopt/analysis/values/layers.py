"""Calls of a linen layer's methods through a global that holds one while the code judged
runs (`ModuleContext.held`, proven by `analysis/facts/held_globals.py`): what the value
model and purity may take of `model.apply(params, x)` there."""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.overlays import flax_linen as linen_api


def layer_call(held: dict[str, str], call: cst.Call) -> bool:
    """`call` is `name.init(...)` or `name.apply(...)` of a name `held` lists, running no
    function it is given (no `method=`, no `capture_intermediates=`, no `**`)."""
    func = call.func
    if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
        return False
    if func.value.value not in held or func.attr.value not in linen_api.LAYER_METHODS:
        return False
    return all(
        arg.star != "**"
        and (arg.keyword is None or arg.keyword.value not in linen_api.RUNS_GIVEN_CODE)
        for arg in call.args
    )


def held_call(ctx: ModuleContext, scope: str, call: cst.Call) -> bool:
    """`call`, evaluated in `scope`, is a `layer_call` of a global `ctx.held` lists: no
    function around `scope` binds the name (nor declares it `global` and binds it)."""
    if not layer_call(ctx.held, call):
        return False
    name = call.func.value.value  # type: ignore[attr-defined]  # layer_call: a Name's method
    graph = ctx.graph
    while scope and scope != MODULE:
        fn = graph.functions.get(scope)
        if fn is not None:
            bound = set(fn.params) | {n for s in graph.scope_stmts(fn.qualname) for n in s.defs}
            if name in fn.nonlocals or (name in bound and name not in fn.globals):
                return False
            scope = fn.scope
        else:
            scope = scope.rpartition(".")[0]
    return True
