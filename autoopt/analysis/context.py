"""Everything a rule may ask about one module, computed once and only when asked."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from autoopt.analysis.graph import ModuleGraph
from autoopt.analysis.names import ImportMap, collect_imports
from autoopt.analysis.walk import walk
from autoopt.model import RequireImport, Span


@dataclass
class ModuleContext:
    """A parsed module with lazily built imports, dataflow graph and positions."""

    path: str
    source: str
    module: cst.Module
    _positions: dict = field(default_factory=dict, repr=False)

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
        with the import to add when the module does not bind it yet."""
        for local, full in self.imports.bindings.items():
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
        return {
            inner: index for index, stmt in enumerate(self.module.body) for inner in walk(stmt)
        }

    @cached_property
    def _line_offsets(self) -> list[int]:
        """Lines before each top-level statement (its leading blank lines included)."""
        offsets = []
        line = sum(1 for _ in self.module.header)
        for stmt in self.module.body:
            offsets.append(line)
            line += self.module.code_for_node(stmt).count("\n")
        return offsets

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)
