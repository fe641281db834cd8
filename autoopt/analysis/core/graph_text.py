"""A stable text rendering of a module's dataflow graph, for snapshot tests and debugging.

    s3 train loops=0 block=1 | params = update(params, batch) | defs=params uses=...

One section each for statements (in source order), loops, functions, `calls` edges
and def-use `flow` edges; empty facts are left out, names are sorted.
"""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst

from autoopt.analysis.core.graph import ModuleGraph, Stmt

_HEADER_FIELDS = ("leading_lines", "decorators", "lines_after_decorators")


def render_graph(graph: ModuleGraph) -> str:
    """Statements, loops, functions, calls and flow edges of `graph`, one per line."""
    lines = ["statements:"]
    lines += [f"  {_statement(graph, stmt)}" for stmt in graph.stmts]
    lines.append("loops:")
    for loop_id in sorted(graph.loops):
        loop = graph.loops[loop_id]
        kind = "for" if type(loop.node) is cst.For else "while"
        body = [f"s{s.id}" for s in graph.loop_stmts(loop_id)]
        lines.append(
            f"  L{loop.id} {kind} in {loop.scope} header=s{loop.header}"
            + _field("outer", (f"L{i}" for i in loop.loops), ordered=True)
            + _field("body", body, ordered=True)
        )
    lines.append("functions:")
    for qualname in sorted(graph.functions):
        fn = graph.functions[qualname]
        lines.append(
            f"  {qualname} in {fn.scope} header=s{fn.header}"
            + _field("params", fn.params, ordered=True)
            + (" method" if fn.is_method else "")
            + _field("globals", fn.globals)
            + _field("nonlocals", fn.nonlocals)
            + _field("captured", fn.captured)
        )
    edges = list(graph.graph.edges(data=True))
    lines.append("calls:")
    calls = sorted((u[1], v[1]) for u, v, data in edges if data.get("kind") == "calls")
    lines += [f"  s{stmt} -> {function}" for stmt, function in dict.fromkeys(calls)]
    lines.append("flow:")
    flow = sorted((u[1], v[1], data["var"]) for u, v, data in edges if data.get("kind") == "flow")
    lines += [f"  s{d} -> s{use} {var}" for d, use, var in flow]
    return "\n".join(lines) + "\n"


def _statement(graph: ModuleGraph, stmt: Stmt) -> str:
    where = (
        f"s{stmt.id} {stmt.scope}"
        + _field("loops", (str(i) for i in stmt.loops), ordered=True)
        + _field("block", (str(i) for i in stmt.block), ordered=True)
    )
    facts = (
        _field("defs", stmt.defs)
        + _field("uses", stmt.uses)
        + _field("mutates", stmt.mutates)
        + (" comprehension" if stmt.comprehension else "")
    )
    line = f"{where} | {_head(graph.module, stmt.node)}"
    return f"{line} |{facts}" if facts else line


def _head(module: cst.Module, node: cst.CSTNode) -> str:
    """The first line of `node`'s code (a compound statement's header), comments,
    blank lines and decorators left out."""
    changes: dict[str, object] = {n: () for n in _HEADER_FIELDS if hasattr(node, n)}
    if hasattr(node, "semicolon"):  # `a = 1; b = 2`
        changes["semicolon"] = cst.MaybeSentinel.DEFAULT
    if changes:
        node = node.with_changes(**changes)
    return module.code_for_node(node).strip().splitlines()[0].rstrip()


def _field(name: str, values: Iterable[str], ordered: bool = False) -> str:
    items = list(values) if ordered else sorted(values)
    return f" {name}={','.join(items)}" if items else ""
