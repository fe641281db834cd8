"""`--include-tests` rewrites a test file's helpers but never a test function's body."""

from __future__ import annotations

from pathlib import Path

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.facts.test_functions import reached_test
from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.model import InsertAfter, InsertBefore, Replace, RequireImport
from autoopt.workspace.batch import collect
from tests.workspace.conftest import make_tree

LOOP = """\
        u = jnp.ones(4)
        total = 0.0
        for _ in range(10):
            u = step(u)
            total += float(u.sum())
"""

TEST_FILE = f"""\
import jax.numpy as jnp


def step(u):
    return jnp.tanh(u) * 0.5


def main():
    u = jnp.ones(4)
    for _ in range(10):
        u = step(u)
    return u


def test_loop():
{LOOP.replace("    ", "", 1).replace(chr(10) + "    ", chr(10))}    assert total


class TestY:
    def test_x(self):
{LOOP}

class Other:
    def run(self):
{LOOP}        return total
"""

REWRITTEN = (
    TEST_FILE.replace("import jax.numpy", "import jax\nimport jax.numpy")
    .replace("def step", "@jax.jit\ndef step")
    .replace(
        LOOP + "        return total",
        """\
        u = jnp.ones(4)
        total = 0.0
        total_parts_3 = []
        for _ in range(10):
            u = step(u)
            total_parts_3.append(u.sum())
        for value in jax.device_get(total_parts_3):
            total += float(value)
        return total""",
    )
)

SELECT = ("AO101", "AO302")


def test_helpers_are_rewritten_and_test_bodies_are_not(tmp_path: Path) -> None:
    make_tree(tmp_path, {"tests/test_m.py": TEST_FILE, "src/m.py": TEST_FILE})
    batch = collect([str(tmp_path)], Settings(select=SELECT, include_tests=True), jobs=1)
    results = {Path(o.display).parent.name: o.result for o in batch.outcomes}
    test, source = results["tests"], results["src"]
    assert test is not None and source is not None
    assert test.new_source == REWRITTEN
    held = [f for f in test.findings if "not rewritten" in f.message]
    assert [(f.rule, f.span.line) for f in held] == [("AO302", 20), ("AO302", 30)]
    assert held[0].message.endswith("; not rewritten: inside the test function `test_loop`")
    assert held[1].message.endswith("; not rewritten: inside the test function `test_x`")
    assert [f.rule for f in test.applied] == ["AO101", "AO302"]
    # outside test files, test functions are code like any other
    assert "not rewritten" not in " ".join(f.message for f in source.findings)
    assert len(source.applied) == 4


def test_without_include_tests_nothing_changes(tmp_path: Path) -> None:
    make_tree(tmp_path, {"tests/test_m.py": TEST_FILE})
    batch = collect([str(tmp_path)], Settings(select=SELECT), jobs=1)
    [outcome] = batch.outcomes
    assert outcome.result is not None and outcome.result.new_source == TEST_FILE
    assert "not rewritten" not in " ".join(f.message for f in outcome.result.findings)
    plain = optimize_source(TEST_FILE, settings=Settings(select=SELECT))
    assert [f.message for f in plain.findings] == [f.message for f in outcome.result.findings]


def test_a_fix_reaching_into_a_test_is_held_back_whole() -> None:
    code = (
        "def helper():\n    pass\n\n\ndef test_a():\n    x = 1\n\n\n"
        "class TestB:\n    def test_c(self):\n        y = 2\n"
    )
    module = cst.parse_module(code)
    ctx = ModuleContext("tests/test_a.py", code, module)
    helper, test_a, test_b = module.body
    assert isinstance(test_a, cst.FunctionDef) and isinstance(test_b, cst.ClassDef)
    x = test_a.body.body[0]
    method = test_b.body.body[0]
    assert isinstance(method, cst.FunctionDef)
    keep = Replace(helper, lambda node: node)
    before = InsertBefore(x, (cst.parse_statement("import os\n"),))
    assert reached_test(ctx, [keep, RequireImport("jax")]) is None
    assert reached_test(ctx, [InsertBefore(test_a, before.statements)]) is None  # beside it
    assert reached_test(ctx, [keep, before]) is test_a  # one edit inside: the whole fix
    assert reached_test(ctx, [InsertAfter(method.body.body[0], before.statements)]) is method
    assert reached_test(ctx, [Replace(test_b, lambda node: node)]) is method  # holds a test
    assert reached_test(ctx, [Replace(test_a, lambda node: node)]) is test_a  # a decorator
    ctx.release()
