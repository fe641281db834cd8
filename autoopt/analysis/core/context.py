"""Everything a rule may ask about one module, computed once and only when asked.

Analyses are plain functions of the context, memoised by the function object itself:
`ctx.per_module(analysis)`, `ctx.per_function(analysis, fn)`. Facts of one top-level
statement that read nothing but that statement (its nodes, their positions) live in a
`StatementMemo`, which an editor carries from one version of the text to the next: the
statements an edit did not touch are the very same node objects there.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from autoopt.analysis.core.blocks import Blocks, collect_blocks
from autoopt.analysis.core.graph import MODULE, Function, ModuleGraph, Stmt
from autoopt.analysis.core.names import Import, ImportMap, collect_imports, statement_imports
from autoopt.analysis.core.walk import child_list
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
    _positions: dict[cst.CSTNode, Span] = field(default_factory=dict, repr=False)
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
        self._positions.clear()
        self._qualified.clear()
        self.__dict__.pop("graph", None)
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

    def span(self, node: cst.CSTNode) -> Span:
        """Where `node` is, 1-based, as LibCST's PositionProvider puts it.

        PositionProvider generates the whole module with position tracking, about a
        parse's cost; findings are few, so positions come from the innermost statement
        that holds the node (`_unit_span`), else from its top-level statement.
        """
        known = self._positions.get(node)
        if known is None:
            known = self._unit_span(node) or self._top_level_span(node)
            self._positions[node] = known
        return known

    def _top_level_span(self, node: cst.CSTNode) -> Span:
        """The span from positions in the node's top-level statement, offset by the
        lines before it."""
        index = self._owner(node)
        offset = self._offsets[index]
        pos = self.per_statement(_positions_in, self.module.body[index])[node]
        start, end = pos.start, pos.end
        return Span(start.line + offset, start.column + 1, end.line + offset, end.column + 1)

    def _unit_span(self, node: cst.CSTNode) -> Span | None:
        """The span from positions in the innermost statement holding `node` (only its
        header when `node` is there), its line from Python's parser; None when that
        parser cannot read the top-level statement. A compound statement ends where its
        last simple statement (or suite) ends."""
        index = self._owner(node)
        anchors = self._anchors(index)
        if anchors is None:
            return None
        top = self.module.body[index]
        stmt, unit, pos = self._unit(top, _chain(self.per_statement(_parents, top), node))
        shift = self._offsets[index] + anchors[id(_first_statement(stmt))] - pos[unit].start.line
        start = pos[unit if node is stmt else node].start
        if node is stmt and unit is not stmt:  # its header only
            last = self.span(_last_leaf(stmt))
            return Span(start.line + shift, start.column + 1, last.end_line, last.end_column)
        end = pos[node].end
        return Span(start.line + shift, start.column + 1, end.line + shift, end.column + 1)

    def _unit(
        self, top: cst.BaseStatement, chain: list[cst.CSTNode]
    ) -> tuple[cst.BaseStatement, cst.BaseStatement, Mapping[cst.CSTNode, CodeRange]]:
        """The innermost statement in `chain` (top-level statement down to a node), what
        of it is generated (its header when the node is there) and the positions."""
        at = max(i for i, part in enumerate(chain) if isinstance(part, cst.BaseStatement))
        stmt = chain[at]
        step = chain[at + 1] if at + 1 < len(chain) else None
        head = not isinstance(step, _CLAUSES) or type(step) is cst.SimpleStatementSuite
        outer = chain[:at]
        indents = tuple(p.indent for p in outer if type(p) in (cst.IndentedBlock, cst.Match))
        elif_ = bool(outer) and type(outer[-1]) is cst.If
        unit, pos = self.per_statement(_unit_positions, top, stmt, head, indents, elif_)
        return stmt, unit, pos

    def _anchors(self, index: int) -> dict[int, int] | None:
        """`_statement_lines` of top-level statement `index`: from the module's `ast`
        where this context parsed it for the offsets, else from the statement's lines of
        source (kept with the statement across an editor's versions)."""
        key = ("anchors", index)
        if key not in self._memo:
            offsets, stmt, groups = self._offsets, self.module.body[index], self._ast_groups
            if groups is not None:
                anchors = _lines_of(stmt, groups[index])
            else:
                end = offsets[index + 1] if index + 1 < len(offsets) else len(self._lines)
                text = "".join(self._lines[offsets[index] : end])
                anchors = self.per_statement(_statement_lines, stmt, text)
            self._memo[key] = anchors
        return self._memo[key]

    @cached_property
    def _lines(self) -> list[str]:
        """The source's lines, each with its line break (as LibCST counts them)."""
        return _LINE.findall(self.source)

    @cached_property
    def _offsets(self) -> list[int]:
        if self.line_offsets is not None:
            return self.line_offsets
        groups = self._ast_groups
        return _offsets_from_code(self.module) if groups is None else _group_offsets(groups)

    @cached_property
    def _ast_groups(self) -> list[AstGroup] | None:
        """`_parse_groups` of the source, when no offsets were given (an editor's are)."""
        return None if self.line_offsets is not None else _parse_groups(self.module, self.source)

    def ancestors(self, node: cst.CSTNode) -> list[cst.CSTNode]:
        """The nodes from the module down to `node`, itself included (KeyError when it
        is not a code-bearing node of the module's statements)."""
        top = self.module.body[self._owner(node)]
        return [self.module, *_chain(self.per_statement(_parents, top), node)]

    def _owner(self, node: cst.CSTNode) -> int:
        """The index of the top-level statement that holds `node` (KeyError when none):
        the first whose `_parents` has it, the map its span and ancestors read anyway,
        looked at first where `_owner_guess` puts it."""
        key, body = id(node), self.module.body
        guess = self._owner_guess(node)
        if guess is not None and key in self.per_statement(_parents, body[guess]):
            return guess
        for index, stmt in enumerate(body):
            if key in self.per_statement(_parents, stmt):
                return index
        raise KeyError(node)

    def _owner_guess(self, node: cst.CSTNode) -> int | None:
        """Where `node` is found without a walk: the top-level function or class it names,
        else where its `_graph_statement` is: that statement at module level, else the
        top-level function or class its scope starts with."""
        indexes, names = self._top_level
        if type(node) is cst.Name:
            index = names.get(node.value)
            named = index is not None and getattr(self.module.body[index], "name", None) is node
            return index if named else None
        found = self._graph_statement(node)
        if found is None:
            return None
        if found.scope == MODULE:
            return indexes.get(id(found.anchor))
        return names.get(found.scope.partition(".")[0])

    def _graph_statement(self, node: cst.CSTNode) -> Stmt | None:
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

    @cached_property
    def _top_level(self) -> tuple[dict[int, int], dict[str, int]]:
        """id(statement) and the name of a function or class -> its top-level index."""
        body = self.module.body
        names = {
            stmt.name.value: index
            for index, stmt in enumerate(body)
            if type(stmt) in (cst.FunctionDef, cst.ClassDef)
        }
        return {id(stmt): index for index, stmt in enumerate(body)}, names

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def derived(self, module: cst.Module) -> ModuleContext:
        """The context of `module`, this module with top-level statements edited, added
        or removed: it shares the statement facts. Its `source` and `line_offsets` are
        made when first asked for (an analysis of an extracted program seldom does), from
        the text of the statements it kept from this source (generating the whole
        module's code costs about a parse)."""
        other = ModuleContext(self.path, "", module, None, self.statements)
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


def _parents(stmt: cst.BaseStatement, layout: cst.Module) -> dict[int, cst.CSTNode | None]:
    """id(node) -> its parent, for the statement's nodes (alive while the statement is)."""
    parents: dict[int, cst.CSTNode | None] = {id(stmt): None}
    stack: list[cst.CSTNode] = [stmt]
    while stack:
        node = stack.pop()
        for child in child_list(node):
            parents[id(child)] = node
            stack.append(child)
    return parents


def _chain(parents: dict[int, cst.CSTNode | None], node: cst.CSTNode) -> list[cst.CSTNode]:
    """The nodes from the top-level statement down to `node`."""
    chain: list[cst.CSTNode] = []
    current: cst.CSTNode | None = node
    while current is not None:
        chain.append(current)
        current = parents[id(current)]
    return chain[::-1]


def _unit_positions(
    top: cst.BaseStatement,
    layout: cst.Module,
    stmt: cst.BaseStatement,
    head: bool,
    indents: tuple[str | None, ...],
    elif_: bool,
) -> tuple[cst.BaseStatement, Mapping[cst.CSTNode, CodeRange]]:
    """`stmt` (its header when `head`) and its nodes' positions, generated inside blocks
    of `indents` (after an `if` when it is an `elif`): columns as in the module."""
    unit = _header(stmt) if head else stmt
    tree = unit
    if elif_:
        tree = cst.If(cst.Name("_"), cst.IndentedBlock(()), orelse=tree)
    for indent in reversed(indents):
        tree = cst.If(cst.Name("_"), cst.IndentedBlock([tree], indent=indent))
    return unit, _positions_in(tree, layout)


def _statement_lines(
    stmt: cst.BaseStatement, layout: cst.Module, text: str
) -> dict[int, int] | None:
    """id(small or compound statement in `stmt`) -> its first line in `text`, the
    statement's source, from Python's parser (None: it cannot parse `text`)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    return _lines_of(stmt, (tree.body, 0))


def _lines_of(stmt: cst.BaseStatement, group: AstGroup) -> dict[int, int] | None:
    """`_statement_lines` from the statement's `ast` statements, found `group[1]` lines
    into the text they were parsed from."""
    nodes, before = group
    found = list(_ast_statements(nodes))
    ours = _statements(stmt)
    if len(found) != len(ours):
        return None
    return {id(mine): theirs.lineno - before for mine, theirs in zip(ours, found, strict=True)}


#: What follows a compound statement's header: its blocks and further clauses.
_CLAUSES = (
    cst.BaseSuite, cst.Else, cst.Finally, cst.ExceptHandler, cst.ExceptStarHandler, cst.MatchCase
)  # fmt: skip
_HOLDERS = (cst.BaseStatement, *_CLAUSES)  # what holds statements
_BREAK = re.compile(r"\r\n?|\n")  # line breaks as Python and LibCST count them
_LINE = re.compile(r"[^\r\n]*(?:\r\n?|\n)|[^\r\n]+\Z")


def _header(stmt: cst.BaseStatement) -> cst.BaseStatement:
    """A compound statement without its indented body and `else`: its first lines."""
    changes: dict[str, Any] = {}
    body = getattr(stmt, "body", None)
    if type(body) is cst.IndentedBlock:
        changes["body"] = body.with_changes(body=())
    if getattr(stmt, "orelse", None) is not None:
        changes["orelse"] = None
    return stmt.with_changes(**changes) if changes else stmt


def _first_statement(stmt: cst.BaseStatement) -> cst.CSTNode:
    """The small or compound statement whose first line is `stmt`'s."""
    return stmt.body[0] if type(stmt) is cst.SimpleStatementLine else stmt


def _last_leaf(stmt: cst.BaseStatement) -> cst.CSTNode:
    """The simple statement line or suite whose end is the compound statement's."""
    node: cst.CSTNode = stmt
    while type(node) not in (cst.SimpleStatementLine, cst.SimpleStatementSuite):
        node = [c for c in child_list(node) if isinstance(c, _HOLDERS)][-1]
    return node


def _ast_statements(nodes: Iterable[ast.AST]) -> Iterator[ast.stmt]:
    """The statements in `nodes`, in source order."""
    for node in nodes:
        if isinstance(node, ast.stmt):
            yield node
        for name in ("body", "handlers", "orelse", "finalbody", "cases"):
            yield from _ast_statements(getattr(node, name, ()))


def _statements(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The small and compound statements in `node`, in source order (as `ast` has them)."""
    found: list[cst.CSTNode] = []
    stack = [node]
    while stack:
        current = stack.pop()
        statement, holder = _KINDS[type(current)]
        if statement:
            found.append(current)
        if holder:
            inner = child_list(current)
            inner.reverse()
            stack += inner
    return found


class _Kinds(dict[type, tuple[bool, bool]]):
    """type -> (whether a small or compound statement, whether it holds statements),
    filled in on first sight: a lookup costs less than isinstance checks against
    LibCST's abstract classes."""

    def __missing__(self, kind: type) -> tuple[bool, bool]:
        statement = issubclass(kind, cst.BaseSmallStatement | cst.BaseCompoundStatement)
        known = self[kind] = (statement, issubclass(kind, _HOLDERS))
        return known


_KINDS = _Kinds()


def _facts(stmt: cst.BaseStatement, layout: cst.Module, imports: Hashable) -> dict:
    """Where the graph keeps the facts of the statement's small statements, which
    depend on the statement and the module's imports only."""
    return {}


def _positions_in(stmt: cst.BaseStatement, layout: cst.Module) -> Mapping[cst.CSTNode, CodeRange]:
    """Positions of the statement's nodes, lines counted from the statement's first
    (leading blank lines included), columns 0-based."""
    wrapper = _PositionsWrapper(layout.with_changes(body=[stmt]), unsafe_skip_copy=True)
    return wrapper.resolve(PositionProvider)


class _PositionsWrapper(MetadataWrapper):
    """A wrapper that skips a visit with no visitors: resolving PositionProvider (code
    generation, not a visitor) still walks the whole tree once for batched providers,
    about as costly as the code generation itself."""

    def visit_batched(
        self,
        visitors: Iterable[cst.BatchableCSTVisitor],
        before_visit: Callable[[cst.CSTNode], None] | None = None,
        after_leave: Callable[[cst.CSTNode], None] | None = None,
    ) -> cst.CSTNode:
        visitors = list(visitors)
        if not visitors:
            return self.module
        return super().visit_batched(visitors, before_visit, after_leave)


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
    starts = ctx._offsets
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


#: A top-level statement in Python's `ast`: its statements (several where semicolons
#: separate them) and the lines before it (its leading blank lines included).
AstGroup = tuple[list[ast.stmt], int]


def _parse_groups(module: cst.Module, source: str) -> list[AstGroup] | None:
    """Python's `ast` statements of each top-level statement of `module` and the lines
    before it, from one parse of the source (fast); None when `ast` cannot parse it."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None
    starts = iter(tree.body)
    groups = []
    for stmt in module.body:
        count = len(stmt.body) if type(stmt) is cst.SimpleStatementLine else 1
        nodes = [next(starts, None) for _ in range(count)]
        first = nodes[0]
        if first is None:
            return None
        decorators = getattr(first, "decorator_list", [])
        line = min([first.lineno, *(d.lineno for d in decorators)])
        groups.append((nodes, line - 1 - len(stmt.leading_lines)))
    return groups


def _group_offsets(groups: list[AstGroup]) -> list[int]:
    return [before for _, before in groups]


def _offsets_from_code(module: cst.Module) -> list[int]:
    offsets = []
    line = sum(1 for _ in module.header)
    for stmt in module.body:
        offsets.append(line)
        line += len(_BREAK.findall(module.code_for_node(stmt)))
    return offsets
