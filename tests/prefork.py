"""`python ARGS` for many commands, with the interpreter's start and imports paid once.

`Prefork(["jax"])` starts one interpreter that imports the named modules and waits for
commands; each command runs in a forked child (tests/forking.py) as `python ARGS` would
run it: `sys.argv`, `sys.path[0]` and `__main__` as Python sets them, its stdout and
stderr its own, its exit code what `SystemExit` or an uncaught exception makes it. The
children share nothing but the imported modules as they were before the first command.
A command run with `fresh=True` (a program that sets the environment jax reads, see
`forking.isolated`) is exec'd in a fresh interpreter instead.

The protocol: one JSON line per request on the server's stdin, a list of commands run
side by side; one JSON line back, their exit codes (null: killed at the timeout).
"""

from __future__ import annotations

import importlib
import json
import os
import runpy
import shutil
import subprocess
import sys
import tempfile
import traceback
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path

from tests import forking

ROOT = Path(__file__).resolve().parents[1]
BOOTSTRAP = (
    "import sys; sys.path.insert(0, sys.argv[1]); from tests import prefork;"
    " sys.path.pop(0); prefork.serve(sys.argv[2:])"
)


@dataclass(frozen=True)
class Command:
    """`python *args`, its stdout and stderr written to the two files."""

    args: list[str]
    stdout: str
    stderr: str
    timeout: float
    fresh: bool = False


def serve(preload: list[str]) -> None:
    """Import `preload`, then run each request read from stdin (see module doc)."""
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # what else the server prints goes to its stderr, not into the replies
    for module in preload:
        importlib.import_module(module)
    for line in sys.stdin:
        commands = [Command(**c) for c in json.loads(line)]
        pids = [forking.fork(partial(_child, c)) for c in commands]
        codes = [forking.wait(pid, c.timeout) for pid, c in zip(pids, commands, strict=True)]
        print(json.dumps(codes), file=replies, flush=True)


def _child(command: Command) -> int:
    """Run `command` in this forked child: its exit code."""
    _redirect(command)
    if command.fresh:
        os.execv(sys.executable, [sys.executable, *command.args])
    try:
        _run_main(command.args)
    except SystemExit as exc:
        return _exit_code(exc.code)
    except BaseException:
        traceback.print_exc()
        return 1
    return 0


def _redirect(command: Command) -> None:
    """stdin from /dev/null (the server's is the request pipe), stdout and stderr to files."""
    for fd, path, flags in (
        (0, os.devnull, os.O_RDONLY),
        (1, command.stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
        (2, command.stderr, os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
    ):
        opened = os.open(path, flags, 0o644)
        os.dup2(opened, fd)
        os.close(opened)
    sys.stdin = open(os.devnull)  # noqa: SIM115  the child's, for its whole life


def _run_main(args: list[str]) -> None:
    """`python -m MODULE ...` or `python SCRIPT ...`, in this interpreter."""
    if args[0] == "-m":
        sys.argv = [args[1], *args[2:]]
        sys.path[0] = os.getcwd()
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = list(args)
        sys.path[0] = str(Path(args[0]).resolve().parent)
        runpy.run_path(args[0], run_name="__main__")


def _exit_code(code: object) -> int:
    """The exit code `sys.exit(code)` gives (a message is printed, as Python does)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


class Prefork:
    """A server (see module doc) and the client side of its pipe."""

    def __init__(self, preload: list[str]) -> None:
        self._folder = Path(tempfile.mkdtemp(prefix="autoopt-prefork-"))
        self._log = open(self._folder / "server.stderr", "w+")  # noqa: SIM115  closed in close()
        self._count = 0
        self._server = subprocess.Popen(
            [sys.executable, "-c", BOOTSTRAP, str(ROOT), *preload],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
        )

    def run(
        self, commands: list[list[str]], timeout: float, fresh: list[bool] | None = None
    ) -> list[subprocess.CompletedProcess[str]]:
        """Run `commands` side by side, each as `python *command` would (a fresh interpreter
        where `fresh` says so); raises `subprocess.TimeoutExpired` for one past `timeout`."""
        fresh = fresh or [False] * len(commands)
        sent = [self._command(a, timeout, f) for a, f in zip(commands, fresh, strict=True)]
        codes = self._ask(sent)
        done = []
        for command, code in zip(sent, codes, strict=True):
            out, err = (_take(Path(p)) for p in (command.stdout, command.stderr))
            if code is None:
                raise subprocess.TimeoutExpired(command.args, timeout, out, err)
            done.append(subprocess.CompletedProcess(command.args, code, out, err))
        return done

    def close(self) -> None:
        """Stop the server (it ends when its stdin closes) and remove its files."""
        assert self._server.stdin is not None
        self._server.stdin.close()
        self._server.wait(timeout=60)
        self._log.close()
        shutil.rmtree(self._folder, ignore_errors=True)

    def _command(self, args: list[str], timeout: float, fresh: bool) -> Command:
        self._count += 1
        stem = self._folder / f"command{self._count}"
        return Command(args, f"{stem}.stdout", f"{stem}.stderr", timeout, fresh)

    def _ask(self, commands: list[Command]) -> list[int | None]:
        assert self._server.stdin is not None and self._server.stdout is not None
        try:
            self._server.stdin.write(json.dumps([asdict(c) for c in commands]) + "\n")
            self._server.stdin.flush()
        except BrokenPipeError:  # the server has exited: the empty reply says so
            pass
        reply = self._server.stdout.readline()
        if not reply:
            self._log.seek(0)
            raise RuntimeError(f"the prefork server exited: {self._log.read()[-2000:]}")
        return json.loads(reply)


def _take(path: Path) -> str:
    """The text a child wrote to `path` (nothing if it never opened it); removes the file."""
    if not path.exists():
        return ""
    text = path.read_text(errors="replace")
    path.unlink()
    return text
