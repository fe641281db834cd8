"""Which values a jitted function would trace, and where Python needs them concrete.

Under `jax.jit` every argument becomes a tracer unless it is static. A tracer
may flow through array code, but Python control flow (`if`, `while`,
`range(n)`, `bool()`, `int()`) and shapes (`jnp.zeros(n)`, `x[:n]`) need
concrete values. Arguments used only there can be made static; arrays used
there cannot, and the function is then not jittable as written. Values derived
from `x.shape`, `x.ndim`, `x.dtype`, `x.size` and `len(x)` stay concrete.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from autoopt.analysis import jax_api
from autoopt.analysis.context import ModuleContext
from autoopt.analysis.graph import Function, Stmt
from autoopt.analysis.jax_api import SHAPE_ARGS
from autoopt.analysis.jitted import own_nodes
from autoopt.analysis.kinds import Kind
from autoopt.analysis.values import model

_CONCRETE_ATTRS = frozenset({"shape", "ndim", "dtype", "size"})
_CONCRETE_CALLS = frozenset({"len", "isinstance", "type"})
_FORCING_BUILTINS = frozenset(
    {"bool", "int", "float", "range", "complex", "max", "min", "sorted", "any", "all"}
)  # compare or convert their arguments in Python
_FORCING_METHODS = jax_api.TO_PYTHON_METHODS
#: Array methods whose arguments are Python values (shapes, axes, dtypes).
_VALUE_METHODS = jax_api.SHAPE_METHODS | {"astype", "view"}


def dynamic_names(node: cst.CSTNode) -> set[str]:
    """Names whose runtime *value* the expression depends on (shape reads excluded)."""
    found: set[str] = set()

    class Visitor(cst.CSTVisitor):
        def visit_Attribute(self, attr: cst.Attribute) -> bool:
            if attr.attr.value in _CONCRETE_ATTRS:
                return False
            attr.value.visit(self)
            return False

        def visit_Call(self, call: cst.Call) -> bool:
            return not (isinstance(call.func, cst.Name) and call.func.value in _CONCRETE_CALLS)

        def visit_Arg(self, arg: cst.Arg) -> bool:
            arg.value.visit(self)
            return False

        def visit_Comparison(self, comp: cst.Comparison) -> bool:
            is_identity = all(isinstance(t.operator, cst.Is | cst.IsNot) for t in comp.comparisons)
            return not is_identity

        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

    node.visit(Visitor())
    return found


@dataclass
class TraceFacts:
    """What tracing a function would need."""

    static: dict[str, str] = field(default_factory=dict)  # param -> where it needs a value
    traced_control: list[str] = field(default_factory=list)  # why it cannot be traced
    traced: set[str] = field(default_factory=set)


def analyse(ctx: ModuleContext, fn: Function) -> TraceFacts:
    """Static-argument candidates and traced Python control flow in `fn`, once."""
    return ctx.per_function(_analyse, fn)


def _analyse(ctx: ModuleContext, fn: Function) -> TraceFacts:
    stmts = ctx.graph.scope_stmts(fn.qualname)
    needs_value = _concrete_positions(ctx, stmts)  # expression -> why
    deps = _dependencies(stmts)
    facts = TraceFacts()
    array_params = _array_params(ctx, fn, stmts)
    for param in fn.params:
        for expr, why in needs_value:
            if param in _closure(dynamic_names(expr), deps):
                if param in array_params:
                    facts.traced_control.append(f"{why} depends on the array argument `{param}`")
                else:
                    facts.static.setdefault(param, why)
                break
    facts.traced = _propagate(set(fn.params) - set(facts.static), stmts)
    for expr, why in needs_value:
        names = _closure(dynamic_names(expr), deps)
        if names & facts.traced - set(fn.params):
            facts.traced_control.append(f"{why} depends on a traced value")
    facts.traced_control = list(dict.fromkeys(facts.traced_control))
    return facts


def _closure(names: set[str], deps: dict[str, set[str]]) -> set[str]:
    """`names` plus every name they were computed from, transitively."""
    seen = set(names)
    todo = list(names)
    while todo:
        for dep in deps.get(todo.pop(), ()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def _dependencies(stmts: list[Stmt]) -> dict[str, set[str]]:
    deps: dict[str, set[str]] = {}
    for stmt in stmts:
        source = _value_of(stmt)
        if source is None:
            continue
        for name in stmt.defs:
            deps.setdefault(name, set()).update(dynamic_names(source))
    return deps


def _value_of(stmt: Stmt) -> cst.CSTNode | None:
    node = stmt.node
    if isinstance(node, cst.Assign | cst.AnnAssign | cst.AugAssign):
        return node.value
    if isinstance(node, cst.For):
        return node.iter
    return None


def _propagate(traced: set[str], stmts: list[Stmt]) -> set[str]:
    """Forward taint: a name assigned from a traced value is traced (loops: twice)."""
    traced = set(traced)
    for _ in range(2):
        for stmt in stmts:
            source = _value_of(stmt)
            if source is not None and dynamic_names(source) & traced:
                traced |= stmt.defs
    return traced


def _concrete_positions(ctx: ModuleContext, stmts: list[Stmt]) -> list[tuple[cst.CSTNode, str]]:
    """Expressions whose value Python must know, each with a human reason."""
    positions: list[tuple[cst.CSTNode, str]] = []
    for stmt in stmts:
        node = stmt.node
        if isinstance(node, cst.If):
            positions.append((node.test, "an `if` condition"))
        elif isinstance(node, cst.While):
            positions.append((node.test, "a `while` condition"))
        elif isinstance(node, cst.Assert):
            positions.append((node.test, "an `assert`"))
        for call in stmt.calls:
            positions.extend(_call_positions(ctx, call))
        positions.extend(_slice_positions(node))
        positions.extend(_index_positions(ctx, stmt))
        positions.extend(_ternary_positions(node))
    return positions


def _call_positions(ctx: ModuleContext, call: cst.Call) -> list[tuple[cst.CSTNode, str]]:
    func = call.func
    if isinstance(func, cst.Name) and func.value in _FORCING_BUILTINS:
        return [(arg.value, f"`{func.value}()`") for arg in call.args]
    if isinstance(func, cst.Attribute) and func.attr.value in _FORCING_METHODS:
        return [(func.value, f"`.{func.attr.value}()`")]
    keywords = [
        (a.value, f"`{a.keyword.value}=`")
        for a in call.args
        if a.keyword is not None and a.keyword.value in jax_api.PYTHON_KEYWORDS
    ]
    if isinstance(func, cst.Attribute) and func.attr.value in _VALUE_METHODS:
        return [(arg.value, f"the argument of `.{func.attr.value}()`") for arg in call.args]
    qual = ctx.qualify(func)
    if qual is not None and qual.startswith("jax.numpy.") and qual not in SHAPE_ARGS:
        return keywords + _option_positions(qual, call)
    if qual is None or qual not in SHAPE_ARGS:
        return keywords
    indexes, names = SHAPE_ARGS[qual]
    short = qual.replace("jax.numpy.", "jnp.").replace("jax.random.", "random.")
    out = []
    positional = [a for a in call.args if a.keyword is None and not a.star]
    for i in indexes:
        if i < len(positional):
            out.append((positional[i].value, f"the shape in `{short}`"))
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in names:
            out.append((arg.value, f"the shape in `{short}`"))
    return out + [k for k in keywords if k[0] not in {o[0] for o in out}]


def _option_positions(qual: str, call: cst.Call) -> list[tuple[cst.CSTNode, str]]:
    """Positional axes and options of jax.numpy functions: `jnp.sum(x, 1)`, `jnp.take(x, i, 0)`."""
    start = jax_api.OPTION_POSITIONS.get(qual.removeprefix("jax.numpy."))
    if start is None:
        return []
    positional = [a for a in call.args if a.keyword is None and not a.star]
    short = qual.replace("jax.numpy.", "jnp.")
    return [(a.value, f"an option of `{short}`") for a in positional[start:]]


def _slice_positions(node: cst.CSTNode) -> list[tuple[cst.CSTNode, str]]:
    out: list[tuple[cst.CSTNode, str]] = []

    class Visitor(cst.CSTVisitor):
        def visit_Slice(self, sl: cst.Slice) -> None:
            for part in (sl.lower, sl.upper, sl.step):
                if part is not None:
                    out.append((part, "a slice bound"))

        def visit_FunctionDef(self, fd: cst.FunctionDef) -> bool:
            return False

    if not isinstance(node, cst.FunctionDef):
        node.visit(Visitor())
    return out


def _index_positions(ctx: ModuleContext, stmt: Stmt) -> list[tuple[cst.CSTNode, str]]:
    """Indexes into Python values (`shape[axis]`, `layers[i]`, `cfg[key]`): only an
    array can be indexed with a traced value."""
    values = model(ctx)
    out: list[tuple[cst.CSTNode, str]] = []
    for node in own_nodes(stmt):
        if not isinstance(node, cst.Subscript):
            continue
        if values.value_of(stmt, node.value).kind in (Kind.ARRAY, Kind.HOST_ARRAY):
            continue
        for element in node.slice:
            if isinstance(element.slice, cst.Index):
                out.append((element.slice.value, f"an index into `{ctx.code(node.value)}`"))
    return out


def _ternary_positions(node: cst.CSTNode) -> list[tuple[cst.CSTNode, str]]:
    out: list[tuple[cst.CSTNode, str]] = []

    class Visitor(cst.CSTVisitor):
        def visit_IfExp(self, exp: cst.IfExp) -> None:
            out.append((exp.test, "a conditional expression"))

        def visit_BooleanOperation(self, op: cst.BooleanOperation) -> None:
            out.append((op.left, f"`{'and' if isinstance(op.operator, cst.And) else 'or'}`"))

        def visit_FunctionDef(self, fd: cst.FunctionDef) -> bool:
            return False

    if not isinstance(node, cst.FunctionDef | cst.If | cst.While):
        node.visit(Visitor())
    return out


def _array_params(ctx: ModuleContext, fn: Function, stmts: list[Stmt]) -> set[str]:
    """Parameters the body treats as arrays: attributes, indexing, array operators."""
    arrays: set[str] = set()
    params = set(fn.params)

    class Visitor(cst.CSTVisitor):
        def visit_Attribute(self, attr: cst.Attribute) -> None:
            if isinstance(attr.value, cst.Name) and attr.value.value in params:
                arrays.add(attr.value.value)

        def visit_Subscript(self, sub: cst.Subscript) -> None:
            if isinstance(sub.value, cst.Name) and sub.value.value in params:
                arrays.add(sub.value.value)

        def visit_BinaryOperation(self, op: cst.BinaryOperation) -> None:
            if isinstance(op.operator, cst.MatrixMultiply):
                for side in (op.left, op.right):
                    if isinstance(side, cst.Name) and side.value in params:
                        arrays.add(side.value)

        def visit_Call(self, call: cst.Call) -> None:
            qual = ctx.qualify(call.func) or ""
            if qual.startswith(("jax.numpy.", "jax.lax.", "jax.nn.")) and qual not in SHAPE_ARGS:
                data = jax_api.OPTION_POSITIONS.get(qual.removeprefix("jax.numpy."))
                positional = [a for a in call.args if a.keyword is None]
                for arg in positional[:data] + [a for a in call.args if a.keyword is not None]:
                    if arg.keyword is not None and arg.keyword.value in jax_api.PYTHON_KEYWORDS:
                        continue
                    if isinstance(arg.value, cst.Name) and arg.value.value in params:
                        arrays.add(arg.value.value)

        def visit_FunctionDef(self, fd: cst.FunctionDef) -> bool:
            return False

    for stmt in stmts:
        if not isinstance(stmt.node, cst.FunctionDef):
            stmt.node.visit(Visitor())
    values = model(ctx)
    return arrays | {p for p in params if values.parameter(fn, p).is_arrays}
