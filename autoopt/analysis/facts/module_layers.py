"""Framework module layers: the linen and equinox module classes of a module, and
whether a layer's `__call__` computes the same when a checkpoint recomputes it.

A module class here is a module-level class bound once whose bases are all framework
module bases (`flax_linen.MODULE_BASES`, `equinox.MODULE_BASES`). Recomputing a layer
on the backward pass (`nn.remat`, `eqx.filter_checkpoint`) repeats what its traced
computation does: a host effect staged into the trace runs again, a variable collection
it writes is written in a lifted scope. Reading `self` is no hazard there: the layer's
fields are its parameters and settings, handed to the checkpoint with it.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Function
from autoopt.analysis.facts import effects, purity
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.overlays import flax_linen as linen_api

LINEN = "linen"
EQUINOX = "equinox"
_BASES = {LINEN: linen_api.MODULE_BASES, EQUINOX: eqx_api.MODULE_BASES}
_PURE = {LINEN: linen_api.REMAT_PURE, EQUINOX: eqx_api.REMAT_PURE}
_SELF_STATE = "reads `self` state"
#: Methods of a linen module that only read its variables.
_LINEN_READS = frozenset({"param"})
#: Generic containers a field of layers is annotated with (`layers: list[Block]`).
_SEQUENCES = frozenset({"list", "tuple", "Sequence", "List", "Tuple"})


def module_classes(ctx: ModuleContext) -> dict[str, str]:
    """Module-level classes bound once whose bases are all one framework's module
    bases -> that framework (`LINEN`, `EQUINOX`)."""
    return ctx.per_module(_module_classes)


def _module_classes(ctx: ModuleContext) -> dict[str, str]:
    found = {}
    stmts = ctx.graph.scope_stmts(MODULE)
    for stmt in stmts:
        node = stmt.node
        if type(node) is not cst.ClassDef or not node.bases or node.keywords:
            continue
        name = node.name.value
        bases = {ctx.qualify(b.value) for b in node.bases}
        once = sum(name in s.defs for s in stmts) == 1
        for framework, known in _BASES.items():
            if once and bases <= known:
                found[name] = framework
    return found


def class_node(ctx: ModuleContext, name: str) -> cst.ClassDef | None:
    """The module-level class statement named `name`."""
    for stmt in ctx.graph.scope_stmts(MODULE):
        if type(stmt.node) is cst.ClassDef and stmt.node.name.value == name:
            return stmt.node
    return None


def field_annotation(node: cst.ClassDef, field: str) -> cst.BaseExpression | None:
    """The annotation of the class field `field` (`layers: list[Block]`), if declared."""
    for line in node.body.body:
        if type(line) is not cst.SimpleStatementLine:
            continue
        for small in line.body:
            if type(small) is not cst.AnnAssign:
                continue
            if type(small.target) is cst.Name and small.target.value == field:
                return small.annotation.annotation
    return None


def element_class(ctx: ModuleContext, cls: str, field: str) -> str | None:
    """The module class of this module that every element of the field `field` of `cls`
    is annotated as (`layers: list[Block]` -> `Block`); None when not so declared."""
    node = class_node(ctx, cls)
    annotation = field_annotation(node, field) if node is not None else None
    if type(annotation) is not cst.Subscript or type(annotation.value) is not cst.Name:
        return None
    if annotation.value.value not in _SEQUENCES or not annotation.slice:
        return None
    element = annotation.slice[0].slice
    value = element.value if type(element) is cst.Index else None
    if type(value) is not cst.Name or value.value not in module_classes(ctx):
        return None
    return value.value


def layer_problems(ctx: ModuleContext, cls: str) -> tuple[list[str], list[str]]:
    """Why recomputing `cls(...)(x)` may not do what computing it once does: (refuted
    premises, unproven ones), each a reason naming the call or effect; both empty when
    autoopt proves the layer's `__call__` pure under recomputation."""
    refuted: list[str] = []
    unproven: list[str] = []
    _class_problems(ctx, cls, refuted, unproven, set())
    return list(dict.fromkeys(refuted)), list(dict.fromkeys(unproven))


def _class_problems(
    ctx: ModuleContext, cls: str, refuted: list[str], unproven: list[str], seen: set[str]
) -> None:
    fn = ctx.graph.functions.get(f"{cls}.__call__")
    if fn is None:
        unproven.append(f"`{cls}` has no `__call__` autoopt can read")
        return
    _function_problems(ctx, cls, fn, refuted, unproven, seen)


def _function_problems(
    ctx: ModuleContext,
    cls: str,
    fn: Function,
    refuted: list[str],
    unproven: list[str],
    seen: set[str],
) -> None:
    if fn.qualname in seen:
        return
    seen.add(fn.qualname)
    framework = module_classes(ctx)[cls]
    shared = []  # a local changed in place: what the call that made it does says more
    for reason in purity.impurities(ctx, fn):
        if reason.startswith(_SELF_STATE) or _pure_library_call(reason, framework):
            continue
        if _followed_layer(ctx, reason):
            continue  # `_call_problems` reads that class's `__call__` itself
        if purity.SHARED_CHANGE in reason:
            shared.append(reason)
        else:
            (unproven if purity.unseen(reason) else refuted).append(reason)
    refuted += [f"{e}, which recomputation would repeat" for e in effects.traced_effects(ctx, fn)]
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        for call in stmt.calls:
            _call_problems(ctx, cls, call, refuted, unproven, seen)
    refuted += shared


def _pure_library_call(reason: str, framework: str) -> bool:
    """`calls `flax.linen.Dense`, code autoopt cannot see` for a layer the overlay
    lists pure under recomputation."""
    return any(reason == f"calls `{q}`, {purity.UNSEEN}" for q in _PURE[framework])


def _followed_layer(ctx: ModuleContext, reason: str) -> bool:
    """`calls `Block(...)`, whose `__call__` ...` for a module class of this file, whose
    layer problems `_call_problems` gives with their own names."""
    head, sep, _ = reason.partition("(...)`, whose `__call__`")
    return bool(sep) and head.removeprefix("calls `") in module_classes(ctx)


def _call_problems(
    ctx: ModuleContext,
    cls: str,
    call: cst.Call,
    refuted: list[str],
    unproven: list[str],
    seen: set[str],
) -> None:
    """A call purity does not judge: a layer built here (`Block(...)(x)`), a field or
    method of `self` (`self.mlp(x)`, `self.sow(...)`)."""
    func = call.func
    inner = func.func if type(func) is cst.Call else None
    if type(inner) is cst.Name and inner.value in module_classes(ctx):
        _class_problems(ctx, inner.value, refuted, unproven, seen)
        return
    if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
        return
    if func.value.value != "self":
        return
    attr = func.attr.value
    framework = module_classes(ctx)[cls]
    method = ctx.graph.functions.get(f"{cls}.{attr}")
    if method is not None:
        _function_problems(ctx, cls, method, refuted, unproven, seen)
    elif framework == LINEN and attr in linen_api.WRITES_COLLECTIONS:
        refuted.append(f"writes a variable collection (`self.{attr}`), which nn.remat lifts")
    elif framework != LINEN or attr not in _LINEN_READS:
        _field_problems(ctx, cls, attr, refuted, unproven, seen)


def _field_problems(
    ctx: ModuleContext, cls: str, attr: str, refuted: list[str], unproven: list[str], seen: set[str]
) -> None:
    """`self.attr(...)`: a layer field annotated as a pure library layer or a module
    class of this module; anything else is unproven."""
    node = class_node(ctx, cls)
    annotation = field_annotation(node, attr) if node is not None else None
    framework = module_classes(ctx)[cls]
    qual = ctx.qualify(annotation) if annotation is not None else None
    if qual in _PURE[framework]:
        return
    if type(annotation) is cst.Name and module_classes(ctx).get(annotation.value) == framework:
        _class_problems(ctx, annotation.value, refuted, unproven, seen)
        return
    unproven.append(f"calls `self.{attr}`, whose layer autoopt cannot see")
