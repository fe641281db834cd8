"""Whether what holds an assembled linen module leaves the lists it holds alone.

An assembled module (`facts/linen_trees.py`, `ASSEMBLED`) holds a list the code that
built it made, which flax keeps as it is: `init` makes new buffers only while nothing has
changed that list since. The builder mentions its own names for the list nowhere else,
so only what holds the module can reach it. `facts/fresh.py` follows the module from
that call to the receiver of `init`, through parameters, local names and an attribute of
`self` stored while the instance is built, and asks each holder to be *kept*:

- a name (a parameter or a local of a function, `kept_name`): the function mentions it
  only as the parameter, as the one target of an assignment, at the expression
  followed, and as `name.m(...)`, `m` a method that changes no field
  (`flax_linen.FIELD_KEEPING`);
- `self.x` of a class (`kept_attribute`): every mention of `self.x` in the methods of
  its family is a store, such a call, or `self.x.apply` handed as `apply_fn=` to a
  `TrainState` (flax's, or a field subclass: it keeps the function and only calls it).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.facts.linen_trees import parameter_names
from autoopt.analysis.facts.self_attrs import is_store, uses, walk_parents
from autoopt.analysis.facts.train_states import record_static
from autoopt.analysis.overlays import flax_linen as linen_api

_APPLY = "apply"
_APPLY_FN = "apply_fn"


def kept_name(
    ctx: ModuleContext, function: cst.FunctionDef, name: str, followed: cst.CSTNode
) -> bool:
    """`function` mentions `name` only as its parameter, a whole assignment target, at
    `followed`, or as `name.m(...)`, `m` a method keeping the fields."""
    param = name in parameter_names(function)
    for node, parent in walk_parents(function, None):
        if type(node) is not cst.Name or node.value != name or node is followed:
            continue
        if param and type(parent) is cst.Param and parent.name is node:
            continue
        if type(parent) is cst.AssignTarget and parent.target is node:
            continue
        if not _keeping_call(ctx, node):
            return False
    return True


def kept_attribute(ctx: ModuleContext, cls: str, attr: str) -> bool:
    """Every `self.attr` in the methods of `cls`'s family is a store, `self.attr.m(...)`
    (`m` keeping the fields), or `self.attr.apply` handed as a `TrainState`'s
    `apply_fn`."""
    for use in uses(ctx, cls, attr):
        if type(use.node) is not cst.Attribute or is_store(use):
            continue
        if not (_keeping_call(ctx, use.node) or _apply_fn(ctx, use.node)):
            return False
    return True


def _keeping_call(ctx: ModuleContext, node: cst.CSTNode) -> bool:
    """`node.m(...)`, `m` one of `flax_linen.FIELD_KEEPING`."""
    path = ctx.ancestors(node)
    if len(path) < 3:
        return False
    attribute, call = path[-2], path[-3]
    return (
        type(attribute) is cst.Attribute
        and attribute.value is node
        and attribute.attr.value in linen_api.FIELD_KEEPING
        and type(call) is cst.Call
        and call.func is attribute
    )


def _apply_fn(ctx: ModuleContext, node: cst.CSTNode) -> bool:
    """`TrainState.create(apply_fn=node.apply, ...)`, or the constructor so given it."""
    path = ctx.ancestors(node)
    if len(path) < 4:
        return False
    attribute, arg, call = path[-2], path[-3], path[-4]
    return (
        type(attribute) is cst.Attribute
        and attribute.value is node
        and attribute.attr.value == _APPLY
        and type(arg) is cst.Arg
        and arg.keyword is not None
        and arg.keyword.value == _APPLY_FN
        and type(call) is cst.Call
        and record_static(ctx, call) is not None
    )
