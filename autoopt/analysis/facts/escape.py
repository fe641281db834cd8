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

That holds where the scope runs once and unseen code reaches its names only through
what the scope hands it: the module of a script or a notebook that does not reach its
own namespace (`globals()`, `vars()`, `sys.modules`, `__main__`, `inspect`, frames,
`gc`: `facts/reflection.py` `namespace_reader`) and that no other file of the project
may import. A function of the module that reads one of the names (a callback handed
out) is found by the donation's own premise (`donation._outside_reader`). A function's
body may run more than once (what an earlier call handed out may come back in a later
one), so its relation is read whole.
"""

from __future__ import annotations

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Stmt
from autoopt.analysis.facts.aliases import Sharing
from autoopt.analysis.facts.reflection import imported_by_project, namespace_reader


def sharing_at(ctx: ModuleContext, stmt: Stmt) -> Sharing:
    """The may-share relation of the scope of `stmt` where `stmt` runs, without it: as
    of it where the scope is `ordered`, else over the whole scope."""
    until = stmt if ordered(ctx, stmt.scope) else None
    return Sharing(ctx, stmt.scope, skip=stmt, until=until)


def ordered(ctx: ModuleContext, scope: str) -> bool:
    """Whether the relation of `scope` may be read as of a statement: the module, run
    once, whose names no code reaches but through what it is handed."""
    return scope == MODULE and not namespace_reader(ctx) and not imported_by_project(ctx)


def namespace_escape(ctx: ModuleContext, scope: str) -> str:
    """Why every name of `scope` may reach code autoopt cannot see at any time, with no
    statement handing it out: a global of a module that may hand out its own namespace
    (`globals()`, `sys.modules`, `inspect`, ...); "" otherwise."""
    return namespace_reader(ctx) if scope == MODULE else ""
