"""Everything a rule may ask about one module, computed once and only when asked."""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from autoopt.analysis.graph import ModuleGraph
from autoopt.analysis.names import ImportMap, collect_imports
from autoopt.analysis.walk import walk
from autoopt.model import RequireImport, Span

T = TypeVar("T")


@dataclass
class ModuleContext:
    """A parsed module with lazily built imports, dataflow graph and positions."""

    path: str
    source: str
    module: cst.Module
    _positions: dict = field(default_factory=dict, repr=False)
    _memo: dict = field(default_factory=dict, repr=False)

    def memo(self, key: str, compute: Callable[[], T]) -> T:
        """`compute()` once per module: analyses and rule results several rules share."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    @cached_property
    def imports(self) -> ImportMap:
        return collect_imports(self.module)

    @cached_property
    def graph(self) -> ModuleGraph:
        return ModuleGraph(self.module, self.imports)

    def qualify(self, node: cst.BaseExpression) -> str | None:
        """`jnp.zeros` -> "jax.numpy.zeros" through this module's imports."""
        return self.imports.qualify(node)

    def is_jax(self, node: cst.BaseExpression, *names: str) -> bool:
        """Whether `node` names one of `names` (qualified, e.g. "jax.jit")."""
        return self.qualify(node) in names

    def ref(self, qualname: str) -> tuple[str, tuple[RequireImport, ...]]:
        """How to spell `qualname` here ("jax.jit" -> "jax.jit" or "J.jit" or "jit"),
        with the import to add when the module does not bind it yet. Only module-level
        imports count: a name a function imports is not bound where fixes write code."""
        for local, full in self.imports.module_bindings.items():
            if full == qualname:
                return local, ()
        head, _, rest = qualname.partition(".")
        alias = self.imports.alias_for(head)
        if alias is not None:
            return (f"{alias}.{rest}" if rest else alias), ()
        return qualname, (RequireImport(head),)

    def span(self, node: cst.CSTNode) -> Span:
        """Where `node` is, 1-based, computed only for the statement that holds it.

        LibCST's PositionProvider generates the whole module with position
        tracking, about a parse's cost; findings are few, so positions come from
        the one top-level statement that holds the node, offset by the lines
        before it.
        """
        if node not in self._positions:
            index = self._top_level_index(node)
            stmt = self.module.body[index]
            part = self.module.with_changes(body=[stmt], header=(), footer=())
            wrapper = MetadataWrapper(part, unsafe_skip_copy=True)
            offset = self._line_offsets[index]
            for inner, pos in wrapper.resolve(PositionProvider).items():
                self._positions[inner] = Span(
                    pos.start.line + offset,
                    pos.start.column + 1,
                    pos.end.line + offset,
                    pos.end.column + 1,
                )
        return self._positions[node]

    def _top_level_index(self, node: cst.CSTNode) -> int:
        return self._owners[node]

    @cached_property
    def _owners(self) -> dict[cst.CSTNode, int]:
        """Every node -> the index of the top-level statement that holds it."""
        return {inner: index for index, stmt in enumerate(self.module.body) for inner in walk(stmt)}

    @cached_property
    def _line_offsets(self) -> list[int]:
        """Lines before each top-level statement (its leading blank lines included)."""
        return _offsets_from_ast(self.module, self.source) or _offsets_from_code(self.module)

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)


def _offsets_from_ast(module: cst.Module, source: str) -> list[int] | None:
    """Offsets from Python's own parser (fast); None when it cannot parse the source."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None
    starts = iter(tree.body)
    offsets = []
    for stmt in module.body:
        count = len(stmt.body) if isinstance(stmt, cst.SimpleStatementLine) else 1
        nodes = [next(starts, None) for _ in range(count)]
        first = nodes[0]
        if first is None:
            return None
        decorators = getattr(first, "decorator_list", [])
        line = min([first.lineno, *(d.lineno for d in decorators)])
        offsets.append(line - 1 - len(stmt.leading_lines))
    return offsets


def _offsets_from_code(module: cst.Module) -> list[int]:
    offsets = []
    line = sum(1 for _ in module.header)
    for stmt in module.body:
        offsets.append(line)
        line += module.code_for_node(stmt).count("\n")
    return offsets
