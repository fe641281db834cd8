"""A fast preorder walk over LibCST nodes.

`CSTNode.visit` rebuilds every node it passes (it is a transformer underneath),
which costs about as much as parsing. Analysis only reads, so it walks the
dataclass fields directly and skips whitespace and punctuation.

Rules walk the whole module again and again, so the nodes of the module walked last are
kept, per top-level statement: a second walk of it is a list, and a walk of the next
version of a document in an editor walks only the statements that are new objects.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import libcst as cst

_SKIPPED_FIELDS = (
    "whitespace", "lpar", "rpar", "comma", "leading_lines", "lines_after_decorators",
    "semicolon", "header", "footer", "colon", "equal", "dot", "lbracket", "rbracket",
    "lbrace", "rbrace", "operator", "newline", "arrow", "asynchronous", "star",
    "trailing_whitespace", "first_line", "empty_lines",
)  # fmt: skip
_FIELDS: dict[type, tuple[str, ...]] = {}


def child_fields(node: cst.CSTNode) -> tuple[str, ...]:
    """Names of the fields of `node` that may hold code (not formatting)."""
    kind = type(node)
    names = _FIELDS.get(kind)
    if names is None:
        names = tuple(
            f.name for f in dataclasses.fields(node) if not f.name.startswith(_SKIPPED_FIELDS)
        )
        _FIELDS[kind] = names
    return names


def children(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """The code-bearing children of `node`, in source order."""
    return iter(child_list(node))


def child_list(node: cst.CSTNode) -> list[cst.CSTNode]:
    """`children(node)` as a list (walks build it per node: no generator)."""
    found: list[cst.CSTNode] = []
    for name in child_fields(node):
        value = getattr(node, name)
        if is_node(value):
            found.append(value)
        elif isinstance(value, tuple | list):
            found.extend([item for item in value if is_node(item)])
    return found


_IS_NODE: dict[type, bool] = {}


def is_node(value: object) -> bool:
    """`isinstance(value, cst.CSTNode)`, answered per type from a table: an isinstance
    check against LibCST's abstract base class costs several times a dict lookup."""
    kind = type(value)
    known = _IS_NODE.get(kind)
    if known is None:
        known = _IS_NODE[kind] = issubclass(kind, cst.CSTNode)
    return known


def walk(
    node: cst.CSTNode, prune: Callable[[cst.CSTNode], bool] | None = None
) -> Iterator[cst.CSTNode]:
    """Every node under `node` (itself first), preorder; `prune(n)` skips n's children."""
    if prune is None and isinstance(node, cst.Module):
        return iter(module_nodes(node))
    return _walk(node, prune)


@dataclass(frozen=True)
class _Walked:
    module: cst.Module
    nodes: list[cst.CSTNode]  # walk(module)
    parts: dict[int, tuple[cst.BaseStatement, int, int]]  # id(stmt) -> stmt, start, end


_last: _Walked | None = None


def module_nodes(module: cst.Module) -> list[cst.CSTNode]:
    """`walk(module)` as a list, reusing the statements of the module walked last."""
    global _last
    last = _last
    if last is not None and last.module is module:
        return last.nodes
    nodes: list[cst.CSTNode] = [module]
    parts = {}
    for stmt in module.body:
        old = last.parts.get(id(stmt)) if last is not None else None
        part = last.nodes[old[1] : old[2]] if old and old[0] is stmt else list(_walk(stmt, None))
        parts[id(stmt)] = (stmt, len(nodes), len(nodes) + len(part))
        nodes.extend(part)
    _last = _Walked(module, nodes, parts)
    return nodes


def _walk(node: cst.CSTNode, prune: Callable[[cst.CSTNode], bool] | None) -> Iterator[cst.CSTNode]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if prune is not None and current is not node and prune(current):
            continue
        found = child_list(current)
        found.reverse()
        stack.extend(found)
