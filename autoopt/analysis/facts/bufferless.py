"""Names that never hold a buffer in their scope: no alias can pass through them.

Two values that both hold the same Python number share no device buffer, nor does a
value that holds a shape or a string share one with whatever else holds it. The
may-share relation (`analysis/facts/aliases.py`) links names, not values, so it leaves
such names out, as it leaves out module constants: `generator = NeuralSDE(size, ...)`
and `discriminator = NeuralCDE(size, ...)` are not aliases through `size`, and a number
passed beside a donated model is no alias of it.

A name of a scope never holds a buffer when every value it may hold there is proven
immutable and bufferless by the value model (`analysis/values/model.py`: a Python
number, a string, a dtype, a shape tuple or None):

- every statement of the scope that binds it binds such a value;
- a parameter of a function receives such a value at every call the model sees (or its
  default), and is no `*args` or `**kwargs`;
- no function binds it from elsewhere (`global`, `nonlocal`), the module does not reach
  its own namespace (`analysis/facts/reflection.py`) for a name of the module, and no
  comprehension of the scope reuses it as its variable; the scope is a function or the
  module (a class's attributes may be set from outside it).

Anything else may hold a buffer.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import bound_names
from autoopt.analysis.core.graph import MODULE, Function
from autoopt.analysis.facts.reflection import rebinding
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

#: Kinds of immutable values that hold no buffer.
BUFFERLESS_KINDS = frozenset({Kind.SCALAR, Kind.STRING, Kind.DTYPE, Kind.SHAPE, Kind.NONE})


def bufferless_names(ctx: ModuleContext, scope: str) -> frozenset[str]:
    """The names of `scope` proven never to hold a buffer there (once per scope)."""
    return ctx.per_module(_bufferless_names, scope)


def _bufferless_names(ctx: ModuleContext, scope: str) -> frozenset[str]:
    graph = ctx.graph
    fn = graph.functions.get(scope)
    if fn is None and scope != MODULE:
        return frozenset()  # a class body: its names may be set from outside, `C.n = w`
    binders: dict[str, list[bool]] = {}
    reused: set[str] = set()
    values = model(ctx)
    for stmt in graph.scope_stmts(scope):
        for name in stmt.defs:
            kind = values.defined(stmt, name).kind
            binders.setdefault(name, []).append(kind in BUFFERLESS_KINDS)
        reused |= _comprehension_targets(stmt.own_nodes)
    outside = {n for f in graph.functions.values() for n in f.globals | f.nonlocals}
    params: set[str] = set()
    if fn is None:
        outside |= set(rebinding(ctx).names)
    else:
        params, outside = set(fn.params), outside | _variadic(fn)
    names = (set(binders) | params) - outside - reused
    return frozenset(
        name
        for name in names
        if all(binders.get(name, []))
        and (
            fn is None or name not in params or values.parameter(fn, name).kind in BUFFERLESS_KINDS
        )
    )


def _variadic(fn: Function) -> set[str]:
    params = fn.node.params
    return {p.name.value for p in (params.star_arg, params.star_kwarg) if type(p) is cst.Param}


def _comprehension_targets(nodes: tuple[cst.CSTNode, ...]) -> set[str]:
    """The variables of the comprehensions among `nodes`."""
    return {
        name for node in nodes if type(node) is cst.CompFor for name in bound_names(node.target)
    }
