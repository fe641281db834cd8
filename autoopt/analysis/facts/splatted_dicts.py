"""What `**self.h` gives while the instance is built: a dict literal every building passes.

A trainer stores its model's hyperparameters and builds the model from them in
`__init__`: `self.model_hparams = model_hparams`, then `self.model =
self.model_class(**self.model_hparams)`; every building of a trainer passes a dict
literal, `train_classifier(model_class=DenseNet, model_hparams={"act_fn": nn.relu})`,
perhaps through a wrapper handing on its `*args, **kwargs`. `splatted_keywords` gives
the keywords such a splat passes at one building, the literal's own entries, when all
of these hold:

- the call's one argument is `**self.h`, and `self.h` holds, while the instance is
  built, a parameter `p` of the `__init__` that also stores the class
  (`construction.stored_parameters`: the class sealed for `h`, `self` handed to no
  other code);
- the building gives `p` a dict literal written in place (`known_callers.given_argument`,
  through a wrapper that reads its `**kwargs` nowhere else), each key a plain string,
  none twice, no `**` entry: a new dict nothing else holds;
- `__init__` reads `p` only in its store `self.h = p`, and every read of `self.h` in the
  class's family is a `**` argument, which copies the dict's entries: no code changes
  the dict, so it holds the literal's entries whenever it is splatted.

Anything else is not proven (None).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import CallSite, Function
from autoopt.analysis.facts.construction import stored_parameters
from autoopt.analysis.facts.known_callers import given_argument
from autoopt.analysis.facts.self_attrs import is_store, uses, walk_parents


def splatted_keywords(
    ctx: ModuleContext,
    call: cst.Call,
    init: Function,
    site: CallSite,
    outer: CallSite,
) -> list[cst.Arg] | None:
    """The keywords `call` (`self.model_class(**self.h)`, in a method run while the
    instance is built) passes at the building `site` of the class whose `__init__` is
    `init`, its argument given at the call `outer` (the site, or a call of the wrapper
    it is in): the entries of the dict literal given there; None where not proven."""
    stmt = ctx.graph_statement(call)
    if stmt is None or len(call.args) != 1 or call.args[0].star != "**":
        return None
    splatted = call.args[0].value
    if type(splatted) is not cst.Attribute:
        return None
    stored = stored_parameters(ctx, stmt.scope, splatted)
    if stored is None or len(stored) != 1 or stored[0][0] is not init:
        return None
    param, attr = stored[0][1].value, splatted.attr.value
    if not _only_stored(init, param, attr) or not _only_splatted(ctx, init.scope, attr):
        return None
    pairs = given_argument(ctx, site, init.params.index(param), param)
    given = [e for s, e in pairs or () if s.call is outer.call]
    return _entries(given[0]) if len(given) == 1 else None


def _entries(expr: cst.BaseExpression) -> list[cst.Arg] | None:
    """`{"act_fn": nn.relu, "width": 8}` as keywords; None for anything else."""
    if type(expr) is not cst.Dict:
        return None
    found: dict[str, cst.BaseExpression] = {}
    for element in expr.elements:
        if type(element) is not cst.DictElement or type(element.key) is not cst.SimpleString:
            return None
        key = element.key.evaluated_value
        if not isinstance(key, str) or not key.isidentifier() or key in found:
            return None
        found[key] = element.value
    return [cst.Arg(keyword=cst.Name(k), value=v) for k, v in found.items()]


def _only_stored(init: Function, param: str, attr: str) -> bool:
    """`init` mentions `param` only as the parameter and in stores `self.attr = param`."""
    for node, parent in walk_parents(init.node.body, init.node):
        if type(node) is not cst.Name or node.value != param:
            continue
        if type(parent) is cst.Attribute and parent.attr is node:
            continue  # `self.model_hparams`: an attribute's name
        if type(parent) is cst.Arg and parent.keyword is node:
            continue  # `f(model_hparams=...)`: a keyword's name
        if type(parent) is not cst.Assign or parent.value is not node:
            return False
        target = parent.targets[0].target if len(parent.targets) == 1 else None
        if type(target) is not cst.Attribute or type(target.value) is not cst.Name:
            return False
        if target.value.value != init.params[0] or target.attr.value != attr:
            return False
    return True


def _only_splatted(ctx: ModuleContext, cls: str, attr: str) -> bool:
    """Every read of `self.attr` in the class's family is a `**` argument."""
    for use in uses(ctx, cls, attr):
        if is_store(use):
            continue
        parent = use.parent
        if type(parent) is not cst.Arg or parent.value is not use.node or parent.star != "**":
            return False
    return True
