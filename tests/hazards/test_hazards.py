"""Hazard suite (issue 11): programs written as traps for one rule each.

Every program in `programs/hNN_<rule>_<what>.py` defines `main()`, deterministic and
small. For each one this runs, each in a fresh interpreter (`runner.py`):

- the original program,
- the default rewrite, `optimize_source(code)`: what `autoopt rewrite --write` applies,
- the `--unsafe-fixes` rewrite, `Settings(unsafe_fixes=True)`, only where asked
  (`benchmarks/hazards_unsafe.py`, and this script run by hand),

and compares every leaf of what `main()` returns: container types and keys, array
kind, dtype and shape exactly, integers and booleans exactly, floats with
`allclose` (float32: rtol 1e-5, atol 1e-6) and NaN at the same places; and what the
program printed to stdout, line by line, in order.

The default rewrite must never crash and never change a result (the acceptance
criterion), and must be idempotent. The unsafe rewrite may break programs (that is
why it is unsafe): its outcomes are a benchmark's table, not a test.

The rewrites are made in a temporary copy of `programs/` (a small project with its
own `pyproject.toml`, so sibling modules are visible and no path looks like a test
file), helper modules included, as `rewrite --write` on the folder would.
Programs are run in one interpreter per variant that imports jax once and forks a
child per program; programs that set `XLA_FLAGS`/`JAX_*` around `import jax` get a
fresh interpreter each. A variant whose code did not change is not run again, and an
original runs only where a rewrite changed its code (three programs in four are traps
no rule fires on: running them would exercise nothing of autoopt's; the by-hand report
below runs them all). The variants run side by side.

`python tests/hazards/test_hazards.py [hNN ...]` prints the findings, diffs and
outcomes of some programs, for working on them; with `--rounding`, of the programs in
`rounding/` (results that hang on exact float rounding, which no rewrite promises).
"""

from __future__ import annotations

import difflib
import json
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from autoopt.api import optimize_source
from autoopt.config import Settings

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:  # run as a script, or imported by benchmarks/hazards_unsafe.py
    sys.path.insert(0, str(ROOT))

from tests.forking import isolated  # noqa: E402

PROGRAMS_DIR = HERE / "programs"
ROUNDING_DIR = HERE / "rounding"  # results that hang on exact rounding: not a promise
PROGRAM_RE = re.compile(r"^h\d{2,}_(ao\d\d\d)_\w+\.py$")


def _programs(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("h*.py") if PROGRAM_RE.match(p.name))


PROGRAMS = _programs(PROGRAMS_DIR)
HELPERS = sorted(
    p.name for p in PROGRAMS_DIR.glob("*.py") if not PROGRAM_RE.match(p.name)
)  # modules the programs import (the "other module of the same project")
VARIANTS = ("original", "default", "unsafe")
TESTED = VARIANTS[:2]  # the unsafe rewrite is a benchmark's table, not a test
PROGRAM_TIMEOUT_S = 60.0

#: float tolerances per dtype: (rtol, atol)
TOLERANCES = {
    "float16": (1e-2, 1e-3),
    "bfloat16": (1e-2, 1e-3),
    "float32": (1e-5, 1e-6),
    "complex64": (1e-5, 1e-6),
    "float64": (1e-9, 1e-12),
    "complex128": (1e-9, 1e-12),
}
#: Python floats usually come from float32 device values.
PY_FLOAT_TOL = TOLERANCES["float32"]

BOOTSTRAP = (
    "import sys; sys.path.insert(0, sys.argv[1]); from tests.hazards import runner;"
    " sys.path.pop(0); runner.main(sys.argv[2])"
)


def rule_of(name: str) -> str:
    match = PROGRAM_RE.match(name)
    assert match, name
    return match.group(1).upper()


# --------------------------------------------------------------------------- rewrites


@dataclass
class Rewrite:
    code: str | None  # None: the rewrite raised
    error: str = ""
    findings: list[str] = field(default_factory=list)  # "AO101 L12 [safe] message"


def rewrite(code: str, path: str, unsafe: bool) -> Rewrite:
    settings = Settings(unsafe_fixes=unsafe)
    try:
        result = optimize_source(code, path=path, settings=settings)
    except Exception as exc:  # a crash of the rewrite is a finding of this suite
        return Rewrite(None, f"{type(exc).__name__}: {exc}")
    findings = [
        f"{f.rule} L{f.span.line} [{f.fix.value}] {f.message}"
        + (" (applied)" if any(f is a for a in result.applied) else "")
        for f in result.findings
    ]
    return Rewrite(result.new_source, findings=findings)


@dataclass(repr=False)
class Suite:
    root: Path
    sources: dict[str, str]  # file name -> original code (programs and helpers)
    rewrites: dict[str, dict[str, Rewrite]]  # variant -> file name -> rewrite
    results: dict[str, dict[str, dict]]  # variant -> program -> runner record
    seconds: dict[str, float]

    def __repr__(self) -> str:  # pytest prints fixtures of failing tests
        return f"Suite({self.root})"


def _uses_helper(source: str, helper: str) -> bool:
    return re.search(rf"\b{re.escape(Path(helper).stem)}\b", source) is not None


def _variant_code(suite_sources, rewrites, variant: str, name: str) -> str:
    if variant == "original":
        return suite_sources[name]
    rw = rewrites[variant][name]
    return rw.code if rw.code is not None else suite_sources[name]


def _changed(sources, rewrites, variant: str, program: str) -> bool:
    files = [program] + [h for h in HELPERS if _uses_helper(sources[program], h)]
    return any(_variant_code(sources, rewrites, variant, f) != sources[f] for f in files)


def _same_as_default(sources, rewrites, program: str) -> bool:
    files = [program] + [h for h in HELPERS if _uses_helper(sources[program], h)]
    return all(
        _variant_code(sources, rewrites, "unsafe", f)
        == _variant_code(sources, rewrites, "default", f)
        for f in files
    )


def _run(folder: Path, out: Path, programs: list[str], fork: bool, spec_name: str) -> None:
    spec = {
        "folder": str(folder),
        "out": str(out),
        "programs": programs,
        "fork": fork,
        "timeout": PROGRAM_TIMEOUT_S,
    }
    spec_path = out.parent / f"{spec_name}.json"
    out.mkdir(parents=True, exist_ok=True)
    spec_path.write_text(json.dumps(spec))
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONHASHSEED": "0"}
    for key in ("XLA_FLAGS", "JAX_ENABLE_X64"):
        env.pop(key, None)
    timeout = PROGRAM_TIMEOUT_S * (len(programs) + 1)
    proc = subprocess.run(
        [sys.executable, "-c", BOOTSTRAP, str(ROOT), str(spec_path)],
        env=env,
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    for name in programs:
        if not (out / f"{name}.pkl").exists():
            record = {
                "ok": False,
                "error": f"runner exited {proc.returncode}: {proc.stderr[-400:]}",
            }
            (out / f"{name}.pkl").write_bytes(pickle.dumps(record))


def _rewrite_all(
    project: Path, names: list[str], sources: dict[str, str], variants: tuple[str, ...]
) -> dict:
    rewrites: dict[str, dict[str, Rewrite]] = {v: {} for v in variants}
    for variant, name in ((v, n) for v in variants for n in names):
        path = str(project / name)
        rewrites[variant][name] = rewrite(sources[name], path, unsafe=variant == "unsafe")
    return rewrites


def _write_variants(root: Path, project: Path, names: list[str], sources, rewrites) -> None:
    for variant in rewrites:
        folder = root / variant
        folder.mkdir()
        shutil.copy(project / "pyproject.toml", folder / "pyproject.toml")
        for name in names:
            (folder / name).write_text(_variant_code(sources, rewrites, variant, name))


def _needs_run(sources, rewrites, variant: str, program: str) -> bool:
    """A rewrite whose code equals what already runs is not run again."""
    if not _changed(sources, rewrites, variant, program):
        return False
    return not (variant == "unsafe" and _same_as_default(sources, rewrites, program))


def _run_variant(root: Path, variant: str, todo: list[str], sources) -> tuple[str, dict, float]:
    start = time.perf_counter()
    folder = root / variant
    out = root / f"out-{variant}"
    batch = [p for p in todo if not isolated(sources[p])]
    if batch:
        _run(folder, out, batch, fork=True, spec_name=f"{variant}-batch")
    for i, p in enumerate(p for p in todo if isolated(sources[p])):
        _run(folder, out, [p], fork=False, spec_name=f"{variant}-single{i}")
    records = {p: pickle.loads((out / f"{p}.pkl").read_bytes()) for p in todo}
    return variant, records, time.perf_counter() - start


def build_suite(
    programs: list[str] | None = None,
    variants: tuple[str, ...] = TESTED,
    every_original: bool = False,
    folder: Path = PROGRAMS_DIR,
) -> Suite:
    """Rewrite `programs` in each of `variants` and run what changed, and the originals of
    the programs some variant changes (all of them with `every_original`): a program that
    no rewrite changes exercises nothing of autoopt's when it runs. The programs are read
    from `folder`, the helper modules from `programs/`."""
    programs = programs or PROGRAMS
    root = Path(tempfile.mkdtemp(prefix="autoopt-hazards-"))
    project = root / "original"  # the originals run from here
    project.mkdir()
    (project / "pyproject.toml").write_text('[project]\nname = "hazard-programs"\n')
    sources = {}
    for name in programs + HELPERS:
        sources[name] = ((folder if name in programs else PROGRAMS_DIR) / name).read_text()
        (project / name).write_text(sources[name])
    rewrites = _rewrite_all(project, programs + HELPERS, sources, variants[1:])
    _write_variants(root, project, programs + HELPERS, sources, rewrites)
    todo = {v: [p for p in programs if _needs_run(sources, rewrites, v, p)] for v in variants[1:]}
    todo["original"] = [
        p
        for p in programs
        if every_original or any(_changed(sources, rewrites, v, p) for v in variants[1:])
    ]
    results: dict[str, dict[str, dict]] = {v: {} for v in variants}
    seconds: dict[str, float] = {}
    with ThreadPoolExecutor(max_workers=len(variants)) as pool:  # runs are subprocesses
        runs = [pool.submit(_run_variant, root, v, todo[v], sources) for v in variants]
        for run in runs:
            variant, records, elapsed = run.result()
            results[variant], seconds[variant] = records, elapsed
    for p in todo["original"]:  # unchanged variants compute what the one they equal computes
        results["default"].setdefault(p, results["original"][p])
        if "unsafe" in results:
            results["unsafe"].setdefault(p, results["default"][p])
    return Suite(root, sources, rewrites, results, seconds)


# --------------------------------------------------------------------------- comparison


def compare(a: object, b: object, where: str = "result") -> str | None:
    """None when `b` matches `a` leaf by leaf; else what differs, first difference."""
    if type(a) is not tuple or type(b) is not tuple or a[0] != b[0]:
        return f"{where}: {_describe(a)} became {_describe(b)}"
    kind = a[0]
    if kind in ("jax", "numpy", "npscalar"):
        _, dt_a, shape_a, _weak_a, val_a = a
        _, dt_b, shape_b, _weak_b, val_b = b
        if dt_a != dt_b or shape_a != shape_b:
            return f"{where}: {kind} {dt_a}{list(shape_a)} became {dt_b}{list(shape_b)}"
        return _compare_values(np.asarray(val_a), np.asarray(val_b), dt_a, where)
    if kind == "py":
        if a[1] != b[1]:
            return f"{where}: Python {a[1]} became Python {b[1]}"
        if a[1] in ("float", "complex"):
            return _compare_values(np.asarray(a[2]), np.asarray(b[2]), "python-float", where)
        if a[2] != b[2]:
            return f"{where}: {a[2]!r} became {b[2]!r}"
        return None
    if kind in ("list", "tuple"):
        if len(a[1]) != len(b[1]):
            return f"{where}: {kind} of {len(a[1])} became {kind} of {len(b[1])}"
        for i, (x, y) in enumerate(zip(a[1], b[1], strict=True)):
            diff = compare(x, y, f"{where}[{i}]")
            if diff:
                return diff
        return None
    if kind in ("dict", "namedtuple"):
        items_a, items_b = (a[1], b[1]) if kind == "dict" else (a[2], b[2])
        if kind == "namedtuple" and a[1] != b[1]:
            return f"{where}: {a[1]} became {b[1]}"
        if [k for k, _ in items_a] != [k for k, _ in items_b]:
            return f"{where}: keys {[k for k, _ in items_a]} became {[k for k, _ in items_b]}"
        for (k, x), (_, y) in zip(items_a, items_b, strict=True):
            diff = compare(x, y, f"{where}[{k}]")
            if diff:
                return diff
        return None
    if a != b:
        return f"{where}: {a[1:]} became {b[1:]}"
    return None


def _describe(v: object) -> str:
    if type(v) is tuple and v and v[0] in ("jax", "numpy", "npscalar"):
        return f"{v[0]} {v[1]}{list(v[2])}"
    if type(v) is tuple and v and v[0] == "py":
        return f"Python {v[1]}"
    if type(v) is tuple and v:
        return str(v[0])
    return repr(v)


def _compare_values(x: np.ndarray, y: np.ndarray, dtype: str, where: str) -> str | None:
    if x.dtype.kind in "biuSUVOM":
        if not np.array_equal(x, y):
            return f"{where}: values differ ({_first_diff(x, y)})"
        return None
    rtol, atol = PY_FLOAT_TOL if dtype == "python-float" else TOLERANCES.get(dtype, (1e-5, 1e-6))
    xf, yf = x.astype(np.complex128), y.astype(np.complex128)
    nan_x, nan_y = np.isnan(xf), np.isnan(yf)
    if not np.array_equal(nan_x, nan_y):
        return f"{where}: NaN at other places ({int(nan_x.sum())} -> {int(nan_y.sum())} NaNs)"
    ok = np.isclose(xf, yf, rtol=rtol, atol=atol) | nan_x
    if not ok.all():
        return f"{where}: values differ ({_first_diff(x, y, ~ok)})"
    return None


def _first_diff(x: np.ndarray, y: np.ndarray, bad: np.ndarray | None = None) -> str:
    if bad is None:
        bad = x != y
    bad = np.atleast_1d(bad)
    count, total = int(bad.sum()), bad.size
    idx = tuple(int(i) for i in np.argwhere(bad)[0]) if count else ()
    xs, ys = np.atleast_1d(x), np.atleast_1d(y)
    at = f" at {list(idx)}: {xs[idx]!r} -> {ys[idx]!r}" if count else ""
    return f"{count} of {total} elements{at}"


def outcome(suite: Suite, variant: str, program: str) -> tuple[str, str]:
    """("same" | "changed" | "crash" | "rewrite-error" | "unchanged-code" |
    "original-fails", detail)."""
    rw = suite.rewrites[variant][program]
    if rw.code is None:
        return "rewrite-error", rw.error
    helper_errors = [
        h
        for h in HELPERS
        if _uses_helper(suite.sources[program], h) and suite.rewrites[variant][h].code is None
    ]
    if helper_errors:
        return "rewrite-error", f"rewriting {helper_errors[0]}: " + (
            suite.rewrites[variant][helper_errors[0]].error
        )
    if not _changed(suite.sources, suite.rewrites, variant, program):
        return "unchanged-code", ""
    original = suite.results["original"][program]
    after = suite.results[variant][program]
    if not original["ok"]:
        return "original-fails", original["error"]
    if not after["ok"]:
        return "crash", after["error"]
    diff = compare(original["value"], after["value"])
    diff = diff or compare_stdout(original.get("stdout", ""), after.get("stdout", ""))
    return ("changed", diff) if diff else ("same", "")


def compare_stdout(before: str, after: str) -> str | None:
    """None when the program printed the same lines in the same order; else the first
    line that differs."""
    a, b = before.splitlines(), after.splitlines()
    if a == b:
        return None
    pairs = zip(a, b, strict=False)
    at = next((i for i, (x, y) in enumerate(pairs) if x != y), min(len(a), len(b)))
    first = [repr(lines[at]) if at < len(lines) else "nothing" for lines in (a, b)]
    return f"stdout: {len(a)} lines became {len(b)}; line {at + 1}: {first[0]} became {first[1]}"


# --------------------------------------------------------------------------- tests


@cache
def _suite() -> Suite:
    return build_suite()


@pytest.fixture(scope="module")
def suite():
    built = _suite()
    yield built
    shutil.rmtree(built.root, ignore_errors=True)


def test_suite_size_and_layout():
    assert len(PROGRAMS) >= 44, len(PROGRAMS)
    numbers = [name.split("_", 1)[0] for name in PROGRAMS]
    assert len(set(numbers)) == len(numbers), "two programs share a number"
    readme = (HERE / "README.md").read_text()
    for name in PROGRAMS:
        assert name in readme, f"{name} is not listed in tests/hazards/README.md"


def test_originals_run_where_the_default_rewrite_changes_code(suite):
    """The originals of the programs the default rewrite changes run, and only those."""
    changed = [p for p in PROGRAMS if _changed(suite.sources, suite.rewrites, "default", p)]
    assert changed and sorted(suite.results["original"]) == changed
    failed = {p: r["error"] for p, r in suite.results["original"].items() if not r["ok"]}
    assert not failed


@pytest.mark.parametrize("program", PROGRAMS)
def test_default_rewrite_keeps_result(suite, program):
    """The acceptance criterion: what `rewrite --write` applies never breaks a program."""
    kind, detail = outcome(suite, "default", program)
    findings = "\n  ".join(suite.rewrites["default"][program].findings)
    assert kind in ("same", "unchanged-code"), f"{kind}: {detail}\nfindings:\n  {findings}"


@pytest.mark.parametrize("program", PROGRAMS)
def test_default_rewrite_is_idempotent(suite, program):
    """A second rewrite changes nothing (where the first changed nothing, the second is
    that same call again: the rewrite is a function of the code)."""
    first = suite.rewrites["default"][program]
    assert first.code is not None, first.error
    if first.code == suite.sources[program]:
        return
    second = rewrite(first.code, str(suite.root / "default" / program), unsafe=False)
    assert second.code is not None, second.error
    assert second.code == first.code, "".join(
        difflib.unified_diff(
            first.code.splitlines(True), second.code.splitlines(True), "first", "second"
        )
    )


# --------------------------------------------------------------------------- by hand


def _report(programs: list[str], folder: Path) -> None:
    suite = build_suite(programs, VARIANTS, every_original=True, folder=folder)
    for program in programs:
        print(f"=== {program}")
        for variant in ("default", "unsafe"):
            rw = suite.rewrites[variant][program]
            if variant == "default":
                for line in rw.findings:
                    print("   ", line)
            kind, detail = outcome(suite, variant, program)
            print(f"  {variant}: {kind} {detail}")
            if rw.code and rw.code != suite.sources[program] and "-v" in sys.argv:
                sys.stdout.writelines(
                    difflib.unified_diff(
                        suite.sources[program].splitlines(True),
                        rw.code.splitlines(True),
                        "original",
                        variant,
                    )
                )
        rec = suite.results["original"][program]
        print(
            f"  original: ok={rec['ok']} {rec.get('error', '')} "
            f"{rec.get('seconds', 0):.2f}s wall {rec.get('cpu', 0):.2f}s cpu"
        )
    print("seconds:", {k: round(v, 1) for k, v in suite.seconds.items()})
    shutil.rmtree(suite.root, ignore_errors=True)


def _named(program: str, wanted: str) -> bool:
    """Whether `wanted` names `program`: `h10` names h10_..., not h100_...; so does a
    longer start, `h10_ao101`."""
    return program.split("_", 1)[0] == wanted or program.startswith(f"{wanted}_")


if __name__ == "__main__":
    wanted = [a for a in sys.argv[1:] if not a.startswith("-")]
    folder = ROUNDING_DIR if "--rounding" in sys.argv else PROGRAMS_DIR
    candidates = _programs(folder)
    _report([p for p in candidates if not wanted or any(_named(p, w) for w in wanted)], folder)
