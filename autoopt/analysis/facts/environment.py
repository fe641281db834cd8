"""Which top-level statements may read the process environment (for moving a setting).

Moving `os.environ[KEY] = value` above a statement changes what that statement sees:
the move is harmless only where the statement provably reads no setting. A statement
may read the environment when it

- names `os.environ`, `os.getenv`, `os.putenv`, `os.unsetenv` (any spelling: an import
  alias, `from os import environ`, an attribute called `environ` or `getenv`);
- calls anything but JAX, NumPy, `math`, `operator` or a builtin that runs none of the
  program's code (`overlays/python.py`): any other call may run code that reads it. A
  function body runs only where it is called, so a `def` counts by its decorators and
  defaults; a `class` by its decorators, bases and metaclass, whose code runs too;
- imports a module other than JAX itself, which reads the JAX and XLA settings as they
  intend (`ENV_CONSUMERS`), NumPy or a standard module known to read none of them at
  import (`ENV_BLIND_MODULES` of the overlays): a module of the project is read
  (`analysis/core/project.py`) and may read the environment when one of its top-level
  statements may, transitively; a relative import or a module autoopt cannot see (an
  installed package) may read anything.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.names import dotted
from autoopt.analysis.core.project import project_module
from autoopt.analysis.core.walk import child_list
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import numpy as numpy_api
from autoopt.analysis.overlays import python as python_api

#: The names through which code reads or changes the environment.
_ENVIRON = frozenset({"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"})
_BLIND_MODULES = python_api.ENV_BLIND_MODULES | numpy_api.ENV_BLIND_MODULES
_BLIND_CALLS = ("math", "operator", *numpy_api.ENV_BLIND_MODULES, *jax_api.ENV_CONSUMERS)


def env_reader(ctx: ModuleContext, stmt: cst.BaseStatement) -> str | None:
    """Why the top-level statement `stmt` may read the environment (`reads
    `os.environ``, `imports `cfg`, which ...`), or None when it provably does not."""
    return _reader(ctx, stmt, frozenset({ctx.path}))


def _reader(ctx: ModuleContext, stmt: cst.CSTNode, seen: frozenset[str]) -> str | None:
    nodes = list(_executed(stmt))
    for node in nodes:  # the most telling reason first: the environment named
        named = _environ_name(ctx, node) if type(node) in (cst.Name, cst.Attribute) else None
        if named:
            return named
    for node in nodes:
        if type(node) is cst.Import:
            names = [dotted(a.name) or "" for a in node.names]
            found = _first(_module_reader(ctx, n, seen) for n in names)
        elif type(node) is cst.ImportFrom:
            found = _from_reader(ctx, node, seen)
        elif type(node) is cst.Call:
            found = _call_reader(ctx, node.func)
        elif type(node) in (cst.FunctionDef, cst.ClassDef):
            found = _first(_call_reader(ctx, e) for e in _applied(node))  # type: ignore[arg-type]
        else:
            continue
        if found:
            return found
    return None


def _executed(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The nodes a statement runs when it runs: not the bodies of the functions and
    lambdas it defines (their decorators and defaults, yes)."""
    todo = [node]
    while todo:
        current = todo.pop()
        yield current
        if type(current) is cst.FunctionDef:
            inner: list[cst.CSTNode] = [*current.decorators, current.params]
        elif type(current) is cst.Lambda:
            inner = [current.params]
        else:
            inner = child_list(current)
        todo += reversed(inner)


def _environ_name(ctx: ModuleContext, node: cst.CSTNode) -> str | None:
    """`os.environ` however imported, or any attribute called `environ`, `getenv`, ..."""
    qual = (ctx.qualify(node) or "").split(".")  # type: ignore[arg-type]
    named = type(node) is cst.Attribute and node.attr.value in _ENVIRON
    if named or (qual[0] == "os" and len(qual) == 2 and qual[1] in _ENVIRON):
        return f"reads `{ctx.code(node)}`"
    return None


def _call_reader(ctx: ModuleContext, func: cst.BaseExpression) -> str | None:
    """Why calling `func` may read the environment: it is not JAX, NumPy, `math`,
    `operator` or a builtin that runs none of the program's code."""
    qual = ctx.qualify(func) or ""
    if qual.split(".")[0] in _BLIND_CALLS:
        return None
    if type(func) is cst.Name and not qual and func.value in python_api.ENV_BLIND_BUILTINS:
        return None
    return f"calls `{ctx.code(func)}`, which may read it"


def _applied(node: cst.FunctionDef | cst.ClassDef) -> list[cst.BaseExpression]:
    """What a definition calls when it runs: its decorators (a decorator that is a call
    is one already) and, for a class, its bases and metaclass (their class machinery)."""
    applied = [d.decorator for d in node.decorators if type(d.decorator) is not cst.Call]
    if type(node) is cst.ClassDef:
        applied += [a.value for a in (*node.bases, *node.keywords)]
    return applied


def _from_reader(ctx: ModuleContext, node: cst.ImportFrom, seen: frozenset[str]) -> str | None:
    if node.relative:
        return "imports a module by a relative import, which autoopt does not follow"
    module = dotted(node.module) if node.module is not None else ""
    aliases = node.names if type(node.names) is not cst.ImportStar else ()
    names = [dotted(a.name) for a in aliases]  # type: ignore[union-attr]
    submodules = [f"{module}.{n}" for n in names if project_module(ctx, f"{module}.{n}")]
    return _first(_module_reader(ctx, m, seen) for m in [module or "", *submodules])


def _module_reader(ctx: ModuleContext, module: str, seen: frozenset[str]) -> str | None:
    """Why importing `module` (`pkg.mod` runs `pkg` too) may read the environment."""
    top = module.split(".")[0]
    if top in jax_api.ENV_CONSUMERS or top in _BLIND_MODULES:
        return None
    parts = module.split(".")
    for depth in range(1, len(parts) + 1):
        name = ".".join(parts[:depth])
        other = project_module(ctx, name)
        if other is None:
            return f"imports `{module}`, which autoopt cannot see (it may read it)"
        if other.path in seen:
            continue
        for stmt in other.module.body:
            found = _reader(other, stmt, seen | {other.path})
            if found:
                return f"imports `{name}`, whose line {other.span(stmt).line} {found}"
    return None


def _first(found: Iterator[str | None]) -> str | None:
    return next((f for f in found if f), None)
