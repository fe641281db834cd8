"""tests/prefork.py runs each command as `python ARGS` would, in a child of its own."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.prefork import Prefork

PRELOADED = "fractions"  # imported by the server, not by a fresh interpreter's start


@pytest.fixture(scope="module")
def python() -> Iterator[Prefork]:
    server = Prefork([PRELOADED])
    yield server
    server.close()


def script(tmp_path: Path, name: str, code: str) -> str:
    path = tmp_path / name
    path.write_text(code)
    return str(path)


def test_output_exit_code_and_argv(python: Prefork, tmp_path: Path) -> None:
    code = (
        "import sys\nprint('out', sys.argv[1:], sys.path[0])\n"
        "print('err', file=sys.stderr)\nsys.exit(3)\n"
    )
    (done,) = python.run([[script(tmp_path, "a.py", code), "x", "y"]], timeout=60)
    assert (done.returncode, done.stderr) == (3, "err\n")
    assert done.stdout == f"out ['x', 'y'] {tmp_path}\n"


def test_an_uncaught_exception_and_an_exit_message(python: Prefork, tmp_path: Path) -> None:
    raises = script(tmp_path, "raises.py", "def main():\n    raise ValueError('bad')\nmain()\n")
    message = script(tmp_path, "message.py", "import sys\nsys.exit('no input')\n")
    failed, exited = python.run([[raises], [message]], timeout=60)
    assert failed.returncode == 1
    assert failed.stderr.startswith("Traceback (most recent call last):")
    assert failed.stderr.endswith("ValueError: bad\n")
    assert (exited.returncode, exited.stderr) == (1, "no input\n")


def test_a_module_as_main(python: Prefork) -> None:
    (done,) = python.run([["-m", "json.tool", "--help"]], timeout=60)
    assert done.returncode == 0
    assert done.stdout.startswith("usage: python -m json.tool")


def test_commands_see_the_preloaded_modules_as_imported_not_as_changed(
    python: Prefork, tmp_path: Path
) -> None:
    change = script(tmp_path, "change.py", f"import {PRELOADED}\n{PRELOADED}.MARK = 1\n")
    module = f"sys.modules[{PRELOADED!r}]"
    code = f"import sys\nprint({PRELOADED!r} in sys.modules, hasattr({module}, 'MARK'))\n"
    read = script(tmp_path, "read.py", code)
    python.run([[change]], timeout=60)
    (done,) = python.run([[read]], timeout=60)
    assert done.stdout == "True False\n"


def test_a_fresh_command_gets_a_new_interpreter(python: Prefork, tmp_path: Path) -> None:
    code = f"import sys\nprint({PRELOADED!r} in sys.modules)\n"
    path = script(tmp_path, "fresh.py", code)
    forked, fresh = python.run([[path], [path]], timeout=60, fresh=[False, True])
    assert (forked.stdout, fresh.stdout) == ("True\n", "False\n")


def test_commands_of_one_request_run_side_by_side(python: Prefork, tmp_path: Path) -> None:
    """The first waits for a file the second writes: run one after the other, it fails."""
    marker = tmp_path / "marker"
    waits = (
        "import pathlib, sys, time\n"
        f"deadline = time.monotonic() + 30\n"
        f"while not pathlib.Path({str(marker)!r}).exists():\n"
        "    if time.monotonic() > deadline:\n"
        "        sys.exit(1)\n"
        "    time.sleep(0.01)\n"
    )
    writes = f"import pathlib\npathlib.Path({str(marker)!r}).write_text('')\n"
    first, second = python.run(
        [[script(tmp_path, "waits.py", waits)], [script(tmp_path, "writes.py", writes)]],
        timeout=60,
    )
    assert (first.returncode, second.returncode) == (0, 0)


def test_a_command_past_its_timeout_is_killed(python: Prefork, tmp_path: Path) -> None:
    sleeps = script(tmp_path, "sleeps.py", "import time\ntime.sleep(60)\n")
    with pytest.raises(subprocess.TimeoutExpired):
        python.run([[sleeps]], timeout=0.5)
    (after,) = python.run([[script(tmp_path, "ok.py", "print('still serving')\n")]], timeout=60)
    assert after.stdout == "still serving\n"
