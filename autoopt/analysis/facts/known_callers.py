"""Whether every call of a module function is in sight: its call sites, or why not.

A function's callers are all known when it is a plain module-level function (not
decorated, not a generator or a coroutine, defined once) of a script (`jitted.is_script`:
a program, not a library) and:

- no read of its name other than a direct call `f(...)`, no `__all__` naming it, and a
  public name only in a script (`jitted.is_escaping`): it is not handed out as a value;
- the module never reaches its own namespace or module object (`globals()`, `vars()`,
  `locals()`, `exec`, `eval`, `__globals__`, `f_globals`, `sys.modules`,
  `importlib.import_module`, `__import__`, `inspect.getmodule`), through which code
  may fetch the function by name: none of these words is in its code or its strings
  (a comment runs nothing);
- no other file of the project may import the module (`project.importing_files`), where
  callers autoopt does not follow may be. A module given without a file has no project.

Then its call sites are the graph's direct calls `f(...)`, one per call. The calls
building an instance of a class (`construction_sites`, the class bound once at the
module's top level, undecorated, only ever called) are read so too, against its
`__init__` where it has one (`class_call_sites`). A function
whose one decorator is its jit (`unseen_callers(..., jitted=True)`) is read the same way:
the name holds the jit's wrapper, which hands each call's arguments on to the function.

`given_argument` reads what a call binds to a parameter through a wrapper that hands
on its `*args, **kwargs` and reads them nowhere else (`def build(**kw): return
Trainer(**kw)`): the keyword of every call of the wrapper, all known, none positional.
"""

from __future__ import annotations

import io
import os
import re
import tokenize

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.core.jitted import is_escaping, is_script
from autoopt.analysis.core.project import importing_files, root
from autoopt.analysis.core.walk import walk
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


def class_call_sites(ctx: ModuleContext, init: Function) -> tuple[list[CallSite], str]:
    """Every call `C(...)` building an instance of the class whose `__init__` is `init`,
    when all are proven in sight (`construction_sites`), else no sites and the premise
    that fails. Positional arguments bind the parameters after `self`."""
    cls = init.scope
    if init.qualname != f"{cls}.{init.name}":
        return [], f"`{cls}` is not a class bound once at the module's top level"
    sites, unknown = construction_sites(ctx, cls)
    return [CallSite(s.stmt, s.call, init, bound=True) for s in sites], unknown


def construction_sites(ctx: ModuleContext, cls: str) -> tuple[list[CallSite], str]:
    """Every call `cls(...)` building an instance of class `cls` of the module, when all
    are proven in sight as for a function (`unseen_callers`: a class of the module's top
    level, undecorated, bound once, only ever called), else no sites and the premise that
    fails. No function is given the sites: an argument is read by keyword or position."""
    binders = [s for s in ctx.graph.scope_stmts(MODULE) if cls in s.defs]
    node = binders[0].node if len(binders) == 1 else None
    if type(node) is not cst.ClassDef or node.decorators:
        return [], f"`{cls}` is not a class bound once at the module's top level"
    if not is_script(ctx):
        return [], f"`{cls}` is in a module that may be imported: its callers are not all known"
    if is_escaping(ctx, cls):
        return [], f"`{cls}` is used other than called, so its callers are not all known"
    reach = ctx.per_module(_reaches_itself)
    if reach:
        return [], f"the module may fetch `{cls}` by name (`{reach}`)"
    importer = ctx.per_module(_importer)
    if importer:
        return [], f"`{importer}` may import this module and call `{cls}`"
    sites = [
        CallSite(stmt, call)
        for stmt in ctx.graph.stmts
        for call in stmt.calls
        if type(call.func) is cst.Name and call.func.value == cls
    ]
    return sites, ""


def given_argument(
    ctx: ModuleContext, site: CallSite, index: int, name: str
) -> list[tuple[CallSite, cst.BaseExpression]] | None:
    """What binds the parameter `name` (at `index`) at `site`, with the call that gives
    it: the site's own argument, or, where the site is `g(*args, **kwargs)` handing on
    the parameters of its function `f` and nothing else reads them, the keyword `name`
    of every call of `f` (all known, none given a positional or starred argument, none
    leaving `name` out); None where not proven."""
    expr = site.argument(index, name)
    if expr is not None:
        return [(site, expr)]
    wrapper = _forwarding(ctx, site)
    if wrapper is None or name in wrapper.params:
        return None
    sites, unknown = known_call_sites(ctx, wrapper)
    if unknown:
        return None
    found = []
    for outer in sites:
        if any(a.keyword is None for a in outer.call.args):
            return None  # into `*args`, or starred: not followed
        given = [a.value for a in outer.call.args if a.keyword.value == name]  # type: ignore[union-attr]
        if not given:
            return None
        found.append((outer, given[0]))
    return found


def _forwarding(ctx: ModuleContext, site: CallSite) -> Function | None:
    """The function `site` is in, where the call's arguments are `*args, **kwargs` (or
    `**kwargs`), its own star parameters, which it reads nowhere else and never binds."""
    fn = ctx.graph.functions.get(site.stmt.scope)
    if fn is None:
        return None
    params = fn.node.params
    star = params.star_arg.name.value if isinstance(params.star_arg, cst.Param) else None
    kwargs = params.star_kwarg.name.value if params.star_kwarg is not None else None
    spelled = [(a.star, a.value) for a in site.call.args]
    wanted = [("*", star), ("**", kwargs)] if star is not None else [("**", kwargs)]
    if kwargs is None or len(spelled) != len(wanted):
        return None
    for (mark, value), (want, param) in zip(spelled, wanted, strict=True):
        if mark != want or type(value) is not cst.Name or value.value != param:
            return None
    stmts = ctx.graph.scope_stmts(fn.qualname)
    hands = {n for n in (star, kwargs) if n is not None}
    if any(hands & s.defs for s in stmts) or hands & (fn.globals | fn.nonlocals):
        return None
    inside = [
        s
        for s in ctx.graph.stmts
        if s.scope == fn.qualname or s.scope.startswith(f"{fn.qualname}.")
    ]
    reads = [s for s in inside if hands & s.uses]
    return fn if reads == [site.stmt] and _reads_once(site.stmt, hands) else None


def _reads_once(stmt: Stmt, names: set[str]) -> bool:
    """Each of `names` is read once in `stmt` (the call that hands them on)."""
    counts: dict[str, int] = {}
    for node in walk(stmt.node):
        if type(node) is cst.Name and node.value in names:
            counts[node.value] = counts.get(node.value, 0) + 1
    return all(counts.get(n) == 1 for n in names)


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
    words = _code_words(ctx.source) & _REACH_WORDS
    return sorted(words)[0] if words else ""


def _code_words(source: str) -> set[str]:
    """The identifiers of `source` and of its strings (`getattr(sys, "modules")`), its
    comments left out (no code runs them); every identifier of the text where Python's
    tokenizer cannot read it."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return set(_IDENTIFIER.findall(source))
    code = " ".join(t.string for t in tokens if t.type != tokenize.COMMENT)
    return set(_IDENTIFIER.findall(code))


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
