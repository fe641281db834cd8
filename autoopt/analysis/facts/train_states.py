"""Calls that make a `TrainState`: flax's, or a field subclass's of this module.

`create_static` gives the arguments of a `create` call that are no leaves of its
result (`overlays.flax_training.CREATE_STATIC`: `apply_fn`, `tx`) when the call is
flax's `TrainState.create`, or `C.create` where `C` is a class of this module bound
once (no function rebinds it through `global`), with no decorator nor keyword, deriving
from one class the overlay lets a subclass extend with fields alone
(`FIELD_SUBCLASSES`), and declaring fields only: annotated names with a literal default
or none, a docstring, `pass`. Its `create` is then flax's, and every keyword it is
given that is not static is a field holding its very buffers.

`constructor_static` does the same for the constructor itself, `TrainState(step=0,
apply_fn=f, params=p, tx=t, opt_state=s)` or `C(...)` (`CONSTRUCTOR_STATIC`): a
dataclass whose every keyword is the field of that name, itself; it computes nothing
(no `tx.init`: `opt_state` is what it is given). `record_static` is either.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import is_literal
from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.facts.self_attrs import class_node
from autoopt.analysis.overlays import flax_training as training_api


def create_static(ctx: ModuleContext, call: cst.Call) -> frozenset[str] | None:
    """The static arguments of a `TrainState.create(...)` call (None: not such a call)."""
    func = call.func
    static = training_api.CREATE_STATIC.get(ctx.qualify(func) or "")
    if static is not None or type(func) is not cst.Attribute or type(func.value) is not cst.Name:
        return static
    base = ctx.per_module(_field_subclass_base, func.value.value)
    return None if base is None else training_api.CREATE_STATIC.get(f"{base}.{func.attr.value}")


def constructor_static(ctx: ModuleContext, call: cst.Call) -> frozenset[str] | None:
    """The static fields of a `TrainState(...)` constructor call (None: not such a call)."""
    func = call.func
    static = training_api.CONSTRUCTOR_STATIC.get(ctx.qualify(func) or "")
    if static is not None or type(func) is not cst.Name:
        return static
    base = ctx.per_module(_field_subclass_base, func.value)
    return None if base is None else training_api.CONSTRUCTOR_STATIC.get(base)


def record_static(ctx: ModuleContext, call: cst.Call) -> frozenset[str] | None:
    """The static arguments of a call making a `TrainState` either way (None: neither)."""
    static = create_static(ctx, call)
    return static if static is not None else constructor_static(ctx, call)


def _field_subclass_base(ctx: ModuleContext, cls: str) -> str | None:
    """The flax class `cls` extends with fields alone (None: not such a class)."""
    node = class_node(ctx, cls)
    binders = [s for s in ctx.graph.scope_stmts(MODULE) if cls in s.defs]
    rebound = any(cls in f.globals for f in ctx.graph.functions.values())
    if node is None or len(binders) != 1 or rebound or node.decorators or node.keywords:
        return None
    if len(node.bases) != 1 or not all(_field_only(s) for s in node.body.body):
        return None
    base = ctx.qualify(node.bases[0].value)
    return base if base in training_api.FIELD_SUBCLASSES else None


def _field_only(stmt: cst.BaseStatement | cst.BaseSmallStatement) -> bool:
    """`name: T`, `name: T = literal`, a docstring or `pass`."""
    if type(stmt) is not cst.SimpleStatementLine:
        return False
    return all(_field_part(small) for small in stmt.body)


def _field_part(small: cst.BaseSmallStatement) -> bool:
    if type(small) is cst.AnnAssign:
        return type(small.target) is cst.Name and (small.value is None or is_literal(small.value))
    if type(small) is cst.Expr:
        return isinstance(small.value, cst.BaseString)
    return type(small) is cst.Pass
