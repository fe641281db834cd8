"""The pipeline end to end through the Python API: suppression, imports, idempotency."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt import Settings, apply_fixes, optimize_source
from autoopt.api import check_source
from autoopt.model import Applicability, AutooptError

JIT = Settings(select=("AO101",))

STEP = """\
import jax.numpy as jnp

def step(u):
    return jnp.tanh(u) * 0.5{comment}

for _ in range(10):
    u = step(u)
"""


def test_suppression_comment_silences_the_finding() -> None:
    code = STEP.format(comment="").replace("def step(u):", "def step(u):  # autoopt: ignore[AO101]")
    assert optimize_source(code, settings=JIT).findings == []


def test_suppression_of_another_rule_keeps_the_finding() -> None:
    code = STEP.format(comment="").replace("def step(u):", "def step(u):  # autoopt: ignore[AO7]")
    assert [f.rule for f in optimize_source(code, settings=JIT).findings] == ["AO101"]


def test_bare_ignore_silences_everything_on_the_line() -> None:
    code = STEP.format(comment="").replace("def step(u):", "def step(u):  # autoopt: ignore")
    assert optimize_source(code, settings=JIT).findings == []


def test_ignore_text_inside_a_string_is_not_a_comment() -> None:
    code = STEP.format(comment="").replace("def step(u):", 'def step(u, note="# autoopt: ignore"):')
    assert [f.rule for f in optimize_source(code, settings=JIT).findings] == ["AO101"]


def test_select_and_ignore_by_prefix() -> None:
    code = STEP.format(comment="")
    assert optimize_source(code, settings=Settings(select=("AO7",))).findings == []
    assert optimize_source(code, settings=Settings(ignore=("AO1", "AO2"))).findings == []
    assert len(optimize_source(code, settings=Settings(select=("AO1",))).findings) == 1


def test_rewrite_adds_import_jax_keeps_comments_and_is_idempotent() -> None:
    code = STEP.format(comment="  # damped")
    result = optimize_source(code, settings=JIT)
    assert result.new_source == (
        "import jax\n"
        "import jax.numpy as jnp\n\n\n"  # the changed def two lines below the imports
        "@jax.jit\n"
        "def step(u):\n"
        "    return jnp.tanh(u) * 0.5  # damped\n\n"
        "for _ in range(10):\n"
        "    u = step(u)\n"
    )
    assert optimize_source(result.new_source, settings=JIT).new_source == result.new_source


def test_finding_fields_are_exact() -> None:
    (finding,) = optimize_source(STEP.format(comment=""), settings=JIT).findings
    assert (finding.rule, finding.name, finding.fix) == ("AO101", "missing-jit", Applicability.SAFE)
    assert (finding.span.line, finding.span.column) == (3, 5)
    assert (finding.span.end_line, finding.span.end_column) == (3, 9)
    assert finding.message == "`step` is called in a loop without `jax.jit`: add `@jax.jit`"
    assert finding.to_json()["fix"] == "safe"


def test_unsafe_fixes_only_with_the_option() -> None:
    code = """\
import jax.numpy as jnp

def head(x, k):
    return jnp.abs(x[:k])

def run(x, k):
    for _ in range(3):
        x = head(x, k)

run(jnp.ones(8), int(input()))
"""
    plain = optimize_source(code, settings=JIT)
    assert [f.fix for f in plain.findings] == [Applicability.UNSAFE]
    assert plain.new_source == code
    assert optimize_source(code, settings=JIT.merged(unsafe_fixes=True)).changed


def test_apply_fixes_matches_findings_from_an_earlier_run() -> None:
    code = STEP.format(comment="")
    findings = [f.detached() for f in optimize_source(code, settings=JIT).findings]
    assert apply_fixes(code, findings) == optimize_source(code, settings=JIT).new_source
    assert apply_fixes(code, []) == code


def test_syntax_error_names_the_path_and_line() -> None:
    with pytest.raises(AutooptError) as info:
        optimize_source("import jax\n\ndef f(:\n    pass\n", path="bad.py")
    assert info.value.path == "bad.py"
    assert info.value.line == 3
    assert str(info.value).startswith("bad.py:3: syntax error")


def test_files_without_jax_are_skipped_cheaply() -> None:
    module, findings = check_source("import numpy as np\nx = np.ones(3)\n")
    assert findings == []
    assert isinstance(module, cst.Module)


@pytest.mark.parametrize(
    "code",
    [
        "import jax\ntype Vec = list[float]\n",
        "import jax\ndef first[T](xs: list[T]) -> T:\n    return xs[0]\n",
        "import jax\nmatch x:\n    case [a, b]:\n        y = a\n    case _:\n        y = 0\n",
        'import jax\nname = "x"\nprint(f"{f"{name!r}"}")\n',
        "import jax\ntry:\n    pass\nexcept* ValueError:\n    pass\n",
    ],
    ids=["type-statement", "pep695-generic", "match", "nested-fstring", "except-star"],
)
def test_newer_syntax_is_analysed_not_crashed_on(code: str) -> None:
    result = optimize_source(code)
    assert result.new_source == code


def test_one_line_loop_bodies_and_semicolons_are_analysed_not_crashed_on() -> None:
    code = """
import jax
import jax.numpy as jnp

@jax.jit
def f(x):
    return x * 2

def main(x):
    losses = []
    for i in range(4): x = x.at[i].set(1.0)
    for i in range(3): x = f(x); losses.append(float(x[0]))
    out = jnp.zeros((0, 3))
    for t in range(3): out = jnp.concatenate([out, jnp.ones((1, 3))])
    for t in range(3): out = jnp.concatenate([out[:t], jnp.ones((1, 3)), out[t + 1:]])
    y = x.at[0].set(2.0); z = jnp.asarray(y)
    return x, losses, out, z
"""
    result = optimize_source(code, settings=Settings(unsafe_fixes=True))
    assert {f.rule for f in result.findings} == {"AO201", "AO302"}
    cst.parse_module(result.new_source)  # whatever was fixed is still valid Python


def test_the_cycle_collector_is_paused_only_while_a_module_is_analysed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import gc

    from autoopt import api

    seen: list[bool] = []
    parse = api.parse

    def watched(text: str, path: str = "<string>") -> cst.Module:
        seen.append(gc.isenabled())
        return parse(text, path)

    monkeypatch.setattr(api, "parse", watched)
    code = STEP.format(comment="")
    try:
        assert gc.isenabled()
        check_source(code)
        assert gc.isenabled() and seen == [False]
        with pytest.raises(AutooptError):
            check_source("def (:\n")
        assert gc.isenabled()  # restored after an error too
        gc.disable()  # a caller that paused it keeps it paused
        check_source(code)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_analysing_many_modules_keeps_none_of_their_trees() -> None:
    import gc

    def program(i: int) -> str:
        return STEP.format(comment="").replace("step", f"step{i}") + f"v{i} = [u[0] * {i}]\n"

    check_source(program(0))  # caches that fill once per process
    gc.collect()
    before = len(gc.get_objects())
    for i in range(1, 41):
        module, findings = check_source(program(i))
        assert [f.rule for f in findings] == ["AO101", "AO201"]
        del module, findings
    gc.collect()
    assert len(gc.get_objects()) - before < 200  # a tree of each would be thousands


HOISTED = """\
import jax.numpy as jnp
import numpy as np


def main():
    host = np.arange(12, dtype=np.float64).reshape(3, 4)
    acc = jnp.zeros(4)
    for i in range(5):
        d = jnp.asarray(host)
        acc = acc + d[0] * d[2]
    return acc
"""


def test_a_fix_that_unblocks_another_is_applied_in_the_same_run() -> None:
    """AO301's hoist leaves a loop AO103 compiles: the first pass cannot prove it (its
    finding offers no fix), the second pass on the hoisted code does."""
    (_, first) = check_source(HOISTED)
    assert [(f.rule, f.span.line, f.fix) for f in first] == [
        ("AO103", 8, Applicability.NONE),
        ("AO301", 9, Applicability.SAFE),
    ]
    result = optimize_source(HOISTED)
    assert [(f.rule, f.span.line, f.fix) for f in result.findings] == [
        ("AO103", 8, Applicability.SAFE),
        ("AO301", 9, Applicability.SAFE),
    ]
    assert [f.rule for f in result.applied] == ["AO301", "AO103"]
    assert "    host_dev = jax.device_put(host)\n    acc = _main_loop(acc, host_dev)\n" in (
        result.new_source
    )
    assert optimize_source(result.new_source).new_source == result.new_source
    assert apply_fixes(HOISTED, result.applied) == result.new_source
    detached = [f.detached() for f in result.applied]
    assert apply_fixes(HOISTED, detached) == result.new_source


def test_a_later_fix_alone_changes_nothing() -> None:
    """A fix a later pass found needs the earlier ones: asked for alone it is not there."""
    result = optimize_source(HOISTED)
    (step,) = [f for f in result.applied if f.rule == "AO103"]
    assert apply_fixes(HOISTED, [step]) == HOISTED


def test_text_edits_of_every_pass_give_the_fixed_code() -> None:
    result = optimize_source(HOISTED)
    text = HOISTED
    lines = text.splitlines(keepends=True)
    starts = [sum(len(line) for line in lines[:i]) for i in range(len(lines) + 1)]
    edits = sorted(
        (starts[e.span.line - 1] + e.span.column - 1, starts[e.span.end_line - 1], e.content)
        for f in result.applied
        for e in f.text_edits
    )
    assert all(f.text_edits for f in result.applied)
    for start, end, content in reversed(edits):
        text = text[:start] + content + text[end:]
    assert text == result.new_source
