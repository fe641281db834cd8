"""Reads of `self.x` that keep no reference to its buffers (for `facts/attributes.py`).

A read of `self.x` in a method keeps nothing when its value (the object, or a field or
item of it: `self.x.params`, `self.x.params["w"]`), alone or inside a new container or
one branch of a conditional expression (`p if self.x is None else self.x.params`),
reaches only an argument of

- a call that keeps none of its arguments and returns none of them
  (`facts/unkept_arguments.py`: `checkpoints.save_checkpoint(target=self.x.params)`
  without an `async_manager`): once it returns, the read holds nothing; or
- `TrainState.create(...)` or `TrainState(...)` whose result is the whole value of a
  statement that stores it in `self.x` alone (`self.x = TrainState.create(params=
  self.x.params, tx=opt)`): either keeps no argument but in the record it returns
  (`overlays.PURE_CALLS`, `CONSTRUCTOR_STATIC`),
  and that record replaces the object read, which then nothing holds. What the record
  holds is the stored value's premise (`facts/attributes.py`). `TrainState` is flax's
  or a field subclass of it (`facts/train_states.py`); or
- a method of a helper object the class stores (`self.callback.log(self.model,
  self.state)`) proven to keep no reference to it and return none
  (`facts/unkept_parameters.py`).

Anything else (a method of the object, `self.x` handed to any other call, kept in a
name) is not proven.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Stmt
from autoopt.analysis.facts.fresh import held_fields
from autoopt.analysis.facts.self_attrs import Use, is_self_attr
from autoopt.analysis.facts.train_states import record_static
from autoopt.analysis.facts.unkept_arguments import keeps_no_argument
from autoopt.analysis.facts.unkept_parameters import handed_unkept

_CONTAINERS = (cst.List, cst.Tuple, cst.Set, cst.Dict)


def keeps_nothing(ctx: ModuleContext, use: Use, attr: str) -> bool:
    """Whether the read `use` of `self.attr` reaches only an argument of a call that
    keeps no reference to it, or of the record that replaces `self.attr`."""
    call = _argument_of(ctx, use.node)
    if call is None:
        return False
    if keeps_no_argument(ctx, call) or _replaces_itself(ctx, use, attr, call):
        return True
    return handed_unkept(ctx, use, attr, call)


def _argument_of(ctx: ModuleContext, node: cst.CSTNode) -> cst.Call | None:
    """The call whose argument `node`'s value reaches, through fields, items, new
    containers and conditional branches only (None: it reaches anything else)."""
    path = ctx.ancestors(node)[::-1]
    current = path[0]
    for parent in path[1:]:
        if type(parent) is cst.Arg:
            if parent.value is not current or parent.star:
                return None
        elif type(parent) is cst.Call:
            return parent if any(a is current for a in parent.args) else None
        elif not _holds(parent, current):
            return None
        current = parent
    return None


def _holds(parent: cst.CSTNode, child: cst.CSTNode) -> bool:
    """`parent`'s value is `child`'s, a part of it, or a new container holding it."""
    if type(parent) is cst.Attribute or type(parent) is cst.Subscript:
        return parent.value is child  # a field, an item (not the index)
    if type(parent) is cst.Element or type(parent) is cst.DictElement:
        return parent.value is child
    if isinstance(parent, _CONTAINERS):
        return True  # reached through an element (checked above)
    if type(parent) is cst.IfExp:
        return parent.test is not child
    return False


def _replaces_itself(ctx: ModuleContext, use: Use, attr: str, call: cst.Call) -> bool:
    """The statement is `self.attr = TrainState.create(...)` (or `TrainState(...)`), this
    call."""
    node = use.stmt.node
    if type(node) is not cst.Assign or node.value is not call or len(node.targets) != 1:
        return False
    target = node.targets[0].target
    return is_self_attr(target, use.method.params[0], attr) and record_static(ctx, call) is not None


def replaced_fields(
    ctx: ModuleContext, stmt: Stmt, me: str, attr: str
) -> tuple[list[cst.BaseExpression], list[frozenset[str]]] | None:
    """For `self.attr = TrainState.create(...)` whose fields are proven (`held_fields`):
    the fields not read from `self.attr`, and one leaf per field that is
    (`self.attr.params`), named by its path and each shorter path given too, so that a
    field given twice, or inside another, repeats a name. None: not such a statement,
    or no field read from `self.attr`."""
    node = stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1 or type(node.value) is not cst.Call:
        return None
    if not is_self_attr(node.targets[0].target, me, attr):
        return None
    held = held_fields(ctx, stmt, node.value)
    if held is None:
        return None
    paths = {id(f): _path(f, me, attr) for f in held}
    own = [p for p in paths.values() if p is not None]
    if not own:
        return None
    others = [f for f in held if paths[id(f)] is None]
    names = {p: f"{me}.{attr}" + "".join(p) for p in own}
    return others, [frozenset(names[q] for q in own if p[: len(q)] == q) for p in own]


def _path(expr: cst.BaseExpression, me: str, attr: str) -> tuple[str, ...] | None:
    """The steps from `self.attr` to `expr` (`(".params", "['w']")`), where `expr` reads
    fields and items (by a literal) of `self.attr` only (None: anything else)."""
    steps: list[str] = []
    node = expr
    while not is_self_attr(node, me, attr):
        if type(node) is cst.Attribute:
            steps.append(f".{node.attr.value}")
            node = node.value
        elif type(node) is cst.Subscript and _literal_index(node):
            steps.append(f"[{node.slice[0].slice.value.value}]")  # type: ignore[attr-defined]
            node = node.value
        else:
            return None
    return tuple(reversed(steps))


def _literal_index(node: cst.Subscript) -> bool:
    if len(node.slice) != 1 or type(node.slice[0].slice) is not cst.Index:
        return False
    index = node.slice[0].slice.value
    return isinstance(index, cst.BaseString | cst.Integer)
