"""What a program prints and logs during a run, captured inside the worker process.

Standard library only: a fresh interpreter (`autoopt.verify.fresh`) starts capturing
before the program, and jax, are imported. Captured, from the program's load to the
end of its entry call (see docs/verification.md, "Printed output and logging"):

- `stdout`, `stderr`: the text written to `sys.stdout` and `sys.stderr` (`print`,
  `sys.stdout.write`, `jax.debug.print`, whose callbacks write to `sys.stdout`), still
  passed on to the real streams. Left out: what logging handlers write (records are
  compared as records), warnings (compared as warnings) and C++ writes to the file
  descriptors (XLA's logs).
- `logs`: the records the program emits (through `Logger.callHandlers`, so the
  program's own logging configuration is left as it is: `basicConfig` still works),
  every record from the program's own files at any level (`jax.debug.log` included),
  and records at WARNING and above from other loggers except jax's and absl's, which
  describe how jax compiled and ran the program (`jax_log_compiles` logs every
  compilation as a warning), not what it computed.
- `warnings`: category and message of the warnings issued from the program's own files.

Paths of the program's folder read `<dir>` and addresses `0x?`: a rewrite runs from
another folder, and addresses change run to run. A line redrawn after `\r` (a progress
bar) is kept as its last drawing.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import threading
import warnings
from pathlib import Path
from typing import Any

MAX_LINES = 10_000  # kept per stream; the number of lines is kept too
LIBRARY_LOGGERS = ("jax", "jaxlib", "absl", "py.warnings")
ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")
FILE_NAME = "output.json"


class _Tee:
    """A text stream that records what is written to it and passes it on."""

    def __init__(self, stream: Any, capture: Capture) -> None:
        self._stream, self._capture = stream, capture
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        if isinstance(text, str) and not self._capture.in_handler():
            self.parts.append(text)
        return self._stream.write(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, encoding, isatty, buffer...
        return getattr(self._stream, name)


class Capture:
    """Captures one run's printed output, logging records and warnings (see module doc)."""

    def __init__(self, own_dirs: list[str]) -> None:
        paths = {str(Path(d)) for d in own_dirs} | {str(Path(d).resolve()) for d in own_dirs}
        self.own_dirs = sorted(paths, key=len, reverse=True)  # a folder before its parent
        self.logs: list[str] = []
        self.warnings: list[str] = []
        self._local = threading.local()
        self._saved: dict[str, Any] = {}
        self._out: _Tee | None = None
        self._err: _Tee | None = None

    def in_handler(self) -> bool:
        return getattr(self._local, "depth", 0) > 0

    def own(self, filename: str) -> bool:
        """Whether `filename` is one of the program's own files (not an installed package)."""
        if not filename or "site-packages" in filename or "dist-packages" in filename:
            return False
        path = os.path.realpath(filename)
        return any(path.startswith(d + os.sep) for d in self.own_dirs)

    def start(self) -> None:
        self._out, self._err = _Tee(sys.stdout, self), _Tee(sys.stderr, self)
        self._saved = {
            "stdout": sys.stdout,
            "stderr": sys.stderr,
            "callHandlers": logging.Logger.callHandlers,
            "handle": logging.Handler.handle,
            "showwarning": warnings.showwarning,
        }
        sys.stdout, sys.stderr = self._out, self._err
        logging.Logger.callHandlers = self._call_handlers(logging.Logger.callHandlers)  # type: ignore[method-assign]
        logging.Handler.handle = self._handle(logging.Handler.handle)  # type: ignore[method-assign]
        warnings.showwarning = self._show_warning(warnings.showwarning, self._saved["stderr"])

    def stop(self) -> dict[str, Any]:
        """Restore the streams, logging and warnings; what was captured, as data."""
        if self._saved:
            if sys.stdout is self._out:
                sys.stdout = self._saved["stdout"]
            if sys.stderr is self._err:
                sys.stderr = self._saved["stderr"]
            logging.Logger.callHandlers = self._saved["callHandlers"]  # type: ignore[method-assign]
            logging.Handler.handle = self._saved["handle"]  # type: ignore[method-assign]
            warnings.showwarning = self._saved["showwarning"]
            self._saved = {}
        streams = {"stdout": self._out, "stderr": self._err}
        data: dict[str, Any] = {
            name: self._lines("".join(tee.parts) if tee else "") for name, tee in streams.items()
        }
        data["logs"] = self._kept(self.logs)
        data["warnings"] = self._kept(self.warnings)
        return data

    def _lines(self, text: str) -> dict[str, Any]:
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        # What a terminal shows: a progress bar redrawn after "\r" is its last drawing.
        return self._kept([self._mask(line.rpartition("\r")[2]) for line in lines])

    def _kept(self, lines: list[str]) -> dict[str, Any]:
        return {"count": len(lines), "lines": lines[:MAX_LINES]}

    def _mask(self, text: str) -> str:
        for directory in self.own_dirs:
            text = text.replace(directory, "<dir>")
        return ADDRESS.sub("0x?", text)

    def _record(self, record: logging.LogRecord) -> None:
        name = record.name
        library = any(name == p or name.startswith(p + ".") for p in LIBRARY_LOGGERS)
        if not (self.own(record.pathname) or (record.levelno >= logging.WARNING and not library)):
            return
        try:
            message = record.getMessage()
        except Exception:  # a bad format: logging itself would report it
            message = str(record.msg)
        message = self._mask(message).replace("\n", "\\n")
        self.logs.append(f"{record.levelname} {name}: {message}")

    def _call_handlers(self, original: Any) -> Any:
        capture = self

        def call_handlers(logger: logging.Logger, record: logging.LogRecord) -> None:
            capture._record(record)
            original(logger, record)

        return call_handlers

    def _handle(self, original: Any) -> Any:
        local = self._local

        def handle(handler: logging.Handler, record: logging.LogRecord) -> Any:
            local.depth = getattr(local, "depth", 0) + 1
            try:
                return original(handler, record)
            finally:
                local.depth -= 1

        return handle

    def _show_warning(self, original: Any, stderr: Any) -> Any:
        capture = self

        def show_warning(
            message: Any,
            category: Any,
            filename: str,
            lineno: int,
            file: Any = None,
            line: Any = None,
        ) -> None:
            if capture.own(filename):
                text = capture._mask(str(message)).replace("\n", "\\n")
                capture.warnings.append(f"{category.__name__}: {text}")
            original(message, category, filename, lineno, stderr if file is None else file, line)

        return show_warning


def save_output(data: dict[str, Any] | None, out_dir: Path) -> None:
    """Write what `Capture.stop` returned next to the run's outputs."""
    if data is not None:
        (out_dir / FILE_NAME).write_text(json.dumps(data))


def load_output(out_dir: Path) -> dict[str, Any]:
    """What a run printed and logged; empty if it was not captured."""
    path = out_dir / FILE_NAME
    return json.loads(path.read_text()) if path.exists() else {}
