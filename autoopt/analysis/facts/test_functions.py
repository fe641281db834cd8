"""Test functions, whose bodies a rewrite of a test file leaves alone (`--include-tests`).

A rewrite inside a test changes what it checks: a test comparing a computation with a
reference would then compare two rewritten things. Test functions are those pytest
collects by default: a module-level `def test_*` (or `async def`, also under a
module-level `if` or `try`), and the `test_*` methods of `Test*` classes (nested
`Test*` classes included). Fixtures, helpers and other module code are not.

A fix reaches into a test function when one of its edits replaces the function, a node
in it or a node holding it, or inserts next to a statement in its body. Imports do not.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.model import Edit, InsertAfter, InsertBefore, Replace

_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda)
_CLAUSES = (cst.If, cst.Else, cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally)


def enclosing_test(chain: list[cst.CSTNode]) -> cst.FunctionDef | None:
    """The test function among a node's ancestors (`ctx.ancestors`, itself included)."""
    for node in chain:
        if isinstance(node, cst.FunctionDef):
            return node if node.name.value.startswith("test_") else None
        if isinstance(node, _SCOPES) and not _test_class(node):
            return None
    return None


def collected_tests(ctx: ModuleContext) -> list[cst.FunctionDef]:
    """The module's test functions, in source order."""
    found: list[cst.FunctionDef] = []

    def visit(statements: Iterable[cst.CSTNode]) -> None:
        for stmt in statements:
            if isinstance(stmt, cst.FunctionDef):
                found.extend([stmt] if stmt.name.value.startswith("test_") else [])
            elif isinstance(stmt, cst.ClassDef):
                visit(stmt.body.body if _test_class(stmt) else ())
            elif isinstance(stmt, cst.BaseCompoundStatement):  # if, try, with, ...
                visit(_blocks(stmt))

    visit(ctx.module.body)
    return found


def _test_class(node: cst.CSTNode) -> bool:
    return isinstance(node, cst.ClassDef) and node.name.value.startswith("Test")


def _blocks(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The statements of a compound statement's blocks (else, except, finally too)."""
    for child in node.children:
        if isinstance(child, cst.IndentedBlock):
            yield from child.body
        elif isinstance(child, _CLAUSES):
            yield from _blocks(child)


def reached_test(ctx: ModuleContext, edits: Sequence[Edit]) -> cst.FunctionDef | None:
    """The test function one of `edits` reaches into, if any (see the module's doc)."""
    tests = collected_tests(ctx)
    if not tests:
        return None
    holders = {id(n): t for t in tests for n in _chain(ctx, t) or [t]}
    for edit in edits:
        if isinstance(edit, Replace):
            chain = _chain(ctx, edit.target)
            if chain is None:
                return tests[0]  # not located: assume the worst
            hit = enclosing_test(chain) or holders.get(id(edit.target))
        elif isinstance(edit, InsertBefore | InsertAfter):
            chain = _chain(ctx, edit.anchor)
            if chain is None:
                return tests[0]
            hit = enclosing_test(chain[:-1])
        else:
            continue
        if hit is not None:
            return hit
    return None


def _chain(ctx: ModuleContext, node: cst.CSTNode) -> list[cst.CSTNode] | None:
    try:
        return ctx.ancestors(node)
    except KeyError:
        return None
