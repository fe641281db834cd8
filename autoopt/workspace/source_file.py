"""Read a source file exactly, and write it back atomically in the same encoding."""

from __future__ import annotations

import codecs
import io
import os
import tempfile
import tokenize
from dataclasses import dataclass
from pathlib import Path

from autoopt.model import AutooptError


@dataclass(frozen=True)
class SourceFile:
    """A decoded source file and what is needed to write it back byte for byte."""

    path: Path
    text: str  # newlines normalised to "\n"
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


def read_source(path: Path, display: str | None = None) -> SourceFile:
    """Decode a Python file with its PEP 263 cookie or BOM; clear errors otherwise."""
    name = display or str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise AutooptError(name, f"cannot read: {exc.strerror or exc}") from None
    if b"\0" in raw:
        raise AutooptError(name, "binary file (contains NUL bytes), not Python source")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(raw).readline)
    except SyntaxError as exc:
        raise AutooptError(name, f"cannot decode: {exc}") from None
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
    newline = "\r\n" if "\r\n" in text else "\n"
    return SourceFile(path, text.replace("\r\n", "\n"), codec, bom, newline, raw)


def write_atomic(source: SourceFile, text: str, display: str | None = None) -> None:
    """Replace the file with `text`: temp file in the same folder, then rename.

    Refuses when the file changed on disk since it was read. Keeps permissions.
    """
    name = display or str(source.path)
    path = source.path
    try:
        if path.read_bytes() != source.raw:
            raise AutooptError(name, "changed on disk since it was read; not overwritten")
        mode = path.stat().st_mode
    except OSError as exc:
        raise AutooptError(name, f"cannot write: {exc.strerror or exc}") from None
    data = source.encode(text)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".autoopt", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode & 0o7777)
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise AutooptError(name, f"cannot write: {exc.strerror or exc}") from None
        raise
