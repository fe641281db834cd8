"""Where a donated value's buffers may have gone by the time the donation runs.

A value can hold the buffers of a model only if those buffers flowed into whatever made
it: the syntax links them (`b = (model, x)`), or code autoopt cannot see was handed
something that may share them (`log(model)`, `Run.best = model`, a closure over it, a
generator yielding it) and returned or changed the value (`batch = next(loader)`). The
may-share relation (`analysis/facts/aliases.py`) records both as links, the second
through a name for the code that may keep a reference. Read over a whole scope, it
joins a batch with a model handed to unseen code anywhere in the scope, even after the
batch was last made and the donation last ran.

Where a donating statement runs, only the statements that may run before it have made
the objects that exist and handed them out: the earlier ones and those in a loop with
it (a value made in iteration k may see the model of iteration k - 1; a later statement
of the body runs before the next call). What runs only after it cannot put the buffers
it donates into a value read there, and a keeper reached only after it keeps none of
them: such a value or keeper holds them only through a value read after the donation,
which the donation's own premise finds. So `sharing_at` reads the relation as of the
statement (`Sharing`'s `until`): a value linked to the model only through unseen code is
then no alias when nothing that may share the model's buffers reached unseen code
before, and the model holds nothing that came from it (its buffers are new: a
constructor or initializer the relation proves fresh).

That holds where unseen code reaches the scope's names only through what the scope
hands it (`facts/reflection.py` `namespace_reader`: no `globals()`, `vars()`,
`sys.modules`, `__main__`, `inspect`, frames or `gc` in the file), and where what ran
before, in an earlier run of the scope, cannot hold the donated buffers:

- the module of a script or a notebook, which runs once, and which no other file of
  the project may import (that file's code may read its globals);
- a function, which may run again (what an earlier call handed out after its loop may
  come back in a later one), for a donated name whose value, as of the statement, holds
  only what the call itself made: every name it may hold is a local of the function,
  none a parameter, a global, a `nonlocal` or a keeper's (`Sharing.reach`).

A function of the module that reads one of the names (a callback handed out) is found
by the donation's own premise (`donation._outside_reader`). Elsewhere the relation is
read whole. `namespace_escape` says why a module that may hand out its own namespace
lets unseen code read every global, with no statement handing it out; `locals_escape`
why a function that hands out its own namespace (`dict(locals())`) lets code read every
local.
"""

from __future__ import annotations

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Stmt
from autoopt.analysis.facts.aliases import Sharing
from autoopt.analysis.facts.reflection import imported_by_project, namespace_reader


def sharing_at(ctx: ModuleContext, stmt: Stmt, name: str) -> Sharing:
    """The may-share relation of the scope of `stmt` where `stmt` runs, without it, for
    judging the value `name` holds there: as of `stmt` where that is sound, else over
    the whole scope."""
    ordered = ctx.per_module(_as_of, stmt.scope, stmt.id)
    if ordered is not None and (stmt.scope == MODULE or _made_by_the_call(ctx, ordered, name)):
        return ordered
    return ctx.per_module(_whole, stmt.scope, stmt.id)


def namespace_escape(ctx: ModuleContext, scope: str) -> str:
    """Why every name of `scope` may reach code autoopt cannot see at any time, with no
    statement handing it out: a global of a module that may hand out its own namespace
    (`globals()`, `sys.modules`, `inspect`, ...); "" otherwise."""
    return namespace_reader(ctx) if scope == MODULE else ""


def _as_of(ctx: ModuleContext, scope: str, stmt_id: int) -> Sharing | None:
    """The relation made by what may run before the statement `stmt_id`, where unseen
    code reaches the scope's names only through what it hands out (None elsewhere)."""
    if namespace_reader(ctx) or (scope == MODULE and imported_by_project(ctx)):
        return None
    stmt = ctx.graph.stmts[stmt_id]
    return Sharing(ctx, scope, skip=stmt, until=stmt)


def _whole(ctx: ModuleContext, scope: str, stmt_id: int) -> Sharing:
    return Sharing(ctx, scope, skip=ctx.graph.stmts[stmt_id])


def _made_by_the_call(ctx: ModuleContext, sharing: Sharing, name: str) -> bool:
    """Every name the value of `name` may hold is a local of the function (no parameter,
    global, `nonlocal` or keeper): its buffers were made by this call of it."""
    fn = ctx.graph.functions.get(sharing.scope)
    if fn is None:
        return False
    local = {n for s in ctx.graph.scope_stmts(fn.qualname) for n in s.defs}
    local -= fn.globals | fn.nonlocals | set(fn.params)
    return sharing.reach(name) <= local
