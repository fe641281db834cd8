"""Reading and writing files exactly: encodings, line endings, modes, refusals, SIGINT."""

from __future__ import annotations

import codecs
import os
import signal
import stat
import subprocess
import sys

import pytest

from autoopt.model import AutooptError
from autoopt.workspace import source_file
from autoopt.workspace.source_file import read_source, write_atomic

CASES = {
    "lf": b"x = 1\ny = 2\n",
    "crlf": b"x = 1\r\ny = 2\r\n",
    "no_final_newline": b"x = 1\ny = 2",
    "mixed_endings": b"x = 1\r\ny = 2\nz = 3\r\n",
    "bom": codecs.BOM_UTF8 + "s = 'héllo'\n".encode(),
    "latin1_cookie": "# -*- coding: latin-1 -*-\ns = 'héllo'\n".encode("latin-1"),
}


@pytest.mark.parametrize("name", CASES)
def test_round_trip_is_byte_identical(tmp_path, name):
    path = tmp_path / "m.py"
    path.write_bytes(CASES[name])
    source = read_source(path)
    assert source.encode(source.text) == CASES[name]


@pytest.mark.parametrize("name", CASES)
def test_an_edit_keeps_encoding_endings_and_final_newline(tmp_path, name):
    path = tmp_path / "m.py"
    path.write_bytes(CASES[name])
    source = read_source(path)
    write_atomic(source, "import jax\n" + source.text)
    data = path.read_bytes()
    assert data.endswith(CASES[name][-2:])
    assert data.startswith(codecs.BOM_UTF8) == name.startswith("bom")
    if name == "crlf":
        assert data == b"import jax\r\n" + CASES[name]
    if name == "latin1_cookie":
        assert "héllo".encode("latin-1") in data


def test_write_keeps_the_mode_and_leaves_no_temp_files(tmp_path):
    path = tmp_path / "tool.py"
    path.write_text("x = 1\n")
    path.chmod(0o751)
    write_atomic(read_source(path), "x = 2\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o751
    assert path.read_text() == "x = 2\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tool.py"]


def test_unchanged_text_writes_nothing(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("x = 1\n")
    os.utime(path, ns=(1, 1))
    write_atomic(read_source(path), "x = 1\n")
    assert path.stat().st_mtime_ns == 1


def test_refuses_a_file_changed_since_read(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("x = 1\n")
    source = read_source(path)
    path.write_text("x = 3\n")
    with pytest.raises(AutooptError, match="changed on disk"):
        write_atomic(source, "x = 2\n")
    assert path.read_text() == "x = 3\n"


def test_refuses_a_read_only_file(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("x = 1\n")
    path.chmod(0o444)
    with pytest.raises(AutooptError, match="read-only"):
        write_atomic(read_source(path), "x = 2\n")
    assert path.read_text() == "x = 1\n"


def test_a_failed_write_removes_its_temp_file(tmp_path, monkeypatch):
    path = tmp_path / "m.py"
    path.write_text("x = 1\n")

    def fail(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(source_file.os, "replace", fail)
    with pytest.raises(AutooptError, match="no space left"):
        write_atomic(read_source(path), "x = 2\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.py"]
    assert path.read_text() == "x = 1\n"


def test_sigint_during_a_write_lands_after_the_rename(tmp_path, monkeypatch):
    path = tmp_path / "m.py"
    path.write_text("x = 1\n")
    real = source_file._fill

    def fill_and_interrupt(*args):
        os.kill(os.getpid(), signal.SIGINT)
        real(*args)

    monkeypatch.setattr(source_file, "_fill", fill_and_interrupt)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)  # even in a background run
    try:
        with pytest.raises(KeyboardInterrupt):
            write_atomic(read_source(path), "x = 2\n")
    finally:
        signal.signal(signal.SIGINT, previous)
    assert path.read_text() == "x = 2\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.py"]


def test_sigint_during_a_write_with_the_default_handler_ends_the_process(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("x = 1\n")
    code = f"""
import os, pathlib, signal
from autoopt.workspace import source_file
real = source_file._fill
def fill_and_interrupt(*args):
    os.kill(os.getpid(), signal.SIGINT)
    real(*args)
source_file._fill = fill_and_interrupt
signal.signal(signal.SIGINT, signal.SIG_DFL)
source_file.write_atomic(source_file.read_source(pathlib.Path({str(path)!r})), "x = 2\\n")
print("not reached")
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == -signal.SIGINT and proc.stdout == ""
    assert path.read_text() == "x = 2\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.py"]
