"""Everything a rule may ask about one module, computed once and only when asked."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from autoopt.analysis.graph import ModuleGraph
from autoopt.analysis.names import ImportMap, collect_imports
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
        if not self._positions:
            wrapper = MetadataWrapper(self.module, unsafe_skip_copy=True)
            self._positions.update(wrapper.resolve(PositionProvider))
        pos = self._positions[node]
        return Span(pos.start.line, pos.start.column + 1, pos.end.line, pos.end.column + 1)

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)
