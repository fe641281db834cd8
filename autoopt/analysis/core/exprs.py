"""Small, pure questions about one expression: which names it reads, binds or mutates."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import libcst as cst

from autoopt.analysis.core.walk import child_list, walk
from autoopt.analysis.overlays import numpy as numpy_api
from autoopt.analysis.overlays import python as python_api

#: Methods that change the object they are called on (lists, dicts, sets, numpy arrays).
MUTATING_METHODS = python_api.MUTATING_METHODS | numpy_api.MUTATING_METHODS


# LibCST's node classes below have no subclasses: an exact type test answers isinstance,
# without the cost of an isinstance check against their abstract base classes.
_COMPREHENSIONS = frozenset({cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp})


def _reads(node: cst.CSTNode, bound: frozenset[str], out: list[cst.Name]) -> None:
    """Append the Name nodes `node` reads, minus names bound by lambdas/comprehensions."""
    if type(node) is cst.Name:
        if node.value not in bound:
            out.append(node)
    elif type(node) is cst.Attribute or type(node) is cst.Arg:
        _reads(node.value, bound, out)
    elif type(node) is cst.Lambda:
        for param in _all_params(node.params):
            if param.default is not None:
                _reads(param.default, bound, out)
        inner = bound | {p.name.value for p in _all_params(node.params)}
        _reads(node.body, inner, out)
    elif type(node) in _COMPREHENSIONS:
        _comprehension_reads(node, bound, out)
    else:
        for child in child_list(node):
            _reads(child, bound, out)


def _comprehension_reads(node: cst.CSTNode, bound: frozenset[str], out: list[cst.Name]) -> None:
    for_in: cst.CompFor | None = node.for_in  # type: ignore[attr-defined]  # a comprehension
    inner = bound
    while for_in is not None:
        _reads(for_in.iter, inner, out)
        inner = inner | set(bound_names(for_in.target))
        for cond in for_in.ifs:
            _reads(cond.test, inner, out)
        for_in = for_in.inner_for_in
    parts = (node.key, node.value) if type(node) is cst.DictComp else (node.elt,)  # type: ignore[attr-defined]  # not a DictComp: elt
    for part in parts:
        _reads(part, inner, out)


def _all_params(params: cst.Parameters) -> Iterator[cst.Param]:
    yield from params.posonly_params
    yield from params.params
    yield from params.kwonly_params
    if type(params.star_arg) is cst.Param:
        yield params.star_arg
    if params.star_kwarg is not None:
        yield params.star_kwarg


def positional_names(params: cst.Parameters) -> list[str]:
    """The parameters a call may pass by position, in order (positional-only first)."""
    return [p.name.value for p in (*params.posonly_params, *params.params)]


def param_names(params: cst.Parameters) -> list[str]:
    """Every parameter name, in order (positional, *args, keyword-only, **kwargs): the
    index of a positional one is its position in a call, and only theirs are."""
    names = positional_names(params)
    if type(params.star_arg) is cst.Param:
        names.append(params.star_arg.name.value)
    names += [p.name.value for p in params.kwonly_params]
    if params.star_kwarg is not None:
        names.append(params.star_kwarg.name.value)
    return names


def read_names(node: cst.CSTNode) -> list[cst.Name]:
    """Name nodes read by `node` (attribute names and keyword names excluded)."""
    out: list[cst.Name] = []
    _reads(node, frozenset(), out)
    return out


def bound_names(target: cst.BaseExpression) -> Iterator[str]:
    """Names bound by an assignment target (`a`, `a, (b, *c)`), not subscripts."""
    if type(target) is cst.Name:
        yield target.value
    elif type(target) is cst.Tuple or type(target) is cst.List:
        for element in target.elements:
            yield from bound_names(element.value)
    elif type(target) is cst.StarredElement:
        yield from bound_names(target.value)


def base_name(node: cst.BaseExpression) -> str | None:
    """The variable at the root of `a.b[c].d`, or None."""
    while type(node) is cst.Attribute or type(node) is cst.Subscript:
        node = node.value
    return node.value if type(node) is cst.Name else None


def mutated_names(target: cst.BaseExpression) -> Iterator[str]:
    """Variables whose object an assignment target changes (`a[i] = .`, `a.x = .`)."""
    if type(target) in (cst.Attribute, cst.Subscript):
        name = base_name(target)
        if name is not None:
            yield name
    elif type(target) is cst.Tuple or type(target) is cst.List:
        for element in target.elements:
            yield from mutated_names(element.value)
    elif type(target) is cst.StarredElement:
        yield from mutated_names(target.value)


def written_roots(target: cst.BaseExpression) -> Iterator[str]:
    """The variables whose objects writing into `target` changes: its root, or each
    element's of a tuple or list of outputs (`out=(q, r)`)."""
    if type(target) is cst.Tuple or type(target) is cst.List:
        for element in target.elements:
            yield from written_roots(element.value)
        return
    name = base_name(target)
    if name is not None:
        yield name


def is_at_update(func: cst.BaseExpression) -> bool:
    """`x.at[i].set` / `.add` / ...: JAX's functional update, not a mutation."""
    return (
        type(func) is cst.Attribute
        and type(func.value) is cst.Subscript
        and type(func.value.value) is cst.Attribute
        and func.value.value.attr.value == "at"
    )


def mutating_call_target(call: cst.Call) -> str | None:
    """`lst.append(x)` -> "lst"; None for calls that do not mutate their receiver."""
    func = call.func
    if type(func) is not cst.Attribute or func.attr.value not in MUTATING_METHODS:
        return None
    if is_at_update(func):
        return None
    return base_name(func.value)


def numpy_written(qual: str, call: cst.Call) -> list[cst.BaseExpression] | None:
    """The arguments the NumPy call `qual` (`numpy.multiply`) writes into, by the tables of
    `overlays/numpy.py`: the `out=` keyword, a ufunc's positional arguments after its
    inputs, another function's `out` by position, the first argument of an in-place
    function (`np.copyto`, `np.subtract.at`) or method (`np.ndarray.fill(a, v)`). None
    where the tables do not reach (a name deeper than a function of OUT_MODULES, an array
    method they do not list): any of them."""
    positional = [a.value for a in call.args if a.keyword is None]
    module, _, name = qual.rpartition(".")
    head = module.rpartition(".")[2]
    in_place = name == "at" and head in numpy_api.UFUNC_INPUTS
    if qual in numpy_api.MUTATING_FUNCTIONS or in_place or _not_copied(qual, call.args):
        return _out_keyword(call.args) + positional[:1]
    if module == "numpy.ndarray":  # `np.ndarray.fill(a, v)`: the method, its array first
        rest = method_written(name, call.args[1:])
        first = positional[:1] if name in MUTATING_METHODS else []
        return None if rest is None else first + rest
    if head in numpy_api.UFUNC_INPUTS and name in numpy_api.UFUNC_METHOD_OUT:
        return _out_keyword(call.args) + _at(positional, numpy_api.UFUNC_METHOD_OUT[name])
    if module not in numpy_api.OUT_MODULES:
        return None
    if module == "numpy" and name in numpy_api.UFUNC_INPUTS:
        return _out_keyword(call.args) + positional[numpy_api.UFUNC_INPUTS[name] :]
    return _out_keyword(call.args) + _at(
        positional, numpy_api.OUT_POSITIONS.get(qual.removeprefix("numpy."))
    )


def method_written(name: str, args: Sequence[cst.Arg]) -> list[cst.BaseExpression] | None:
    """The arguments of the array method `name` (receiver aside) it writes into: its `out`,
    by keyword or position; None for a method NumPy's tables do not list (any of them)."""
    if name not in numpy_api.ARRAY_METHODS:
        return None
    positional = [a.value for a in args if a.keyword is None]
    return _out_keyword(args) + _at(positional, numpy_api.METHOD_OUT_POSITIONS.get(name))


def _not_copied(qual: str, args: Sequence[cst.Arg]) -> bool:
    """`np.nan_to_num(x, copy=False)`: told, by keyword or position, how to copy (anything
    but a literal `True` may be false)."""
    at = numpy_api.COPY_POSITIONS.get(qual)
    if at is None:
        return False
    positional = [a.value for a in args if a.keyword is None]
    given = [a.value for a in args if a.keyword is not None and a.keyword.value == "copy"]
    given += _at(positional, at)
    return any(not (type(v) is cst.Name and v.value == "True") for v in given)


def _out_keyword(args: Sequence[cst.Arg]) -> list[cst.BaseExpression]:
    return [a.value for a in args if a.keyword is not None and a.keyword.value == "out"]


def _at(values: list[cst.BaseExpression], index: int | None) -> list[cst.BaseExpression]:
    return values[index : index + 1] if index is not None else []


_NESTED_SCOPES = frozenset({cst.FunctionDef, cst.Lambda, cst.ClassDef})


def scope_nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    """`node` and every node under it, preorder, not descending into nested definitions
    and lambdas (by type: `isinstance` on LibCST's abstract node classes is several times
    slower, and its concrete classes have no subclasses). A list built in one loop: the
    graph walks every statement so."""
    found = [node]
    stack = child_list(node)
    stack.reverse()
    while stack:
        current = stack.pop()
        found.append(current)
        if type(current) not in _NESTED_SCOPES:
            inner = child_list(current)
            inner.reverse()
            stack += inner
    return found


def calls_in(node: cst.CSTNode) -> list[cst.Call]:
    """Every call inside `node`, outermost first, not descending into nested defs."""
    return [n for n in scope_nodes(node) if type(n) is cst.Call]


def has_comprehension(node: cst.CSTNode) -> bool:
    """Whether `node` holds a comprehension (its calls then run once per element)."""
    return calls_and_comprehension(node)[1]


def calls_and_comprehension(node: cst.CSTNode) -> tuple[list[cst.Call], bool, list[str]]:
    """`calls_in(node)`, `has_comprehension(node)` and the names its assignment
    expressions bind (`(y := f(x))`, also inside a comprehension, whose walrus binds in
    the enclosing scope), in one walk."""
    nodes = scope_nodes(node)
    calls = [n for n in nodes if type(n) is cst.Call]
    walrus = [
        n.target.value for n in nodes if type(n) is cst.NamedExpr and type(n.target) is cst.Name
    ]
    return calls, any(type(n) is cst.CompFor for n in nodes), walrus


def pattern_captures(pattern: cst.MatchPattern) -> Iterator[cst.Name]:
    """The names a `match` case's pattern binds: captures (`case (x, y)`, `case _ as x`),
    star captures (`case [a, *rest]`) and a mapping's rest (`case {**rest}`)."""
    for node in walk(pattern):
        if type(node) is cst.MatchAs or type(node) is cst.MatchStar:
            if node.name is not None:
                yield node.name
        elif type(node) is cst.MatchMapping and node.rest is not None:
            yield node.rest


def pattern_reads(case: cst.MatchCase) -> list[cst.BaseExpression]:
    """What a `match` case evaluates besides its captures: value patterns
    (`case Mode.FAST:`), class patterns' classes, and the guard."""
    reads: list[cst.BaseExpression] = [
        n.value for n in walk(case.pattern) if type(n) is cst.MatchValue
    ]
    reads += [n.cls for n in walk(case.pattern) if type(n) is cst.MatchClass]
    if case.guard is not None:
        reads.append(case.guard)
    return reads


def evaluated_exprs(node: cst.CSTNode) -> list[cst.CSTNode]:
    """The expressions a statement node evaluates itself (a loop header: not its body)."""
    if type(node) is cst.For:
        return [node.iter]
    if type(node) is cst.While or type(node) is cst.If:
        return [node.test]
    if type(node) is cst.FunctionDef:
        return [d.decorator for d in node.decorators]
    if type(node) is cst.With:
        return [item.item for item in node.items]
    if type(node) is cst.Match:
        return [node.subject]
    if type(node) is cst.ClassDef:
        return []
    return [node]


def is_literal(expr: cst.BaseExpression) -> bool:
    """A value written out where it is used, which holds no array: a number, a string
    (f-strings too), `True`/`False`/`None`, arithmetic on them, or a tuple or list of them."""
    return _written_out(expr, constant=False)


def is_constant(expr: cst.BaseExpression) -> bool:
    """A literal no code can change and every evaluation gives again: as `is_literal`
    without lists (a name bound to one may have an array appended later, and a static
    argument must hash) and without f-strings (they read names)."""
    return _written_out(expr, constant=True)


def _written_out(expr: cst.BaseExpression, constant: bool) -> bool:
    if isinstance(expr, cst.Tuple) or (isinstance(expr, cst.List) and not constant):
        items = expr.elements
        return all(type(e) is cst.Element and _written_out(e.value, constant) for e in items)
    if isinstance(expr, cst.UnaryOperation):
        return _written_out(expr.expression, constant)
    if isinstance(expr, cst.BinaryOperation | cst.ConcatenatedString):
        return _written_out(expr.left, constant) and _written_out(expr.right, constant)
    if isinstance(expr, cst.Name):
        return expr.value in ("True", "False", "None")
    if isinstance(expr, cst.FormattedString):
        return not constant
    return isinstance(expr, cst.BaseNumber | cst.SimpleString)
