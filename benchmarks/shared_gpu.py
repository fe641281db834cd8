"""AO702 on a GPU: two JAX worker processes on one device, before and after the fix.

Usage: python benchmarks/shared_gpu.py [--fraction 0.3] [--program corpus/shared_gpu_workers.py]

Needs a CUDA GPU and `nvidia-smi`. Each part runs before the fix (no preallocation
setting in the environment) and after it (the line AO702 inserts,
`os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")`, run in the parent
before the workers start):

1. Start-up: two spawned workers, started one after the other. Each starts its
   backend and reports the device memory it holds (`memory_stats()`: the pool's
   limit, bytes reserved and in use; and the whole device's used memory from
   `nvidia-smi` at that moment), then allocates a working set of FRACTION of the
   device's memory, and says whether that ran out of memory. The first stays alive
   until the second has reported, so they overlap.
2. The corpus program, as written and as `autoopt rewrite --unsafe-fixes` writes it,
   run whole: exit status, the peak used memory of the device while it ran (polled),
   and the out-of-memory error if any.

Prints Markdown tables for docs/benchmarks/rules.md. The driver never imports jax.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from autoopt.api import optimize_source
from autoopt.config import Settings
from autoopt.rules.ao702_shared_gpu_preallocation import PREALLOCATE

ROOT = Path(__file__).resolve().parent.parent
SHARING = (PREALLOCATE, "XLA_PYTHON_CLIENT_MEM_FRACTION", "XLA_PYTHON_CLIENT_ALLOCATOR")
GIB = 2**30


def device_memory() -> tuple[int, int]:
    """Used and total memory of GPU 0, bytes (`nvidia-smi`)."""
    query = ["nvidia-smi", "--query-gpu=memory.used,memory.total", "--format=csv,noheader"]
    line = subprocess.run(query, capture_output=True, text=True, check=True).stdout
    used, total = (int(part.split()[0]) * 2**20 for part in line.splitlines()[0].split(","))
    return used, total


def worker(fraction: float, total: int, reports, done) -> None:
    """Start the backend, report its memory, allocate FRACTION of the device, report."""
    report: dict[str, object] = {"pid": os.getpid()}
    try:
        import jax
        import jax.numpy as jnp

        jnp.zeros(1).block_until_ready()  # the backend starts here, and preallocates
        stats = jax.devices()[0].memory_stats() or {}
        report["limit"] = stats.get("bytes_limit")
        report["reserved"] = stats.get("bytes_reserved")
        report["in_use"] = stats.get("bytes_in_use")
        report["device_used"] = device_memory()[0]
        work = jnp.ones(int(fraction * total) // 4, jnp.float32).block_until_ready()
        report["work"] = f"ok ({work.nbytes / GIB:.1f} GiB)"
    except Exception as exc:  # the out-of-memory error is the result
        report["work"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:160]}"
    reports.put(report)
    done.wait(300)


def startup(fraction: float) -> list[dict[str, object]]:
    """Two overlapping workers, the second started once the first has reported."""
    context = multiprocessing.get_context("spawn")
    reports, done = context.Queue(), context.Event()
    total = device_memory()[1]
    processes, found = [], []
    for _ in range(2):
        process = context.Process(target=worker, args=(fraction, total, reports, done))
        process.start()
        processes.append(process)
        found.append(wait_for(process, reports))
    done.set()
    for process in processes:
        process.join(60)
    return found


def wait_for(process, reports) -> dict[str, object]:
    """The worker's report, or how it died (a crash at start-up reports nothing)."""
    while True:
        try:
            return reports.get(timeout=1)
        except queue.Empty:
            if not process.is_alive():
                return {"work": f"died with exit code {process.exitcode}"}


def run_program(path: Path) -> dict[str, object]:
    """Run a program whole, polling the device's used memory."""
    start_used = device_memory()[0]
    process = subprocess.Popen(
        [sys.executable, str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    peak = start_used
    while process.poll() is None:
        peak = max(peak, device_memory()[0])
        time.sleep(0.05)
    err = process.stderr.read() if process.stderr else ""
    oom = next((line for line in err.splitlines() if "RESOURCE_EXHAUSTED" in line), "")
    return {"rc": process.returncode, "peak": peak - start_used, "oom": oom[:160]}


def set_fix(after: bool) -> None:
    """The environment before the fix (no setting) or after it (AO702's line)."""
    for key in SHARING:
        os.environ.pop(key, None)
    if after:
        os.environ.setdefault(PREALLOCATE, "false")


def gib(value: object) -> str:
    return f"{value / GIB:.2f}" if isinstance(value, int) else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fraction", type=float, default=0.3)
    parser.add_argument("--program", type=Path, default=ROOT / "corpus/shared_gpu_workers.py")
    args = parser.parse_args()
    used, total = device_memory()
    print(f"device: {total / GIB:.1f} GiB, {used / GIB:.2f} GiB used before the runs\n")
    print("| fix | worker | pool limit GiB | reserved GiB | device used GiB | working set |")
    print("|---|---|---|---|---|---|")
    for after in (False, True):
        set_fix(after)
        for number, r in enumerate(startup(args.fraction), 1):
            cells = (gib(r.get("limit")), gib(r.get("reserved")), gib(r.get("device_used")))
            print(f"| {'after' if after else 'before'} | {number} | {' | '.join(cells)} |", end="")
            print(f" {r['work']} |")
    source = args.program.read_text()
    settings = Settings(select=("AO702",), unsafe_fixes=True)
    rewritten = optimize_source(source, path=str(args.program), settings=settings).new_source
    assert rewritten != source, f"AO702 does not rewrite {args.program}"
    print("\n| program | exit | peak device memory GiB | out of memory |\n|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for name, text in (("as written", source), ("rewritten", rewritten)):
            path = Path(folder) / name.replace(" ", "_") / args.program.name
            path.parent.mkdir()
            path.write_text(text)
            set_fix(False)
            r = run_program(path)
            print(f"| {name} | {r['rc']} | {gib(r['peak'])} | {r['oom'] or 'no'} |")


if __name__ == "__main__":
    main()
