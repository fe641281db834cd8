"""Everything a rule may ask about one module, computed once and only when asked.

Analyses are plain functions of the context, memoised by the function object itself:
`ctx.per_module(analysis)`, `ctx.per_function(analysis, fn)`. Facts of one top-level
statement that read nothing but that statement (its nodes, their positions) live in a
`StatementMemo`, which an editor carries from one version of the text to the next: the
statements an edit did not touch are the very same node objects there.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

import libcst as cst

from autoopt.analysis.core.blocks import Blocks, collect_blocks
from autoopt.analysis.core.graph import MODULE, Function, ModuleGraph, Stmt
from autoopt.analysis.core.names import Import, ImportMap, collect_imports, statement_imports
from autoopt.analysis.core.positions import Positions
from autoopt.model import RequireImport, Span

T = TypeVar("T")
#: A statement analysis reads only the statement, the module's layout (indent, newline)
#: and the arguments it is given.
StatementAnalysis = Callable[..., T]
Layout = tuple[str, str, bool]


def layout_of(module: cst.Module) -> Layout:
    """What code generation of a statement depends on besides the statement."""
    return module.default_indent, module.default_newline, module.has_trailing_newline


@dataclass
class StatementMemo:
    """Results of statement analyses, keyed by (analysis, statement node, arguments),
    and the keys this version asked for."""

    layout: Layout
    results: dict[tuple[Callable, cst.BaseStatement, tuple], Any] = field(default_factory=dict)
    asked: set[tuple[Callable, cst.BaseStatement, tuple]] = field(default_factory=set)

    def carried_to(self, module: cst.Module) -> StatementMemo:
        """The results still valid for `module` (its statements that are the same nodes)
        that this version asked for: what a statement no longer needs is dropped."""
        if layout_of(module) != self.layout:
            return StatementMemo(layout_of(module))
        kept = {id(stmt) for stmt in module.body}
        results = {key: self.results[key] for key in self.asked if id(key[1]) in kept}
        return StatementMemo(self.layout, results)


@dataclass
class ModuleContext:
    """A parsed module with lazily built imports, dataflow graph, analyses and positions.

    `line_offsets` (lines before each top-level statement) and `statements` may come
    from an incremental reparse; by default they are computed here.
    """

    path: str
    source: str
    module: cst.Module
    line_offsets: list[int] | None = None
    statements: StatementMemo | None = None
    rules: frozenset[str] | None = None  # the enabled rule ids (None: all)
    # module globals that hold one library layer while the code judged here runs (a
    # loop's extracted step: `facts/held_globals.py`) -> its class; empty for a parsed module
    held: dict[str, str] = field(default_factory=dict, repr=False)
    _memo: dict[Hashable, Any] = field(default_factory=dict, repr=False)
    # id(node) -> (node, its qualified name): the node is kept, so its id stays its own
    _qualified: dict[int, tuple[cst.CSTNode, str | None]] = field(default_factory=dict, repr=False)
    _derived: list[ModuleContext] = field(default_factory=list, repr=False)  # to release
    _origin: ModuleContext | None = field(default=None, repr=False)  # a derived one's
    released: bool = field(default=False, init=False, repr=False)  # by `release()`

    def __post_init__(self) -> None:
        if self.statements is None or self.statements.layout != layout_of(self.module):
            self.statements = StatementMemo(layout_of(self.module))

    def release(self) -> None:
        """Drop every analysis result. Analyses refer back to their context (a value
        model keeps it), so a context left alone is freed only by a garbage
        collection that must first traverse its whole syntax tree; released, it is
        freed as soon as the last reference to it goes."""
        for other in self._derived:
            other.release()
        self._derived.clear()
        self._memo.clear()
        self._qualified.clear()
        self.__dict__.pop("graph", None)
        self.__dict__.pop("positions", None)
        self.released = True

    # -- memoised analyses -------------------------------------------------------------
    def per_module(self, analysis: Callable[..., T], *args: Hashable) -> T:
        """`analysis(ctx, *args)`, computed once per module and arguments."""
        key = (analysis, args)
        if key not in self._memo:
            self._memo[key] = analysis(self, *args)
        return self._memo[key]

    def per_function(self, analysis: Callable[[ModuleContext, Function], T], fn: Function) -> T:
        """`analysis(ctx, fn)`, computed once per module and function."""
        key = (analysis, fn.qualname)
        if key not in self._memo:
            origin = self.origin_of(fn)
            self._memo[key] = (
                analysis(self, fn)
                if origin is None
                else origin[0].per_function(analysis, origin[1])
            )
        return self._memo[key]

    @property
    def origin(self) -> ModuleContext | None:
        """The context this one was derived from (`derived`); None for a parsed module."""
        return self._origin

    def origin_of(self, fn: Function) -> tuple[ModuleContext, Function] | None:
        """For a derived context, the module-level `fn` of the module it was derived from
        when it is the same function (the very node), else None.

        A derived module is its origin with code moved into a new function (a loop's
        step, a per-item body) that the old place calls: it computes the same values, so
        whatever the origin's analysis proves of a function it did not edit (what it
        returns, what its parameters receive, how it traces) holds here too, and is not
        computed again."""
        origin = self._origin
        if origin is None or fn.scope != MODULE:
            return None
        same = origin.graph.functions.get(fn.qualname)
        return (origin, same) if same is not None and same.node is fn.node else None

    def per_statement(
        self, analysis: StatementAnalysis[T], stmt: cst.BaseStatement, *args: Hashable
    ) -> T:
        """`analysis(stmt, layout, *args)` for a top-level statement, kept across versions
        (`args` name what else the result depends on, e.g. the module's imports)."""
        assert self.statements is not None
        results = self.statements.results
        key = (analysis, stmt, args)
        self.statements.asked.add(key)
        if key not in results:
            results[key] = analysis(stmt, self.layout, *args)
        return results[key]

    # -- the module ---------------------------------------------------------------------
    @cached_property
    def imports(self) -> ImportMap:
        return collect_imports(self.module, lambda stmt: self.per_statement(_imports, stmt))

    @cached_property
    def graph(self) -> ModuleGraph:
        imports = self.imports
        key = (frozenset(imports.bindings.items()), frozenset(imports.modules))
        return ModuleGraph(self.module, imports, lambda stmt: self._facts_of(stmt, key))

    def _facts_of(self, stmt: cst.BaseStatement, imports: Hashable) -> dict:
        """The graph's facts of the small statements in `stmt` (`_facts`). A statement a
        derived module edited starts with what its origin knew of the small statements
        in the statements it replaced: an edit moves them, the very nodes, and their
        facts read nothing else."""
        facts = self.per_statement(_facts, stmt, imports)
        origin = self._origin
        if not facts and origin is not None and all(stmt is not s for s in origin.module.body):
            facts.update(self._replaced_facts(imports))
        return facts

    def _replaced_facts(self, imports: Hashable) -> dict:
        """The origin's facts of the statements this derived module does not keep."""
        key = ("replaced facts", imports)
        if key not in self._memo:
            assert self._origin is not None and self.statements is not None
            kept = {id(stmt) for stmt in self.module.body}
            results = self.statements.results
            replaced: dict = {}
            for stmt in self._origin.module.body:
                if id(stmt) not in kept:
                    replaced.update(results.get((_facts, stmt, (imports,)), {}))
            self._memo[key] = replaced
        return self._memo[key]

    @cached_property
    def layout(self) -> cst.Module:
        """The module without code: the indent and newline statements are written with."""
        return self.module.with_changes(body=(), header=(), footer=())

    def qualify(self, node: cst.BaseExpression) -> str | None:
        """`jnp.zeros` -> "jax.numpy.zeros" through this module's imports (once per node)."""
        known = self._qualified.get(id(node))
        if known is None:
            known = self._qualified[id(node)] = (node, self.imports.qualify(node))
        return known[1]

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

    @cached_property
    def positions(self) -> Positions:
        """Spans and ancestors of the module's nodes (`core/positions.py`)."""
        return Positions(self)

    def span(self, node: cst.CSTNode) -> Span:
        """Where `node` is, 1-based, as LibCST's PositionProvider puts it."""
        return self.positions.span(node)

    def ancestors(self, node: cst.CSTNode) -> list[cst.CSTNode]:
        """The nodes from the module down to `node`, itself included (KeyError when it
        is not a code-bearing node of the module's statements)."""
        return self.positions.ancestors(node)

    def graph_statement(self, node: cst.CSTNode) -> Stmt | None:
        """The dataflow graph's statement (when the graph is built) that is `node`, the
        first of a line `node` is, or makes the call `node` is."""
        graph = self.__dict__.get("graph")
        if graph is None:
            return None
        if type(node) is cst.SimpleStatementLine and node.body:
            node = node.body[0]
        found = graph.by_node.get(node)
        if found is None and type(node) is cst.Call:
            found = self.per_module(_call_statements).get(id(node))
        return found

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def derived(self, module: cst.Module, held: dict[str, str] | None = None) -> ModuleContext:
        """The context of `module`, this module with top-level statements edited, added
        or removed: it shares the statement facts; `held`, the globals that hold one
        library layer while the code it judges runs (only ever fewer unknowns: what it
        asks of its origin, which knows none, stays as strict). Its `source` and `line_offsets` are
        made when first asked for (an analysis of an extracted program seldom does), from
        the text of the statements it kept from this source (generating the whole
        module's code costs about a parse)."""
        other = ModuleContext(self.path, "", module, None, self.statements, held=held or {})
        other._origin = self
        del other.source, other.line_offsets  # `__getattr__` makes them
        other.__dict__["_text"] = lambda: _spliced(self, module) or (module.code, None)
        self._derived.append(other)
        return other

    def __getattr__(self, name: str) -> Any:
        """The `source` and `line_offsets` of a derived context, on first use."""
        make = self.__dict__.get("_text")
        if make is None or name not in ("source", "line_offsets"):
            raise AttributeError(name)
        del self.__dict__["_text"]
        self.source, self.line_offsets = make()
        return self.__dict__[name]


def module_blocks(ctx: ModuleContext) -> Blocks:
    """The statement blocks of the module (analysis/core/blocks.py), once per module."""
    return collect_blocks(ctx.module)


def _call_statements(ctx: ModuleContext) -> dict[int, Stmt]:
    """id(call) -> the graph's statement that makes it."""
    return {id(call): stmt for stmt in ctx.graph.stmts for call in stmt.calls}


def _imports(stmt: cst.BaseStatement, layout: cst.Module) -> list[Import]:
    return statement_imports(stmt)


def _facts(stmt: cst.BaseStatement, layout: cst.Module, imports: Hashable) -> dict:
    """Where the graph keeps the facts of the statement's small statements, which
    depend on the statement and the module's imports only."""
    return {}


def _spliced(ctx: ModuleContext, module: cst.Module) -> tuple[str, list[int]] | None:
    """`module.code` and its line offsets, or None when the header, the footer or the
    line breaks differ from `ctx`'s (or are carriage returns, counted differently)."""
    old = ctx.module
    same = all(
        len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))
        for a, b in ((module.header, old.header), (module.footer, old.footer))
    )
    if not same or layout_of(module) != layout_of(old) or not old.has_trailing_newline:
        return None
    if "\r" in ctx.source:  # line offsets from code count "\n" only
        return None
    lines = [f"{line}\n" for line in ctx.source.split("\n")[:-1]]  # ends with a newline
    starts = ctx.positions.offsets
    ends = [*starts[1:], len(lines) - len(old.footer)]
    kept = {
        id(stmt): (stmt, start, end)
        for stmt, start, end in zip(old.body, starts, ends, strict=True)
    }
    texts, offsets, line = [], [], len(old.header)
    for stmt in module.body:
        found = kept.get(id(stmt))
        if found is not None and found[0] is stmt:
            text = "".join(lines[found[1] : found[2]])
        else:
            text = module.code_for_node(stmt)
        offsets.append(line)
        texts.append(text)
        line += text.count("\n")
    header = "".join(lines[: len(old.header)])
    footer = "".join(lines[len(lines) - len(old.footer) :])
    return header + "".join(texts) + footer, offsets
