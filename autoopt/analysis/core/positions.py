"""Where a module's nodes are: 1-based spans as LibCST's PositionProvider puts them, and
the chain of ancestors of a node.

PositionProvider generates the whole module with position tracking, about a parse's
cost; findings are few, so a span is computed from the innermost statement that holds
the node (only its header when the node is there), generated inside blocks of the same
indents, its first line taken from Python's `ast` of the module (or of the top-level
statement's source). Every result that reads only one top-level statement is kept with
that statement (`per_statement`), so an editor carries it across versions of the text.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from functools import cached_property
from itertools import islice
from typing import Any, Protocol, TypeVar

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from autoopt.analysis.core.graph import MODULE, Stmt
from autoopt.analysis.core.walk import child_list
from autoopt.model import Span

T = TypeVar("T")


class Located(Protocol):
    """What positions read of a module context."""

    module: cst.Module
    source: str
    line_offsets: list[int] | None

    @property
    def layout(self) -> cst.Module: ...

    def per_statement(
        self, analysis: Callable[..., T], stmt: cst.BaseStatement, *args: Hashable
    ) -> T: ...

    def graph_statement(self, node: cst.CSTNode) -> Stmt | None: ...


class Positions:
    """Spans and ancestors of the nodes of one module, computed when asked."""

    def __init__(self, ctx: Located) -> None:
        self._ctx = ctx
        self._spans: dict[cst.CSTNode, Span] = {}
        self._anchors: dict[int, dict[int, int] | None] = {}

    def span(self, node: cst.CSTNode) -> Span:
        """Where `node` is, 1-based: from the innermost statement that holds it, else
        from its top-level statement."""
        known = self._spans.get(node)
        if known is None:
            known = self._unit_span(node) or self._top_level_span(node)
            self._spans[node] = known
        return known

    def ancestors(self, node: cst.CSTNode) -> list[cst.CSTNode]:
        """The nodes from the module down to `node`, itself included (KeyError when it
        is not a code-bearing node of the module's statements)."""
        module = self._ctx.module
        top = module.body[self._owner(node)]
        return [module, *_chain(self._ctx.per_statement(_parents, top), node)]

    @cached_property
    def offsets(self) -> list[int]:
        """The lines before each top-level statement."""
        given = self._ctx.line_offsets
        if given is not None:
            return given
        groups = self._ast_groups
        return _offsets_from_code(self._ctx.module) if groups is None else _group_offsets(groups)

    @cached_property
    def lines(self) -> list[str]:
        """The source's lines, each with its line break (as LibCST counts them)."""
        return _LINE.findall(self._ctx.source)

    def anchors(self, index: int) -> dict[int, int] | None:
        """`_statement_lines` of top-level statement `index`: from the module's `ast`
        where it was parsed for the offsets, else from the statement's lines of source
        (kept with the statement across an editor's versions)."""
        if index not in self._anchors:
            stmt, groups = self._ctx.module.body[index], self._ast_groups
            if groups is not None:
                anchors = _lines_of(stmt, groups[index])
            else:
                offsets, lines = self.offsets, self.lines
                end = offsets[index + 1] if index + 1 < len(offsets) else len(lines)
                text = "".join(lines[offsets[index] : end])
                anchors = self._ctx.per_statement(_statement_lines, stmt, text)
            self._anchors[index] = anchors
        return self._anchors[index]

    def _top_level_span(self, node: cst.CSTNode) -> Span:
        """The span from positions in the node's top-level statement, offset by the
        lines before it."""
        index = self._owner(node)
        offset = self.offsets[index]
        pos = self._ctx.per_statement(_positions_in, self._ctx.module.body[index])[node]
        start, end = pos.start, pos.end
        return Span(start.line + offset, start.column + 1, end.line + offset, end.column + 1)

    def _unit_span(self, node: cst.CSTNode) -> Span | None:
        """The span from positions in the innermost statement holding `node` (only its
        header when `node` is there), its line from Python's parser; None when that
        parser cannot read the top-level statement. A compound statement ends where its
        last simple statement (or suite) ends."""
        index = self._owner(node)
        anchors = self.anchors(index)
        if anchors is None:
            return None
        top = self._ctx.module.body[index]
        stmt, unit, pos = self._unit(top, _chain(self._ctx.per_statement(_parents, top), node))
        shift = self.offsets[index] + anchors[id(_first_statement(stmt))] - pos[unit].start.line
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
        assert isinstance(stmt, cst.BaseStatement)
        step = chain[at + 1] if at + 1 < len(chain) else None
        head = not isinstance(step, _CLAUSES) or type(step) is cst.SimpleStatementSuite
        outer = chain[:at]
        indents = tuple(
            p.indent for p in outer if type(p) is cst.IndentedBlock or type(p) is cst.Match
        )
        elif_ = bool(outer) and type(outer[-1]) is cst.If
        unit, pos = self._ctx.per_statement(_unit_positions, top, stmt, head, indents, elif_)
        return stmt, unit, pos

    @cached_property
    def _ast_groups(self) -> list[AstGroup] | None:
        """`_parse_groups` of the source, when no offsets were given (an editor's are)."""
        if self._ctx.line_offsets is not None:
            return None
        return _parse_groups(self._ctx.module, self._ctx.source)

    def _owner(self, node: cst.CSTNode) -> int:
        """The index of the top-level statement that holds `node` (KeyError when none):
        the first whose `_parents` has it, the map its span and ancestors read anyway,
        looked at first where `_owner_guess` puts it."""
        key, body = id(node), self._ctx.module.body
        guess = self._owner_guess(node)
        if guess is not None and key in self._ctx.per_statement(_parents, body[guess]):
            return guess
        for index, stmt in enumerate(body):
            if key in self._ctx.per_statement(_parents, stmt):
                return index
        raise KeyError(node)

    def _owner_guess(self, node: cst.CSTNode) -> int | None:
        """Where `node` is found without a walk: the top-level function or class it names,
        else where its graph statement is: that statement at module level, else the
        top-level function or class its scope starts with."""
        indexes, names = self._top_level
        if type(node) is cst.Name:
            index = names.get(node.value)
            named = (
                index is not None and getattr(self._ctx.module.body[index], "name", None) is node
            )
            return index if named else None
        found = self._ctx.graph_statement(node)
        if found is None:
            return None
        if found.scope == MODULE:
            return indexes.get(id(found.anchor))
        return names.get(found.scope.partition(".")[0])

    @cached_property
    def _top_level(self) -> tuple[dict[int, int], dict[str, int]]:
        """id(statement) and the name of a function or class -> its top-level index."""
        body = self._ctx.module.body
        names = {
            stmt.name.value: index
            for index, stmt in enumerate(body)
            if type(stmt) is cst.FunctionDef or type(stmt) is cst.ClassDef
        }
        return {id(stmt): index for index, stmt in enumerate(body)}, names


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
        assert type(tree) is cst.If  # an elif: the `orelse` of the `if` above it
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
        nodes = list(islice(starts, count))
        if len(nodes) < count:
            return None
        first = nodes[0]
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
