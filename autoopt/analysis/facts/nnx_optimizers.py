"""An nnx optimizer built from a module, sharing no array with it but the module itself.

`nnx.jit` passes a graph node that two arguments reach once, so a model and the
`nnx.ModelAndOptimizer` holding it, donated together, donate each buffer of the model
once (`overlays/flax_nnx.py`, `OPTIMIZERS`). `own_optimizer(ctx, reader, optimizer,
module)` proves that the two names, where `reader` reads them, share no array otherwise
when all of these hold:

- one statement binding `optimizer` reaches `reader` and dominates it (no parameter,
  `global` or `nonlocal`): `optimizer = C(module, tx, wrt=...)`, `C` one of `OPTIMIZERS`,
  with no starred argument and no keyword but the parameters and the filters
  (`OPTIMIZER_FILTERS`: whichever state `wrt` selects, `tx.init` makes new buffers);
- `module` is passed as a plain name, and the one binding of it reaching that statement
  dominates it and is the one reaching `reader`: the very module passed with it;
- `tx` is an optax transformation whose `init` makes new buffers, none twice
  (`facts/fresh.py`, `fresh_init`: `optax.adam(lr)`, not a user's transformation, whose
  `init` may return the parameters it is given);
- with every such statement of the scope left out (a notebook builds the pair again in
  later cells; each binds `optimizer` to a value holding only the model of its time and
  new buffers), nothing else in the scope links the two names (`aliases.Sharing`: no
  store of one into the other, no code autoopt cannot see handed both, no change in
  place putting one's values into the other). Asked for a call that passes a variable
  two arguments reach once (`deduped`: `nnx.jit`'s), an `nnx.jit` call that can only
  move variables and graph objects between the two (`aliases.Sharing`, `moves`) does
  not count: after it they may share variables, each holding a new buffer, never an
  array outside one.

The optimizer's own leaves (the model whole, where its leaves are distinct, and
`tx.init`'s new buffers) are `aliases.Leaves`'s.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Stmt
from autoopt.analysis.facts.aliases import Sharing
from autoopt.analysis.facts.fresh import fresh_init
from autoopt.analysis.facts.nnx_modules import optimizer_arguments


def own_optimizer(
    ctx: ModuleContext, reader: Stmt, optimizer: str, module: str, deduped: bool = False
) -> bool:
    """Whether `optimizer`, where `reader` reads it, is an nnx optimizer built from the
    module `module` holds there, sharing no array with it but the module itself
    (`deduped`: but variables, which the call asking passes once)."""
    binder = _binder(ctx, reader, optimizer)
    if binder is None or not _built_from(ctx, binder, optimizer, module):
        return False
    same = _binder(ctx, binder, module)
    if same is None or same is not _binder(ctx, reader, module):
        return False
    stmts = ctx.graph.scope_stmts(reader.scope)
    built = [s for s in stmts if _built_from(ctx, s, optimizer, module)]
    sharing = Sharing(ctx, reader.scope, skips=built, moves=not deduped)
    return not sharing.may_share(optimizer, module)


def _built_from(ctx: ModuleContext, stmt: Stmt, optimizer: str, module: str) -> bool:
    """`optimizer = C(module, tx)`, `C` an overlay optimizer, `tx` making new buffers: the
    statement links the two names only by the module itself."""
    node = stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1 or type(node.value) is not cst.Call:
        return False
    target = node.targets[0].target
    parts = optimizer_arguments(ctx, node.value)
    if type(target) is not cst.Name or target.value != optimizer or parts is None:
        return False
    model, tx = parts
    return type(model) is cst.Name and model.value == module and fresh_init(ctx, stmt, tx)


def _binder(ctx: ModuleContext, reader: Stmt, name: str) -> Stmt | None:
    """The one statement binding `name` that reaches `reader`, dominating it."""
    fn = ctx.graph.functions.get(reader.scope)
    if fn is not None and (name in fn.params or name in fn.globals | fn.nonlocals):
        return None
    found = ctx.graph.reaching_defs(reader, name)
    return found[0] if len(found) == 1 and ctx.graph.dominates(found[0], reader) else None
