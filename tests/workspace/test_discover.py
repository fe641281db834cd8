"""Walking trees: .gitignore, excludes, config, suffixes, symlinks, vanishing folders."""

from __future__ import annotations

import os
import shutil
import subprocess

from autoopt.model import AutooptError
from autoopt.workspace.discover import EXCLUDED, IGNORED, discover, iter_files
from tests.workspace.conftest import CLEAN, fixable, make_tree


def _names(found) -> list[str]:
    return [display for display, _ in found.files]


def test_suffixes_and_skipped_folders(tmp_path):
    make_tree(
        tmp_path,
        {
            "a.py": CLEAN,
            "b.pyi": "x: int\n",
            "c.ipynb": '{"cells": []}',
            "d.txt": "",
            ".venv/e.py": CLEAN,
            "__pycache__/f.py": CLEAN,
            ".hidden/g.py": CLEAN,
            "pkg/h.py": CLEAN,
        },
    )
    found = discover([str(tmp_path)])
    assert [os.path.relpath(p, tmp_path) for p in _names(found)] == [
        "a.py",
        "b.pyi",
        "c.ipynb",
        "pkg/h.py",
    ]


def test_gitignore_root_nested_and_negated(tmp_path):
    make_tree(
        tmp_path,
        {
            ".git/HEAD": "",
            ".gitignore": "build/\n*_pb2.py\n",
            "build/gen.py": CLEAN,
            "api_pb2.py": CLEAN,
            "src/.gitignore": "scratch_*.py\n!scratch_keep.py\n",
            "src/scratch_1.py": CLEAN,
            "src/scratch_keep.py": CLEAN,
            "src/main.py": CLEAN,
        },
    )
    assert _names(discover([str(tmp_path)])) == [
        str(tmp_path / "src/main.py"),
        str(tmp_path / "src/scratch_keep.py"),
    ]
    # a subfolder walked alone still honours the root's .gitignore ...
    make_tree(tmp_path, {"src/gen_pb2.py": CLEAN})
    assert "gen_pb2" not in str(_names(discover([str(tmp_path / "src")])))
    # ... unless the folder named is itself ignored: then the user means it
    assert _names(discover([str(tmp_path / "build")])) == [str(tmp_path / "build/gen.py")]


def test_exclude_globs(tmp_path):
    make_tree(tmp_path, {"a.py": CLEAN, "tests/t.py": CLEAN, "gen/x_gen.py": CLEAN})
    found = discover([str(tmp_path)], ["tests/", "*_gen.py"])
    assert _names(found) == [str(tmp_path / "a.py")]


def test_pyproject_exclude_and_per_file_ignores(tmp_path, cli):
    pyproject = (
        '[tool.autoopt]\nexclude = ["vendored/"]\n'
        '[tool.autoopt.per-file-ignores]\n"scripts/*.py" = ["AO101"]\n'
    )
    make_tree(
        tmp_path,
        {
            "pyproject.toml": pyproject,
            "vendored/v.py": fixable(1),
            "scripts/s.py": fixable(2),
            "lib/l.py": fixable(3),
        },
    )
    result = cli("check", ".", "--select", "AO101", cwd=tmp_path)
    assert result.exit_code == 1
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["./lib/l.py"]


def test_cli_exclude_option(tmp_path, cli):
    make_tree(tmp_path, {"a.py": fixable(1), "skip/b.py": fixable(2)})
    result = cli("check", ".", "--select", "AO101", "--exclude", "skip", cwd=tmp_path)
    assert "skip/b.py" not in result.stdout
    assert "./a.py" in result.stdout


def test_symlinked_folder_followed_once_and_loop_reported(tmp_path):
    make_tree(tmp_path, {"real/a.py": CLEAN})
    os.symlink(tmp_path / "real", tmp_path / "alias")
    os.symlink(tmp_path, tmp_path / "real" / "up")
    found = discover([str(tmp_path)])
    assert _names(found) == [str(tmp_path / "alias/a.py")]  # same file once
    assert any("symlink loop" in e.message for e in found.errors)


def test_named_symlink_loop(tmp_path):
    os.symlink(tmp_path / "b.py", tmp_path / "a.py")
    os.symlink(tmp_path / "a.py", tmp_path / "b.py")
    found = discover([str(tmp_path / "a.py")])
    assert [(e.path, e.message) for e in found.errors] == [(str(tmp_path / "a.py"), "symlink loop")]


def test_folder_vanishing_during_the_walk(tmp_path):
    make_tree(tmp_path, {"a/x.py": CLEAN, "b/y.py": CLEAN, "c/z.py": CLEAN})
    items = []
    for item in iter_files([str(tmp_path)]):
        items.append(item)
        if len(items) == 1:
            shutil.rmtree(tmp_path / "b")
    errors = [i for i in items if isinstance(i, AutooptError)]
    assert [e.path for e in errors] == [str(tmp_path / "b")]
    assert "vanish" in errors[0].message
    assert [i[0] for i in items if not isinstance(i, AutooptError)] == [
        str(tmp_path / "a/x.py"),
        str(tmp_path / "c/z.py"),
    ]


def test_missing_path(tmp_path):
    found = discover([str(tmp_path / "nope.py")])
    assert found.errors[0].message == "no such file or directory"


def _git(cwd, *args: str) -> None:
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", *identity, *args], cwd=cwd, check=True, capture_output=True)


def _scripts_repo(root, git: bool):
    """A tree whose .gitignore holds `*.py` and `build/`, with 15 scripts (tracked when
    `git`), an untracked scratch file, and a tracked file in an ignored folder."""
    files = {f"scripts/s{i:02}.py": fixable(i) for i in range(15)}
    make_tree(
        root,
        {
            ".gitignore": "*.py\nbuild/\n",
            **files,
            "scratch.py": fixable(99),
            "build/kept.py": CLEAN,
            "build/gen.py": CLEAN,
        },
    )
    if git:
        _git(root, "init", "-q")
        _git(root, "add", ".gitignore")
        _git(root, "add", "-f", *files, "build/kept.py")
    return sorted(files)


def test_tracked_files_are_walked_despite_gitignore(tmp_path):
    scripts = _scripts_repo(tmp_path, git=True)
    found = discover([str(tmp_path)])
    assert [os.path.relpath(p, tmp_path) for p in _names(found)] == [
        "build/kept.py",
        *scripts,
    ]
    assert found.skipped == {(IGNORED, False): 2}  # scratch.py, build/gen.py


def test_tracked_files_in_a_subfolder_walk(tmp_path):
    scripts = _scripts_repo(tmp_path, git=True)
    found = discover([str(tmp_path / "scripts")], ["s01.py"])
    assert len(_names(found)) == 14 and str(tmp_path / scripts[0]) in _names(found)
    assert found.skipped == {(EXCLUDED, False): 1}  # --exclude wins over tracking


def test_without_git_ignored_files_stay_skipped_and_counted(tmp_path):
    _scripts_repo(tmp_path, git=False)
    found = discover([str(tmp_path)])
    assert _names(found) == []
    assert found.skipped == {(IGNORED, False): 16, (IGNORED, True): 1}


def test_check_reports_tracked_scripts_and_counts_skips(tmp_path, cli):
    _scripts_repo(tmp_path, git=True)
    result = cli(
        "check", ".", "--select", "AO101", "--no-cache", "--exclude", "s14.py", cwd=tmp_path
    )
    assert result.exit_code == 1
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [
        f"./scripts/s{i:02}.py" for i in range(14)
    ]
    assert result.stderr.splitlines()[-1].endswith(
        "; skipped: 1 file excluded, 2 files ignored by .gitignore"
    )


def test_summary_says_when_nothing_was_skipped(tmp_path, cli):
    make_tree(tmp_path, {"a.py": CLEAN})
    result = cli("check", ".", cwd=tmp_path)
    assert result.exit_code == 0
    assert result.stderr.rstrip().endswith("s; nothing skipped")
