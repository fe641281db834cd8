"""Values made before an nnx module was built, which cannot hold its buffers.

`nnx.jit` donates every array of a module argument, so another argument of the same call,
or a name read after it, must not hold one of them (`analysis/facts/donation.py`). Where
autoopt only cannot rule out that a name shares the module's buffers (both reached code
it cannot see), `made_before` proves it does not (`name` at `reader`, against the module
that `module` holds there) when all of these hold:

- one statement binding `name` reaches `reader` (the only one in the scope, where
  `reader` does not read it) and dominates it, `name` being no parameter, `global` or
  `nonlocal` of its scope;
- the module, and each module it is built from, is bound by `module = C(...)`, the only
  binding reaching its reader, after that statement in the scope and in no loop with it:
  its buffers did not exist when `name` was bound;
- `C` is a constructor the nnx overlay lists or a class of this module whose code is
  sealed (`analysis/facts/fresh.py`: it reads no array from outside), and each argument
  is a literal, a call of `nnx.Rngs` or of an optax transformation with literal
  arguments, or such a module: the constructor is handed no array `name` may hold.

What is written into the module later is another premise: an assignment into it links
`name` to it syntactically (a strong alias, never excused), and code autoopt cannot see
could change it only if the module is handed to such code, which the donation's keeper
premise reports.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import is_literal
from autoopt.analysis.core.graph import Stmt
from autoopt.analysis.facts.nnx_modules import module_class
from autoopt.analysis.facts.sealed import sealed_code
from autoopt.analysis.overlays import OBJECT_CLASSES
from autoopt.analysis.overlays import flax_nnx as nnx_api

_MAX_DEPTH = 4


def made_before(ctx: ModuleContext, reader: Stmt, name: str, module: str) -> bool:
    """Whether the value of `name` at `reader` was made before the module `module` holds
    there was built, from nothing `name` may hold."""
    bound = _binding(ctx, reader, name)
    return bound is not None and _built_after(ctx, reader, module, bound, 0)


def _binding(ctx: ModuleContext, reader: Stmt, name: str) -> Stmt | None:
    """The one statement binding `name` that reaches `reader`, dominating it."""
    fn = ctx.graph.functions.get(reader.scope)
    if fn is not None and (name in fn.params or name in fn.globals | fn.nonlocals):
        return None
    if name in reader.uses:
        found = ctx.graph.reaching_defs(reader, name)
    else:  # flow edges link only readers: the scope binds it once
        found = [s for s in ctx.graph.scope_stmts(reader.scope) if name in s.defs]
    if len(found) != 1 or not ctx.graph.dominates(found[0], reader):
        return None
    return found[0]


def _built_after(ctx: ModuleContext, reader: Stmt, module: str, before: Stmt, depth: int) -> bool:
    """The module `module` holds at `reader` was built after `before` ran, from literals
    and modules built so too."""
    if depth > _MAX_DEPTH or module_class(ctx, reader, module) is None:
        return False
    bound = _binding(ctx, reader, module)
    if bound is None or bound.id <= before.id or set(bound.loops) & set(before.loops):
        return False
    call = bound.node.value  # type: ignore[attr-defined]  # `module = C(...)`: module_class
    if not _own_code_sealed(ctx, call):
        return False
    for arg in call.args:
        value = arg.value
        if arg.star or not (is_literal(value) or _no_arrays(ctx, value)):
            if type(value) is not cst.Name:
                return False
            if not _built_after(ctx, bound, value.value, before, depth + 1):
                return False
    return True


def _own_code_sealed(ctx: ModuleContext, call: cst.Call) -> bool:
    """The constructor is the overlay's, or a class of this module with sealed code."""
    if ctx.qualify(call.func) in nnx_api.MODULE_CLASSES:
        return True
    func = call.func
    return (
        type(func) is cst.Name and func.value in ctx.graph.classes and sealed_code(ctx, func.value)
    )


def _no_arrays(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """`nnx.Rngs(0)`, `optax.adam(1e-3)`: a seed or an optax transformation the overlays
    list, of literals, which holds no array."""
    if type(expr) is not cst.Call:
        return False
    qual = ctx.qualify(expr.func) or ""
    known = qual == "flax.nnx.Rngs" or (qual.startswith("optax.") and qual in OBJECT_CLASSES)
    return known and all(not a.star and is_literal(a.value) for a in expr.args)
