"""`eqx.nn.make_with_state(Model)(key)`: the object a split maker makes, as a call.

A split maker (`overlays/equinox.py` `SPLIT_MAKERS`) is handed one callable and returns
a function that calls it with its own arguments and returns `(model, state)`: the
object made, its initial states moved out into a `State`. The pair holds no buffer the
object made does not, none more often, and nothing else keeps one, so what the pair
shares and the leaves it has are those of `Model(key)`, the call `made_call` gives.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.overlays import equinox as eqx_api


def made_call(ctx: ModuleContext, call: cst.Call) -> cst.Call | None:
    """`make_with_state(Model)(key)` -> `Model(key)` (one node per call, kept); None for
    any other call, or a maker given anything but one positional argument."""
    return ctx.per_module(_made_call, call)


def _made_call(ctx: ModuleContext, call: cst.Call) -> cst.Call | None:
    maker = call.func
    if type(maker) is not cst.Call or ctx.qualify(maker.func) not in eqx_api.SPLIT_MAKERS:
        return None
    if len(maker.args) != 1 or maker.args[0].star or maker.args[0].keyword is not None:
        return None
    return call.with_changes(func=maker.args[0].value)
