"""New code follows the file's style: quotes, the line length, blank lines below imports."""

from __future__ import annotations

import libcst as cst

from autoopt.model import InsertBefore, Replace
from autoopt.rewrite.apply import apply_edits

LONG_CALL = "result = combine(first_argument, second_argument, third_argument, fourth_one)"


def insert_above_last(source: str, code: str, line_length: int = 88) -> str:
    module = cst.parse_module(source)
    edit = InsertBefore(module.body[-1], (cst.parse_statement(code),))
    return apply_edits(module, [edit], line_length=line_length).code


def test_new_strings_take_the_files_single_quotes() -> None:
    source = "a = {'k': 'v'}\nb = 'w'\nz = 1\n"
    out = insert_above_last(source, 'c = f("x", key="it\'s", raw=r"\\d")\n')
    assert out == source.replace("z = 1", "c = f('x', key=\"it's\", raw=r'\\d')\nz = 1")


def test_double_quotes_stay_where_the_file_prefers_them() -> None:
    source = "a = \"v\"\nb = 'w'\nz = 1\n"
    assert insert_above_last(source, 'c = f("x")\n') == source.replace("z = 1", 'c = f("x")\nz = 1')


def test_only_new_lines_are_wrapped_at_the_line_length() -> None:
    old_long = "kept = " + " + ".join(["value"] * 12)  # 91 columns, left as it is
    source = f"{old_long}\nz = 1\n"
    out = insert_above_last(source, LONG_CALL + "\n", line_length=64)
    assert out == (
        f"{old_long}\nresult = combine(\n"
        "    first_argument, second_argument, third_argument, fourth_one\n)\nz = 1\n"
    )
    assert insert_above_last(source, LONG_CALL + "\n", line_length=88) == (
        f"{old_long}\n{LONG_CALL}\nz = 1\n"
    )


def test_a_wrapped_line_in_a_block_counts_its_indentation() -> None:
    source = "def f():\n    z = 1\n"
    module = cst.parse_module(source)
    body = module.body[0].body.body  # type: ignore[attr-defined]
    edit = InsertBefore(body[0], (cst.parse_statement(LONG_CALL + "  # why\n"),))
    assert apply_edits(module, [edit], line_length=80).code == (
        "def f():\n    result = combine(\n"
        "        first_argument, second_argument, third_argument, fourth_one\n"
        "    )  # why\n    z = 1\n"
    )


def test_a_long_decorator_and_test_of_new_code_are_wrapped() -> None:
    helper = (
        '@functools.partial(jax.jit, static_argnames=("peel",), donate_argnames=("a", "b"))\n'
        "def helper(a, b, peel=False):\n"
        "    if shape_of(evaluate(helper, a, b)[0]) == shape_of(evaluate(helper, b, a)[1]):\n"
        "        return a\n"
        "    return b\n"
    )
    out = insert_above_last("z = 1\n", helper, line_length=70)
    assert out == (
        "@functools.partial(\n"
        '    jax.jit, static_argnames=("peel",), donate_argnames=("a", "b")\n'
        ")\n"
        "def helper(a, b, peel=False):\n"
        "    if shape_of(evaluate(helper, a, b)[0]) == shape_of(\n"
        "        evaluate(helper, b, a)[1]\n"
        "    ):\n"
        "        return a\n"
        "    return b\n"
        "z = 1\n"
    )


def test_imports_newly_together_follow_isort_and_code_below_gets_a_blank_line() -> None:
    source = "import os\nimport sys\n\n# note\nx = 1\n"
    module = cst.parse_module(source)
    moved = module.body[1]
    edits = [
        Replace(moved, lambda _n: cst.RemovalSentinel.REMOVE),
        InsertBefore(module.body[0], (cst.parse_statement("y = 2\n"), moved)),
    ]
    assert apply_edits(module, edits).code == "y = 2\nimport sys\nimport os\n\n# note\nx = 1\n"


def test_an_import_moved_next_to_its_section_joins_it() -> None:
    source = '"""Doc."""\n\nimport multiprocessing\n\nimport jax\n'
    module = cst.parse_module(source)
    setting = cst.parse_statement('os.environ.setdefault("A", "1")\n')
    os_line = cst.parse_statement("import os\n")
    edit = InsertBefore(module.body[2], (os_line, setting))
    assert apply_edits(module, [edit]).code == (
        '"""Doc."""\n\nimport multiprocessing\nimport os\n\n'
        'os.environ.setdefault("A", "1")\nimport jax\n'
    )
