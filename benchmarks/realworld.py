"""Real-repo gate: do autoopt's default fixes keep real projects' own tests passing?

Usage: python benchmarks/realworld.py [NAME=]PATH ... [--json] [options]

For each checkout PATH (never modified), the gate:

1. copies it twice into a scratch folder, `before/` and `after/`;
2. runs the named test files of the repository with pytest in `before/`
   (JAX_PLATFORMS=cpu, -p no:cacheprovider, no -x, a time limit), recording the
   outcome of every test id through a small pytest plugin;
3. runs `autoopt check --format json` (the fixes it calls safe) and then
   `autoopt rewrite --write` (default: safe fixes only) over the package source
   of `after/` (with a preset's own autoopt arguments, e.g. optax's
   --include-tests), reading the fixes applied per rule from the summary table;
4. runs the same tests in `after/`;
5. reports new failures (passed before; failed, errored or gone after), re-runs
   them in both trees to rule out flaky tests, and with --attribute finds the
   rewritten file (and rule) that causes each one.

NAME picks a preset (flax, ott-jax, jax-cfd, jax-md, optax; see PRESETS: commit,
test files and why, package folders, test dependencies, extra autoopt arguments).
NAME defaults to the folder name of PATH. Per-repo options override a preset or
describe a repository without one: --tests NAME="FILE ...", --package NAME="DIR ...",
--pythonpath NAME="DIR ...", --pytest-args NAME="ARGS", --install-cmd NAME="CMD".

autoopt is run as `python -m autoopt` from a copy of the package taken at the
start (so edits made while the gate runs change nothing): by default the
autoopt/ of this work tree, uncommitted changes included; --autoopt-rev REV
takes it from a git revision of this repository instead.

How to get the checkouts and reproduce the recorded measurement:
benchmarks/realworld_repos.md.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PASSED = "passed"
BROKEN = ("failed", "error", "collect-error", "missing")
COPY_IGNORE = shutil.ignore_patterns(".git", "__pycache__", ".pytest_cache", ".autoopt_cache")

# ott-jax (every release with `batched_vmap`) calls jax.interpreters.batching.is_vmappable,
# which jax 0.10 removed. Before its removal it returned True only for types registered as
# custom vmappables; nothing in ott registers one, so False is the old answer exactly.
_OTT_PRELUDE = """\
from jax.interpreters import batching
if "is_vmappable" not in vars(batching):
    batching.is_vmappable = lambda data: False
"""


@dataclass(frozen=True)
class Preset:
    """Defaults for one public repository: where its code and tests are, and why."""

    commit: str
    package: tuple[str, ...]
    tests: tuple[str, ...]
    why: str
    pythonpath: tuple[str, ...] = (".",)
    pytest_args: tuple[str, ...] = ()
    requirements: tuple[str, ...] = ()
    prelude: str = ""
    autoopt_args: tuple[str, ...] = ()


PRESETS: dict[str, Preset] = {
    "flax": Preset(
        commit="18f8f311c275d57f46d95e41b15aa97b454754c0",
        package=("flax",),
        tests=(
            "tests/linen/linen_module_test.py",
            "tests/nnx/module_test.py",
            "tests/linen/summary_test.py",
            "tests/linen/partitioning_test.py",
            "tests/linen/linen_batch_apply_test.py",
            "tests/jax_utils_test.py",
            "tests/linen/linen_test.py::NormalizationTest",
            "tests/nnx/nn/normalization_test.py",
        ),
        why="the core Linen and NNX module tests, plus the tests of the modules where autoopt "
        "proposes fixes (summary, partitioning, batch_apply, jax_utils, normalization); "
        "about 5 minutes on 2 busy cores",
        requirements=(
            "msgpack",
            "optax",
            "orbax-checkpoint",
            "tensorstore",
            "rich",
            "PyYAML",
            "treescope",
            "absl-py",
            "einops",
            "cloudpickle",
        ),
    ),
    "ott-jax": Preset(
        commit="6aace50f673b877cc3394d0b53a24da0bbf11308",
        package=("src/ott",),
        pythonpath=("src",),
        tests=(
            "tests/utils_test.py",
            "tests/geometry/pointcloud_test.py",
            "tests/tools/plot_test.py",
        ),
        why="the files issue 11 names (batched_vmap, select_batch, point clouds), and the plot "
        "tool, where autoopt applies a safe AO301 hoist; about 5 minutes on 2 busy cores. "
        "A prelude puts back `batching.is_vmappable`, which jax 0.10 removed and every "
        "ott release calls, so that the tests exercise ott rather than that incompatibility",
        requirements=(
            "jaxopt",
            "lineax",
            "optax",
            "chex",
            "networkx",
            "scikit-learn",
            "tqdm",
            "matplotlib",
        ),
        prelude=_OTT_PRELUDE,
    ),
    "jax-cfd": Preset(
        commit="a1b5b51e982d19c3ff4a9fa89fe1ff396eed5a60",
        package=("jax_cfd",),
        tests=("jax_cfd/base/advection_test.py", "jax_cfd/base/interpolation_test.py"),
        why="advection (the `_total_variation` helper of issue 11; its tests sit inside the "
        "package, so rewriting the package also rewrites them) and interpolation, "
        "where autoopt finds a fix; about a minute",
        requirements=("tree-math", "scipy", "absl-py"),
    ),
    "jax-md": Preset(
        commit="a41c7d19f6468f4e5263c32c12c9ed6cba26ebff",
        package=("jax_md",),
        tests=(
            "tests/simulate_test.py",
            "tests/nn_test.py::NeuralNetworkTest",
            "tests/uma_test.py::WignerDTest",
            "tests/uma_test.py::UMABackboneForwardTest",
        ),
        why="simulation states, integrators and their initialisation (donated states, "
        "`initialize_momenta`), graph networks (`concatenate_graph_features`) and the UMA "
        "Wigner-D rotations (`wigner_D`, whose degree sizes arrays) with the backbone that "
        "uses them; the PyTorch comparisons need torch and fairchem and are left out",
        requirements=(
            "absl-py",
            "flax",
            "jraph",
            "einops",
            "ml_collections",
            "e3nn-jax",
            "equinox",
            "optax",
            "frozendict",
            "ase",
            "netCDF4",
        ),
    ),
    "optax": Preset(
        commit="2edbcbe2390da13983b92cbef94ac0460ecde1c5",
        package=("optax",),
        tests=("optax/transforms/_accumulation_test.py", "optax/_src/linesearch_test.py"),
        why="tests that run optimisation loops: `MultiSteps` gradient accumulation training a "
        "Flax Dense layer step by step (the loss must stay put between updates and fall at "
        "each one), and backtracking and zoom line searches driving gradient descent and SGD "
        "to a known minimum. The loops live in the `*_test.py` files inside the package, where "
        "autoopt's safe fixes are, so this preset rewrites test files too "
        "(`--include-tests`). The two mixed-precision `MultiSteps` tests (3 minutes, no fix) "
        "are deselected; about 5 minutes on 2 busy cores",
        pytest_args=("-k", "not mixed_precision"),
        requirements=("absl-py", "flax", "scipy"),
        autoopt_args=("--include-tests",),
    ),
}


@dataclass
class TestRun:
    """One pytest run: outcome per test id, exit code, seconds, whether it timed out."""

    outcomes: dict[str, str]
    messages: dict[str, str]
    returncode: int
    seconds: float
    timed_out: bool
    log: str

    def counts(self) -> dict[str, int]:
        """How many tests ended in each outcome."""
        return dict(Counter(self.outcomes.values()))


@dataclass
class NewFailure:
    """A test that passed before the rewrite and does not after it."""

    test: str
    after: str
    message: str
    confirmed: bool | None = None
    culprits: list[str] = field(default_factory=list)


@dataclass
class RepoResult:
    """Everything the gate measured on one repository."""

    name: str
    path: str
    commit: str
    package: list[str]
    tests: list[str]
    pytest_args: list[str]
    autoopt_args: list[str] = field(default_factory=list)
    before: dict[str, int] = field(default_factory=dict)
    after: dict[str, int] = field(default_factory=dict)
    before_seconds: float = 0.0
    after_seconds: float = 0.0
    timed_out: list[str] = field(default_factory=list)
    not_run_after: int = 0
    findings_claimed: dict[str, int] = field(default_factory=dict)
    fixes_applied: dict[str, int] = field(default_factory=dict)
    rewrite_exit: int = 0
    rewrite_errors: list[str] = field(default_factory=list)
    rewritten_files: list[str] = field(default_factory=list)
    applied_sites: list[dict[str, object]] = field(default_factory=list)
    new_failures: list[NewFailure] = field(default_factory=list)
    now_passing: list[str] = field(default_factory=list)
    error: str = ""


# A pytest plugin (written to the scratch folder, loaded with -p): one JSON line per
# outcome, appended as tests run, so a run stopped by the time limit still counts what ran.
_PLUGIN = """\
import json
import os

_OUT = os.environ["REALWORLD_OUTCOMES"]
_PRELUDE = os.environ.get("REALWORLD_PRELUDE")
if _PRELUDE:
    with open(_PRELUDE) as _fh:
        exec(compile(_fh.read(), _PRELUDE, "exec"), {})


def _record(nodeid, outcome, report):
    message = ""
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        message = crash.message
    elif report.longrepr is not None and not report.passed:
        message = str(report.longrepr).strip().splitlines()[-1:]
        message = message[0] if message else ""
    with open(_OUT, "a") as fh:
        fh.write(json.dumps({"id": nodeid, "outcome": outcome, "message": message[:400]}) + "\\n")


def pytest_runtest_logreport(report):
    xfail = hasattr(report, "wasxfail")
    if report.when == "call":
        if report.passed:
            _record(report.nodeid, "xpassed" if xfail else "passed", report)
        elif report.failed:
            _record(report.nodeid, "failed", report)
        else:
            _record(report.nodeid, "xfailed" if xfail else "skipped", report)
    elif report.when == "setup" and not report.passed:
        skipped = "xfailed" if xfail else "skipped"
        _record(report.nodeid, skipped if report.skipped else "error", report)
    elif report.when == "teardown" and report.failed:
        _record(report.nodeid, "error", report)


def pytest_collectreport(report):
    if report.failed:
        _record(report.nodeid, "collect-error", report)
"""


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)


def run_logged(
    command: list[str], cwd: Path, env: dict[str, str], log: Path, timeout: float
) -> tuple[int, float, bool]:
    """Run `command` with its output in `log`: (exit code, seconds, timed out)."""
    start = time.perf_counter()
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        try:
            code = process.wait(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            _kill_group(process)
            code = process.wait()
            timed_out = True
        except BaseException:
            _kill_group(process)
            raise
    return code, time.perf_counter() - start, timed_out


@dataclass
class Gate:
    """Shared settings of one gate run: interpreters, autoopt, scratch, limits."""

    python: str
    autoopt_path: Path
    scratch: Path
    timeout: float
    autoopt_args: list[str]
    install_only: bool = False

    def test_env(
        self, tree: Path, pythonpath: list[str], outcomes: Path, prelude: Path | None
    ) -> dict[str, str]:
        """Environment of a pytest run in `tree`."""
        env = dict(os.environ)
        for name in ("PYTHONPATH", "PYTEST_ADDOPTS", "JAX_ENABLE_X64"):
            env.pop(name, None)
        paths = [str(self.scratch / "plugin")] + [str(tree / p) for p in pythonpath]
        env.update(
            PYTHONPATH=os.pathsep.join(paths),
            JAX_PLATFORMS="cpu",
            PYTHONDONTWRITEBYTECODE="1",
            REALWORLD_OUTCOMES=str(outcomes),
        )
        if prelude is not None:
            env["REALWORLD_PRELUDE"] = str(prelude)
        return env

    def pytest(
        self,
        tree: Path,
        label: str,
        targets: list[str],
        args: list[str],
        pythonpath: list[str],
        prelude: Path | None,
    ) -> TestRun:
        """Run pytest on `targets` in `tree`; outcomes per test id."""
        outcomes = self.scratch / f"{label}.outcomes.jsonl"
        outcomes.unlink(missing_ok=True)
        log = self.scratch / f"{label}.pytest.log"
        command = [self.python, "-m", "pytest", "-p", "realworld_outcomes"]
        command += ["-p", "no:cacheprovider", "-q", "-rN", *args, *targets]
        env = self.test_env(tree, pythonpath, outcomes, prelude)
        code, seconds, timed_out = run_logged(command, tree, env, log, self.timeout)
        results: dict[str, str] = {}
        messages: dict[str, str] = {}
        if outcomes.exists():
            for line in outcomes.read_text().splitlines():
                row = json.loads(line)
                results[row["id"]] = row["outcome"]
                messages[row["id"]] = row["message"]
        return TestRun(results, messages, code, seconds, timed_out, str(log))

    def autoopt(self, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
        """Run the snapshot of autoopt with `args` in `cwd`."""
        env = dict(os.environ, PYTHONPATH=str(self.autoopt_path), NO_COLOR="1", COLUMNS="200")
        env.pop("FORCE_COLOR", None)
        command = [sys.executable, "-m", "autoopt", *args]
        return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)


def snapshot_autoopt(scratch: Path, rev: str | None) -> tuple[Path, str]:
    """Copy the autoopt package (work tree or git `rev`) into scratch: (folder, provenance)."""
    target = scratch / "autoopt-src"
    target.mkdir(parents=True)

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
        return done.stdout.strip() if done.returncode == 0 else ""

    if rev:
        commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
        if not commit:
            raise SystemExit(f"error: no such git revision: {rev}")
        archive = subprocess.run(
            ["git", "archive", commit, "autoopt"], cwd=ROOT, capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
        return target, f"autoopt at {commit[:12]} (git revision {rev})"
    shutil.copytree(ROOT / "autoopt", target / "autoopt", ignore=COPY_IGNORE)
    head = git("rev-parse", "HEAD")[:12] or "unknown"
    dirty = git("status", "--porcelain", "--", "autoopt")
    state = f", {len(dirty.splitlines())} uncommitted paths under autoopt/" if dirty else ""
    return target, f"autoopt work tree at {head}{state}"


def checkout_commit(path: Path, preset: Preset | None) -> str:
    """The checkout's git commit, else its .realworld-commit file, else the preset's pin."""
    command = ["git", "rev-parse", "--show-toplevel", "HEAD"]
    done = subprocess.run(command, cwd=path, capture_output=True, text=True)
    lines = done.stdout.split()
    if done.returncode == 0 and len(lines) == 2 and Path(lines[0]).resolve() == path.resolve():
        return lines[1]
    marker = path / ".realworld-commit"
    if marker.is_file():
        return marker.read_text().strip()
    return f"{preset.commit} (preset; not a git checkout)" if preset else "unknown"


_SUMMARY_ROW = re.compile(r"^\W*(AO\d{3})\W+(\d+)\W+(\d+)\W*$")


def fixes_from_summary(text: str) -> dict[str, int]:
    """Fixes per rule from the summary table `autoopt rewrite --write` prints."""
    fixes: dict[str, int] = {}
    for line in text.splitlines():
        match = _SUMMARY_ROW.match(line)
        if match and int(match.group(3)):
            fixes[match.group(1)] = int(match.group(3))
    return fixes


def changed_files(before: Path, after: Path, package: list[str]) -> list[str]:
    """Files under the package folders whose bytes differ between the two trees."""
    changed = []
    for folder in package:
        base = after / folder
        files = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
        for path in files:
            rel = path.relative_to(after)
            old = before / rel
            if not old.exists() or old.read_bytes() != path.read_bytes():
                changed.append(rel.as_posix())
    return changed


def write_diff(before: Path, after: Path, files: list[str], out: Path) -> None:
    """A unified diff of the rewritten files (old tree a/, new tree b/)."""
    chunks: list[str] = []
    for rel in files:
        old = (
            (before / rel).read_text().splitlines(keepends=True) if (before / rel).exists() else []
        )
        new = (after / rel).read_text().splitlines(keepends=True)
        chunks += difflib.unified_diff(old, new, f"a/{rel}", f"b/{rel}")
    out.write_text("".join(chunks))


def is_test_file(rel: str) -> bool:
    """Whether a path looks like a test module (tests/, test_*.py, *_test.py)."""
    name = rel.rsplit("/", 1)[-1]
    return "tests/" in f"/{rel}" or name.startswith("test_") or name.endswith("_test.py")


@dataclass
class RepoSpec:
    """What to run for one repository, after presets and per-repo options."""

    name: str
    path: Path
    preset: Preset | None
    package: list[str]
    tests: list[str]
    pytest_args: list[str]
    pythonpath: list[str]
    install: str
    prelude: str
    autoopt_args: list[str]


def gate_repo(
    gate: Gate, spec: RepoSpec, confirm: bool, attribute: bool, install: bool
) -> RepoResult:
    """Run the whole gate on one repository; its logs and diff stay in the scratch folder."""
    result = RepoResult(
        name=spec.name,
        path=str(spec.path),
        commit=checkout_commit(spec.path, spec.preset),
        package=spec.package,
        tests=spec.tests,
        pytest_args=spec.pytest_args,
        autoopt_args=spec.autoopt_args,
    )
    work = gate.scratch / spec.name
    before, after = work / "before", work / "after"
    progress(f"{spec.name}: copying {spec.path}")
    shutil.copytree(spec.path, before, symlinks=True, ignore=COPY_IGNORE)
    shutil.copytree(before, after, symlinks=True)
    prelude = None
    if spec.prelude:
        prelude = work / "prelude.py"
        prelude.write_text(spec.prelude)
    if install and spec.install:
        progress(f"{spec.name}: install step: {spec.install}")
        command = spec.install.replace("{python}", shlex.quote(gate.python))
        log = work / "install.log"
        code, _, _ = run_logged(["bash", "-c", command], before, dict(os.environ), log, 3600)
        if code:
            result.error = f"install step failed (exit {code}); see {log}"
            return result
    if gate.install_only:
        return result

    def run_tests(tree: Path, label: str, targets: list[str]) -> TestRun:
        args, paths = spec.pytest_args, spec.pythonpath
        return gate.pytest(tree, f"{spec.name}.{label}", targets, args, paths, prelude)

    progress(f"{spec.name}: tests before ({' '.join(spec.tests)})")
    first = run_tests(before, "before", spec.tests)
    result.before, result.before_seconds = first.counts(), round(first.seconds, 1)
    if first.timed_out:
        result.timed_out.append("before")
    if not first.outcomes:
        result.error = f"no test ran before the rewrite (exit {first.returncode}); see {first.log}"
        return result

    progress(f"{spec.name}: autoopt check + rewrite --write on {' '.join(spec.package)}")
    common = ["--no-cache", "--no-progress", "--jobs", "1", *spec.autoopt_args, *gate.autoopt_args]
    checked = gate.autoopt(["check", *spec.package, "--format", "json", *common], after)
    claimed = json.loads(checked.stdout) if checked.stdout.strip().startswith("{") else {}
    unsafe = "--unsafe-fixes" in common
    wanted = ("safe", "unsafe") if unsafe else ("safe",)
    sites = [f for f in claimed.get("findings", []) if f.get("fix") in wanted]
    result.findings_claimed = dict(Counter(str(f["rule"]) for f in sites))
    rewrite = gate.autoopt(["rewrite", *spec.package, "--write", *common], after)
    result.rewrite_exit = rewrite.returncode
    result.fixes_applied = fixes_from_summary(rewrite.stdout + rewrite.stderr)
    result.rewrite_errors = [
        line for line in rewrite.stderr.splitlines() if ": " in line and "rewrote" not in line
    ]
    (work / "rewrite.log").write_text(rewrite.stdout + rewrite.stderr)
    result.rewritten_files = changed_files(before, after, spec.package)
    write_diff(before, after, result.rewritten_files, work / "rewrite.diff")
    written = set(result.rewritten_files)
    result.applied_sites = [
        {k: f[k] for k in ("path", "line", "rule", "fix", "message")}
        for f in sites
        if f["path"] in written
    ]

    if not result.rewritten_files:
        progress(f"{spec.name}: no file rewritten; the tests after are the tests before")
        result.after, result.after_seconds = result.before, 0.0
        return result
    progress(f"{spec.name}: tests after")
    second = run_tests(after, "after", spec.tests)
    result.after, result.after_seconds = second.counts(), round(second.seconds, 1)
    if second.timed_out:
        result.timed_out.append("after")
    for test, outcome in first.outcomes.items():
        now = second.outcomes.get(test, "missing")
        if now == "missing" and second.timed_out:
            result.not_run_after += 1
        elif outcome == PASSED and now in BROKEN:
            result.new_failures.append(NewFailure(test, now, second.messages.get(test, "")))
        elif outcome in BROKEN and now == PASSED:
            result.now_passing.append(test)
    for test, outcome in second.outcomes.items():
        if outcome == "collect-error" and test not in first.outcomes:
            message = second.messages.get(test, "")
            result.new_failures.append(NewFailure(test, outcome, message))

    ids = [f.test for f in result.new_failures]
    if ids and confirm:
        progress(f"{spec.name}: re-running {len(ids)} new failures in both trees")
        again_after = run_tests(after, "confirm-after", ids)
        again_before = run_tests(before, "confirm-before", ids)
        for failure in result.new_failures:
            still = again_after.outcomes.get(failure.test, "missing") in BROKEN
            fine = again_before.outcomes.get(failure.test, PASSED) == PASSED
            failure.confirmed = still and fine
    if ids and attribute:
        attribute_failures(gate, result, work, run_tests, spec.autoopt_args)
    return result


def attribute_failures(
    gate: Gate,
    result: RepoResult,
    work: Path,
    run_tests: Callable[[Path, str, list[str]], TestRun],
    autoopt_args: list[str],
) -> None:
    """Find, for each new failure, the rewritten file (then rule) that alone causes it."""
    before, after, probe = work / "before", work / "after", work / "probe"
    shutil.rmtree(probe, ignore_errors=True)
    shutil.copytree(before, probe, symlinks=True)
    failing = {f.test: f for f in result.new_failures if f.confirmed is not False}
    for rel in result.rewritten_files:
        if not failing:
            break
        progress(f"{result.name}: attributing: only {rel} rewritten")
        shutil.copy2(after / rel, probe / rel)
        run = run_tests(probe, "probe", sorted(failing))
        shutil.copy2(before / rel, probe / rel)
        guilty = [t for t in failing if run.outcomes.get(t, "missing") in BROKEN]
        rules = sorted({str(s["rule"]) for s in result.applied_sites if s["path"] == rel})
        blame = {t: rel for t in guilty}
        if guilty and len(rules) > 1:
            for rule in rules:
                shutil.copy2(before / rel, probe / rel)
                args = ["rewrite", rel, "--write", "--select", rule, "--no-cache", "--no-progress"]
                gate.autoopt(args + autoopt_args + gate.autoopt_args, probe)
                run = run_tests(probe, "probe", guilty)
                for t in guilty:
                    if run.outcomes.get(t, "missing") in BROKEN:
                        blame[t] = f"{rel} ({rule})"
            shutil.copy2(before / rel, probe / rel)
        for test, culprit in blame.items():
            failing[test].culprits.append(culprit)


def progress(message: str) -> None:
    """A progress line on stderr."""
    print(f"[realworld] {message}", file=sys.stderr, flush=True)


def _counts(counts: dict[str, int]) -> str:
    order = ["passed", "failed", "error", "collect-error", "skipped", "xfailed", "xpassed"]
    return ", ".join(f"{counts[k]} {k}" for k in order if counts.get(k))


def markdown(results: list[RepoResult], provenance: str, when: str) -> str:
    """The gate's report as markdown: one table, then each repository's new failures."""
    lines = [
        f"Real-repo gate, {provenance}; {when}",
        "",
        "| repo | commit | test files | before | after | fixes applied | files rewritten"
        " | new failures |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        fixes = ", ".join(f"{k} {v}" for k, v in sorted(r.fixes_applied.items())) or "0"
        tests_in = sum(1 for f in r.rewritten_files if is_test_file(f))
        files = f"{len(r.rewritten_files)}" + (f" ({tests_in} test files)" if tests_in else "")
        news = "error: " + r.error if r.error else str(len(r.new_failures))
        if "after" in r.timed_out:
            news += f" (timed out after the rewrite: {r.not_run_after} tests not run)"
        elif r.timed_out:
            news += " (timed out before the rewrite)"
        after = (
            _counts(r.after) if r.rewritten_files or r.error else "not re-run: nothing rewritten"
        )
        name = f"{r.name} ({' '.join(r.autoopt_args)})" if r.autoopt_args else r.name
        row = [name, r.commit[:12], "<br>".join(r.tests), _counts(r.before), after]
        lines.append("| " + " | ".join([*row, fixes, files, f"**{news}**"]) + " |")
    total_fixes = sum(sum(r.fixes_applied.values()) for r in results)
    total_new = sum(len(r.new_failures) for r in results)
    lines += ["", f"Total: {total_fixes} fixes applied, **{total_new} new failures**."]
    for r in results:
        if r.rewrite_errors:
            lines += ["", f"### {r.name}: autoopt errors", ""]
            lines += [f"- `{e}`" for e in r.rewrite_errors]
        if r.applied_sites:
            lines += ["", f"### {r.name}: fixes in the rewritten files (`autoopt check`)", ""]
            lines += [
                f"- {s['path']}:{s['line']} {s['rule']} ({s['fix']}): {s['message']}"
                for s in r.applied_sites
            ]
        if r.new_failures:
            lines += ["", f"### {r.name}: new failures", ""]
            for f in r.new_failures:
                state = {True: "", False: " (not reproduced: flaky?)", None: ""}[f.confirmed]
                only = " or only ".join(f.culprits)
                cause = f"; fails with only {only} rewritten" if f.culprits else ""
                message = " ".join(f.message.split())[:240]
                lines.append(f"- `{f.test}`: {f.after}{state}{cause}: {message}")
        if r.now_passing:
            lines += ["", f"{r.name}: {len(r.now_passing)} tests failed before and pass after."]
    return "\n".join(lines) + "\n"


def results_from_json(document: dict[str, object]) -> list[RepoResult]:
    """The results of a saved --json document."""
    results = []
    for row in document["repos"]:  # type: ignore[attr-defined]
        failures = [NewFailure(**f) for f in row.pop("new_failures")]
        results.append(RepoResult(**row, new_failures=failures))
    return results


def keyed(values: list[str], option: str) -> dict[str, str]:
    """Parse repeated NAME=VALUE options."""
    parsed = {}
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep:
            raise SystemExit(f"error: {option} takes NAME=VALUE, got {value!r}")
        parsed[name] = rest
    return parsed


def repo_specs(args: argparse.Namespace) -> list[RepoSpec]:
    """Each repository argument with its preset and per-repo options applied."""
    tests, package = keyed(args.tests, "--tests"), keyed(args.package, "--package")
    pythonpath, extra = (
        keyed(args.pythonpath, "--pythonpath"),
        keyed(args.pytest_args, "--pytest-args"),
    )
    install = keyed(args.install_cmd, "--install-cmd")
    specs = []
    for item in args.repos:
        name, sep, raw = item.partition("=")
        path = Path(raw if sep else item).expanduser().resolve()
        name = name if sep else path.name
        if not path.is_dir():
            raise SystemExit(f"error: {path}: not a folder")
        preset = PRESETS.get(name)
        if preset is None and (name not in tests or name not in package):
            known = ", ".join(PRESETS)
            raise SystemExit(f"error: {name}: no preset ({known}); give --tests and --package")
        reqs = " ".join(shlex.quote(r) for r in preset.requirements) if preset else ""
        default_install = f"{{python}} -m pip install -c {{constraints}} {reqs}" if reqs else ""
        specs.append(
            RepoSpec(
                name=name,
                path=path,
                preset=preset,
                package=tests_split(package.get(name)) or list(preset.package if preset else ()),
                tests=tests_split(tests.get(name)) or list(preset.tests if preset else ()),
                pytest_args=shlex.split(extra[name])
                if name in extra
                else list(preset.pytest_args if preset else ()),
                pythonpath=tests_split(pythonpath.get(name))
                or list(preset.pythonpath if preset else (".",)),
                install=install.get(name, default_install),
                prelude=preset.prelude if preset else "",
                autoopt_args=list(preset.autoopt_args if preset else ()),
            )
        )
    return specs


def tests_split(value: str | None) -> list[str]:
    """Split a space- or comma-separated list."""
    return [v for v in re.split(r"[\s,]+", value or "") if v]


def interpreter(python: str) -> str:
    """Python and jax versions of the interpreter that runs the tests."""
    code = "import sys, jax; print(f'Python {sys.version.split()[0]}, jax {jax.__version__}')"
    done = subprocess.run([python, "-c", code], capture_output=True, text=True)
    return done.stdout.strip() or f"{python} (cannot import jax)"


def pinned_constraints(python: str, scratch: Path) -> Path:
    """A pip constraints file pinning jax, jaxlib and numpy to what `python` has."""
    code = (
        "import importlib.metadata as m\n"
        "for n in ('jax', 'jaxlib', 'numpy'):\n"
        "    try: print(f'{n}=={m.version(n)}')\n"
        "    except m.PackageNotFoundError: pass\n"
    )
    pins = subprocess.run([python, "-c", code], capture_output=True, text=True, check=True)
    path = scratch / "constraints.txt"
    path.write_text(pins.stdout)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Presets: "
        + "; ".join(f"{k} ({', '.join(v.tests)})" for k, v in PRESETS.items())
        + ". Checkouts and commits: benchmarks/realworld_repos.md.",
    )
    parser.add_argument("repos", nargs="*", metavar="[NAME=]PATH", help="checkouts to gate")
    parser.add_argument("--presets", action="store_true", help="describe the presets and exit")
    per_repo = "(per repo, repeatable)"
    parser.add_argument(
        "--tests", action="append", default=[], metavar="NAME=FILES", help=f"test files {per_repo}"
    )
    parser.add_argument(
        "--package",
        action="append",
        default=[],
        metavar="NAME=DIRS",
        help=f"folders autoopt rewrites {per_repo}",
    )
    parser.add_argument(
        "--pythonpath",
        action="append",
        default=[],
        metavar="NAME=DIRS",
        help=f"import roots for the tests {per_repo}",
    )
    parser.add_argument(
        "--pytest-args",
        action="append",
        default=[],
        metavar="NAME=ARGS",
        help=f"extra pytest arguments {per_repo}",
    )
    parser.add_argument(
        "--install-cmd",
        action="append",
        default=[],
        metavar="NAME=CMD",
        help=f"shell command of the install step, {{python}} for the interpreter {per_repo}",
    )
    parser.add_argument(
        "--install",
        action="store_true",
        help="run each repo's install step first (presets: pip install of its test "
        "dependencies, jax/jaxlib/numpy pinned to the test interpreter's)",
    )
    parser.add_argument(
        "--install-only", action="store_true", help="run the install steps, then stop"
    )
    parser.add_argument("--python", default=sys.executable, help="interpreter that runs the tests")
    parser.add_argument("--autoopt-rev", help="use autoopt from this git revision")
    parser.add_argument("--unsafe-fixes", action="store_true", help="also apply unsafe fixes")
    parser.add_argument("--select", help="autoopt --select")
    parser.add_argument("--ignore", help="autoopt --ignore")
    parser.add_argument(
        "--autoopt-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="pass ARG to autoopt check and rewrite (repeatable): --autoopt-arg=--include-tests",
    )
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per pytest run")
    parser.add_argument("--no-confirm", action="store_true", help="do not re-run new failures")
    parser.add_argument(
        "--attribute",
        action="store_true",
        help="find the rewritten file (and rule) behind each new failure",
    )
    parser.add_argument("--scratch", help="scratch folder (default: a new temporary one)")
    parser.add_argument(
        "--clean", action="store_true", help="delete the scratch folder (logs, diffs) at the end"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of markdown")
    parser.add_argument(
        "--render", metavar="FILE.json", help="print the markdown of a saved --json document"
    )
    args = parser.parse_args(argv)
    if args.render:
        document = json.loads(Path(args.render).read_text())
        results = results_from_json(document)
        print(markdown(results, document["autoopt"], document.get("when", "")), end="")
        return 0
    if args.presets or not args.repos:
        for name, preset in PRESETS.items():
            print(f"{name} @ {preset.commit}\n  package: {' '.join(preset.package)}")
            print(f"  tests: {' '.join(preset.tests)}\n  why: {preset.why}")
            for label, values in (("pytest", preset.pytest_args), ("autoopt", preset.autoopt_args)):
                if values:
                    print(f"  {label} arguments: {shlex.join(values)}")
        return 0 if args.presets else 2

    specs = repo_specs(args)
    scratch = Path(args.scratch or tempfile.mkdtemp(prefix="realworld-")).resolve()
    scratch.mkdir(parents=True, exist_ok=True)
    if any(scratch.iterdir()):
        raise SystemExit(f"error: {scratch}: scratch folder is not empty")
    (scratch / "plugin").mkdir()
    (scratch / "plugin" / "realworld_outcomes.py").write_text(_PLUGIN)
    autoopt_path, provenance = snapshot_autoopt(scratch, args.autoopt_rev)
    provenance += f", tests with {interpreter(args.python)}"
    started = time.time()
    extra = ["--unsafe-fixes"] if args.unsafe_fixes else []
    extra += ["--select", args.select] if args.select else []
    extra += ["--ignore", args.ignore] if args.ignore else []
    extra += args.autoopt_arg
    gate = Gate(args.python, autoopt_path, scratch, args.timeout, extra, args.install_only)
    args.install = args.install or args.install_only
    if args.install:
        constraints = pinned_constraints(args.python, scratch)
        for spec in specs:
            spec.install = spec.install.replace("{constraints}", shlex.quote(str(constraints)))
    progress(f"{provenance}; scratch {scratch}")
    results = []
    try:
        for spec in specs:
            results.append(gate_repo(gate, spec, not args.no_confirm, args.attribute, args.install))
    finally:
        if args.clean:
            shutil.rmtree(scratch, ignore_errors=True)
        else:
            progress(f"logs, outcomes and rewrite diffs: {scratch}")
    if args.install_only:
        failed = [r for r in results if r.error]
        for r in failed:
            print(f"{r.name}: {r.error}", file=sys.stderr)
        return 1 if failed else 0
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(started))
    rows = [asdict(r) for r in results]
    document = json.dumps({"autoopt": provenance, "when": when, "repos": rows}, indent=2)
    report = markdown(results, provenance, when)
    if not args.clean:
        (scratch / "report.json").write_text(document + "\n")
        (scratch / "report.md").write_text(report)
    print(document if args.json else report, end="\n" if args.json else "")
    return 1 if any(r.new_failures or r.error for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
