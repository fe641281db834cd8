"""A rich progress bar on stderr, shown only on a terminal (rich loads only then)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any


def wanted(disabled: bool) -> bool:
    """Show a bar unless disabled or stderr is not a terminal."""
    return not disabled and sys.stderr.isatty()


@contextlib.contextmanager
def progress_bar(total: int, enabled: bool) -> Iterator[Callable[[Any], None] | None]:
    """A callback that advances a bar by one file, or None when no bar is shown."""
    if not enabled or total < 2:
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    columns = (
        TextColumn("autoopt"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("files", total=total)
        yield lambda _outcome: bar.advance(task)
