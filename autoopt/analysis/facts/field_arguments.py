"""What the constructions of an equinox module class give one of its fields.

`field_arguments(ctx, cls, field)` lists the expressions, each with the statement that
reads it, one of which every object a call `cls(...)` builds holds in `field`, where
every such call is in sight (`known_callers.construction_sites`: a script's class, bound
once, only ever called, in a module nothing imports and that never reaches its own
namespace), none given `*args` or `**kwargs`, and the field is stored from what the
call gives:

- a class that declares its fields (`declared_fields`): the argument at the field's
  position or of its name;
- a class `constructors.init_fields` reads, with `equinox.Module` its one base, whose
  `__init__` stores the field once, `self.f = p`, from a parameter `p` it never binds
  again (nor declares `global` or `nonlocal`): the argument the call gives `p` (or the
  keyword of each call of a wrapper handing on its `**kwargs`:
  `known_callers.given_argument`), or, where it gives none, `p`'s literal default.

An equinox module is frozen once built; an object made otherwise (`eqx.tree_at`) is none
of these, and whether something else stores the field (`object.__setattr__`) is the
caller's question.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import is_literal
from autoopt.analysis.core.graph import MODULE, Function, Stmt
from autoopt.analysis.facts.constructors import field_value, init_fields
from autoopt.analysis.facts.declared_fields import declared_fields
from autoopt.analysis.facts.known_callers import (
    class_call_sites,
    construction_sites,
    given_argument,
)
from autoopt.analysis.overlays import equinox as eqx_api

Given = list[tuple[Stmt, cst.BaseExpression]]


def field_arguments(ctx: ModuleContext, cls: str, field: str) -> Given | None:
    """What each construction of `cls` gives `field`, with the statement reading it;
    None where not proven (module docstring)."""
    declared = declared_fields(ctx, cls)
    if declared is not None:
        return _declared(ctx, cls, declared, field)
    found = init_fields(ctx, cls)
    if found is None or not _equinox(ctx, cls):
        return None
    init, stores = found
    values = [field_value(s) for s in stores if _stored_field(s) == field]
    param = values[0] if len(values) == 1 else None
    if type(param) is not cst.Name or param.value not in init.params[1:]:
        return None
    if param.value in init.globals | init.nonlocals:
        return None
    if any(param.value in s.defs for s in ctx.graph.scope_stmts(init.qualname)):
        return None  # bound again before the store, perhaps
    return _passed(ctx, init, param.value)


def _declared(ctx: ModuleContext, cls: str, fields: tuple[str, ...], field: str) -> Given | None:
    if field not in fields:
        return None
    sites, unknown = construction_sites(ctx, cls)
    if unknown:
        return None
    given: Given = []
    for site in sites:
        expr = site.argument(fields.index(field), field)
        if expr is None or any(a.star for a in site.call.args):
            return None
        given.append((site.stmt, expr))
    return given


def _passed(ctx: ModuleContext, init: Function, param: str) -> Given | None:
    """What every construction gives parameter `param` of `init`, or its literal default."""
    sites, unknown = class_call_sites(ctx, init)
    if unknown:
        return None
    default = _default(init, param)
    given: Given = []
    for site in sites:
        found = given_argument(ctx, site, init.params.index(param), param)
        if found is not None:
            given += [(s.stmt, e) for s, e in found]
        elif default is not None and not any(a.star for a in site.call.args):
            given.append((site.stmt, default))
        else:
            return None
    return given


def _default(init: Function, name: str) -> cst.BaseExpression | None:
    """The literal default of parameter `name` of `init`, else None."""
    params = init.node.params
    for param in (*params.posonly_params, *params.params, *params.kwonly_params):
        if param.name.value == name and param.default is not None and is_literal(param.default):
            return param.default
    return None


def _equinox(ctx: ModuleContext, cls: str) -> bool:
    """`cls`'s one base is an equinox module (frozen once built)."""
    node = next(s.node for s in ctx.graph.scope_stmts(MODULE) if cls in s.defs)
    return type(node) is cst.ClassDef and ctx.qualify(node.bases[0].value) in eqx_api.MODULE_BASES


def _stored_field(stmt: Stmt) -> str | None:
    """`self.f = value` -> `f` (a statement `init_fields` lists)."""
    node = stmt.node
    assert type(node) is cst.Assign
    target = node.targets[0].target
    return target.attr.value if type(target) is cst.Attribute else None


def equinox_fields(ctx: ModuleContext, cls: str) -> tuple[str, ...] | None:
    """The fields of an equinox module class of the module, where the class declares them
    (`declared_fields`) or `constructors.init_fields` reads its `__init__` (the fields it
    stores); else None."""
    declared = declared_fields(ctx, cls)
    if declared is not None:
        return declared
    found = init_fields(ctx, cls)
    if found is None or not _equinox(ctx, cls):
        return None
    return tuple(dict.fromkeys(str(_stored_field(s)) for s in found[1]))
