"""The result cache: hits on unchanged files, misses on any change, ≥10x faster warm."""

from __future__ import annotations

import time
from pathlib import Path

from autoopt.config import Settings
from autoopt.workspace.cache import CACHE_NAME, ResultCache, cache_folder
from autoopt.workspace.runner import run
from tests.workspace.conftest import fixable, make_tree


def _tree(root: Path, n: int = 12) -> list[tuple[str, Path]]:
    make_tree(root, {f"m{i}.py": fixable(i) * 6 for i in range(n)})
    return [(str(p), p) for p in sorted(root.glob("*.py"))]


def _run(files, settings: Settings):
    cache = ResultCache.load([str(files[0][1].parent)], settings)
    outcomes = run(files, settings, 1, cache)
    cache.save()
    return outcomes


def test_warm_run_hits_and_matches_the_cold_one(tmp_path):
    files = _tree(tmp_path)
    cold = _run(files, Settings())
    warm = _run(files, Settings())
    assert not any(o.cached for o in cold)
    assert all(o.cached for o in warm)
    for a, b in zip(cold, warm, strict=True):
        assert a.result is not None and b.result is not None
        assert [f.to_json() for f in a.result.findings] == [f.to_json() for f in b.result.findings]
        assert a.result.new_source == b.result.new_source
        assert [f.rule for f in a.result.applied] == [f.rule for f in b.result.applied]


def test_a_changed_file_or_setting_misses(tmp_path):
    files = _tree(tmp_path, 3)
    _run(files, Settings())
    files[0][1].write_text(fixable(99))
    again = _run(files, Settings())
    assert [o.cached for o in again] == [False, True, True]
    assert not any(o.cached for o in _run(files, Settings(ignore=("AO1",))))


def test_errors_are_cached_too(tmp_path):
    make_tree(tmp_path, {"bad.py": "def (:\n"})
    files = [(str(tmp_path / "bad.py"), tmp_path / "bad.py")]
    _run(files, Settings())
    (again,) = _run(files, Settings())
    assert again.cached and again.error is not None and "syntax error" in again.error.message


def test_warm_is_at_least_10x_faster(tmp_path):
    files = _tree(tmp_path, 16)
    start = time.perf_counter()
    _run(files, Settings())
    cold = time.perf_counter() - start
    start = time.perf_counter()
    _run(files, Settings())
    warm = time.perf_counter() - start
    assert warm * 10 < cold, (cold, warm)


def test_cache_lives_in_the_project_root(tmp_path, monkeypatch, cli):
    monkeypatch.delenv("AUTOOPT_CACHE_DIR")
    make_tree(tmp_path, {"pyproject.toml": "", "src/a.py": fixable()})
    assert cache_folder([str(tmp_path / "src")]) == tmp_path / CACHE_NAME
    cli("check", "src", "--no-cache", cwd=tmp_path)
    assert not (tmp_path / CACHE_NAME).exists()
    cli("check", "src", cwd=tmp_path)
    assert (tmp_path / CACHE_NAME / ".gitignore").read_text().endswith("*\n")
    assert list((tmp_path / CACHE_NAME).rglob("*.json"))


def test_progress_bar_only_on_a_terminal(monkeypatch, tmp_path):
    from autoopt.workspace import progress
    from autoopt.workspace.batch import collect

    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: False, raising=False)
    assert not progress.wanted(False)
    monkeypatch.setattr(progress.sys.stderr, "isatty", lambda: True, raising=False)
    assert progress.wanted(False) and not progress.wanted(True)
    _tree(tmp_path, 3)
    batch = collect([str(tmp_path)], Settings(), jobs=1, progress=True)
    assert len(batch.outcomes) == 3 and not batch.errors


def test_unused_entries_are_pruned(tmp_path):
    files = _tree(tmp_path, 2)
    cache = ResultCache.load([str(tmp_path)], Settings())
    cache.entries = {f"stale{i}": {"error": ["x", None]} for i in range(1500)}
    run(files, Settings(), 1, cache)
    cache.save()
    assert len(ResultCache.load([str(tmp_path)], Settings()).entries) == 2
