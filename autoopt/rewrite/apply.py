"""Apply the edits of a set of findings to a module in one LibCST pass."""

from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable

import libcst as cst

from autoopt.analysis.core.walk import child_list
from autoopt.config import DEFAULT_LINE_LENGTH
from autoopt.model import Edit, InsertAfter, InsertBefore, Replace, RequireImport
from autoopt.rewrite.imports import add_imports
from autoopt.rewrite.style import follow_style

#: The nodes from the module down to a node (KeyError for a node it does not hold).
Ancestors = Callable[[cst.CSTNode], list[cst.CSTNode]] | None


class _EditApplier(cst.CSTTransformer):
    """Replaces and inserts around nodes by identity; children are rewritten first.
    Only the nodes that hold a target are rebuilt: the others stay the same objects."""

    def __init__(self, module: cst.Module, edits: Iterable[Edit], ancestors: Ancestors) -> None:
        super().__init__()
        self.transforms: dict[cst.CSTNode, list] = defaultdict(list)
        self.before: dict[cst.CSTNode, list[cst.BaseStatement]] = defaultdict(list)
        self.after: dict[cst.CSTNode, list[cst.BaseStatement]] = defaultdict(list)
        for edit in edits:
            if isinstance(edit, Replace):
                self.transforms[edit.target].append(edit.transform)
            elif isinstance(edit, InsertBefore):
                _extend_unique(self.before[edit.anchor], edit.statements)
            elif isinstance(edit, InsertAfter):
                _extend_unique(self.after[edit.anchor], edit.statements)
        targets = [*self.transforms, *self.before, *self.after]
        self.holders = _holders(module, targets, ancestors)

    def on_visit(self, node: cst.CSTNode) -> bool:
        return self.holders is None or id(node) in self.holders

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode):
        node: cst.CSTNode | cst.RemovalSentinel = updated_node
        for transform in self.transforms.get(original_node, ()):
            if isinstance(node, cst.RemovalSentinel):
                break
            node = transform(node)
        before = self.before.get(original_node, [])
        after = self.after.get(original_node, [])
        if not before and not after:
            return node
        kept = [] if isinstance(node, cst.RemovalSentinel) else [node]
        if before and node is not cst.RemovalSentinel.REMOVE and hasattr(node, "leading_lines"):
            # The blank lines and comments above the anchor now open the inserted block.
            before = [_with_leading(before[0], node.leading_lines), *before[1:]]
            kept = [node.with_changes(leading_lines=())]
        return cst.FlattenSentinel([*before, *kept, *after])


def _holders(
    module: cst.Module, targets: Collection[cst.CSTNode], ancestors: Ancestors
) -> set[int] | None:
    """The ids of the nodes on the way to each target (the targets included), or None
    when a target is not among the code-bearing nodes that `walk` reaches. Where the
    analysis knows each node's `ancestors`, the module is not walked."""
    if ancestors is not None:
        with contextlib.suppress(KeyError):
            return {id(node) for target in targets for node in ancestors(target)}
    left = {id(target) for target in targets}
    held: set[int] = set()
    path: list[int] = []
    stack: list[tuple[cst.CSTNode, int]] = [(module, 0)]
    while stack and left:  # the nodes after the last target are not walked
        node, depth = stack.pop()
        del path[depth:]
        path.append(id(node))
        if id(node) in left:
            left.discard(id(node))
            held.update(path)
        stack.extend((child, depth + 1) for child in reversed(child_list(node)))
    return None if left else held


def _extend_unique(into: list[cst.BaseStatement], stmts: Iterable[cst.BaseStatement]) -> None:
    """Two fixes may move the same statement (e.g. `import os`); insert it once."""
    into.extend(s for s in stmts if all(s is not other for other in into))


def _with_leading(stmt: cst.BaseStatement, lines) -> cst.BaseStatement:
    return stmt.with_changes(leading_lines=[*lines, *stmt.leading_lines])  # type: ignore[attr-defined]  # every statement has them


def apply_edits(
    module: cst.Module,
    edits: Iterable[Edit],
    ancestors: Ancestors = None,
    line_length: int = DEFAULT_LINE_LENGTH,
) -> cst.Module:
    """The module with every edit applied, the imports they require added, and the new
    code in the file's style (`ancestors`: `ModuleContext.ancestors` of this module, when
    there is one; `line_length`: the project's, `config.line_length`)."""
    edits = list(edits)
    rewritten = module.visit(_EditApplier(module, edits, ancestors))
    required = {e for e in edits if isinstance(e, RequireImport)}
    if required:
        rewritten = add_imports(rewritten, required, line_length)
    return follow_style(module, rewritten, line_length)
