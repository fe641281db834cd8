"""Which rewrites change what a program sets up before it runs: environment and imports.

Workers are forked from a server that has imported jax (and NumPy) and start a
backend before loading the program, so environment settings (`JAX_ENABLE_X64`,
`XLA_FLAGS`) and the order of imports cannot take effect there. A rewrite that
changes them (AO701 moves settings above `import jax`; a fix may add an import
above a module that sets the environment) is verified in fresh interpreters.
"""

from __future__ import annotations

import ast
import sys

Event = tuple[str, str]  # ("env", the statement) or ("import", a top-level package)
_ENVIRONMENT = {"environ", "putenv", "unsetenv"}  # os.environ, os.putenv, from os import ...
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def setup(source: str) -> tuple[Event, ...]:
    """The module-level statements that touch the environment, and the first import of
    each package outside the standard library, in the order the module runs them."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # the run will say what is wrong
        return ()
    events: list[Event] = []
    for stmt in tree.body:
        if isinstance(stmt, _DEFINITIONS):
            continue
        nodes = list(ast.walk(stmt))
        if any(_touches_environment(node) for node in nodes):
            events.append(("env", ast.dump(stmt)))
        events.extend(("import", name) for node in nodes for name in _imported(node))
    return tuple(_first_imports(events))


def changes_setup(original: str, rewritten: str) -> bool:
    """Whether `rewritten` sets the environment or imports packages differently."""
    return setup(original) != setup(rewritten)


def _touches_environment(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr in _ENVIRONMENT
    return isinstance(node, ast.Name) and node.id in _ENVIRONMENT


def _imported(node: ast.AST) -> list[str]:
    """Top-level packages an import statement loads; relative imports keep their dots."""
    if isinstance(node, ast.Import):
        names = [alias.name.split(".")[0] for alias in node.names]
    elif isinstance(node, ast.ImportFrom):
        names = ["." * node.level + (node.module or "").split(".")[0]]
    else:
        return []
    return [name for name in names if name not in sys.stdlib_module_names]


def _first_imports(events: list[Event]) -> list[Event]:
    """Each package's first import only: importing it again does nothing."""
    seen: set[Event] = set()
    kept = []
    for event in events:
        if event[0] == "import" and event in seen:
            continue
        seen.add(event)
        kept.append(event)
    return kept
