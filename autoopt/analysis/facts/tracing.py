"""Which values a jitted function would trace, and where Python needs them concrete.

Under `jax.jit` every argument becomes a tracer unless it is static. A tracer
may flow through array code, but Python control flow (`if`, `while`,
`range(n)`, `bool()`, `int()`) and shapes (`jnp.zeros(n)`, `x[:n]`) need
concrete values, and so do keys looked up in Python containers (`table.get(t)`,
`t in seen`: a tracer is unhashable). Arguments used only there can be made
static; arrays used there cannot, and the function is then not jittable as written. Values derived
from `x.shape`, `x.ndim`, `x.dtype`, `x.size` and `len(x)` stay concrete.

A Python number argument becomes a 32-bit tracer: an int that `+ - * ** <<`
combine before it meets an array (`(step * 9_000_017) % m`) is exact eagerly and
wraps around traced (`python_math`), unless every call passes a proven float
(`values/ints.py`). A float that `+ -` combine with another Python number before it
meets an array (`1 - decay`) is computed in float64 eagerly and float32 traced, where
the sum may cancel its leading digits (`1 - 0.99999` is 0.14% off: `float_math`);
so too a remainder or floor (`(omega * t) % tau` of a Unix time `t`: float32 is off by
seconds), and a conversion to a dtype not proven float32 (`jnp.asarray(f * 100,
dtype=jnp.int32)`: 28.999999999999996 truncates to 28, its float32 29.0 to 29);
multiplied by an array directly (`lr * grad`), weak typing computes it alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Function, Stmt
from autoopt.analysis.core.walk import child_list, fields_extractor, walk
from autoopt.analysis.facts.jax_parameters import python_arguments
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.overlays.jax import SHAPE_ARGS
from autoopt.analysis.overlays.jax_signatures import INTEGER_EXPONENTS
from autoopt.analysis.values import ints
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model


def dynamic_names(node: cst.CSTNode) -> set[str]:
    """Names whose runtime *value* the expression depends on (shape reads excluded)."""
    found: set[str] = set()
    todo = [node]
    while todo:
        current = todo.pop()
        # by type: LibCST's node classes have no subclasses
        if type(current) is cst.Name:
            found.add(current.value)
        elif type(current) is cst.Attribute:
            if current.attr.value not in jax_api.STATIC_ATTRS:
                todo.append(current.value)
        elif type(current) is cst.Arg:
            todo.append(current.value)
        elif not _value_free(current):
            todo.extend(child_list(current))
    return found


def _value_free(node: cst.CSTNode) -> bool:
    """`len(x)`, `type(x)`, `x is None`, a lambda: no value of the names they mention."""
    if type(node) is cst.Call:
        func = node.func
        return type(func) is cst.Name and func.value in python_api.CONCRETE_BUILTINS
    if type(node) is cst.Comparison:
        return all(type(t.operator) in _IDENTITY for t in node.comparisons)
    return type(node) is cst.Lambda


_IDENTITY = frozenset({cst.Is, cst.IsNot})


class Position(NamedTuple):
    """An expression whose value Python must know, and why (`an index into ...`).
    `exponent`: a power's exponent, where a Python whole number must stay one (raised
    eagerly it is exact repeated multiplication, traced it is `lax.pow`) while an array
    exponent is traced either way and rounds as any jitted arithmetic may."""

    node: cst.CSTNode
    why: str
    exponent: bool = False


@dataclass
class TraceFacts:
    """What tracing a function would need."""

    static: dict[str, str] = field(default_factory=dict)  # param -> where it needs a value
    traced_control: list[str] = field(default_factory=list)  # why it cannot be traced
    traced: set[str] = field(default_factory=set)
    #: traced parameters receiving Python numbers -> Python arithmetic on them
    python_math: dict[str, str] = field(default_factory=dict)
    #: traced parameters receiving Python floats -> a Python sum that may cancel them
    float_math: dict[str, FloatUse] = field(default_factory=dict)


def analyse(ctx: ModuleContext, fn: Function) -> TraceFacts:
    """Static-argument candidates and traced Python control flow in `fn`, once."""
    return ctx.per_function(_analyse, fn)


def _analyse(ctx: ModuleContext, fn: Function) -> TraceFacts:
    stmts = ctx.graph.scope_stmts(fn.qualname)
    deps = _dependencies(stmts)
    reach = _propagate(set(fn.params), stmts)  # every name a parameter's value reaches

    def sources(expr: cst.CSTNode) -> set[str]:
        """The names `expr`'s value comes from, where a parameter's value reaches it."""
        names = _closure(dynamic_names(expr), deps)
        return names if names & reach else set()

    needs_value = [  # the names each position's value comes from, and the position
        (names, position)
        for position in _concrete_positions(ctx, stmts, sources)
        if (names := sources(position.node))
    ]
    facts = TraceFacts()
    arrays = _ArrayParams(ctx, fn, stmts)
    for param in fn.params:
        for names, position in needs_value:
            if param in names:
                if arrays.has(param) and position.exponent:
                    continue  # an array exponent: traced, it rounds as jitted arithmetic does
                if arrays.has(param):
                    facts.traced_control.append(
                        f"{position.why} depends on the array argument `{param}`"
                    )
                else:
                    facts.static.setdefault(param, position.why)
                break
    facts.traced = _propagate(set(fn.params) - set(facts.static), stmts)
    for names, position in needs_value:
        if names & facts.traced - set(fn.params) and not position.exponent:
            facts.traced_control.append(f"{position.why} depends on a traced value")
    facts.traced_control = list(dict.fromkeys(facts.traced_control))
    facts.python_math = _python_math(ctx, fn, stmts, deps, set(fn.params) - set(facts.static))
    facts.float_math = _float_math(ctx, fn, stmts, deps, set(fn.params) - set(facts.static))
    return facts


def _python_math(
    ctx: ModuleContext, fn: Function, stmts: list[Stmt], deps: dict[str, set[str]], params: set[str]
) -> dict[str, str]:
    """The traced `params` receiving Python numbers not proven floats, each with the first
    expression that needs them exact: the parameter itself where its calls do not prove
    it within int32 (a jitted call refuses a larger Python int: OverflowError), else an
    expression `+ - * ** <<` combine before they meet an array (`(step * 9_000_017) % m`):
    eagerly Python computes it exactly, traced it is an int32 that wraps around. (A float
    is judged by `_float_math`.) An expression whose value
    every call proves within int32 (`ints.bounds`: `t + DELAY` for `t` from `range(300)`)
    computes the same either way."""
    values = model(ctx)
    numbers = {
        p
        for p in params
        if values.parameter(fn, p).kind is Kind.SCALAR and not ints.float_parameter(ctx, fn, p)
    }
    known = {p: b for p in numbers if (b := ints.parameter_bounds(ctx, fn, p)) is not None}
    found = {p: p for p in sorted(numbers) if not ints.within(known.get(p))}
    for stmt in stmts if numbers else ():
        for node in _in_source_order(stmt.node):
            if type(node) is not cst.BinaryOperation or type(node.operator) not in _WRAPPING:
                continue
            hit = _closure(dynamic_names(node), deps) & numbers - found.keys()
            if not hit or ints.within(ints.bounds(ctx, stmt, node, known)):
                continue
            if values.value_of(stmt, node).kind not in _ARRAY_KINDS:
                found.update(dict.fromkeys(hit, ctx.code(node)))
    return found


def _float_math(
    ctx: ModuleContext, fn: Function, stmts: list[Stmt], deps: dict[str, set[str]], params: set[str]
) -> dict[str, FloatUse]:
    """The traced `params` every call passes a Python float, each with the first sum or
    difference (`1 - decay`) that computes on it before it meets an array: eagerly in
    float64, traced in float32, where cancellation leaves the float32 rounding of
    `decay` as a large relative error of the result; so too a remainder or floor, and a
    conversion to a dtype not proven float32 (`_float_needs`)."""
    values = model(ctx)
    floats = {
        p
        for p in params
        if values.parameter(fn, p).kind is Kind.SCALAR and ints.float_parameter(ctx, fn, p)
    }
    found: dict[str, FloatUse] = {}
    for stmt in stmts if floats else ():
        for node in _in_source_order(stmt.node):
            for part, why in _float_needs(ctx, node):
                hit = _closure(dynamic_names(part), deps) & floats - found.keys()
                if hit and values.value_of(stmt, part).kind not in _ARRAY_KINDS:
                    found.update(dict.fromkeys(hit, FloatUse(ctx.code(node), why)))
    return found


class FloatUse(NamedTuple):
    """Python arithmetic on a traced Python float that float32 may change, and why."""

    expr: str
    why: str


def _float_needs(ctx: ModuleContext, node: cst.CSTNode) -> list[tuple[cst.BaseExpression, str]]:
    """The operands of `node` that need a Python float's float64 value, with why: a sum
    (`1 - decay`) or a remainder or floor (`(omega * t) % tau`), of `node` itself; a
    conversion to a dtype not proven float32 (`jnp.asarray(lr, dtype=w.dtype)`): eagerly
    float64 rounds once to it, traced float32 rounds again (an int dtype may change by 1)."""
    if type(node) is cst.BinaryOperation and type(node.operator) in _SUMS:
        return [(node, "cancellation may lose its digits")]
    if type(node) is cst.BinaryOperation and type(node.operator) in _REMAINDERS:
        return [(node, "a remainder or floor of a large value keeps its rounding error")]
    if type(node) is not cst.Call or _float32_conversion(ctx, node):
        return []
    why = "converting it to a dtype not proven float32 starts from float32 traced"
    return [(a.value, why) for a in node.args if a.keyword is None or a.keyword.value != "dtype"]


def _float32_conversion(ctx: ModuleContext, call: cst.Call) -> bool:
    """`call` is no conversion of a Python number to an array of a dtype other than
    float32 (or float64, which jax computes in float32 without x64): not a conversion, or
    one to the default dtype (`jnp.asarray(x)`), or to a dtype named float32/float64."""
    qual = ctx.qualify(call.func) or ""
    name = qual.rpartition(".")[2]
    if qual.startswith(("jax.numpy.", "numpy.")) and name in jax_api.DTYPE_NAMES:
        return name in _WIDE_FLOATS
    position = jax_api.CONVERSION_DTYPE_POSITIONS.get(qual)
    if position is None:
        return True
    given = [a.value for a in call.args if a.keyword is not None and a.keyword.value == "dtype"]
    positional = [a.value for a in call.args if a.keyword is None and not a.star]
    given += positional[position : position + 1]
    if not given:
        return qual not in jax_api.LIKE_CONVERSIONS
    dtype = ctx.qualify(given[0]) or (ctx.code(given[0]).strip("'\"") if _text(given[0]) else "")
    return dtype.rpartition(".")[2] in _WIDE_FLOATS


def _text(node: cst.CSTNode) -> bool:
    return type(node) is cst.SimpleString


_ARRAY_KINDS = (Kind.ARRAY, Kind.PYTREE, Kind.HOST_ARRAY)
_WRAPPING = frozenset({cst.Add, cst.Subtract, cst.Multiply, cst.Power, cst.LeftShift})
_SUMS = frozenset({cst.Add, cst.Subtract})
_REMAINDERS = frozenset({cst.Modulo, cst.FloorDivide})
_WIDE_FLOATS = frozenset({"float32", "float64", "single", "double"})


def reached(ctx: ModuleContext, fn: Function, params: set[str]) -> set[str]:
    """The names of `fn` that the values of `params` reach."""
    return _propagate(params, ctx.graph.scope_stmts(fn.qualname))


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
    if type(node) is cst.Assign or type(node) is cst.AnnAssign or type(node) is cst.AugAssign:
        return node.value
    if type(node) is cst.For:
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


def _concrete_positions(
    ctx: ModuleContext, stmts: list[Stmt], sources: Callable[[cst.CSTNode], set[str]]
) -> list[Position]:
    """Expressions whose value Python must know, each with a human reason (indexes only
    where a parameter's value reaches them: `sources`)."""
    positions: list[Position] = []
    for stmt in stmts:
        node = stmt.node
        if type(node) is cst.If:
            positions.append(Position(node.test, "an `if` condition"))
        elif type(node) is cst.While:
            positions.append(Position(node.test, "a `while` condition"))
        elif type(node) is cst.Assert:
            positions.append(Position(node.test, "an `assert`"))
        for call in stmt.calls:
            positions.extend(_call_positions(ctx, call))
        positions.extend(_slice_positions(node))
        positions.extend(_index_positions(ctx, stmt, sources))
        positions.extend(_key_positions(ctx, stmt, sources))
        positions.extend(_ternary_positions(node))
        positions.extend(_power_positions(node))
    return positions


def _call_positions(ctx: ModuleContext, call: cst.Call) -> list[Position]:
    """The listed positions (`_listed_positions`), and every argument of a JAX call whose
    parameter does not take array data (`facts/jax_parameters.py`)."""
    listed = _listed_positions(ctx, call)
    qual = ctx.qualify(call.func)
    if qual is None:
        return listed
    seen = {id(position.node) for position in listed}
    return listed + [
        _argument_position(qual, node, name)
        for node, name in python_arguments(qual, call)
        if id(node) not in seen
    ]


def _argument_position(qual: str, node: cst.CSTNode, name: str) -> Position:
    short = _short(qual)
    if INTEGER_EXPONENTS.get(qual) == name:
        return Position(node, f"the exponent of `{short}`", exponent=True)
    return Position(node, f"`{name}` of `{short}`" if name != "*" else f"an argument of `{short}`")


def _short(qual: str) -> str:
    for prefix, short in (("jax.numpy.", "jnp."), ("jax.random.", "random."), ("jax.lax.", "lax.")):
        if qual.startswith(prefix):
            return short + qual.removeprefix(prefix)
    return qual


def _power_positions(node: cst.CSTNode) -> list[Position]:
    """Exponents of `**` and `pow()`: a Python whole number raised eagerly is exact
    repeated multiplication, traced it is `lax.pow` (`overlays/jax_signatures.
    INTEGER_EXPONENTS`); an array exponent is let through (`Position.exponent`)."""
    if type(node) in (cst.FunctionDef, cst.If, cst.While):
        return []
    out: list[Position] = []
    for inner in _in_source_order(node):
        if type(inner) is cst.BinaryOperation and type(inner.operator) is cst.Power:
            out.append(Position(inner.right, "the exponent of `**`", exponent=True))
        elif type(inner) is cst.AugAssign and type(inner.operator) is cst.PowerAssign:
            out.append(Position(inner.value, "the exponent of `**=`", exponent=True))
        elif type(inner) is cst.Call and type(inner.func) is cst.Name and inner.func.value == "pow":
            out.extend(
                Position(arg.value, "the exponent of `pow()`", exponent=True)
                for arg in inner.args[1:2]
            )
    return out


def _listed_positions(ctx: ModuleContext, call: cst.Call) -> list[Position]:
    func = call.func
    if type(func) is cst.Name and func.value in python_api.FORCING_BUILTINS:
        return [Position(arg.value, f"`{func.value}()`") for arg in call.args]
    if type(func) is cst.Attribute and func.attr.value in jax_api.TO_PYTHON_METHODS:
        return [Position(func.value, f"`.{func.attr.value}()`")]
    keywords: list[Position] = [
        Position(a.value, f"`{a.keyword.value}=`")
        for a in call.args
        if a.keyword is not None and a.keyword.value in jax_api.PYTHON_KEYWORDS
    ]
    if type(func) is cst.Attribute and func.attr.value in jax_api.VALUE_METHODS:
        return [Position(arg.value, f"the argument of `.{func.attr.value}()`") for arg in call.args]
    qual = ctx.qualify(func)
    if qual is not None and qual.startswith("jax.numpy.") and qual not in SHAPE_ARGS:
        return keywords + _option_positions(qual, call)
    if qual is None or qual not in SHAPE_ARGS:
        return keywords
    indexes, names = SHAPE_ARGS[qual]
    short = qual.replace("jax.numpy.", "jnp.").replace("jax.random.", "random.")
    out: list[Position] = []
    positional = [a for a in call.args if a.keyword is None and not a.star]
    for i in indexes:
        if i < len(positional):
            out.append(Position(positional[i].value, f"the shape in `{short}`"))
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value in names:
            out.append(Position(arg.value, f"the shape in `{short}`"))
    return out + [k for k in keywords if k.node not in {o.node for o in out}]


def _option_positions(qual: str, call: cst.Call) -> list[Position]:
    """Positional axes and options of jax.numpy functions: `jnp.sum(x, 1)`, `jnp.take(x, i, 0)`."""
    start = jax_api.OPTION_POSITIONS.get(qual.removeprefix("jax.numpy."))
    if start is None:
        return []
    positional = [a for a in call.args if a.keyword is None and not a.star]
    short = qual.replace("jax.numpy.", "jnp.")
    return [Position(a.value, f"an option of `{short}`") for a in positional[start:]]


def _slice_positions(node: cst.CSTNode) -> list[Position]:
    if type(node) is cst.FunctionDef:
        return []
    return [
        Position(part, "a slice bound")
        for inner in _in_source_order(node)
        if type(inner) is cst.Slice
        for part in (inner.lower, inner.upper, inner.step)
        if part is not None
    ]


def _index_positions(
    ctx: ModuleContext, stmt: Stmt, sources: Callable[[cst.CSTNode], set[str]]
) -> list[Position]:
    """Indexes into Python values (`shape[axis]`, `layers[i]`, `cfg[key]`): only an
    array can be indexed with a traced value. Indexes that no parameter's value reaches
    are left out before the indexed value's kind is asked for."""
    values = model(ctx)
    out: list[Position] = []
    for node in stmt.own_nodes:
        if type(node) is not cst.Subscript:
            continue
        indexes = [
            element.slice.value
            for element in node.slice
            if type(element.slice) is cst.Index and sources(element.slice.value)
        ]
        if not indexes or values.value_of(stmt, node.value).kind in (Kind.ARRAY, Kind.HOST_ARRAY):
            continue
        out += [Position(index, f"an index into `{ctx.code(node.value)}`") for index in indexes]
    return out


def _key_positions(
    ctx: ModuleContext, stmt: Stmt, sources: Callable[[cst.CSTNode], set[str]]
) -> list[Position]:
    """Keys looked up in Python containers (`table.get(k)`, `k in seen`): a container
    hashes or compares them, which a traced value cannot stand. A lookup in an array
    (`k in x`) of a JAX array is array code."""
    values = model(ctx)
    out: list[Position] = []
    for node in stmt.own_nodes:
        pairs: list[tuple[cst.BaseExpression, cst.BaseExpression]] = []
        if type(node) is cst.Call and type(node.func) is cst.Attribute and node.args:
            if node.func.attr.value in python_api.KEY_METHODS:
                pairs.append((node.args[0].value, node.func.value))
        elif type(node) is cst.Comparison:
            left: cst.BaseExpression = node.left
            for target in node.comparisons:
                if type(target.operator) in (cst.In, cst.NotIn):
                    pairs.append((left, target.comparator))
                left = target.comparator
        for key, container in pairs:
            if sources(key) and values.value_of(stmt, container).kind not in _SEARCHABLE:
                out.append(Position(key, f"a key looked up in `{ctx.code(container)}`"))
    return out


_SEARCHABLE = (Kind.ARRAY,)  # `k in x` of a JAX array is array code


def _ternary_positions(node: cst.CSTNode) -> list[Position]:
    if type(node) in (cst.FunctionDef, cst.If, cst.While):
        return []
    out: list[Position] = []
    for inner in _in_source_order(node):
        if type(inner) is cst.IfExp:
            out.append(Position(inner.test, "a conditional expression"))
        elif type(inner) is cst.BooleanOperation:
            word = "and" if type(inner.operator) is cst.And else "or"
            out.append(Position(inner.left, f"`{word}`"))
    return out


# Fields in source order, for the nodes whose dataclass lists them in another order.
_SOURCE_ORDER: dict[type, tuple[str, ...]] = {
    cst.Arg: ("keyword", "value"),
    cst.ClassDef: ("decorators", "name", "type_parameters", "bases", "keywords", "body"),
    cst.ExceptHandler: ("type", "name", "body"),
    cst.ExceptStarHandler: ("type", "name", "body"),
    cst.FunctionDef: ("decorators", "name", "type_parameters", "params", "returns", "body"),
    cst.IfExp: ("body", "test", "orelse"),
    cst.MatchCase: ("pattern", "guard", "body"),
    cst.Parameters: (
        "posonly_params", "posonly_ind", "params", "star_arg", "kwonly_params", "star_kwarg",
    ),
    cst.TypeAlias: ("name", "type_parameters", "value"),
}  # fmt: skip
_IN_ORDER = {kind: fields_extractor(order) for kind, order in _SOURCE_ORDER.items()}


def _in_source_order(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """`node` and the nodes under it in source order, nested functions left out."""
    todo = [node]
    while todo:
        current = todo.pop()
        yield current
        if current is node or type(current) is not cst.FunctionDef:
            todo.extend(reversed(_source_children(current)))


def _source_children(node: cst.CSTNode) -> list[cst.CSTNode]:
    extract = _IN_ORDER.get(type(node))
    return child_list(node) if extract is None else extract(node)


class _ArrayParams:
    """Parameters the body treats as arrays (attributes, indexing, array operators) or
    that receive arrays, asked for one at a time (a value model's answer is costly)."""

    def __init__(self, ctx: ModuleContext, fn: Function, stmts: list[Stmt]) -> None:
        self.ctx, self.fn, self.stmts = ctx, fn, stmts
        self._used: set[str] | None = None

    def has(self, param: str) -> bool:
        if self._used is None:
            self._used = {
                name
                for stmt in self.stmts
                if type(stmt.node) is not cst.FunctionDef
                for node in walk(stmt.node, lambda n: type(n) is cst.FunctionDef)
                for name in _array_uses(self.ctx, node)
            }
        return param in self._used or model(self.ctx).parameter(self.fn, param).is_arrays


def _array_uses(ctx: ModuleContext, node: cst.CSTNode) -> list[str]:
    """Names `node` uses as arrays: `x.attr`, `x[i]`, `x @ y`, array data of a JAX call."""
    if type(node) is cst.Attribute or type(node) is cst.Subscript:
        sides = [node.value]
    elif type(node) is cst.BinaryOperation and type(node.operator) is cst.MatrixMultiply:
        sides = [node.left, node.right]
    elif type(node) is cst.Call:
        sides = _array_data(ctx, node)
    else:
        return []
    return [side.value for side in sides if type(side) is cst.Name]


def _array_data(ctx: ModuleContext, call: cst.Call) -> list[cst.BaseExpression]:
    """The arguments of a jax.numpy, lax or nn call that are array data, not options."""
    qual = ctx.qualify(call.func) or ""
    if not qual.startswith(("jax.numpy.", "jax.lax.", "jax.nn.")) or qual in SHAPE_ARGS:
        return []
    data = jax_api.OPTION_POSITIONS.get(qual.removeprefix("jax.numpy."))
    positional = [a for a in call.args if a.keyword is None]
    return [
        arg.value
        for arg in positional[:data] + [a for a in call.args if a.keyword is not None]
        if arg.keyword is None or arg.keyword.value not in jax_api.PYTHON_KEYWORDS
    ]
