"""Bad input: one line per file (path, cause), the run goes on, exit 2, nothing else touched."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from autoopt.workspace import batch
from tests.workspace.conftest import CLEAN, fixable, make_tree, snapshot

BAD = {
    "syntax.py": "x = 1\ny = (2 +\n",
    "py2.py": 'import os\nprint "hello"\n',
    "latin.py": b"x = '\xe9t\xe9'\n",
    "binary.py": b"\x7fELF\x02\x01\x01\x00\x00\x00\x00",
    "empty.py": "",
    "clean.py": CLEAN,
}
CAUSES = {
    "syntax.py": "syntax.py:2: syntax error",
    "py2.py": "py2.py:2: syntax error",
    "latin.py": "latin.py:1: not valid utf-8",
    "binary.py": "binary.py: binary file",
    "huge.py": "huge.py: too large",
    "loop.py": "loop.py: cannot read: symlink loop",
}


def _tree(root: Path) -> Path:
    make_tree(root, {**BAD, "good.py": fixable()})
    (root / "huge.py").write_bytes(b"x = 1\n" * (2 * 1024 * 1024))
    os.symlink("loop2.py", root / "loop.py")
    os.symlink("loop.py", root / "loop2.py")
    return root


def _error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error: ")]


def test_each_bad_file_gets_one_line_and_the_good_one_is_rewritten(tmp_path, cli):
    root = _tree(tmp_path / "repo")
    before = snapshot(root)
    result = cli("rewrite", "repo", "--write", "--jobs", "1", cwd=tmp_path)
    assert result.exit_code == 2
    lines = _error_lines(result.stderr)
    for name, cause in CAUSES.items():
        matching = [line for line in lines if f"repo/{name}" in line]
        assert len(matching) == 1, (name, lines)
        assert cause in matching[0]
    assert "(Python 2 code?)" in next(line for line in lines if "py2.py" in line)
    assert not any("empty.py" in line or "clean.py" in line for line in lines)
    after = snapshot(root)
    assert after.pop("good.py") != before.pop("good.py")
    assert after == before


def test_check_reports_the_same_errors_and_exits_2(tmp_path, cli):
    root = _tree(tmp_path / "repo")
    before = snapshot(root)
    result = cli("check", "repo", "--jobs", "2", cwd=tmp_path)
    assert result.exit_code == 2
    assert "AO101" in result.stdout
    assert len(_error_lines(result.stderr)) == len(CAUSES) + 1  # both ends of the loop
    assert snapshot(root) == before


def test_empty_file_is_valid_python(tmp_path, cli):
    make_tree(tmp_path, {"__init__.py": ""})
    result = cli("rewrite", ".", "--write", cwd=tmp_path)
    assert result.exit_code == 0
    assert (tmp_path / "__init__.py").read_bytes() == b""


def test_read_only_file_is_not_rewritten(tmp_path, cli):
    make_tree(tmp_path, {"ro.py": fixable(1), "rw.py": fixable(2)})
    (tmp_path / "ro.py").chmod(0o444)
    before = (tmp_path / "ro.py").read_bytes()
    result = cli("rewrite", ".", "--write", "--no-cache", cwd=tmp_path)
    assert result.exit_code == 2
    assert _error_lines(result.stderr) == ["error: ./ro.py: read-only file; not rewritten"]
    assert (tmp_path / "ro.py").read_bytes() == before
    assert "jax.jit" in (tmp_path / "rw.py").read_text()


def test_unreadable_file(tmp_path, cli, monkeypatch):
    make_tree(tmp_path, {"secret.py": fixable(1), "open.py": fixable(2)})
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self.name == "secret.py":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    result = cli("rewrite", ".", "--write", "--no-cache", cwd=tmp_path)
    assert result.exit_code == 2
    assert _error_lines(result.stderr) == ["error: ./secret.py: cannot read: permission denied"]
    assert "jax.jit" not in real(tmp_path / "secret.py").decode()
    assert "jax.jit" in (tmp_path / "open.py").read_text()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their mode")
def test_unreadable_file_by_mode(tmp_path, cli):
    make_tree(tmp_path, {"secret.py": fixable(1)})
    (tmp_path / "secret.py").chmod(0)
    result = cli("check", ".", cwd=tmp_path)
    assert result.exit_code == 2
    assert "secret.py: cannot read: permission denied" in result.stderr


def test_folder_vanishing_after_discovery(tmp_path, cli, monkeypatch):
    make_tree(tmp_path, {"keep/a.py": fixable(1), "gone/b.py": fixable(2), "gone/c.py": CLEAN})
    real = batch.discover

    def discover_then_delete(*args, **kwargs):
        found = real(*args, **kwargs)
        shutil.rmtree(tmp_path / "gone")
        return found

    monkeypatch.setattr(batch, "discover", discover_then_delete)
    result = cli("rewrite", ".", "--write", "--no-cache", cwd=tmp_path)
    assert result.exit_code == 2
    assert _error_lines(result.stderr) == [
        "error: ./gone/b.py: cannot read: no such file or directory",
        "error: ./gone/c.py: cannot read: no such file or directory",
    ]
    assert "jax.jit" in (tmp_path / "keep/a.py").read_text()


def test_file_changed_on_disk_before_the_write(tmp_path, cli, monkeypatch):
    make_tree(tmp_path, {"a.py": fixable(1)})
    real = batch.write_atomic

    def edit_first(source, text, display):
        source.path.write_text("# edited by the user\n")
        return real(source, text, display)

    monkeypatch.setattr(batch, "write_atomic", edit_first)
    result = cli("rewrite", ".", "--write", "--no-cache", cwd=tmp_path)
    assert result.exit_code == 2
    assert "a.py: changed on disk since it was read; not overwritten" in result.stderr
    assert (tmp_path / "a.py").read_text() == "# edited by the user\n"


def test_missing_path_is_an_error_and_the_rest_runs(tmp_path, cli):
    make_tree(tmp_path, {"a.py": fixable(1)})
    result = cli("check", "a.py", "nope.py", cwd=tmp_path)
    assert result.exit_code == 2
    assert "error: nope.py: no such file or directory" in result.stderr
    assert "a.py:" in result.stdout
