"""nnx module classes of a module, and whether the module keeps its listed layers.

`user_classes` are the classes whose objects `C(...)` builds as written: bound once at
module level, undecorated, `flax.nnx.Module` their one base, no keyword. `layers_kept`
holds where no code of the module may set an attribute of a listed layer once built
(`layer.dot_general = hook`, `model.set_attributes(...)`, `setattr`) nor its class's
`__call__`: calling such a layer then runs flax's code alone.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.facts.attribute_stores import init_named, sets_by_name, stored_anywhere
from autoopt.analysis.overlays import flax_nnx as nnx_api


def layers_kept(ctx: ModuleContext) -> bool:
    """Whether no code of the module may set an attribute of a listed layer after it is
    built (`layer.dot_general = hook`, `model.set_attributes(...)`, `setattr`), nor its
    class's `__call__`: its call then runs flax's code alone."""
    return ctx.per_module(_kept_layers)


def _kept_layers(ctx: ModuleContext) -> bool:
    if nnx_api.SET_ATTRIBUTES in ctx.source:
        return False
    names = nnx_api.LAYER_ATTRIBUTES | {"__call__", "__class__"}
    own = frozenset() if init_named(ctx) else _own_stores(ctx)
    return not any(stored_anywhere(ctx, name, own) for name in sorted(names))


def _own_stores(ctx: ModuleContext) -> frozenset[int]:
    """The statements of the `__init__` of a class of `user_classes` that store only into
    attributes of its first parameter, bound nowhere else in it, and set none by name
    (`self.features = features`): where no code runs an `__init__` on an object it is
    given (`attribute_stores.init_named`), they set the object that class builds, never
    a listed layer (ids of their nodes)."""
    found: set[int] = set()
    for cls in user_classes(ctx):
        init = ctx.graph.functions.get(f"{cls}.__init__")
        if init is None or not init.params:
            continue
        me = init.params[0]
        stmts = ctx.graph.scope_stmts(init.qualname)
        if any(me in s.defs for s in stmts) or me in init.globals | init.nonlocals:
            continue
        found |= {id(s.node) for s in stmts if _stores_into(s.node, me)}
    return frozenset(found)


def _stores_into(node: cst.CSTNode, me: str) -> bool:
    """`me.a = v` (or annotated, or augmented): every target an attribute of `me`, and
    nothing set by name."""
    if type(node) is cst.Assign:
        targets = [t.target for t in node.targets]
    elif type(node) is cst.AugAssign or type(node) is cst.AnnAssign:
        targets = [node.target]
    else:
        return False
    own = all(
        type(t) is cst.Attribute and type(t.value) is cst.Name and t.value.value == me
        for t in targets
    )
    return own and not sets_by_name(node)


def user_classes(ctx: ModuleContext) -> dict[str, cst.ClassDef]:
    """The classes of this module whose objects `C(...)` builds are instances: bound once
    at module level, undecorated, `flax.nnx.Module` their one base, no keyword."""
    return ctx.per_module(_user_classes)


def _user_classes(ctx: ModuleContext) -> dict[str, cst.ClassDef]:
    stmts = ctx.graph.scope_stmts(MODULE)
    found = {}
    for stmt in stmts:
        node = stmt.node
        if type(node) is not cst.ClassDef or node.decorators or node.keywords:
            continue
        name = node.name.value
        once = sum(name in s.defs for s in stmts) == 1
        bases = [ctx.qualify(b.value) for b in node.bases]
        if once and len(bases) == 1 and bases[0] in nnx_api.USER_MODULE_BASES:
            found[name] = node
    return found
