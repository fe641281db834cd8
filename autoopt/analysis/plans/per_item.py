"""Per-item work (AO501): a loop or comprehension that computes one value per item of
an array, then stacks the values.

    fits = []
    for i in range(len(keys)):
        xb, yb = resample(keys[i], x, y)
        fits.append(huber_line(xb, yb))
    fits = jnp.stack(fits)

The body, its assignments to names and then the appended value, is a function of
the item and of the loop-invariant names it reads (`ItemBody`):

    def _main_per_item(key, x, y):
        xb, yb = resample(key, x, y)
        return huber_line(xb, yb)

Only the shape of the body is found here: that no iteration reads what another
wrote, that the loop runs once per row of each array it indexes, and what the
function takes. Whether the function may be vmapped and jitted is asked of the
program with it extracted (`rewrite/per_item.py`), by the same jit plan and
return-value proof that judge hand-written functions.

The loop runs once per row of each array it indexes when it is `for x in xs`,
`range(len(xs))`, `range(xs.shape[0])`, or a `range(n)` whose `n` provably built the
array (`keys = jax.random.split(key, n)`); no name the body binds may be read after the
loop, and the examples must come from one JAX array, so that they share one shape (a
Python list's may differ).
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.blocks import Blocks
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import bound_names, read_names
from autoopt.analysis.core.graph import MODULE, Stmt
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.values import arrays
from autoopt.analysis.values.ints import int_constant, module_constant
from autoopt.analysis.values.shapes import assigned_value, int_literal

_SIMPLE = (cst.Name, cst.Attribute, cst.Integer, cst.Float, cst.SimpleString)
_DECLARATIONS = (cst.FunctionDef, cst.ClassDef, cst.Import, cst.ImportFrom)
_SHAPED = frozenset(f"jax.numpy.{name}" for name in jax_api.SHAPED_CONSTRUCTORS)


@dataclass(frozen=True)
class PerItem:
    """`value` (after the assignment `lines`) evaluated once per element of `iter`;
    `stack` joins the values."""

    stack: cst.Call
    value: cst.BaseExpression  # the appended value, or the comprehension's element
    target: str  # the loop or comprehension variable
    iter: cst.BaseExpression
    at: Stmt  # the statement that evaluates `iter`
    lines: tuple[cst.SimpleStatementLine, ...] = ()  # the body's assignments
    removed: tuple[cst.CSTNode, ...] = ()  # the list initialisation and the loop
    leading: tuple[cst.EmptyLine, ...] = ()  # comments above what is removed


@dataclass(frozen=True)
class ItemBody:
    """The per-item function: its parameters (the mapped items first, then the
    loop-invariant names), what the vmapped call passes for each and what the loop
    passed per item, its body with every `xs[i]` replaced by its parameter, and what
    is not proven about the rows."""

    params: tuple[str, ...]
    args: tuple[str, ...]
    items: tuple[str, ...]
    sources: tuple[cst.BaseExpression, ...]  # the mapped arrays
    lines: tuple[cst.SimpleStatementLine, ...]
    value: cst.BaseExpression
    doubts: tuple[str, ...]

    @property
    def mapped(self) -> tuple[str, ...]:
        return self.params[: len(self.sources)]


def per_item(ctx: ModuleContext, blocks: Blocks, stmt: Stmt, stack: cst.Call) -> PerItem | None:
    """The per-item pattern that `stack` (a `jnp.stack`/`jnp.array` call) closes."""
    return _comprehension(stmt, stack) or _loop(ctx, blocks, stmt, stack)


def _comprehension(stmt: Stmt, stack: cst.Call) -> PerItem | None:
    comp = single_arg(stack)
    if type(comp) is not cst.ListComp:
        return None
    for_in = comp.for_in
    if for_in.ifs or for_in.inner_for_in is not None or for_in.asynchronous is not None:
        return None
    if type(for_in.target) is not cst.Name:
        return None
    return PerItem(stack, comp.elt, for_in.target.value, for_in.iter, stmt)


def _loop(ctx: ModuleContext, blocks: Blocks, stmt: Stmt, stack: cst.Call) -> PerItem | None:
    """`outs = []`, `for x in xs: <assignments>; outs.append(value)`, then
    `... jnp.stack(outs) ...`."""
    outs = single_arg(stack)
    loop = blocks.previous_statement(stmt.anchor)
    init = blocks.previous_statement(loop) if loop is not None else None
    if not (type(outs) is cst.Name and type(loop) is cst.For and init is not None):
        return None
    name = outs.value
    if not (_is_empty_list(init, name) and loop.orelse is None and type(loop.target) is cst.Name):
        return None
    *lines, last = loop.body.body
    if not all(type(line) is cst.SimpleStatementLine for line in loop.body.body):
        return None
    value = _appended(last, name)  # type: ignore[arg-type]  # all lines checked above
    if value is None or not all(_assigns_names(line) for line in lines):  # type: ignore[arg-type]  # all lines checked above
        return None
    if not _list_used_once(ctx, stmt, name, {init, last, stmt.anchor}):
        return None
    leading = (*init.leading_lines, *loop.leading_lines)  # type: ignore[attr-defined]  # a line
    at = ctx.graph.by_node[loop]
    target = loop.target.value
    return PerItem(stack, value, target, loop.iter, at, tuple(lines), (init, loop), leading)  # type: ignore[arg-type]  # all lines checked above


def _assigns_names(line: cst.SimpleStatementLine) -> bool:
    """Assignments to names or tuples of names, nothing else."""
    return all(
        type(small) is cst.Assign and all(_plain_target(t.target) for t in small.targets)
        for small in line.body
    )


def _plain_target(target: cst.BaseExpression) -> bool:
    if type(target) is cst.Tuple or type(target) is cst.List:
        return all(_plain_target(e.value) for e in target.elements)
    return type(target) is cst.Name


def _list_used_once(ctx: ModuleContext, stmt: Stmt, name: str, expected: set[cst.CSTNode]) -> bool:
    """Only `expected` touch the list, or later statements read what `stmt` rebinds."""
    touching = [s for s in ctx.graph.scope_stmts(stmt.scope) if name in s.uses | s.defs | s.mutates]
    upto = [s for s in touching if s.id <= stmt.id]
    later = len(touching) > len(upto)
    return (
        {s.anchor for s in upto} == expected and len(upto) == 3 and (not later or name in stmt.defs)
    )


def _appended(line: cst.SimpleStatementLine, name: str) -> cst.BaseExpression | None:
    """`value` from the line `name.append(value)`."""
    if len(line.body) != 1 or type(line.body[0]) is not cst.Expr:
        return None
    call = line.body[0].value
    if not (
        type(call) is cst.Call
        and type(call.func) is cst.Attribute
        and type(call.func.value) is cst.Name
        and call.func.value.value == name
        and call.func.attr.value == "append"
    ):
        return None
    return single_arg(call)


def _is_empty_list(stmt: cst.BaseStatement, name: str) -> bool:
    return (
        type(stmt) is cst.SimpleStatementLine
        and len(stmt.body) == 1
        and type(stmt.body[0]) is cst.Assign
        and len(stmt.body[0].targets) == 1
        and type(stmt.body[0].targets[0].target) is cst.Name
        and stmt.body[0].targets[0].target.value == name
        and type(stmt.body[0].value) is cst.List
        and not stmt.body[0].value.elements
    )


# -- the per-item function -------------------------------------------------------------
def item_body(ctx: ModuleContext, p: PerItem) -> ItemBody | None:
    """The function of one item that the body computes, or None when an iteration reads
    what another wrote, a name the body binds is read after the loop, or the items are
    not the rows of arrays (a Python list, an index used as a number, a `range` whose
    length provably differs from the rows)."""
    items = _items(ctx, p)
    if items is None:
        return None
    swap = {id(node): name for node, name in items.nodes}
    lines = tuple(line.visit(_Substitute(swap)) for line in p.lines)
    value = p.value.visit(_Substitute(swap))
    exposed, bound = _names(lines, value)  # type: ignore[arg-type]  # visit keeps the classes
    params = items.params
    if set(exposed) & bound or bound & set(params) or _read_after(ctx, p, bound | {p.target}):
        return None
    inputs = tuple(n for n in exposed if n not in params and _passed(ctx, p.at, n))
    return ItemBody(
        (*params, *inputs),
        (*items.args, *inputs),
        (*items.per_item, *inputs),
        items.sources,
        lines,  # type: ignore[arg-type]  # visit keeps the classes
        value,  # type: ignore[arg-type]  # visit keeps the classes
        tuple(items.doubts),
    )


@dataclass(frozen=True)
class _Items:
    """The item parameters, the arrays they are rows of, what the batched call and the
    loop pass for each, the body's item expressions with their parameter, and the
    doubts about the rows."""

    params: tuple[str, ...]
    sources: tuple[cst.BaseExpression, ...]
    args: tuple[str, ...]
    per_item: tuple[str, ...]
    nodes: tuple[tuple[cst.CSTNode, str], ...] = ()
    doubts: tuple[str, ...] = ()


def _items(ctx: ModuleContext, p: PerItem) -> _Items | None:
    count = range_count(p.iter)
    if count is None:
        if type(p.iter) not in (cst.Name, cst.Attribute, cst.Subscript):
            return None
        if is_python_list(ctx, p.at.scope, p.iter):
            return None
        return _Items((p.target,), (p.iter,), (ctx.code(p.iter),), (p.target,))
    nodes = _nodes(p)
    indexed = [n for n in nodes if type(n) is cst.Subscript and indexed_by(n, p.target)]
    reads = [n for n in nodes if type(n) is cst.Name and n.value == p.target]
    if not indexed or len(reads) != len(indexed):
        return None  # the index is used as a number, or not at all
    taken = {n.value for n in nodes if type(n) is cst.Name}
    counted = counted_array(count)
    params: dict[str, str] = {}  # array -> its parameter
    sources, args, per_item = [], [], []
    doubts: list[str] = []
    for node in indexed:
        array = node.value
        text = ctx.code(array)
        if text in params:
            continue
        params[text] = _item_name(text, taken | set(params.values()))
        visited = rows(ctx, p, array, count, counted, doubts)
        if visited is None or is_python_list(ctx, p.at.scope, array):
            return None
        sources.append(array)
        args.append(visited)
        per_item.append(ctx.code(node))
    swap = tuple((node, params[ctx.code(node.value)]) for node in indexed)
    return _Items(
        tuple(params.values()), tuple(sources), tuple(args), tuple(per_item), swap, tuple(doubts)
    )


def _nodes(p: PerItem) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []
    collect = _Collect(found)
    for node in (*p.lines, p.value):
        node.visit(collect)
    return found


class _Collect(cst.CSTVisitor):
    def __init__(self, found: list[cst.CSTNode]) -> None:
        self.found = found

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.found.append(node)
        return True


class _Substitute(cst.CSTTransformer):
    """Replaces the nodes of `swap` (by identity) with a name."""

    def __init__(self, swap: dict[int, str]) -> None:
        super().__init__()
        self.swap = swap

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> cst.CSTNode:  # type: ignore[override]  # LibCST's generic signature
        name = self.swap.get(id(original_node))
        return cst.Name(name) if name is not None else updated_node


def _item_name(array: str, taken: set[str]) -> str:
    """`key` for `keys`, else `<array>_item`, else numbered: a name the body does not use."""
    base = array.replace(".", "_")
    singular = base[:-1] if base.endswith("s") and not base.endswith("ss") else ""
    name = singular if singular and singular not in taken else f"{base}_item"
    n = 1
    while name in taken:
        n += 1
        name = f"{base}_item_{n}"
    return name


def _names(
    lines: tuple[cst.SimpleStatementLine, ...], value: cst.BaseExpression
) -> tuple[list[str], set[str]]:
    """The names the body reads before binding them (in first-read order), and the names
    it binds."""
    exposed: dict[str, None] = {}
    bound: set[str] = set()
    for line in lines:
        for small in line.body:
            assert type(small) is cst.Assign
            for name in read_names(small.value):
                if name.value not in bound:
                    exposed.setdefault(name.value)
            bound |= {n for t in small.targets for n in bound_names(t.target)}
    for name in read_names(value):
        if name.value not in bound:
            exposed.setdefault(name.value)
    return list(exposed), bound


def _read_after(ctx: ModuleContext, p: PerItem, names: set[str]) -> bool:
    """A statement outside the loop reads a name the loop binds (vmap binds none); for
    a loop of module code, a statement anywhere."""
    if not p.removed:
        return False
    graph = ctx.graph
    loop_id = _loop_id(ctx, p)
    scope = graph.stmts if p.at.scope == MODULE else graph.scope_stmts(p.at.scope)
    return any(s.uses & names for s in scope if loop_id not in s.loops and s is not p.at)


def _passed(ctx: ModuleContext, at: Stmt, name: str) -> bool:
    """Whether the function takes `name` as an argument: the loop's function (or one
    enclosing it) binds it, or the module binds it to a value other than a literal
    constant. Functions, imports, constants and builtins stay global references."""
    graph = ctx.graph
    for fn in graph.enclosing_functions(at.scope):
        if name in fn.params or any(name in s.defs for s in graph.scope_stmts(fn.qualname)):
            return True
    values = [
        s
        for s in graph.scope_stmts(MODULE)
        if name in s.defs and not isinstance(s.node, _DECLARATIONS)
    ]
    return bool(values) and module_constant(ctx, name) is None


# -- rows ------------------------------------------------------------------------------
def rows(
    ctx: ModuleContext,
    p: PerItem,
    array: cst.BaseExpression,
    count: cst.BaseExpression,
    counted: cst.BaseExpression | None,
    doubts: list[str],
) -> str | None:
    """The code of the rows of `array` the loop visits, noting what is not proven; None
    when the loop provably runs a different number of times than `array` has rows."""
    text = ctx.code(array)
    if counted is None:
        same = same_rows(ctx, reader(ctx, p, array), array, count)
        if same is None:
            doubts.append(f"cannot prove `{ctx.code(count)}` is at most the rows of `{text}`")
            return f"{text}[:{ctx.code(count)}]"
        return text if same else None
    if text != ctx.code(counted):
        doubts.append(f"cannot prove `{text}` has as many rows as `{ctx.code(counted)}`")
    return text


def same_rows(
    ctx: ModuleContext, at: Stmt, array: cst.BaseExpression, count: cst.BaseExpression
) -> bool | None:
    """Whether `array` has `count` rows: True or False when proven, else None. The array
    is a name bound once before `at` to `jax.random.split(key, n)`, `jnp.arange(n)` or
    `jnp.zeros((n, ...))` (and the like), and `n` is `count`: the same integer, or the
    same names, bound once in their scope."""
    if type(array) is not cst.Name:
        return None
    reaching = ctx.graph.reaching_defs(at, array.value)
    if len(reaching) != 1 or not ctx.graph.dominates(reaching[0], at):
        return None
    value = assigned_value(reaching[0], array.value)
    made = _leading_dim(ctx, value) if type(value) is cst.Call else None
    if made is None:
        return None
    numbers = _int_value(ctx, reaching[0], made), _int_value(ctx, at, count)
    if None not in numbers:
        return numbers[0] == numbers[1]
    if ctx.code(made) == ctx.code(count) and all(
        _bound_once(ctx, at, n.value) for n in read_names(count)
    ):
        return True
    return None


def _leading_dim(ctx: ModuleContext, call: cst.Call) -> cst.BaseExpression | None:
    """The number of rows a constructor call spells out: `n` in `jax.random.split(key,
    n)`, `jnp.arange(n)`, `jnp.zeros((n, ...))`."""
    qual = ctx.qualify(call.func) or ""
    args = [a.value for a in call.args if a.keyword is None and not a.star]
    if len(args) != len(call.args):
        return None
    if qual == "jax.random.split" and len(args) == 2:
        return args[1]
    if qual == "jax.numpy.arange" and len(args) == 1:
        return args[0]
    if qual not in _SHAPED or not args:
        return None
    shape = args[0]
    if type(shape) is cst.Tuple and shape.elements:
        first = shape.elements[0]
        return None if type(first) is cst.StarredElement else first.value
    return shape if type(shape) in (cst.Integer, cst.Name) else None


def _int_value(ctx: ModuleContext, at: Stmt, expr: cst.BaseExpression) -> int | None:
    """A literal integer, or a module constant bound once to one."""
    if type(expr) is cst.Name and int_constant(ctx, at, expr.value):
        expr = module_constant(ctx, expr.value)  # type: ignore[assignment]  # int_constant: bound to one
    return int_literal(expr)


def _bound_once(ctx: ModuleContext, at: Stmt, name: str) -> bool:
    """`name` has one binding in the scope of `at` (or is a parameter bound nowhere)."""
    graph = ctx.graph
    if any(name in fn.globals | fn.nonlocals for fn in graph.functions.values()):
        return False
    defs = [s for s in graph.scope_stmts(at.scope) if name in s.defs | s.mutates]
    fn = graph.functions.get(at.scope)
    if fn is not None and name in fn.params:
        return not defs
    return len(defs) == 1


# -- shared with the one-call form -----------------------------------------------------
def range_count(node: cst.BaseExpression) -> cst.BaseExpression | None:
    """`n` for `range(n)`, else None."""
    count = single_arg(node) if is_call_to(node, "range") else None
    return count if count is not None and (simple(count) or _is_count(count)) else None


def _is_count(node: cst.BaseExpression | None) -> bool:
    return is_call_to(node, "len") or counted_array(node) is not None


def counted_array(count: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """`xs` for `len(xs)` or `xs.shape[0]`, else None."""
    if is_call_to(count, "len"):
        return single_arg(count)
    if (
        type(count) is cst.Subscript
        and type(count.value) is cst.Attribute
        and count.value.attr.value == "shape"
        and len(count.slice) == 1
        and type(count.slice[0].slice) is cst.Index
        and type(count.slice[0].slice.value) is cst.Integer
        and count.slice[0].slice.value.value == "0"
    ):
        return count.value.value
    return None


def proven_array(ctx: ModuleContext, p: PerItem, source: cst.BaseExpression) -> bool:
    """`range(xs.shape[0])`, an annotated parameter, or an array-valued expression."""
    count = range_count(p.iter)
    if count is not None and counted_array(count) is not None and not is_call_to(count, "len"):
        return True
    base = source.value if type(source) is cst.Subscript else source
    fn = ctx.graph.functions.get(p.at.scope)
    if type(base) is cst.Name and fn is not None and arrays.annotated_array(fn, base.value):
        return True
    return arrays.is_array(ctx, reader(ctx, p, source), source, frozenset())


def reader(ctx: ModuleContext, p: PerItem, expr: cst.BaseExpression) -> Stmt:
    """A statement that evaluates `expr`: the first of the loop body that reads its names,
    else the one that evaluates the items."""
    names = {n.value for n in read_names(expr)}
    if p.removed and names:
        for stmt in ctx.graph.loop_stmts(_loop_id(ctx, p)):
            if names <= stmt.uses:
                return stmt
    return p.at


def _loop_id(ctx: ModuleContext, p: PerItem) -> int:
    return next(i for i, loop in ctx.graph.loops.items() if loop.header == p.at.id)


def is_python_list(ctx: ModuleContext, scope: str, node: cst.BaseExpression) -> bool:
    if type(node) in (cst.List, cst.ListComp, cst.Tuple):
        return True
    if type(node) is not cst.Name:
        return False
    defs = [s.node for s in ctx.graph.scope_stmts(scope) if node.value in s.defs]
    return any(
        type(d) is cst.Assign and type(d.value) in (cst.List, cst.ListComp, cst.Tuple) for d in defs
    )


def single_arg(node: cst.CSTNode | None) -> cst.BaseExpression | None:
    if type(node) is cst.Call and len(node.args) == 1 and node.args[0].keyword is None:
        return None if node.args[0].star else node.args[0].value
    return None


def is_call_to(node: cst.CSTNode | None, name: str) -> bool:
    return type(node) is cst.Call and type(node.func) is cst.Name and node.func.value == name


def indexed_by(node: cst.BaseExpression, index: str) -> bool:
    """`xs[i]` with `xs` not itself depending on `i`."""
    if type(node) is not cst.Subscript or len(node.slice) != 1:
        return False
    element = node.slice[0].slice
    return (
        type(element) is cst.Index
        and type(element.value) is cst.Name
        and element.value.value == index
        and not reads(node.value, index)
    )


def simple(node: cst.BaseExpression) -> bool:
    """No call that could have effects or change between evaluations."""
    if type(node) is cst.Subscript:
        return simple(node.value)
    if type(node) is cst.UnaryOperation:
        return simple(node.expression)
    return isinstance(node, _SIMPLE)


def reads(node: cst.CSTNode, name: str) -> bool:
    return any(n.value == name for n in read_names(node))
