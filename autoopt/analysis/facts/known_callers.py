"""Whether every call of a module function is in sight: its call sites, or why not.

A function's callers are all known when it is a plain module-level function (not
decorated, not a generator or a coroutine, defined once) of a script (`jitted.is_script`:
a program, not a library) and:

- no read of its name other than a direct call `f(...)`, no `__all__` naming it, and a
  public name only in a script (`jitted.is_escaping`): it is not handed out as a value;
- the module never reaches its own namespace or module object (`globals()`, `vars()`,
  `locals()`, `exec`, `eval`, `__globals__`, `f_globals`, `sys.modules`,
  `importlib.import_module`, `__import__`, `inspect.getmodule`), through which code
  may fetch the function by name;
- no other file of the project may import the module (`project.importing_files`), where
  callers autoopt does not follow may be. A module given without a file has no project.

Then its call sites are the graph's direct calls `f(...)`, one per call. A function
whose one decorator is its jit (`unseen_callers(..., jitted=True)`) is read the same way:
the name holds the jit's wrapper, which hands each call's arguments on to the function.
"""

from __future__ import annotations

import os
import re

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, CallSite, Function
from autoopt.analysis.core.jitted import is_escaping, is_script
from autoopt.analysis.core.project import importing_files, root
from autoopt.analysis.overlays import python as python_api

#: Names through which a module's code may reach its own namespace or module object.
_REACH_WORDS = (
    python_api.NAMESPACE_BUILTINS | python_api.CODE_BUILTINS | python_api.GLOBALS_ATTRIBUTES
    | {"modules", "import_module", "__import__", "getmodule"}
)  # fmt: skip
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def known_call_sites(ctx: ModuleContext, fn: Function) -> tuple[list[CallSite], str]:
    """Every call of `fn` when all are proven in sight (and ""), else no sites and the
    premise that fails."""
    reason = unseen_callers(ctx, fn)
    if reason:
        return [], reason
    return ctx.graph.call_sites(fn), ""


def unseen_callers(ctx: ModuleContext, fn: Function, jitted: bool = False) -> str:
    """Why a call of `fn` may be out of sight, or "" (`jitted`: its one decorator is the
    jit whose wrapper its callers call)."""
    name = fn.name
    node = fn.node
    if fn.scope != MODULE or fn.qualname != name:
        return f"`{name}` is not a module-level function: its callers are not all known"
    decorated = len(node.decorators) > (1 if jitted else 0)
    if decorated or node.asynchronous is not None or _yields(node):
        return f"`{name}` is decorated, a generator or a coroutine: its callers are not all known"
    if sum(name in s.defs for s in ctx.graph.scope_stmts(MODULE)) != 1:
        return f"`{name}` is bound more than once in the module"
    if not is_script(ctx):
        return f"`{name}` is in a module that may be imported: its callers are not all known"
    if is_escaping(ctx, name):
        return f"`{name}` is used other than called, so its callers are not all known"
    reach = ctx.per_module(_reaches_itself)
    if reach:
        return f"the module may fetch `{name}` by name (`{reach}`)"
    importer = ctx.per_module(_importer)
    if importer:
        return f"`{importer}` may import this module and call `{name}`"
    return ""


def _yields(node: cst.FunctionDef) -> bool:
    """A `yield` in the function's own body (not a nested function's)."""
    found = False

    class _Finder(cst.CSTVisitor):
        def visit_FunctionDef(self, inner: cst.FunctionDef) -> bool:
            return inner is node

        def visit_Lambda(self, _: cst.Lambda) -> bool:
            return False

        def visit_Yield(self, _: cst.Yield) -> None:
            nonlocal found
            found = True

    node.visit(_Finder())
    return found


def _reaches_itself(ctx: ModuleContext) -> str:
    """A name of the module's code through which it may reach its namespace, or ""."""
    words = set(_IDENTIFIER.findall(ctx.source)) & _REACH_WORDS
    return sorted(words)[0] if words else ""


def _importer(ctx: ModuleContext) -> str:
    """The path of a project file that may import this module, or ""."""
    if not ctx.path:
        return ""
    path = ctx.path.replace("\\", "/").rsplit("/", 1)[-1]
    stem = path.removesuffix(".py")
    if stem == "__init__":
        return "a file of the package"
    found = importing_files(ctx, stem, frozenset({"modules", "import_module", "__import__"}))
    if not found:
        return ""
    top = root(ctx.path)
    return os.path.relpath(found[0].path, top) if top else found[0].path
