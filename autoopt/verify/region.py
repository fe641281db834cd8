"""The region a rewrite changed: the module-level function that encloses its changes.

The changed lines come from the two texts (a line diff: what the fix's edits did).
The region is the smallest function that encloses every changed line in both variants
and that can be called alone: a module-level `def` (a change inside a nested function
counts for the module-level function around it), with its decorators. Changes that are
whole new module-level functions or imports of the rewrite (a step function placed
above the loop, `import jax`) belong to the region that calls them. A change anywhere
else at module level (a top-level loop, a global) has no region: only the whole
program is timed then.
"""

from __future__ import annotations

import ast
import difflib

Lines = tuple[int, int]  # first and last line, 1-based, inclusive


def changed_region(original: str, rewritten: str) -> str | None:
    """The name of the module-level function enclosing every change in both texts."""
    try:
        old_tree, new_tree = ast.parse(original), ast.parse(rewritten)
    except SyntaxError:
        return None
    old_lines, new_lines = changed_lines(original, rewritten)
    added = _added_spans(new_tree, old_tree)
    new_lines = {n for n in new_lines if not any(a <= n <= b for a, b in added)}
    names = {_enclosing(n, old_tree) for n in old_lines}
    names |= {_enclosing(n, new_tree) for n in new_lines}
    if len(names) != 1:
        return None
    return names.pop()


def changed_lines(original: str, rewritten: str) -> tuple[set[int], set[int]]:
    """The numbers (1-based) of the non-blank lines that differ, in each text."""
    old, new = original.splitlines(), rewritten.splitlines()
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    before: set[int] = set()
    after: set[int] = set()
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            before.update(i + 1 for i in range(i1, i2) if old[i].strip())
            after.update(j + 1 for j in range(j1, j2) if new[j].strip())
    return before, after


def _spans(tree: ast.Module) -> list[tuple[ast.stmt, Lines]]:
    """Every module-level statement with its lines, decorators included."""
    spans = []
    for node in tree.body:
        decorators = getattr(node, "decorator_list", [])
        first = min([node.lineno, *(d.lineno for d in decorators)])
        spans.append((node, (first, node.end_lineno or node.lineno)))
    return spans


def _enclosing(line: int, tree: ast.Module) -> str | None:
    """The module-level function holding `line`, or None (module level)."""
    for node, (first, last) in _spans(tree):
        if first <= line <= last:
            return node.name if isinstance(node, _DEFS) else None
    return None


def _added_spans(new_tree: ast.Module, old_tree: ast.Module) -> list[Lines]:
    """The lines of the module-level functions and imports new in the rewrite."""
    old_names = {n.name for n in old_tree.body if isinstance(n, _DEFS)}
    return [
        span
        for node, span in _spans(new_tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        or (isinstance(node, _DEFS) and node.name not in old_names)
    ]


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
