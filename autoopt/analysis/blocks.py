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
    """Index the statement blocks of `module` (one walk)."""
    blocks = Blocks()
    module.visit(_Visitor(blocks))
    return blocks


class _Visitor(cst.CSTVisitor):
    """Records each block's statements; `try` depth restarts inside a function."""

    def __init__(self, blocks: Blocks) -> None:
        self.blocks = blocks
        self.depth = [0]

    def visit_Module(self, node: cst.Module) -> None:
        self._record(node.body)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._record(node.body)

    def visit_Try(self, node: cst.Try) -> None:
        self.depth[-1] += 1

    def leave_Try(self, original_node: cst.Try) -> None:
        self.depth[-1] -= 1

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.depth.append(0)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.depth.pop()

    def _record(self, body: Sequence[cst.BaseStatement]) -> None:
        for stmt in body:
            self.blocks.siblings[stmt] = body
            if self.depth[-1]:
                self.blocks.in_try.add(stmt)
