"""Edits applied by node identity in one pass: composition, insertion, comments, imports."""

from __future__ import annotations

import textwrap

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.model import InsertAfter, InsertBefore, Replace, RequireImport
from autoopt.rewrite.apply import apply_edits

SOURCE = """\
import numpy as np

x = 1

# set up y
y = f(x)  # trailing
z = y
"""


def module() -> cst.Module:
    return cst.parse_module(SOURCE)


def line(m: cst.Module, index: int) -> cst.SimpleStatementLine:
    node = m.body[index]
    assert isinstance(node, cst.SimpleStatementLine)
    return node


def call_of(m: cst.Module) -> cst.Call:
    value = line(m, 2).body[0].value
    assert isinstance(value, cst.Call)
    return value


def add_arg(text: str):
    def transform(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Call)
        return node.with_changes(args=[*node.args, cst.Arg(cst.parse_expression(text))])

    return transform


def test_two_edits_on_one_node_compose_in_order() -> None:
    m = module()
    call = call_of(m)
    out = apply_edits(m, [Replace(call, add_arg("a")), Replace(call, add_arg("b"))])
    assert out.code == SOURCE.replace("f(x)", "f(x, a, b)")


def test_a_parent_transform_sees_its_rewritten_children() -> None:
    m = module()
    call = call_of(m)
    seen = []

    def rename(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.Call)
        seen.append(cst.Module([]).code_for_node(node))
        return node.with_changes(func=cst.Name("g"))

    edits = [Replace(call, rename), Replace(call.args[0].value, lambda _n: cst.Name("w"))]
    out = apply_edits(m, edits)
    assert seen == ["f(w)"]
    assert out.code == SOURCE.replace("f(x)", "g(w)")


def test_inserted_statements_take_over_the_comments_above_their_anchor() -> None:
    m = module()
    anchor = line(m, 2)
    before = (cst.parse_statement("w = 0\n"), cst.parse_statement("u = 1\n"))
    out = apply_edits(m, [InsertBefore(anchor, before)])
    assert out.code == textwrap.dedent(
        """\
        import numpy as np

        x = 1

        # set up y
        w = 0
        u = 1
        y = f(x)  # trailing
        z = y
        """
    )


def test_statements_inserted_after_leave_the_comments_where_they_were() -> None:
    m = module()
    out = apply_edits(m, [InsertAfter(line(m, 2), (cst.parse_statement("v = 2\n"),))])
    assert out.code == SOURCE.replace("# trailing\n", "# trailing\nv = 2\n")


def test_the_same_statement_inserted_by_two_fixes_appears_once() -> None:
    m = module()
    anchor = line(m, 3)
    shared = cst.parse_statement("import os\n")
    twin = cst.parse_statement("import os\n")  # equal, but another fix's own statement
    out = apply_edits(m, [InsertBefore(anchor, (shared,)), InsertBefore(anchor, (shared, twin))])
    assert out.code == SOURCE.replace("z = y", "import os\nimport os\n\nz = y")
    out = apply_edits(m, [InsertAfter(anchor, (shared,)), InsertAfter(anchor, (shared,))])
    assert out.code == SOURCE.replace("z = y", "z = y\nimport os")


def test_a_removed_node_takes_no_further_transform_and_can_move() -> None:
    m = module()
    moved = line(m, 2)

    def fail(_node: cst.CSTNode) -> cst.CSTNode:
        raise AssertionError("called after removal")

    edits = [
        Replace(moved, lambda _n: cst.RemovalSentinel.REMOVE),
        Replace(moved, fail),
        InsertBefore(line(m, 1), (moved,)),  # the AO102/AO701 move: its comment goes along
    ]
    # the blank line above `x = 1` now opens the inserted block, above the moved comment;
    # below the imports one blank line, as isort wants
    assert apply_edits(m, edits).code == textwrap.dedent(
        """\
        import numpy as np

        # set up y
        y = f(x)  # trailing
        x = 1
        z = y
        """
    )


def test_required_imports_are_added_once() -> None:
    m = module()
    out = apply_edits(m, [RequireImport("jax"), RequireImport("jax"), RequireImport("os")])
    assert out.code == SOURCE.replace(
        "import numpy as np\n", "import os\n\nimport jax\nimport numpy as np\n"
    )


def test_no_edits_give_the_same_code() -> None:
    assert apply_edits(module(), []).code == SOURCE


def test_statements_without_an_edit_stay_the_same_objects() -> None:
    m = module()
    out = apply_edits(m, [Replace(call_of(m), add_arg("a"))])
    assert [out.body[i] is m.body[i] for i in range(4)] == [True, True, False, True]
    assert out.code == SOURCE.replace("f(x)", "f(x, a)")


def test_a_target_among_the_formatting_nodes_is_still_edited() -> None:
    m = module()
    space = call_of(m).whitespace_before_args
    out = apply_edits(m, [Replace(space, lambda _n: cst.SimpleWhitespace(" "))])
    assert out.code == SOURCE.replace("f(x)", "f( x)")


def test_the_analysis_ancestors_lead_to_the_same_edit_as_a_walk() -> None:
    m = module()
    ctx = ModuleContext("<test>", SOURCE, m)
    edits = [Replace(call_of(m), add_arg("a")), InsertBefore(line(m, 3), (line(m, 1),))]
    with_ancestors = apply_edits(m, edits, ctx.ancestors)
    assert with_ancestors.code == apply_edits(m, edits).code
    assert with_ancestors.body[1] is m.body[1]


def test_a_target_the_analysis_does_not_hold_falls_back_to_a_walk() -> None:
    m = module()
    ctx = ModuleContext("<test>", SOURCE, m)
    space = call_of(m).whitespace_before_args
    out = apply_edits(m, [Replace(space, lambda _n: cst.SimpleWhitespace(" "))], ctx.ancestors)
    assert out.code == SOURCE.replace("f(x)", "f( x)")
