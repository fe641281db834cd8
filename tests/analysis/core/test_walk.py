"""The fast preorder walk over code-bearing fields."""

from __future__ import annotations

import inspect

import libcst as cst

from autoopt.analysis.core.walk import (
    _walk,
    child_fields,
    child_list,
    children,
    module_nodes,
    walk,
)


def kinds(nodes) -> list[str]:
    return [type(n).__name__ for n in nodes]


def test_walk_is_preorder_and_skips_formatting() -> None:
    expr = cst.parse_expression("f(a, c[1])")
    assert kinds(walk(expr)) == [
        "Call", "Name", "Arg", "Name", "Arg", "Subscript", "Name", "SubscriptElement",
        "Index", "Integer",
    ]  # fmt: skip


def test_prune_skips_children_but_not_the_node_or_the_root() -> None:
    expr = cst.parse_expression("f(a, c[1])")
    assert kinds(walk(expr, lambda n: isinstance(n, cst.Arg))) == ["Call", "Name", "Arg", "Arg"]
    assert kinds(walk(expr, lambda n: isinstance(n, cst.Call))) == kinds(walk(expr))


def test_walk_enters_statements_and_function_bodies() -> None:
    module = cst.parse_module("def f(x):\n    return g(x)\n")
    assert kinds(walk(module)) == [
        "Module", "FunctionDef", "Name", "Parameters", "Param", "Name", "IndentedBlock",
        "SimpleStatementLine", "Return", "Call", "Name", "Arg", "Name",
    ]  # fmt: skip


def test_child_fields_leave_out_whitespace_and_punctuation() -> None:
    assert child_fields(cst.parse_expression("f(x)")) == ("func", "args")
    assert child_fields(cst.parse_expression("a.b")) == ("value", "attr")
    line = cst.parse_statement("x = 1  # comment\n")
    assert kinds(children(line)) == ["Assign"]
    assert kinds(children(line.body[0])) == ["AssignTarget", "Integer"]


def test_a_module_walk_reuses_the_statements_of_the_module_walked_last() -> None:
    old = cst.parse_module("a = f(x)\n\ndef g(y):\n    return y\n")
    first = module_nodes(old)
    assert first == list(_walk(old, None))
    assert module_nodes(old) is first  # the same module: the same list
    new = old.with_changes(body=[cst.parse_statement("b = 1\n"), old.body[1]])
    nodes = module_nodes(new)
    assert nodes == list(_walk(new, None))
    kept = nodes.index(old.body[1])
    assert nodes[kept:] == first[first.index(old.body[1]) :]  # the kept statement's nodes
    assert kinds(walk(new)) == kinds(nodes)


def test_child_lists_match_the_dataclass_fields_that_hold_nodes() -> None:
    code = (
        "@d\nasync def f(a, /, b=1, *c, d: int, **e) -> T:\n"
        "    x[1:2, ...] = [i async for i in y if i]\n"
        "    return (lambda *, k: k)(k=1)\n"
    )
    for node in walk(cst.parse_module(code)):
        expected = []
        for name in child_fields(node):
            value = getattr(node, name)
            items = value if isinstance(value, tuple | list) else (value,)
            expected += [item for item in items if isinstance(item, cst.CSTNode)]
        assert child_list(node) == expected


def test_concrete_node_classes_have_no_subclasses() -> None:
    """The analysis tests a concrete node's class by identity (`type(n) is cst.Name`):
    LibCST's `isinstance` goes through `ABCMeta`, several times slower. That is exact
    only while no concrete node class has a subclass; a LibCST upgrade that adds one
    must fail here."""
    subclassed = {
        name: [sub.__name__ for sub in kind.__subclasses__()]
        for name in dir(cst)
        if inspect.isclass(kind := getattr(cst, name))
        and issubclass(kind, cst.CSTNode)
        and not inspect.isabstract(kind)
        and kind.__subclasses__()
    }
    assert subclassed == {}
