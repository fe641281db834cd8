"""A content-hash cache of per-file results, so an unchanged tree re-checks at once.

An entry is keyed by the file's bytes and a salt of everything else the result
depends on: the autoopt version and code (the rules among it) and the settings
in force for that file. Entries live in one JSON file per run configuration under
`.autoopt_cache/` in the project root (or the user cache folder when there is
no project); `AUTOOPT_CACHE_DIR` overrides the place.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from autoopt._version import __version__
from autoopt.config import Settings, project_root
from autoopt.model import Applicability, AutooptError, Finding, Result, Span, TextEdit

CACHE_NAME = ".autoopt_cache"


@dataclass
class Cached:
    """What a cache hit gives back: a result or an error, to be re-attached to a path."""

    findings: list[Finding]
    applied: list[Finding]
    new_source: str | None  # None: unchanged
    error: tuple[str, int | None] | None = None

    def result(self, display: str, text: str) -> Result:
        findings = [replace(f, path=display) for f in self.findings]
        applied = [replace(f, path=display) for f in self.applied]
        new = text if self.new_source is None else self.new_source
        return Result(display, text, findings, new, applied)


class ResultCache:
    """Results by content key; `load` once, `get`/`put` per file, `save` at the end."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self.entries: dict[str, dict] = {}
        self.used: set[str] = set()
        self.dirty = False

    @classmethod
    def load(cls, paths: list[str], settings: Settings) -> ResultCache:
        cache = cls(cache_folder(paths) / __version__ / f"{_digest(salt(settings))[:16]}.json")
        with contextlib.suppress(OSError, ValueError):
            cache.entries = json.loads(cache.file.read_text(encoding="utf-8"))
        return cache

    def get(self, key: str) -> Cached | None:
        entry = self.entries.get(key)
        if entry is None or not _unchanged(entry.get("dependencies", {})):
            return None
        self.used.add(key)
        return _from_json(entry)

    def put(self, key: str, outcome: Result | AutooptError) -> None:
        self.entries[key] = _to_json(outcome)
        self.used.add(key)
        self.dirty = True

    def save(self) -> None:
        """Write the entries atomically; a cache that cannot be written is skipped.

        Entries this run did not use are dropped once they outnumber the used ones
        (plus some slack), so the file tracks the tree instead of growing forever.
        """
        if len(self.entries) > 2 * len(self.used) + 1000:
            self.entries = {k: v for k, v in self.entries.items() if k in self.used}
            self.dirty = True
        if not self.dirty:
            return
        with contextlib.suppress(OSError):
            prepare(self.file.parent)
            fd, tmp = tempfile.mkstemp(dir=self.file.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(self.entries, handle, separators=(",", ":"))
            os.replace(tmp, self.file)


def key(settings: Settings, data: bytes) -> str:
    """The cache key of a file's bytes analysed under `settings`."""
    return _digest(salt(settings).encode() + b"\0" + data)


def salt(settings: Settings) -> str:
    """Everything besides the file's bytes that a result depends on: the rules are
    autoopt's code, which the fingerprint covers, so a hit imports none of them."""
    return f"{__version__}|{_code_fingerprint()}|{settings!r}"


def cache_folder(paths: list[str]) -> Path:
    """`$AUTOOPT_CACHE_DIR`, else `.autoopt_cache` in the project root, else the user's."""
    if env := os.environ.get("AUTOOPT_CACHE_DIR"):
        return Path(env)
    root = project_root(Path(paths[0] if paths else "."))
    if root is not None:
        return root / CACHE_NAME
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "autoopt"


_FINGERPRINT: list[str] = []


def _code_fingerprint() -> str:
    """Names, sizes and times of autoopt's own modules: a code change drops the cache."""
    if not _FINGERPRINT:
        package = Path(__file__).resolve().parent.parent
        stats = [
            f"{p.relative_to(package)}:{s.st_size}:{s.st_mtime_ns}"
            for p in sorted(package.rglob("*.py"))
            if (s := p.stat())
        ]
        _FINGERPRINT.append(_digest("\n".join(stats)))
    return _FINGERPRINT[0]


def _digest(data: str | bytes) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def prepare(folder: Path) -> None:
    """Create `folder`; a new `.autoopt_cache` above it gets a `.gitignore` and a `CACHEDIR.TAG`."""
    folder.mkdir(parents=True, exist_ok=True)
    top = folder.parent
    if top.name == CACHE_NAME and not (top / ".gitignore").exists():
        (top / ".gitignore").write_text("# Created by autoopt.\n*\n", encoding="utf-8")
        (top / "CACHEDIR.TAG").write_text(
            "Signature: 8a477f597d28d172789f06886806bc55\n# autoopt result cache\n",
            encoding="utf-8",
        )


def _to_json(outcome: Result | AutooptError) -> dict:
    if isinstance(outcome, AutooptError):
        return {"error": [outcome.message, outcome.line]}
    applied = {(f.rule, f.span) for f in outcome.applied}
    return {
        "findings": [_finding_json(f) for f in outcome.findings],
        "applied": [i for i, f in enumerate(outcome.findings) if (f.rule, f.span) in applied],
        "new": outcome.new_source if outcome.changed else None,
        "dependencies": outcome.dependencies,
    }


def _unchanged(dependencies: dict[str, str]) -> bool:
    """Whether every other project file a cached result was computed from still holds
    the same bytes."""
    for path, digest in dependencies.items():
        try:
            if _digest(Path(path).read_bytes()) != digest:
                return False
        except OSError:
            return False
    return True


def _from_json(entry: dict) -> Cached:
    if "error" in entry:
        message, line = entry["error"]
        return Cached([], [], None, (message, line))
    findings = [_finding(f) for f in entry["findings"]]
    return Cached(findings, [findings[i] for i in entry["applied"]], entry["new"])


def _finding_json(finding: Finding) -> dict:
    span = finding.span
    return {
        "rule": finding.rule,
        "name": finding.name,
        "message": finding.message,
        "span": _span_list(span),
        "fix": finding.fix.value,
        "target": finding.target,
        "title": finding.title,
        "edits": [[e.content, *_span_list(e.span)] for e in finding.text_edits],
    }


def _span_list(span: Span) -> list[int]:
    return [span.line, span.column, span.end_line, span.end_column]


def _finding(data: dict) -> Finding:
    return Finding(
        rule=data["rule"],
        name=data["name"],
        message=data["message"],
        span=Span(*data["span"]),
        fix=Applicability(data["fix"]),
        target=data["target"],
        title=data["title"],
        text_edits=tuple(TextEdit(e[0], Span(*e[1:])) for e in data.get("edits", ())),
    )
