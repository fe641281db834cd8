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
from typing import Any

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
    extract = _EXTRACTORS.get(type(node))
    if extract is None:
        extract = _EXTRACTORS[type(node)] = fields_extractor(child_fields(node))
    return extract(node)


class _NodeTypes(dict[type, bool]):
    """type -> whether it is a LibCST node class, filled in on first sight: a lookup
    costs less than an isinstance check against LibCST's abstract base class."""

    def __missing__(self, kind: type) -> bool:
        known = self[kind] = issubclass(kind, cst.CSTNode)
        return known


_EXTRACTORS: dict[type, Callable[[cst.CSTNode], list[cst.CSTNode]]] = {}
_IS_NODE = _NodeTypes()


def fields_extractor(names: tuple[str, ...]) -> Callable[[cst.CSTNode], list[cst.CSTNode]]:
    """A function giving the nodes held in the fields `names` of a node, in that order.

    Walks call it for every node, so it is generated once per node type with the
    fields spelled out (as `dataclasses` generates `__init__`): about twice as fast as
    a loop over the field names with `getattr`.
    """
    lines = ["def extract(node):", "    found = []"]
    for name in names:
        lines += [
            f"    value = node.{name}",
            "    kind = type(value)",
            "    if kind is tuple or kind is list:",
            "        found += [item for item in value if is_node_type[type(item)]]",
            "    elif is_node_type[kind]:",
            "        found.append(value)",
        ]
    lines.append("    return found")
    namespace: dict[str, Any] = {"is_node_type": _IS_NODE}
    exec("\n".join(lines), namespace)  # the names are LibCST dataclass fields
    return namespace["extract"]


def is_node(value: object) -> bool:
    """`isinstance(value, cst.CSTNode)`, answered per type from a table."""
    return _IS_NODE[type(value)]


def walk(
    node: cst.CSTNode, prune: Callable[[cst.CSTNode], bool] | None = None
) -> Iterator[cst.CSTNode]:
    """Every node under `node` (itself first), preorder; `prune(n)` skips n's children."""
    if prune is None and type(node) is cst.Module:
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
    parts: dict[int, tuple[cst.BaseStatement, int, int]] = {}
    for stmt in module.body:
        old = last.parts.get(id(stmt)) if last is not None else None
        part = (
            last.nodes[old[1] : old[2]]
            if old and last is not None and old[0] is stmt
            else _preorder(stmt)
        )
        parts[id(stmt)] = (stmt, len(nodes), len(nodes) + len(part))
        nodes.extend(part)
    _last = _Walked(module, nodes, parts)
    return nodes


def _preorder(node: cst.CSTNode) -> list[cst.CSTNode]:
    """`walk(node)` as a list, built without a generator."""
    found = []
    stack = [node]
    while stack:
        current = stack.pop()
        found.append(current)
        inner = child_list(current)
        inner.reverse()
        stack += inner
    return found


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
