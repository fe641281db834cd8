"""Resolve names to qualified names through the module's own imports.

LibCST's QualifiedNameProvider needs the full ScopeProvider, which costs about
ten times a parse on large trees. Rules only ask "is this `jax.jit`?", which the
module's import statements answer: `import jax.numpy as jnp` binds `jnp` to
`jax.numpy`, `from jax import lax` binds `lax` to `jax.lax`, and so on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import libcst as cst

from autoopt.analysis.core.walk import children
from autoopt.analysis.overlays import MODULES


def dotted(node: cst.BaseExpression) -> str | None:
    """`a.b.c` as a string for a Name/Attribute chain, else None."""
    if type(node) is cst.Name:
        return node.value
    if type(node) is cst.Attribute:
        head = dotted(node.value)
        return f"{head}.{node.attr.value}" if head else None
    return None


def _module_name(node: cst.Attribute | cst.Name) -> str:
    name = dotted(node)
    assert name is not None
    return name


@dataclass
class ImportMap:
    """Local name -> qualified name for every import in a module.

    `bindings` holds every import, those inside functions and classes too: a name
    there still says what a call means (`qualify`). `module_bindings` holds only the
    imports that bind a module-level name, the ones code written at module level (a
    decorator, a helper) may use (`alias_for`, `ModuleContext.ref`, `add_imports`).
    """

    bindings: dict[str, str] = field(default_factory=dict)
    module_bindings: dict[str, str] = field(default_factory=dict)
    import_nodes: list[cst.SimpleStatementLine] = field(default_factory=list)
    modules: set[str] = field(default_factory=set)  # names an `import` statement binds

    def add(
        self,
        stmt: cst.SimpleStatementLine,
        imp: cst.Import | cst.ImportFrom,
        module_level: bool = True,
    ) -> None:
        self.import_nodes.append(stmt)
        targets = (self.bindings, self.module_bindings) if module_level else (self.bindings,)
        if type(imp) is cst.Import:
            self.modules.update(local for local, _, _ in _binds(imp))
        for local, full, weak in _binds(imp):
            for bindings in targets:
                if weak:
                    bindings.setdefault(local, full)
                else:
                    bindings[local] = full

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

    def is_module(self, node: cst.BaseExpression) -> bool:
        """Whether `node` names a JAX, NumPy or math module (`jnp`, `np`, `jax.numpy`,
        `from jax import lax`, `import jax.experimental.sparse as sparse`)."""
        qual = self.qualify(node)
        if qual in MODULES:
            return True
        imported = type(node) is cst.Name and node.value in self.modules
        return imported and qual is not None and qual.startswith(("jax.", "numpy."))

    def alias_for(self, module: str) -> str | None:
        """The module-level name bound to `module` ("jax" -> "jax" or "J"), if any."""
        for local, full in self.module_bindings.items():
            if full == module:
                return local
        return None

    def uses_jax(self) -> bool:
        return any(full == "jax" or full.startswith("jax.") for full in self.bindings.values())


def _binds(imp: cst.Import | cst.ImportFrom) -> list[tuple[str, str, bool]]:
    """(local name, qualified name, weak) for each name an import binds; a weak one
    (`import jax.numpy` binding `jax`) does not replace an earlier binding."""
    if type(imp) is cst.Import:
        binds = []
        for alias in imp.names:
            full = _module_name(alias.name)
            if alias.asname is not None:
                binds.append((alias.asname.name.value, full, False))  # type: ignore[union-attr]  # an import's asname is a Name
            else:
                head = full.split(".")[0]
                binds.append((head, head, True))
        return binds
    if (
        type(imp) is not cst.ImportFrom
        or imp.relative
        or imp.module is None
        or type(imp.names) is cst.ImportStar
    ):
        return []
    base = _module_name(imp.module)
    return [
        (  # type: ignore[misc]  # a from-import's alias and asname are Names
            alias.asname.name.value if alias.asname else alias.name.value,  # type: ignore[union-attr]  # an import's asname is a Name
            f"{base}.{_module_name(alias.name)}",
            False,
        )
        for alias in imp.names  # type: ignore[union-attr]  # not ImportStar: returned above
    ]


#: An import statement: its line, the statement, whether it binds a module-level name.
Import = tuple[cst.SimpleStatementLine, cst.Import | cst.ImportFrom, bool]


def collect_imports(
    module: cst.Module, imports_in: Callable[[cst.BaseStatement], list[Import]] | None = None
) -> ImportMap:
    """Every `import`/`from ... import` anywhere in the module, in source order; those
    outside functions and classes also bind module-level names. `imports_in` may give
    a top-level statement's imports from where they were kept."""
    imports = ImportMap()
    for stmt in module.body:
        for line, small, module_level in (imports_in or statement_imports)(stmt):
            imports.add(line, small, module_level)
    return imports


def statement_imports(stmt: cst.BaseStatement) -> list[Import]:
    """The imports in one top-level statement, in source order."""
    if type(stmt) is cst.SimpleStatementLine:
        lines = [(stmt, True)]
    else:
        lines = list(_simple_lines(stmt, type(stmt) not in (cst.FunctionDef, cst.ClassDef)))
    return [
        (line, small, module_level)
        for line, module_level in lines
        for small in line.body
        if type(small) is cst.Import or type(small) is cst.ImportFrom
    ]


def _simple_lines(
    node: cst.CSTNode, module_level: bool
) -> Iterator[tuple[cst.SimpleStatementLine, bool]]:
    """Every simple statement line under `node` (not inside expressions), in source
    order, with whether it runs in the module's own scope."""
    for child in children(node):
        if type(child) is cst.SimpleStatementLine:
            yield child, module_level
        elif not isinstance(child, cst.BaseExpression):
            nested = type(child) in (cst.FunctionDef, cst.ClassDef)
            yield from _simple_lines(child, module_level and not nested)


def first_jax_import(body: Sequence[cst.BaseStatement]) -> int | None:
    """The index of the first top-level statement that imports jax (or a jax module)."""
    return next((i for i, stmt in enumerate(body) if _imports_jax(stmt)), None)


def _imports_jax(stmt: cst.BaseStatement) -> bool:
    if type(stmt) is not cst.SimpleStatementLine:
        return False
    for small in stmt.body:
        if type(small) is cst.Import and any(
            (dotted(a.name) or "").split(".")[0] == "jax" for a in small.names
        ):
            return True
        module = small.module if type(small) is cst.ImportFrom else None
        if module is not None and (dotted(module) or "").split(".")[0] == "jax":
            return True
    return False
