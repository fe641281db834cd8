"""Small, pure questions about one expression: which names it reads, binds or mutates."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from autoopt.analysis.names import dotted

#: Methods that change the object they are called on (lists, dicts, sets, numpy arrays).
MUTATING_METHODS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "pop",
        "popitem",
        "remove",
        "clear",
        "update",
        "setdefault",
        "sort",
        "reverse",
        "add",
        "discard",
        "fill",
        "resize",
        "put",
        "itemset",
        "__setitem__",
    }
)


class _NameReader(cst.CSTVisitor):
    """Collects names read in Load position, skipping attribute names and keywords."""

    def __init__(self) -> None:
        self.names: list[cst.Name] = []
        self._bound: list[set[str]] = []

    def visit_Name(self, node: cst.Name) -> None:
        if not any(node.value in bound for bound in self._bound):
            self.names.append(node)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._bound.append({p.name.value for p in _all_params(node.params)})

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self._bound.pop()

    def visit_CompFor(self, node: cst.CompFor) -> bool:
        node.iter.visit(self)
        self._bound.append(set(bound_names(node.target)))
        for cond in node.ifs:
            cond.visit(self)
        if node.inner_for_in is not None:
            node.inner_for_in.visit(self)
        return False

    def leave_ListComp(self, original_node: cst.ListComp) -> None:
        self._pop_comp(original_node.for_in)

    def leave_SetComp(self, original_node: cst.SetComp) -> None:
        self._pop_comp(original_node.for_in)

    def leave_GeneratorExp(self, original_node: cst.GeneratorExp) -> None:
        self._pop_comp(original_node.for_in)

    def leave_DictComp(self, original_node: cst.DictComp) -> None:
        self._pop_comp(original_node.for_in)

    def visit_ListComp(self, node: cst.ListComp) -> bool:
        return self._comp(node.for_in, node.elt)

    def visit_SetComp(self, node: cst.SetComp) -> bool:
        return self._comp(node.for_in, node.elt)

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> bool:
        return self._comp(node.for_in, node.elt)

    def visit_DictComp(self, node: cst.DictComp) -> bool:
        node.for_in.visit(self)
        node.key.visit(self)
        node.value.visit(self)
        return False

    def _comp(self, for_in: cst.CompFor, elt: cst.BaseExpression) -> bool:
        for_in.visit(self)
        elt.visit(self)
        return False

    def _pop_comp(self, for_in: cst.CompFor) -> None:
        depth = 1
        inner = for_in.inner_for_in
        while inner is not None:
            depth += 1
            inner = inner.inner_for_in
        del self._bound[len(self._bound) - depth :]


def _all_params(params: cst.Parameters) -> Iterator[cst.Param]:
    yield from params.posonly_params
    yield from params.params
    yield from params.kwonly_params
    if isinstance(params.star_arg, cst.Param):
        yield params.star_arg
    if params.star_kwarg is not None:
        yield params.star_kwarg


def param_names(params: cst.Parameters) -> list[str]:
    """Every parameter name, in order (positional, *args, keyword-only, **kwargs)."""
    return [p.name.value for p in _all_params(params)]


def read_names(node: cst.CSTNode) -> list[cst.Name]:
    """Name nodes read by `node` (attribute names and keyword names excluded)."""
    reader = _NameReader()
    node.visit(reader)
    return reader.names


def bound_names(target: cst.BaseExpression) -> Iterator[str]:
    """Names bound by an assignment target (`a`, `a, (b, *c)`), not subscripts."""
    if isinstance(target, cst.Name):
        yield target.value
    elif isinstance(target, cst.Tuple | cst.List):
        for element in target.elements:
            yield from bound_names(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from bound_names(target.value)


def base_name(node: cst.BaseExpression) -> str | None:
    """The variable at the root of `a.b[c].d`, or None."""
    while isinstance(node, cst.Attribute | cst.Subscript):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def mutated_names(target: cst.BaseExpression) -> Iterator[str]:
    """Variables whose object an assignment target changes (`a[i] = .`, `a.x = .`)."""
    if isinstance(target, cst.Attribute | cst.Subscript):
        name = base_name(target)
        if name is not None:
            yield name
    elif isinstance(target, cst.Tuple | cst.List):
        for element in target.elements:
            yield from mutated_names(element.value)
    elif isinstance(target, cst.StarredElement):
        yield from mutated_names(target.value)


def is_at_update(func: cst.BaseExpression) -> bool:
    """`x.at[i].set` / `.add` / ...: JAX's functional update, not a mutation."""
    return (
        isinstance(func, cst.Attribute)
        and isinstance(func.value, cst.Subscript)
        and isinstance(func.value.value, cst.Attribute)
        and func.value.value.attr.value == "at"
    )


def mutating_call_target(call: cst.Call) -> str | None:
    """`lst.append(x)` -> "lst"; None for calls that do not mutate their receiver."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in MUTATING_METHODS:
        return None
    if is_at_update(func):
        return None
    return base_name(func.value)


def calls_in(node: cst.CSTNode) -> list[cst.Call]:
    """Every call inside `node`, outermost first, not descending into nested defs."""
    found: list[cst.Call] = []

    class Visitor(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            found.append(call)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

        def visit_Lambda(self, node: cst.Lambda) -> bool:
            return False

    node.visit(Visitor())
    return found


def callee_name(call: cst.Call) -> str | None:
    """The dotted name of what is called (`jnp.zeros`, `step`), or None."""
    return dotted(call.func)
