"""autoopt's modules import each other without cycles: imports only go downhill.

The graph has an edge from a module to every autoopt module it imports, read from
the AST of autoopt/**/*.py. Every import counts, wherever it stands: at module
level, inside a function (autoopt imports lazily only to keep start-up fast, e.g.
jax in the verifier, never to hide a cycle) and under `if TYPE_CHECKING:`. An
import names the deepest module it reaches (`from autoopt.verify import worker` is
`autoopt.verify.worker`, `from autoopt.verify import Candidate` is
`autoopt.verify`); that Python runs the parent packages' `__init__` first is not
an edge.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parents[1] / "autoopt"


def module_files() -> dict[str, Path]:
    """Every autoopt module by dotted name (a package by its `__init__.py`)."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def imported_names(module: str, path: Path) -> list[str]:
    """Every name an import statement in the file reaches, relative imports resolved."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            names += [f"{base}.{alias.name}" for alias in node.names]
    return names


def import_graph() -> nx.DiGraph:
    modules = module_files()
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for module, path in modules.items():
        for name in imported_names(module, path):
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module:
                graph.add_edge(module, name)
    return graph


def test_every_module_imports() -> None:
    for module in module_files():
        if not module.endswith(".__main__"):  # that one runs the command line
            importlib.import_module(module)


def test_no_import_cycle_among_autoopt_modules() -> None:
    graph = import_graph()
    assert list(nx.simple_cycles(graph)) == []
    assert graph.has_edge("autoopt.verify.bench", "autoopt.verify.program")
    assert graph.has_edge("autoopt.verify.worker", "autoopt.verify.bench")  # lazily, and counted
    assert not graph.has_edge("autoopt.verify.bench", "autoopt.verify.worker")


RULES = "autoopt.rules.ao"  # a rule module: autoopt/rules/aoNNN_<name>.py
#: Where a rule reads the analysis: the query surface, and the plans of its rewrite forms
#: (`autoopt.analysis.plans` and its modules, one entry point: a rule may use several).
ENTRY_POINTS = {"autoopt.analysis.semantic": "semantic", "autoopt.analysis.plans": "plans"}


def entry_point(module: str) -> str:
    """The analysis entry point an imported analysis module belongs to (itself if none)."""
    for prefix, name in ENTRY_POINTS.items():
        if module == prefix or module.startswith(f"{prefix}."):
            return name
    return module


def test_no_rule_imports_another_rule() -> None:
    graph = import_graph()
    rules = [m for m in graph if m.startswith(RULES)]
    assert len(rules) == 12
    assert [(m, n) for m in rules for n in graph.successors(m) if n.startswith(RULES)] == []


def test_analysis_imports_neither_rules_nor_rewrite() -> None:
    graph = import_graph()
    analysis = [m for m in graph if m.startswith("autoopt.analysis")]
    below = ("autoopt.rules", "autoopt.rewrite")
    assert [(m, n) for m in analysis for n in graph.successors(m) if n.startswith(below)] == []


def test_rules_ask_the_query_surface_and_the_plans() -> None:
    """A rule imports the analysis through at most two entry points: `semantic` (the
    questions) and `plans` (its rewrite forms); the rule framework and `rewrite` are
    not analysis."""
    graph = import_graph()
    for rule in (m for m in graph if m.startswith(RULES)):
        used = {entry_point(n) for n in graph.successors(rule) if n.startswith("autoopt.analysis")}
        assert used <= set(ENTRY_POINTS.values()), (rule, sorted(used))
        assert "semantic" in used, rule


#: The analysis sub-packages, each importing only from itself and those before it.
LAYERS = ("overlays", "core", "values", "facts", "plans")


def test_analysis_packages_import_only_from_the_layers_above() -> None:
    graph = import_graph()
    layer = {f"autoopt.analysis.{name}": rank for rank, name in enumerate(LAYERS)}

    def rank(module: str) -> int | None:
        return next(
            (r for p, r in layer.items() if module == p or module.startswith(f"{p}.")), None
        )

    upward = [
        (m, n)
        for m in graph
        for n in graph.successors(m)
        if (a := rank(m)) is not None and (b := rank(n)) is not None and b > a
    ]
    assert upward == []
    assert graph.has_edge("autoopt.analysis.values.model", "autoopt.analysis.core.execution")


def test_analysis_has_no_module_outside_its_packages() -> None:
    analysis = Path(PACKAGE, "analysis")
    loose = sorted(p.name for p in analysis.glob("*.py"))
    assert loose == ["__init__.py", "semantic.py"]
    for name in LAYERS:
        assert ast.get_docstring(ast.parse((analysis / name / "__init__.py").read_text())), name
