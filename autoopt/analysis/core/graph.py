"""The dataflow graph of a module: statements, loops, functions, calls and def-use flow.

Edges are kept in plain dicts, in the order they are found; `ModuleGraph.graph`
gives them as a networkx graph (for rendering and debugging), whose nodes are keyed
`("stmt", id)`, `("loop", id)` and `("func", qualname)`. Edges carry a `kind`:

- `contains`: function -> statement (its own body, not nested functions);
- `in_loop`: loop -> statement (every statement the loop body holds, nested too);
- `calls`: statement -> function, for calls to functions defined in the module;
- `flow`: definition -> use of a variable (`var` attribute), reaching definitions
  over structured control flow, loop-carried definitions included.

Statements are numbered in source order; `block` is the path of compound
statement bodies that hold a statement, which gives dominance for structured code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import libcst as cst

from autoopt.analysis.core.exprs import (
    bound_names,
    calls_and_comprehension,
    calls_in,
    evaluated_exprs,
    mutated_names,
    mutating_call_target,
    numpy_written,
    param_names,
    pattern_captures,
    pattern_reads,
    positional_names,
    read_names,
    scope_nodes,
    written_roots,
)
from autoopt.analysis.core.names import ImportMap, collect_imports
from autoopt.analysis.core.walk import walk

if TYPE_CHECKING:
    import networkx as nx

MODULE = "<module>"
#: Where the facts of a top-level statement's small statements are kept (node -> facts),
#: for a module that keeps the statement (an editor's next version of the text).
FactStore = Callable[[cst.BaseStatement], dict[cst.CSTNode, dict]]


@dataclass
class Stmt:
    """One small statement, or the header of a compound statement."""

    id: int
    node: cst.CSTNode
    anchor: cst.BaseStatement  # the statement in its block, for inserting code around it
    scope: str
    loops: tuple[int, ...]
    block: tuple[int, ...]
    defs: frozenset[str] = frozenset()
    uses: frozenset[str] = frozenset()
    mutates: frozenset[str] = frozenset()
    calls: tuple[cst.Call, ...] = ()
    comprehension: bool = False  # a call here runs once per element of a comprehension

    @cached_property
    def own_nodes(self) -> tuple[cst.CSTNode, ...]:
        """The nodes the statement evaluates itself (not nested bodies), walked once."""
        return tuple(n for e in evaluated_exprs(self.node) for n in scope_nodes(e))

    @property
    def alone(self) -> bool:
        """The only statement of its own line (not `a = 1; b = 2`, not `for ...: a = 1`)."""
        anchor = self.anchor
        return type(anchor) is cst.SimpleStatementLine and len(anchor.body) == 1

    @property
    def assign(self) -> cst.Assign | None:
        """The statement as a `targets = value` assignment, or None."""
        return self.node if type(self.node) is cst.Assign else None

    @property
    def value(self) -> cst.BaseExpression | None:
        """The expression an assignment (plain, augmented or annotated) or an expression
        statement evaluates, or None."""
        node = self.node
        if (
            type(node) is cst.Assign
            or type(node) is cst.AugAssign
            or type(node) is cst.AnnAssign
            or type(node) is cst.Expr
        ):
            return node.value
        return None

    @property
    def call_assigned(self) -> tuple[str, cst.Call] | None:
        """For a lone `name = f(...)` line, the name and the call."""
        node = self.assign
        if (
            node is not None
            and len(node.targets) == 1
            and type(node.targets[0].target) is cst.Name
            and type(node.value) is cst.Call
            and self.alone
        ):
            return node.targets[0].target.value, node.value
        return None


@dataclass
class Loop:
    id: int
    node: cst.For | cst.While
    scope: str
    loops: tuple[int, ...]  # enclosing loops, outermost first
    header: int  # the Stmt id of the loop header


@dataclass
class Function:
    qualname: str
    node: cst.FunctionDef
    scope: str  # where it is defined
    params: list[str]
    header: int  # the Stmt id that binds its name
    is_method: bool
    globals: set[str] = field(default_factory=set)
    nonlocals: set[str] = field(default_factory=set)
    captured: set[str] = field(default_factory=set)  # free names read by nested defs

    @property
    def name(self) -> str:
        return self.node.name.value

    @property
    def positional(self) -> list[str]:
        """The parameters a call may pass by position, in order: the first entries of
        `params`; `*args`, keyword-only parameters and `**kwargs` follow them there."""
        return positional_names(self.node.params)

    @cached_property
    def is_generator(self) -> bool:
        """Whether the body yields (nested functions aside); walked once."""
        return any(type(node) is cst.Yield for node in scope_nodes(self.node.body))


@dataclass
class CallSite:
    stmt: Stmt
    call: cst.Call
    function: Function | None = None  # the module function called, when known
    #: a method called through an instance (`obj.m(a)`): positional arguments bind the
    #: parameters after `self` (`analysis/core/jitted_methods.py`)
    bound: bool = False

    @property
    def in_loop(self) -> bool:
        return bool(self.stmt.loops) or self.stmt.comprehension

    def argument(self, index: int, name: str) -> cst.BaseExpression | None:
        """The expression bound to parameter `name` (position `index`) at this call, or
        None (left to its default, or behind `*xs`/`**kw`). With the called function
        known, a keyword-only parameter is read only by keyword, a positional-only one
        only by position, and `*args`/`**kwargs` bind no single expression."""
        if self.function is not None:
            params = self.function.node.params
            positional = self.function.positional
            if name in {p.name.value for p in params.kwonly_params}:
                return self._keyword(name)
            if name not in positional:
                return None  # `*args`, `**kwargs`
            index = positional.index(name) - self.bound
            if name in {p.name.value for p in params.posonly_params}:
                return self._positional(index)
        found = self._keyword(name)
        return found if found is not None else self._positional(index)

    def _keyword(self, name: str) -> cst.BaseExpression | None:
        for arg in self.call.args:
            if arg.keyword is not None and arg.keyword.value == name:
                return arg.value
        return None

    def _positional(self, index: int) -> cst.BaseExpression | None:
        positional = [a for a in self.call.args if a.keyword is None]
        if any(a.star for a in positional[: index + 1]):
            return None
        return positional[index].value if index < len(positional) else None


class ModuleGraph:
    """Builds and answers questions about the dataflow of one parsed module."""

    def __init__(
        self, module: cst.Module, imports: ImportMap | None = None, store: FactStore | None = None
    ) -> None:
        self.module = module
        self.imports = imports or collect_imports(module)
        self.store = store
        self._in_loop: dict[int, list[int]] = {}  # loop id -> statement ids
        self._callers: dict[str, dict[int, None]] = {}  # function -> calling statement ids
        # def id -> use id -> vars, and use id -> def id -> vars (`flow` edges)
        self._flow_out: dict[int, dict[int, list[str]]] = {}
        self._flow_in: dict[int, dict[int, list[str]]] = {}
        self.stmts: list[Stmt] = []
        self.loops: dict[int, Loop] = {}
        self.functions: dict[str, Function] = {}
        self.by_node: dict[cst.CSTNode, Stmt] = {}
        self.classes: set[str] = set()
        _Builder(self).build()
        self._by_scope: dict[str, list[Stmt]] = {}
        for stmt in self.stmts:
            self._by_scope.setdefault(stmt.scope, []).append(stmt)
        self._flow_done: set[str] = set()
        self._link_calls()

    @property
    def graph(self) -> nx.MultiDiGraph:
        """A networkx graph of every node and edge, the flow edges of every scope included."""
        import networkx as nx

        for scope in self._by_scope:
            self._link_flow(scope)
        g = nx.MultiDiGraph()  # several vars may flow between two statements
        g.add_node(("func", MODULE), kind="module")
        g.add_nodes_from((("func", q) for q in self.functions), kind="function")
        g.add_nodes_from((("loop", i) for i in self.loops), kind="loop")
        for stmt in self.stmts:
            g.add_node(("stmt", stmt.id), kind="stmt")
            g.add_edge(("func", stmt.scope), ("stmt", stmt.id), kind="contains")
            for loop in stmt.loops:
                g.add_edge(("loop", loop), ("stmt", stmt.id), kind="in_loop")
        for qualname, callers in self._callers.items():
            for i in callers:
                g.add_edge(("stmt", i), ("func", qualname), kind="calls")
        for d, uses in self._flow_out.items():
            for u, names in uses.items():
                for var in names:
                    g.add_edge(("stmt", d), ("stmt", u), kind="flow", var=var)
        return g

    # -- queries ---------------------------------------------------------------------
    def scope_stmts(self, scope: str) -> list[Stmt]:
        return self._by_scope.get(scope, [])

    def enclosing_functions(self, scope: str) -> list[Function]:
        """The function `scope` names and those around it, innermost first; class bodies are
        skipped, as Python's name lookup skips them (`Recorder.total` -> `total` only)."""
        found = []
        while scope != MODULE:
            fn = self.functions.get(scope)
            if fn is not None:
                found.append(fn)
            scope = fn.scope if fn is not None else scope.rpartition(".")[0] or MODULE
        return found

    def loop_stmts(self, loop_id: int) -> list[Stmt]:
        """Statements run on every iteration (a `while` test included, a `for` iter not)."""
        return [self.stmts[i] for i in self._in_loop.get(loop_id, ())]

    def written_in_loop(self, loop_id: int) -> set[str]:
        """Names bound or mutated anywhere in the loop, the `for` target included."""
        header = self.stmts[self.loops[loop_id].header]
        written = set(header.defs)
        for stmt in self.loop_stmts(loop_id):
            written |= stmt.defs | stmt.mutates
        return written

    def resolve_function(self, name: str, scope: str) -> Function | None:
        """The module function a bare name refers to from `scope` (innermost first)."""
        while True:
            qual = name if scope == MODULE else f"{scope}.{name}"
            if qual in self.functions:
                return self.functions[qual]
            if scope == MODULE:
                return None
            scope = self.functions[scope].scope if scope in self.functions else MODULE

    def call_sites(self, function: Function) -> list[CallSite]:
        sites = []
        for i in self._callers.get(function.qualname, ()):
            stmt = self.stmts[i]
            for call in stmt.calls:
                if type(call.func) is cst.Name and call.func.value == function.name:
                    sites.append(CallSite(stmt, call, function))
        return sites

    def references(self, name: str) -> Iterator[Stmt]:
        """Statements that read `name` (bare), in source order."""
        return (s for s in self.stmts if name in s.uses)

    def uses_of(self, stmt: Stmt, var: str) -> list[Stmt]:
        """Statements that read the value of `var` defined at `stmt`."""
        self._link_flow(stmt.scope)
        uses = self._flow_out.get(stmt.id, {})
        return [self.stmts[u] for u, names in uses.items() if var in names]

    def reaching_defs(self, stmt: Stmt, var: str) -> list[Stmt]:
        """The statements whose definition of `var` may be the one `stmt` reads."""
        self._link_flow(stmt.scope)
        defs = self._flow_in.get(stmt.id, {})
        return [self.stmts[d] for d, names in defs.items() if var in names]

    def dominates(self, a: Stmt, b: Stmt) -> bool:
        """`a` runs before `b` on every path (structured code, same scope)."""
        return a.id < b.id and b.block[: len(a.block)] == a.block

    def read_after(self, stmt: Stmt, var: str) -> list[Stmt]:
        """Statements that may read the value `var` has at `stmt`, after `stmt` runs.

        Counts later statements of the scope and, inside a loop, the statements the
        next iteration runs before a redefinition (the loop-carried reads).
        """
        if var in stmt.defs:
            return []
        readers: list[Stmt] = []
        for other in self.scope_stmts(stmt.scope):
            if var not in other.uses or (other is stmt and not stmt.loops):
                continue
            later = other.id > stmt.id and not self._killed_between(stmt, other, var)
            next_iteration = (
                other.id <= stmt.id
                and self._shares_loop(stmt, other)
                and not self._killed_in_loop_before(stmt, other, var)
            )
            if later or next_iteration:
                readers.append(other)
        return readers

    def _target_defs(self, loop_id: int) -> frozenset[str]:
        """The names a `for` loop's header binds on every iteration (none for `while`)."""
        loop = self.loops[loop_id]
        if type(loop.node) is not cst.For:
            return frozenset()
        header = [s for s in self.scope_stmts(loop.scope) if s.node is loop.node]
        return header[0].defs if header else frozenset()

    def _shares_loop(self, a: Stmt, b: Stmt) -> bool:
        return bool(set(a.loops) & set(b.loops))

    def _killed_between(self, start: Stmt, end: Stmt, var: str) -> bool:
        return any(
            var in k.defs and start.id < k.id < end.id and self.dominates(k, end)
            for k in self.scope_stmts(start.scope)
        )

    def _killed_in_loop_before(self, start: Stmt, end: Stmt, var: str) -> bool:
        loop = max(set(start.loops) & set(end.loops))
        if var in self._target_defs(loop):
            return True  # `for var in ...:` binds it again before the next iteration's body
        return any(
            var in k.defs and loop in k.loops and k.id < end.id and self.dominates(k, end)
            for k in self.scope_stmts(start.scope)
        ) or any(
            var in k.defs and start.id < k.id and loop in k.loops and k.block == start.block
            for k in self.scope_stmts(start.scope)
        )

    # -- construction ----------------------------------------------------------------
    def _link_calls(self) -> None:
        for stmt in self.stmts:
            for call in stmt.calls:
                if type(call.func) is cst.Name:
                    target = self.resolve_function(call.func.value, stmt.scope)
                    if target is not None:
                        self._callers.setdefault(target.qualname, {})[stmt.id] = None

    def _link_flow(self, scope: str) -> None:
        """Add the def -> use `flow` edges of one scope (computed on first need)."""
        if scope in self._flow_done:
            return
        self._flow_done.add(scope)
        defs_of: dict[str, list[Stmt]] = {}
        for stmt in self.scope_stmts(scope):
            for var in stmt.defs:
                defs_of.setdefault(var, []).append(stmt)
        for use in self.scope_stmts(scope):
            for var in use.uses:
                defs = defs_of.get(var, [])
                killers = [k for k in defs if self.dominates(k, use)]
                last = max((k.id for k in killers), default=-1)
                for d in defs:
                    if self._reaches(d, use, killers, last):
                        self._flow_out.setdefault(d.id, {}).setdefault(use.id, []).append(var)
                        self._flow_in.setdefault(use.id, {}).setdefault(d.id, []).append(var)

    def _reaches(self, d: Stmt, use: Stmt, killers: Sequence[Stmt], last: int) -> bool:
        """Whether definition `d` reaches `use`; `killers` are the definitions of the var
        that dominate `use` (each runs before it on every path), `last` the latest id."""
        if d.id < use.id:
            return d.id >= last  # no killer between them
        if self._shares_loop(d, use):
            loop = max(set(d.loops) & set(use.loops))
            return not any(loop in k.loops for k in killers)
        return False


class _Builder:
    """Walks the statements once, numbering them and recording loops and functions."""

    def __init__(self, graph: ModuleGraph) -> None:
        self.g = graph
        self.scope = MODULE
        self.loops: list[int] = []
        self.block: list[int] = []
        self._block_ids = 0

    def build(self) -> None:
        for stmt in self.g.module.body:
            self._known = self.g.store(stmt) if self.g.store is not None else {}
            self._body([stmt])

    def _add(self, node: cst.CSTNode, anchor: cst.BaseStatement, **facts: Any) -> Stmt:
        stmt = Stmt(
            id=len(self.g.stmts),
            node=node,
            anchor=anchor,
            scope=self.scope,
            loops=tuple(self.loops),
            block=tuple(self.block),
            **facts,
        )
        self.g.stmts.append(stmt)
        self.g.by_node[node] = stmt
        for loop in self.loops:
            self.g._in_loop.setdefault(loop, []).append(stmt.id)
        return stmt

    def _facts(self, node: cst.CSTNode, targets: Sequence[cst.BaseExpression]) -> dict:
        calls, comprehension, walrus = calls_and_comprehension(node)
        defs = {n for t in targets for n in bound_names(t)} | set(walrus)
        mutates = {n for t in targets for n in mutated_names(t)}
        mutates |= {m for c in calls if (m := mutating_call_target(c)) and not self._on_module(c)}
        mutates |= {m for c in calls for m in written_arguments(self.g.imports, c)}
        return {
            "defs": frozenset(defs),
            "uses": frozenset(n.value for n in read_names(node)),
            "mutates": frozenset(mutates),
            "calls": tuple(calls),
            "comprehension": comprehension,
        }

    def _on_module(self, call: cst.Call) -> bool:
        """`jnp.add(x, 1)`, `lax.sort(x)`, `np.ndarray.fill(a, v)`: a function of an
        imported module (or of a NumPy class), not a method that changes the object it is
        called on."""
        func = call.func
        if type(func) is not cst.Attribute:
            return False
        imports = self.g.imports
        qual = imports.qualify(func.value) or ""
        return imports.is_module(func.value) or qual.startswith("numpy.")

    def _nested(self, body: cst.BaseSuite) -> None:
        """A compound statement's body: a new block for dominance."""
        self._block_ids += 1
        self.block.append(self._block_ids)
        self._suite(body)
        self.block.pop()

    def _suite(self, body: cst.BaseSuite, anchor: cst.BaseStatement | None = None) -> None:
        if type(body) is cst.IndentedBlock:
            self._body(body.body)
        else:  # `if x: a = 1` on one line: the compound statement is the anchor
            assert type(body) is cst.SimpleStatementSuite
            for small in body.body:
                self._add(small, anchor or self._current_anchor, **self._small_facts(small))

    def _body(self, statements: Sequence[cst.BaseStatement]) -> None:
        for stmt in statements:
            self._current_anchor = stmt
            handler = getattr(self, f"_{type(stmt).__name__}", None)
            if handler is not None:
                handler(stmt)

    # -- statements ------------------------------------------------------------------
    def _SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        for small in node.body:
            self._add(small, node, **self._small_facts(small))

    def _small_facts(self, small: cst.BaseSmallStatement) -> dict:
        """The facts of a small statement; kept in the store unless they are `global`
        or `nonlocal`, which write the enclosing function's."""
        if type(small) in (cst.Global, cst.Nonlocal):
            return self._compute_small_facts(small)
        if small not in self._known:
            self._known[small] = self._compute_small_facts(small)
        return self._known[small]

    def _compute_small_facts(self, small: cst.BaseSmallStatement) -> dict:
        if type(small) is cst.Assign:
            targets = [t.target for t in small.targets]
            facts = self._facts(small.value, targets)
            facts["uses"] |= frozenset(_subscript_reads(targets))
            return facts
        if type(small) is cst.AnnAssign and small.value is None:
            # `y: int` only declares: it binds nothing; `self.y: int` evaluates `self`
            return {"uses": frozenset(_subscript_reads([small.target]))}
        if type(small) is cst.AnnAssign or type(small) is cst.AugAssign:
            assert small.value is not None
            facts = self._facts(small.value, [small.target])
            if type(small) is cst.AugAssign:
                facts["uses"] |= frozenset(n.value for n in read_names(small.target))
            return facts
        if type(small) is cst.Global or type(small) is cst.Nonlocal:
            names = {n.name.value for n in small.names}
            if self.scope in self.g.functions:
                fn = self.g.functions[self.scope]
                (fn.globals if type(small) is cst.Global else fn.nonlocals).update(names)
            return {}
        if type(small) is cst.Import or type(small) is cst.ImportFrom:
            return {"defs": frozenset(_import_binds(small))}
        if type(small) is cst.Del:
            return {"mutates": frozenset(mutated_names(small.target))}
        return self._facts(small, [])

    def _FunctionDef(self, node: cst.FunctionDef) -> None:
        outer = self.scope
        qual = node.name.value if outer == MODULE else f"{outer}.{node.name.value}"
        header_reads = [n for d in node.decorators for n in read_names(d.decorator)]
        header = self._add(
            node,
            node,
            defs=frozenset({node.name.value}),
            uses=frozenset(n.value for n in header_reads),
            calls=tuple(c for d in node.decorators for c in calls_in(d.decorator)),
        )
        self.g.functions[qual] = Function(
            qualname=qual,
            node=node,
            scope=outer,
            params=param_names(node.params),
            header=header.id,
            is_method=outer in self.g.classes,
        )
        if outer in self.g.functions:
            self.g.functions[outer].captured |= _free_names(node)
        self._in_scope(qual, node.body)

    def _ClassDef(self, node: cst.ClassDef) -> None:
        self._add(node, node, defs=frozenset({node.name.value}))
        qual = node.name.value if self.scope == MODULE else f"{self.scope}.{node.name.value}"
        self.g.classes.add(qual)
        self._in_scope(qual, node.body)

    def _in_scope(self, scope: str, body: cst.BaseSuite) -> None:
        saved = (self.scope, self.loops, self.block)
        self.scope, self.loops, self.block = scope, [], []
        self._suite(body)
        self.scope, self.loops, self.block = saved

    def _For(self, node: cst.For) -> None:
        header = self._add(node, node, **self._facts(node.iter, [node.target]))
        header.defs = frozenset(bound_names(node.target))
        self._loop(node, header, len(self.g.loops))

    def _While(self, node: cst.While) -> None:
        loop_id = len(self.g.loops)
        self.loops.append(loop_id)
        header = self._add(node, node, **self._facts(node.test, []))
        self.loops.pop()
        self._loop(node, header, loop_id)

    def _loop(self, node: cst.For | cst.While, header: Stmt, loop_id: int) -> None:
        self.g.loops[loop_id] = Loop(loop_id, node, self.scope, tuple(self.loops), header.id)
        self.loops.append(loop_id)
        self._nested(node.body)
        self.loops.pop()
        if node.orelse is not None:
            self._nested(node.orelse.body)

    def _If(self, node: cst.If) -> None:
        self._add(node, node, **self._facts(node.test, []))
        self._nested(node.body)
        orelse = node.orelse
        if type(orelse) is cst.If:
            self._block_ids += 1
            self.block.append(self._block_ids)
            self._If(orelse)
            self.block.pop()
        elif orelse is not None:
            self._nested(orelse.body)

    def _With(self, node: cst.With) -> None:
        targets = [item.asname.name for item in node.items if item.asname is not None]
        items = cst.Tuple([cst.Element(i.item) for i in node.items])
        self._add(node, node, **self._facts(items, targets))
        self._suite(node.body, node)

    def _Try(self, node: cst.Try | cst.TryStar) -> None:
        self._nested(node.body)
        for handler in node.handlers:
            self._nested(handler.body)
        for extra in (node.orelse, node.finalbody):
            if extra is not None:
                self._nested(extra.body)

    _TryStar = _Try

    def _Match(self, node: cst.Match) -> None:
        """The header reads the subject, the cases' value patterns and guards, and binds
        every case's captures (some case may bind each)."""
        reads = [node.subject] + [r for case in node.cases for r in pattern_reads(case)]
        captures = [n for case in node.cases for n in pattern_captures(case.pattern)]
        items = cst.Tuple([cst.Element(r) for r in reads])
        self._add(node, node, **self._facts(items, captures))
        for case in node.cases:
            self._nested(case.body)


def written_arguments(imports: ImportMap, call: cst.Call) -> set[str]:
    """Names whose objects a call writes into: a NumPy call's outputs and in-place
    arguments (`np.copyto(a, b)`, `np.multiply(a, b, out)`, `out=buffers["obs"]` writes
    into `buffers`; `core/exprs.py`'s `numpy_written`) and any `out=` argument."""
    qual = imports.qualify(call.func) or ""
    targets = numpy_written(qual, call) if qual.startswith("numpy.") else None
    if targets is None:
        targets = [a.value for a in call.args if a.keyword is not None and a.keyword.value == "out"]
    return {name for t in targets for name in written_roots(t)}


def _subscript_reads(targets: Sequence[cst.BaseExpression]) -> set[str]:
    """`a[i] = v` reads `a` and `i` as well as writing into `a`."""
    reads: set[str] = set()
    for target in targets:
        if type(target) in (cst.Subscript, cst.Attribute):
            reads |= {n.value for n in read_names(target)}
    return reads


def _import_binds(node: cst.Import | cst.ImportFrom) -> Iterator[str]:
    if type(node.names) is cst.ImportStar:
        return
    for alias in node.names:  # type: ignore[union-attr]  # not ImportStar: returned above
        if alias.asname is not None:
            yield alias.asname.name.value  # type: ignore[union-attr]  # an import's asname is a Name
        else:
            name = alias.name
            while type(name) is cst.Attribute:
                name = name.value
            yield name.value  # type: ignore[misc]  # the root of a dotted name is a Name


def _free_names(node: cst.FunctionDef) -> set[str]:
    """Names a nested function reads that it does not bind itself."""
    bound = set(param_names(node.params)) | _assigned_in(node)
    return {n.value for n in read_names(node.body)} - bound


def _assigned_in(node: cst.FunctionDef) -> set[str]:
    names: set[str] = set()
    for inner in walk(node.body):
        if isinstance(inner, (cst.AssignTarget, cst.For)):
            names.update(bound_names(inner.target))
    return names
