"""Read a source file exactly, and write it back atomically in the same encoding.

A write goes to a temporary file in the same folder, is flushed to disk, then
renamed over the original with SIGINT held back, so an interrupted run leaves
every file either old or new. A file that changed on disk since it was read,
or that is read-only, is not overwritten.
"""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import signal
import stat
import tempfile
import threading
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Protocol

from autoopt.model import AutooptError

MAX_BYTES = 10 * 1024 * 1024


class Source(Protocol):
    """What the runner and writer need from a file: its text and how to write it back."""

    @property
    def path(self) -> Path: ...
    @property
    def text(self) -> str: ...
    @property
    def raw(self) -> bytes: ...

    def encode(self, text: str) -> bytes: ...


@dataclass(frozen=True)
class SourceFile:
    """A decoded source file and what is needed to write it back byte for byte."""

    path: Path
    text: str  # "\r\n" normalised to "\n" when every line ends in "\r\n"
    encoding: str
    bom: bool
    newline: str
    raw: bytes

    def encode(self, text: str) -> bytes:
        """`text` in the file's own encoding, BOM and line endings."""
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        data = text.encode(self.encoding)
        return codecs.BOM_UTF8 + data if self.bom else data


def read_bytes(path: Path, name: str) -> bytes:
    """The file's bytes, refusing enormous files; OS errors become one clear line."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise AutooptError(name, f"too large ({size // 2**20} MiB > 10 MiB); skipped")
        return path.read_bytes()
    except OSError as exc:
        raise AutooptError(name, f"cannot read: {os_cause(exc)}") from None


def os_cause(exc: OSError) -> str:
    """A short cause for an OS error: 'permission denied', 'symlink loop', ..."""
    if exc.errno == errno.ELOOP:
        return "symlink loop"
    return (exc.strerror or str(exc)).lower()


def read_source(path: Path, display: str | None = None) -> Source:
    """Decode a Python file (PEP 263 cookie or BOM) or a notebook; clear errors otherwise."""
    name = display or str(path)
    raw = read_bytes(path, name)
    if path.suffix == ".ipynb":
        from autoopt.workspace.notebook import parse_notebook

        return parse_notebook(path, raw, name)
    return decode_python(path, raw, name)


def decode_python(path: Path, raw: bytes, name: str) -> SourceFile:
    """A SourceFile from the bytes of a .py/.pyi file."""
    if b"\0" in raw:
        raise AutooptError(name, "binary file (contains NUL bytes), not Python source")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as exc:
        if "unknown encoding" in str(exc):
            raise AutooptError(name, f"cannot decode: {exc}") from None
        encoding = "utf-8"  # bad bytes in the first lines: decoding below says where
    bom = raw.startswith(codecs.BOM_UTF8)
    body = raw[len(codecs.BOM_UTF8) :] if bom else raw
    codec = "utf-8" if encoding == "utf-8-sig" else encoding
    try:
        text = body.decode(codec)
    except UnicodeDecodeError as exc:
        line = body[: exc.start].count(b"\n") + 1
        raise AutooptError(
            name, f"not valid {codec} (byte {exc.start}): {exc.reason}", line
        ) from None
    crlf = "\r\n" in text and text.count("\n") == text.count("\r\n")
    newline = "\r\n" if crlf else "\n"
    return SourceFile(path, text.replace("\r\n", "\n") if crlf else text, codec, bom, newline, raw)


def write_atomic(source: Source, text: str, display: str | None = None) -> None:
    """Replace the file with `text` in its own encoding; nothing happens if unchanged.

    Refuses (AutooptError) when the file changed on disk since it was read or is
    read-only. Keeps permissions.
    """
    name = display or str(source.path)
    data = source.encode(text)
    try:
        if source.path.read_bytes() != source.raw:
            raise AutooptError(name, "changed on disk since it was read; not overwritten")
    except OSError as exc:
        raise AutooptError(name, f"cannot write: {os_cause(exc)}") from None
    if data != source.raw:
        replace_bytes(source.path, data, name)


def replace_bytes(path: Path, data: bytes, name: str) -> None:
    """Atomically make `path` hold `data`: same-folder temp file, fsync, rename."""
    try:
        info = path.stat()
    except OSError as exc:
        raise AutooptError(name, f"cannot write: {os_cause(exc)}") from None
    if not info.st_mode & stat.S_IWUSR or not os.access(path, os.W_OK):
        raise AutooptError(name, "read-only file; not rewritten")
    with _sigint_deferred():  # from creating the temp file to the rename: no Ctrl-C
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".autoopt", dir=path.parent)
        except OSError as exc:
            raise AutooptError(name, f"cannot write: {os_cause(exc)}") from None
        try:
            _fill(fd, tmp, data, info)
            os.replace(tmp, path)
        except OSError as exc:
            Path(tmp).unlink(missing_ok=True)
            raise AutooptError(name, f"cannot write: {os_cause(exc)}") from None


def _fill(fd: int, tmp: str, data: bytes, info: os.stat_result) -> None:
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.chmod(tmp, stat.S_IMODE(info.st_mode))
    if hasattr(os, "chown") and os.geteuid() == 0:
        with contextlib.suppress(OSError):
            os.chown(tmp, info.st_uid, info.st_gid)


@contextlib.contextmanager
def _sigint_deferred() -> Iterator[None]:
    """Hold a SIGINT back until the block is done, then deliver it as usual."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[tuple[int, FrameType | None]] = []
    previous = signal.signal(signal.SIGINT, lambda *args: caught.append(args))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught and callable(previous):
        previous(*caught[0])
    elif caught and previous == signal.SIG_DFL:
        signal.raise_signal(signal.SIGINT)
