"""Resolve names to qualified names through the module's own imports.

LibCST's QualifiedNameProvider needs the full ScopeProvider, which costs about
ten times a parse on large trees. Rules only ask "is this `jax.jit`?", which the
module's import statements answer: `import jax.numpy as jnp` binds `jnp` to
`jax.numpy`, `from jax import lax` binds `lax` to `jax.lax`, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from autoopt.analysis.walk import walk


def dotted(node: cst.BaseExpression) -> str | None:
    """`a.b.c` as a string for a Name/Attribute chain, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        head = dotted(node.value)
        return f"{head}.{node.attr.value}" if head else None
    return None


def _module_name(node: cst.Attribute | cst.Name) -> str:
    name = dotted(node)
    assert name is not None
    return name


@dataclass
class ImportMap:
    """Local name -> qualified name for every import in a module."""

    bindings: dict[str, str] = field(default_factory=dict)
    import_nodes: list[cst.SimpleStatementLine] = field(default_factory=list)

    def add(self, stmt: cst.SimpleStatementLine, imp: cst.Import | cst.ImportFrom) -> None:
        self.import_nodes.append(stmt)
        if isinstance(imp, cst.Import):
            for alias in imp.names:
                full = _module_name(alias.name)
                if alias.asname is not None:
                    self.bindings[alias.asname.name.value] = full  # type: ignore[union-attr]
                else:
                    head = full.split(".")[0]
                    self.bindings.setdefault(head, head)
            return
        if imp.relative or imp.module is None or isinstance(imp.names, cst.ImportStar):
            return
        base = _module_name(imp.module)
        for alias in imp.names:
            local = alias.asname.name.value if alias.asname else alias.name.value  # type: ignore[union-attr]
            self.bindings[local] = f"{base}.{_module_name(alias.name)}"

    def qualify(self, node: cst.BaseExpression) -> str | None:
        """The qualified name of a Name/Attribute chain, or None if not imported."""
        name = dotted(node)
        if name is None:
            return None
        head, _, rest = name.partition(".")
        if head not in self.bindings:
            return None
        full = self.bindings[head]
        return f"{full}.{rest}" if rest else full

    def alias_for(self, module: str) -> str | None:
        """The local expression that names `module` ("jax" -> "jax" or "J"), if bound."""
        for local, full in self.bindings.items():
            if full == module:
                return local
        return None

    def uses_jax(self) -> bool:
        return any(full == "jax" or full.startswith("jax.") for full in self.bindings.values())


def collect_imports(module: cst.Module) -> ImportMap:
    """Every `import`/`from ... import` anywhere in the module, in source order."""
    imports = ImportMap()
    for node in walk(module, lambda n: isinstance(n, cst.SimpleStatementLine | cst.BaseExpression)):
        if isinstance(node, cst.SimpleStatementLine):
            for small in node.body:
                if isinstance(small, cst.Import | cst.ImportFrom):
                    imports.add(node, small)
    return imports
