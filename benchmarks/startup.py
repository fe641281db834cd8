"""Start-up: `autoopt check` of one small file, whole process, against `import libcst`.

Usage: python benchmarks/startup.py [--file PATH] [--repeat N] [--busy N] [--against TREE]
                                    [--json]

Each round runs, in turn, `python -c "import libcst"`, `autoopt --version`,
`autoopt check --no-cache FILE` (start-up and analysis) and `autoopt check FILE`
answered from a warm result cache, each a fresh process; the rounds interleave
them so that load from other processes falls on all alike. Reported: the median
wall and CPU (user + sys) seconds of each and its ratio to the `import libcst`
baseline (target: check at most 2x). FILE defaults to SMALL (10 lines, three
findings, so the summary table is drawn), written into a temporary folder; a
FILE given is copied there. `--busy N` runs N busy-loop processes beside the
rounds (load N), started here and always killed before it returns. autoopt runs
from this work tree (`python -m autoopt`), with bytecode cached as an installed
package has it: a first, untimed run of each command compiles it. `--against TREE`
adds, to each round, `--version` and `check --no-cache FILE` run from another work tree
(main, say), so that before and after meet the same load.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "import libcst"
SMALL = """import jax.numpy as jnp


def step(x):
    return x * 2


x = jnp.ones(3)
for _ in range(10):
    x = step(x)
"""


Command = tuple[list[str], Path]  # the arguments, and the work tree autoopt runs from


def commands(file: Path, against: Path | None = None) -> dict[str, Command]:
    """What is timed, by label; the first is the baseline."""
    autoopt = [sys.executable, "-m", "autoopt"]
    check = [*autoopt, "check", "--no-cache", "--no-progress", str(file)]
    runs = {
        BASELINE: ([sys.executable, "-c", "import libcst"], ROOT),
        "autoopt --version": ([*autoopt, "--version"], ROOT),
        "check, no cache": (check, ROOT),
        "check, warm cache": ([*autoopt, "check", "--no-progress", str(file)], ROOT),
    }
    if against is not None:
        runs[f"--version, {against.name}"] = ([*autoopt, "--version"], against)
        runs[f"no cache, {against.name}"] = (check, against)
    return runs


def environment(folder: Path, tree: Path) -> dict[str, str]:
    """`tree` first on the path; bytecode written to a private cache."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree), env.get("PYTHONPATH")]))
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    env["AUTOOPT_CACHE_DIR"] = str(folder / "cache" / tree.name)
    return env


def timed(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one run of `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr.decode()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


@contextlib.contextmanager
def busy(count: int) -> Iterator[None]:
    """`count` processes spinning on a core each, killed on the way out whatever happens."""
    spinners: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(count):
            spinners.append(subprocess.Popen([sys.executable, "-c", "while True: pass"]))
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


def measure(
    name: str, text: str, repeat: int, against: Path | None = None
) -> dict[str, dict[str, list[float]]]:
    """Every command's wall and CPU seconds per round, the rounds interleaved."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        copy = folder / name
        copy.write_text(text, encoding="utf-8")
        runs = commands(copy, against)
        envs = {tree: environment(folder, tree) for _, tree in runs.values()}
        for command, tree in runs.values():  # compiles bytecode, fills the result cache
            timed(command, envs[tree], folder)
        samples: dict[str, dict[str, list[float]]] = {k: {"wall": [], "cpu": []} for k in runs}
        for _ in range(repeat):
            for label, (command, tree) in runs.items():
                wall, cpu = timed(command, envs[tree], folder)
                samples[label]["wall"].append(wall)
                samples[label]["cpu"].append(cpu)
    return samples


def summarise(samples: dict[str, dict[str, list[float]]]) -> list[dict[str, object]]:
    """Median wall and CPU seconds of each command and their ratios to the baseline."""
    base = {kind: statistics.median(samples[BASELINE][kind]) for kind in ("wall", "cpu")}
    rows = []
    for label, kinds in samples.items():
        wall, cpu = statistics.median(kinds["wall"]), statistics.median(kinds["cpu"])
        rows.append(
            {
                "command": label,
                "wall_s": wall,
                "cpu_s": cpu,
                "wall_ratio": wall / base["wall"],
                "cpu_ratio": cpu / base["cpu"],
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, help="the file checked (default: SMALL)")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--busy", type=int, default=0, metavar="N", help="busy processes beside")
    parser.add_argument("--against", type=Path, metavar="TREE", help="another work tree too")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    name = args.file.name if args.file else "small.py"
    text = args.file.read_text(encoding="utf-8") if args.file else SMALL
    with busy(args.busy):
        load_before = os.getloadavg()[0]
        against = args.against.resolve() if args.against else None
        rows = summarise(measure(name, text, args.repeat, against))
        load = os.getloadavg()[0]
    if args.json:
        print(json.dumps({"busy": args.busy, "load": [load_before, load], "rows": rows}))
        return 0
    lines = text.count("\n")
    print(f"{name} ({lines} lines), median of {args.repeat} interleaved rounds")
    print(f"{args.busy} busy processes beside; load average {load_before:.2f} -> {load:.2f}")
    print(f"{'command':<22}{'wall s':>9}{'CPU s':>9}{'wall ratio':>12}{'CPU ratio':>11}")
    for row in rows:
        print(
            f"{row['command']:<22}{row['wall_s']:>9.3f}{row['cpu_s']:>9.3f}"
            f"{row['wall_ratio']:>11.2f}x{row['cpu_ratio']:>10.2f}x"
        )
    print("target: check at most 2x the baseline")
    return 0


if __name__ == "__main__":
    sys.exit(main())
