"""A class of the module with the subclasses the module derives from it.

A trainer class often has task subclasses (`class ReverseTrainer(TrainerModule)`) that
override hooks its methods call (`self.batch_to_input(...)`), so an instance may run the
methods of any of them. `family` is the *root* (`root_class`: the class reached from
`cls` through single bases that are top-level classes of the module) and every
top-level class deriving from a member through its one base, a plain name, with no
keyword nor decorator, bound once in the module (no function rebinds it through
`global`). `open_family` names a class deriving from a member any other way (a second
base, a class nested in a function, a decorated or rebound one): its methods are not
followed, so nothing about the family is proven.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import MODULE


def root_class(ctx: ModuleContext, cls: str) -> str:
    """The class `cls` derives from through single bases of the module (`cls` itself when
    it has none)."""
    seen = {cls}
    base = _module_base(ctx, cls)
    while base is not None and base not in seen:
        cls = base
        seen.add(cls)
        base = _module_base(ctx, cls)
    return cls


def family(ctx: ModuleContext, cls: str) -> tuple[str, ...]:
    """The root of `cls` and the classes the module derives from it, root first."""
    return ctx.per_module(_family, root_class(ctx, cls))


def open_family(ctx: ModuleContext, cls: str) -> str | None:
    """Where a class derives from a member of `cls`'s family in a way not followed."""
    members = set(family(ctx, cls))
    for stmt in ctx.graph.stmts:
        node = stmt.node
        if type(node) is not cst.ClassDef or (node.name.value in members and stmt.scope == MODULE):
            continue
        bases = {n.value for b in node.bases for n in read_names(b.value)} & members
        if bases:
            line, name = ctx.span(node).line, node.name.value
            base = sorted(bases)[0]
            return f"`{name}` at line {line} derives from `{base}` in a way autoopt does not follow"
    return None


def _family(ctx: ModuleContext, root: str) -> tuple[str, ...]:
    members = [root]
    grown = True
    while grown:
        more = [c for c in _top_classes(ctx) if c not in members and _member_of(ctx, c, members)]
        members += more
        grown = bool(more)
    return tuple(members)


def _member_of(ctx: ModuleContext, cls: str, members: list[str]) -> bool:
    """`class cls(member):`, bound once, with no keyword nor decorator."""
    node = _class_node(ctx, cls)
    if node is None or node.keywords or node.decorators or _module_base(ctx, cls) not in members:
        return False
    binders = [s for s in ctx.graph.scope_stmts(MODULE) if cls in s.defs]
    return len(binders) == 1 and not any(cls in f.globals for f in ctx.graph.functions.values())


def _module_base(ctx: ModuleContext, cls: str) -> str | None:
    """The one base of `cls`, where it is a plain name of a top-level class."""
    node = _class_node(ctx, cls)
    if node is None or len(node.bases) != 1 or node.bases[0].keyword is not None:
        return None
    base = node.bases[0].value
    if type(base) is not cst.Name or _class_node(ctx, base.value) is None:
        return None
    return base.value


def _top_classes(ctx: ModuleContext) -> list[str]:
    return [
        s.node.name.value for s in ctx.graph.scope_stmts(MODULE) if type(s.node) is cst.ClassDef
    ]


def _class_node(ctx: ModuleContext, cls: str) -> cst.ClassDef | None:
    for stmt in ctx.graph.scope_stmts(MODULE):
        if type(stmt.node) is cst.ClassDef and stmt.node.name.value == cls:
            return stmt.node
    return None
