"""Layers a constructor call builds plainly: its call runs the library's code alone.

`plain_layer` names an nnx layer given only sizes and options that run no code when it
is called (`overlays/flax_nnx.py`, `UNKEPT_LAYER_CALLS`, `STATS_LAYER_CALLS`,
`PLAIN_LAYER_OPTIONS`); `equinox_layer` an equinox layer whose options are nothing or
functions of JAX (`overlays/equinox.py`, `FRESH_CALLS`).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.overlays import flax_nnx as nnx_api

_LAYER_CALLS = nnx_api.UNKEPT_LAYER_CALLS | nnx_api.STATS_LAYER_CALLS


def plain_layer(ctx: ModuleContext, value: cst.BaseExpression) -> str | None:
    """The layer `value` builds (`flax.nnx.Linear`), where a constructor `UNKEPT_LAYER_CALLS`
    or `STATS_LAYER_CALLS` lists is given only sizes by position and `PLAIN_LAYER_OPTIONS`
    by keyword (no option run when the layer is called); else None."""
    if type(value) is not cst.Call:
        return None
    qual = ctx.qualify(value.func) or ""
    positional = _LAYER_CALLS.get(qual)
    if positional is None or any(a.star for a in value.args):
        return None
    if sum(a.keyword is None for a in value.args) > positional:
        return None  # a hook given by position
    named = {a.keyword.value for a in value.args if a.keyword is not None}
    return qual if named <= nnx_api.PLAIN_LAYER_OPTIONS else None  # no call-time hook


def equinox_layer(ctx: ModuleContext, value: cst.BaseExpression) -> str | None:
    """The equinox layer `value` builds (`equinox.nn.Linear`), where a constructor
    `FRESH_CALLS` lists is given for each option its call runs nothing or a function of
    JAX (`activation=jax.nn.softplus`), and no `*args` or `**kwargs`; else None."""
    if type(value) is not cst.Call or any(a.star for a in value.args):
        return None
    qual = ctx.qualify(value.func) or ""
    options = eqx_api.FRESH_CALLS.get(qual)
    if options is None:
        return None
    positional = [a.value for a in value.args if a.keyword is None]
    named = {a.keyword.value: a.value for a in value.args if a.keyword is not None}
    for keyword, position in options:
        given = [named[keyword]] if keyword in named else positional[position : position + 1]
        if not all(_jax_function(ctx, g) for g in given):
            return None
    return qual


def _jax_function(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """A function of JAX named in place (`jax.nn.softplus`, `jnn.tanh`), not called."""
    if type(expr) not in (cst.Name, cst.Attribute):
        return False
    return (ctx.qualify(expr) or "").startswith("jax.")
