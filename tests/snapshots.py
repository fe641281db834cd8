"""Snapshot files shared by the snapshot tests: compare a rendering with its file.

`AUTOOPT_UPDATE_SNAPSHOTS=1` rewrites the files instead; review their diff before
committing. Without the switch a missing snapshot fails the test.
"""

from __future__ import annotations

import os
from pathlib import Path

UPDATE = os.environ.get("AUTOOPT_UPDATE_SNAPSHOTS") == "1"


def assert_snapshot(path: Path, text: str, what: str) -> None:
    """`text` must equal the file at `path` (`what` names it in the failure)."""
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no snapshot {path}: run with AUTOOPT_UPDATE_SNAPSHOTS=1"
    assert text == path.read_text(encoding="utf-8"), (
        f"{what} changed; if intended, run with AUTOOPT_UPDATE_SNAPSHOTS=1 and review the diff"
    )
