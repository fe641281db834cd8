"""Where a statement sits: its block, its neighbours, and whether a `try` encloses it.

The dataflow graph numbers statements but keeps no parent links; rules that move
code across a loop need the statement just before or after it, and must not
move code out of reach of an exception handler.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import libcst as cst


@dataclass
class Blocks:
    """Every statement's block (its sibling statements) and its `try` nesting."""

    siblings: dict[cst.CSTNode, Sequence[cst.BaseStatement]] = field(default_factory=dict)
    in_try: set[cst.CSTNode] = field(default_factory=set)

    def next_statement(self, stmt: cst.CSTNode) -> cst.BaseStatement | None:
        body = self.siblings.get(stmt, ())
        index = _index(body, stmt)
        return body[index + 1] if index is not None and index + 1 < len(body) else None

    def previous_statement(self, stmt: cst.CSTNode) -> cst.BaseStatement | None:
        body = self.siblings.get(stmt, ())
        index = _index(body, stmt)
        return body[index - 1] if index else None


def _index(body: Sequence[cst.BaseStatement], stmt: cst.CSTNode) -> int | None:
    return next((i for i, s in enumerate(body) if s is stmt), None)


def collect_blocks(module: cst.Module) -> Blocks:
    """Index the statement blocks of `module`: one walk over statements only."""
    blocks = Blocks()
    _record(blocks, module.body, 0)
    return blocks


# The fields of compound statements and their parts that may hold an indented block.
_SUITE_FIELDS = ("body", "handlers", "orelse", "finalbody", "cases")  # in source order


def _record(blocks: Blocks, body: Sequence[cst.BaseStatement], tries: int) -> None:
    """Record a block's statements (`tries`: `try` statements around it in its function)."""
    for stmt in body:
        blocks.siblings[stmt] = body
        if tries:
            blocks.in_try.add(stmt)
    for stmt in body:
        _descend(blocks, stmt, tries)


def _descend(blocks: Blocks, node: cst.CSTNode, tries: int) -> None:
    """Record the blocks under a statement; a function body starts outside any `try`."""
    if type(node) in (cst.SimpleStatementLine, cst.SimpleStatementSuite):
        return
    if type(node) is cst.IndentedBlock:
        _record(blocks, node.body, tries)
        return
    if type(node) is cst.FunctionDef:
        tries = 0
    elif type(node) is cst.Try:
        tries += 1
    for name in _SUITE_FIELDS:
        value = getattr(node, name, None)
        for part in value if isinstance(value, tuple | list) else (value,):
            if isinstance(part, cst.CSTNode):
                _descend(blocks, part, tries)
