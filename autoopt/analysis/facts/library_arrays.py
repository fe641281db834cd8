"""Arguments proven pytrees of JAX arrays through a library object's method, which the
value model cannot judge alone: `params = net.init(key, x)` of `hk.transform` of sealed
code.

Whether haiku's `init` gives JAX arrays depends on the function transformed (an
initializer of the user's may return a NumPy array, kept as it is), which only
`analysis/facts/fresh.py` proves, above the value model (`analysis/values/model.py`).
`arrays_at_calls` holds when, at every call given, the argument for the parameter is
proven a JAX array or a pytree of them by the value model, or is a name every binding
of which reaching the call is either such a value or `name = obj.method(...)`, the
method one `overlays.ARRAYS_RESULTS` lists of the class of `obj`, whose construction
`fresh.receiver_class` sees (`hk.transform(f)` of sealed `f`, kept by
`hk.without_apply_rng`), or `name = model.init(...)` of a listed linen layer every
binding of `model` reaching it holds (`facts/held_globals.py`). Anything else is
unproven.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import CallSite, Stmt
from autoopt.analysis.facts.fresh import receiver_class
from autoopt.analysis.facts.held_globals import layer_at
from autoopt.analysis.overlays import flax_linen as linen_api
from autoopt.analysis.values.model import model


def arrays_at_calls(ctx: ModuleContext, sites: list[CallSite], index: int, param: str) -> bool:
    """Whether the argument for `param` (at `index`) is proven arrays at every call."""
    return bool(sites) and all(_arrays_at(ctx, site, index, param) for site in sites)


def _arrays_at(ctx: ModuleContext, site: CallSite, index: int, param: str) -> bool:
    expr = site.argument(index, param)
    if expr is None:
        return False
    if model(ctx).value_of(site.stmt, expr).is_arrays:
        return True
    if type(expr) is not cst.Name:
        return False
    binders = ctx.graph.reaching_defs(site.stmt, expr.value)
    return bool(binders) and all(_binds_arrays(ctx, d, expr.value) for d in binders)


def _binds_arrays(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """`stmt` binds `name` to arrays: as the value model proves, or by a library method
    whose result the overlays list as arrays, of an object whose construction is seen."""
    if model(ctx).defined(stmt, name).is_arrays:
        return True
    node = stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return False
    target, value = node.targets[0].target, node.value
    if type(target) is not cst.Name or target.value != name or type(value) is not cst.Call:
        return False
    func = value.func
    if type(func) is not cst.Attribute:
        return False
    if func.attr.value in linen_api.ARRAYS_METHODS and layer_at(ctx, stmt, func.value):
        return True  # `params = model.init(key, x)` of a listed linen layer
    cls = receiver_class(ctx, stmt, func.value)
    return cls is not None and f"{cls}.{func.attr.value}" in overlays.ARRAYS_RESULTS
