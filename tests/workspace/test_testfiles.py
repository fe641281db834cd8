"""Test and benchmark files: which they are, and that a batch checks them without rewriting."""

from __future__ import annotations

from fnmatch import fnmatchcase
from pathlib import Path

import pathspec
import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from autoopt.config import TEST_FILES, Settings, load_settings
from autoopt.report.summary import Summary, print_summary
from autoopt.workspace.batch import collect, summarise, write_changes
from autoopt.workspace.cache import salt
from autoopt.workspace.testfiles import _by_part, _glob, _names_one_part, matcher
from tests.workspace.conftest import fixable, make_tree, snapshot


@pytest.mark.parametrize(
    ("display", "is_test"),
    [
        ("tests/helpers.py", True),
        ("./pkg/tests/data/make.py", True),
        ("test/run.py", True),
        ("test_model.py", True),
        ("src/model_test.py", True),
        ("conftest.py", True),
        ("benchmarks/speed.py", True),
        ("src/model.py", False),
        ("testing/util.py", False),
        ("src/latest.py", False),
        ("tests.py", False),
        ("src/contest.py", False),
        ("benchmark.py", False),
    ],
)
def test_default_patterns(tmp_path: Path, monkeypatch, display: str, is_test: bool) -> None:
    monkeypatch.chdir(tmp_path)
    assert matcher(TEST_FILES, tmp_path)(display) is is_test


PART = st.sampled_from(
    ["tests", "test", "a", "b.py", "test_b.py", "b_test.py", ".c", "conftest.py"]
)
GLOB = st.sampled_from(["tests", "test_*.py", "*_test.py", "*.py", "?.py", "b*", ".c", "*", "a?"])


@given(
    st.lists(st.tuples(GLOB, st.booleans()), min_size=1, max_size=4),
    st.lists(PART, min_size=1, max_size=5),
    st.booleans(),
)
def test_one_part_patterns_match_as_pathspec_does(
    globs: list[tuple[str, bool]], parts: list[str], absolute: bool
) -> None:
    """One-part patterns are matched without pathspec, by the same rules."""
    patterns = [glob + "/" * folder for glob, folder in globs]
    path = "/" * absolute + "/".join(parts)
    assert all(_names_one_part(p) for p in patterns)
    expected = pathspec.GitIgnoreSpec.from_lines(patterns).match_file(path)
    assert _by_part(patterns)(path) is expected


@pytest.mark.parametrize("pattern", ["src/model.py", "**/tests", "!tests/", "[ab].py", "..", "#x"])
def test_other_patterns_go_to_pathspec(pattern: str) -> None:
    assert not _names_one_part(pattern)


def test_a_pattern_with_a_slash_inside_is_matched_from_the_root(tmp_path: Path) -> None:
    is_test = matcher(["pkg/**/gen_*.py"], tmp_path)
    assert is_test(str(tmp_path / "pkg" / "a" / "gen_x.py"))
    assert not is_test(str(tmp_path / "src" / "pkg" / "a" / "gen_x.py"))


def test_paths_are_matched_below_the_root(tmp_path: Path) -> None:
    """A folder named `tests` above the project does not make every file a test."""
    root = tmp_path / "tests" / "project"
    assert not matcher(TEST_FILES, root)(str(root / "src" / "model.py"))
    assert matcher(TEST_FILES, root)(str(root / "tests" / "test_model.py"))
    assert matcher(TEST_FILES, root)(str(tmp_path / "other" / "tests" / "a.py"))


TREE = {"src/a.py": fixable(1), "tests/test_a.py": fixable(2), "benchmarks/b.py": fixable(3)}


def test_a_batch_keeps_findings_but_not_rewrites_of_test_files(tmp_path: Path) -> None:
    make_tree(tmp_path, TREE)
    before = snapshot(tmp_path)
    batch = collect([str(tmp_path)], Settings(), jobs=1)
    opted = collect([str(tmp_path)], Settings(include_tests=True), jobs=1)
    assert {Path(f.path).parent.name for f in batch.findings} == {"benchmarks", "src", "tests"}
    assert [(f.path, f.rule, f.span, f.fix) for f in batch.findings] == [
        (f.path, f.rule, f.span, f.fix) for f in opted.findings
    ]
    assert [Path(o.display).parent.name for o in batch.changed] == ["src"]
    assert sorted(Path(o.display).parent.name for o in batch.held_back) == ["benchmarks", "tests"]
    write_changes(batch)
    after = snapshot(tmp_path)
    assert after["tests/test_a.py"] == before["tests/test_a.py"]
    assert after["benchmarks/b.py"] == before["benchmarks/b.py"]
    assert after["src/a.py"] != before["src/a.py"]
    assert summarise(batch).held_back == 2


def test_include_tests_rewrites_them(tmp_path: Path) -> None:
    make_tree(tmp_path, TREE)
    batch = collect([str(tmp_path)], Settings(include_tests=True), jobs=1)
    assert len(batch.changed) == 3 and batch.held_back == []


def test_patterns_and_opt_in_from_pyproject(tmp_path: Path) -> None:
    make_tree(tmp_path, {**TREE, "pyproject.toml": '[tool.autoopt]\ntest-files = ["src/"]\n'})
    settings = load_settings(tmp_path)
    assert settings.test_files == ("src/",) and not settings.include_tests
    batch = collect([str(tmp_path)], settings, jobs=1)
    assert [Path(o.display).parent.name for o in batch.held_back] == ["src"]
    (tmp_path / "pyproject.toml").write_text("[tool.autoopt]\ninclude-tests = true\n")
    assert load_settings(tmp_path).include_tests
    assert load_settings(tmp_path).test_files == TEST_FILES


def test_the_options_do_not_change_the_cache_key() -> None:
    """They decide what is written, not what is found."""
    assert salt(Settings(include_tests=True, test_files=("x/",))) == salt(Settings())


def test_summary_says_how_many_were_held_back_and_how_to_opt_in() -> None:
    summary = Summary(files=4, findings=[], fixes=[], changed=1, errors=0, seconds=0.5)
    summary.held_back = 2
    console = Console(record=True, width=60)
    print_summary(summary, console)
    assert console.export_text() == (
        "4 files scanned, 1 files to rewrite, 2 test/benchmark files not rewritten"
        " (--include-tests rewrites them), 0 errors, 0.50 s; nothing skipped\n"
    )


@pytest.mark.parametrize(
    "pattern", ["test_*.py", "*_test.py", "conftest.py", "tests", "a*b*", "t?st"]
)
def test_a_glob_matches_as_fnmatch_does(pattern: str) -> None:
    names = ["test_.py", "test_a.py", "a_test.py", "_test.py", "conftest.py", "tests", "test"]
    names += ["ab", "axxb", "tast", "Test_a.py", "test_a.pyc", ""]
    assert [_glob(pattern)(n) for n in names] == [fnmatchcase(n, pattern) for n in names]
