"""Verification of rewrites: run, compare, time and measure each one in subprocesses.

For each candidate, alone: an instrumented entry run (equivalence, transfers, host
syncs, compilations, peak memory), whole-program timing in fresh processes
(alternating with the original), and, where the rewrite names a target function,
a steady-state replay of that function's captured calls. Then all accepted
rewrites together. See docs/verification.md for the protocol and the thresholds.
"""

from __future__ import annotations

import ast
import itertools
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from autoopt.config import Settings
from autoopt.model import AutooptError
from autoopt.verify.compare import TOLERANCES, Comparison, Tolerance, compare_trees
from autoopt.verify.decide import Thresholds, decide, describe
from autoopt.verify.report import STATUS_VERDICTS, Row, Verdict, VerifyReport
from autoopt.verify.runner import WorkerRun, run_worker
from autoopt.verify.stats import median, speed_view
from autoopt.verify.trees import FlatTree, load_tree

Progress = Callable[[str], None]


@dataclass(frozen=True)
class VerifyOptions:
    """How to run and measure; the defaults suit a small CPU machine."""

    entry: str | None = None  # MODULE:FUNC or FUNC; default: main()
    timeout: float = 120.0  # seconds per subprocess
    rtol: float | None = None  # overrides the dtype's relative tolerance
    atol: float | None = None  # absolute tolerance, overrides the scaled default
    repeats: int = 3  # fresh-process runs per variant for the whole-program view
    rounds: int = 15  # interleaved steady-state rounds per function
    warmup: int = 2  # calls per variant before the timed rounds
    max_calls: int = 3  # captured calls per target function
    bench_budget_s: float = 20.0  # stop steady-state rounds after this (at least 3 rounds)
    memory_limit: int | None = None  # bytes of address space a program may add (RLIMIT_AS)
    thresholds: Thresholds = field(default_factory=Thresholds)


@dataclass
class Candidate:
    """A rewrite to verify: the whole rewritten program text and where it came from."""

    rule: str
    name: str
    line: int
    source: str
    target: str | None = None  # the function the rewrite changes, for the steady-state view
    title: str = ""
    finding: Any = None  # the autoopt.model.Finding, to combine fixes
    error: str = ""  # the fix could not be applied


@dataclass
class _Job:
    candidate: Candidate
    row: Row
    program: Path = Path()
    failed: bool = False

    def fail(self, verdict: Verdict, reason: str) -> None:
        self.row.verdict, self.row.reason, self.failed = verdict, reason, True


def entry_of(path: Path, source: str, entry: str | None) -> str:
    """The entry to call; without one, a module-level `main()` that takes no arguments."""
    if entry:
        return entry
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        raise AutooptError(str(path), f"cannot parse: {exc.msg}", exc.lineno) from exc
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == "main":
            args = node.args
            required = len(args.posonlyargs) + len(args.args) - len(args.defaults)
            required += sum(d is None for d in args.kw_defaults)
            if required == 0:
                return "main"
            raise AutooptError(
                str(path), "main() takes arguments; name an entry with --entry MODULE:FUNC"
            )
    raise AutooptError(
        str(path),
        "no entry point: the file has no module-level main() taking no arguments; "
        "name one with --entry MODULE:FUNC (or just FUNC)",
    )


class _Session:
    """One file under verification: its work directory, baseline run and worker calls."""

    def __init__(self, path: Path, entry: str, options: VerifyOptions, work: Path) -> None:
        self.path, self.entry, self.options, self.work = path, entry, options, work
        self.source = path.read_text()
        self.ids = itertools.count()
        self.tolerance = Tolerance(options.rtol, options.atol)
        self.baseline = WorkerRun("error", "not run")
        self.reference = FlatTree("", [])
        self.x64 = False
        self._repeat: str | None = None

    def write_variant(self, source: str) -> Path:
        """The rewritten program, under the original file name in its own directory."""
        directory = self.work / "variants" / str(next(self.ids))
        directory.mkdir(parents=True)
        program = directory / self.path.name
        program.write_text(source)
        return program

    def run(self, program: Path, **spec: Any) -> WorkerRun:
        search = [str(program.parent), str(self.path.parent)]
        spec = {
            "mode": "run",
            "program": str(program),
            "module": self.path.stem,
            "search_path": list(dict.fromkeys(search)),
            "entry": self.entry,
            "memory_limit": self.options.memory_limit,
            **spec,
        }
        out = self.work / "runs" / str(next(self.ids))
        return run_worker(spec, out, timeout=self.options.timeout, cwd=self.path.parent)

    def run_baseline(self, targets: list[str]) -> WorkerRun:
        capture = {"targets": targets, "dir": str(self.work / "captures")}
        capture["max_calls"] = self.options.max_calls
        self.baseline = self.run(self.path, instrument=True, capture=capture)
        if self.baseline.ok:
            self.reference = load_tree(self.baseline.out_dir, "outputs")
            self.x64 = bool(self.baseline.result.get("x64"))
        return self.baseline

    def compare(self, run: WorkerRun) -> Comparison:
        return compare_trees(
            self.reference, load_tree(run.out_dir, "outputs"), self.tolerance, x64=self.x64
        )

    def repeatability(self) -> str:
        """Whether the original gives the same outputs twice; a note when it does not."""
        if self._repeat is None:
            again = self.run(self.path)
            same = self.compare(again) if again.ok else Comparison(False, again.reason)
            self._repeat = (
                "" if same.equal else f"the original itself differs run to run: {same.reason}"
            )
        return self._repeat

    def bench(self, program: Path, targets: list[str]) -> WorkerRun:
        spec = {
            "mode": "bench",
            "rewritten": str(program),
            "targets": targets,
            "capture_dir": str(self.work / "captures"),
            "rounds": self.options.rounds,
            "warmup": self.options.warmup,
            "budget_s": self.options.bench_budget_s,
            "rtol": self.options.rtol,
            "atol": self.options.atol,
        }
        return self.run(self.path, **spec)


def verify_candidates(
    path: str | Path,
    candidates: list[Candidate],
    options: VerifyOptions | None = None,
    *,
    combine: Callable[[list[Candidate]], str] | None = None,
    progress: Progress | None = None,
) -> VerifyReport:
    """Verify each candidate alone, then the accepted ones together (via `combine`)."""
    path = Path(path)
    options = options or VerifyOptions()
    source = path.read_text()
    entry = entry_of(path, source, options.entry)
    report = VerifyReport(str(path), entry, accepted_source=source, settings=_settings(options))
    say = progress or (lambda _: None)
    if not candidates:
        return report
    with tempfile.TemporaryDirectory(prefix="autoopt-verify-") as work:
        session = _Session(path.resolve(), entry, options, Path(work))
        say(f"{path}: running the original")
        baseline = session.run_baseline(_targets(candidates, entry))
        _environment(report, baseline.result)
        if not baseline.ok:
            report.error = f"the original program fails: {baseline.reason}"
            return report
        jobs = [_job(path, c) for c in candidates]
        _verify_jobs(session, jobs, say)
        report.rows = [job.row for job in jobs]
        report.combined, report.accepted_source = _combine(session, jobs, source, combine, say)
    return report


def _job(path: Path, candidate: Candidate) -> _Job:
    row = Row(candidate.rule, candidate.name, str(path), candidate.line, candidate.title)
    row.target = candidate.target
    job = _Job(candidate, row)
    if candidate.error:
        job.fail(Verdict.ERROR, candidate.error)
    return job


def _verify_jobs(session: _Session, jobs: list[_Job], say: Progress) -> None:
    """Equivalence for every job, then timing for the equivalent ones, then verdicts."""
    for job in jobs:
        if not job.failed:
            say(f"{job.row.rule} {job.row.location}: equivalence")
            _check_equivalence(session, job)
    live = [job for job in jobs if not job.failed]
    if live:
        say(f"timing {len(live)} rewrite(s) in fresh processes")
        _program_views(session, live)
    for job in live:
        if not job.failed and job.candidate.target:
            say(f"{job.row.rule} {job.row.location}: steady state of {job.candidate.target}")
            _function_view(session, job)
        if not job.failed:
            job.row.verdict, job.row.reason = decide(job.row, session.options.thresholds)


def _check_equivalence(session: _Session, job: _Job) -> None:
    if job.candidate.source == session.source:
        job.fail(Verdict.NO_GAIN, "the rewrite changes nothing")
        return
    job.program = session.write_variant(job.candidate.source)
    run = session.run(job.program, instrument=True)
    _counters(job.row, session.baseline, run)
    if not run.ok:
        job.fail(STATUS_VERDICTS.get(run.status, Verdict.CRASHED), run.reason)
        return
    result = session.compare(run)
    job.row.max_abs, job.row.max_rel = result.max_abs, result.max_rel
    if not result.equal:
        note = session.repeatability()
        job.fail(Verdict.NOT_EQUIVALENT, result.reason + (f" ({note})" if note else ""))


def _counters(row: Row, before: WorkerRun, after: WorkerRun) -> None:
    """Transfers, host syncs, compilations and peak memory of the two entry runs."""
    row.transfers_before = before.transfers().get("host-to-device", 0)
    row.syncs_before = sum(before.result.get("syncs", {}).values())
    row.compiles_before = before.result.get("compiles")
    row.memory.peak_rss_before = before.result.get("peak_rss")
    row.memory.device_peak_before = before.result.get("device_peak")
    if after.ok:
        row.transfers_after = after.transfers().get("host-to-device", 0)
        row.syncs_after = sum(after.result.get("syncs", {}).values())
        row.compiles_after = after.result.get("compiles")
        row.memory.peak_rss_after = after.result.get("peak_rss")
        row.memory.device_peak_after = after.result.get("device_peak")


def _program_views(session: _Session, jobs: list[_Job]) -> None:
    """Alternate fresh-process runs of the original and every rewrite, `repeats` times."""
    programs = [session.path, *(job.program for job in jobs)]
    times: list[list[float]] = [[] for _ in programs]
    compile_s: list[list[float]] = [[] for _ in programs]
    broken: dict[int, WorkerRun] = {}
    for repeat in range(session.options.repeats):
        order = range(len(programs)) if repeat % 2 == 0 else reversed(range(len(programs)))
        for i in order:
            if i in broken:
                continue
            run = session.run(programs[i])
            if not run.ok:
                broken[i] = run
                continue
            times[i].append(run.result["total_s"])
            compile_s[i].append(run.result["compile_s"])
    if 0 in broken:
        for job in jobs:
            job.row.notes.append(f"original failed while timing: {broken[0].reason}")
        return
    for i, job in enumerate(jobs, start=1):
        if i in broken:
            job.fail(STATUS_VERDICTS.get(broken[i].status, Verdict.CRASHED), broken[i].reason)
        elif times[i]:
            job.row.program = speed_view(
                "program",
                times[0],
                times[i],
                session.options.thresholds.program_floor,
                compile_s_before=median(compile_s[0]),
                compile_s_after=median(compile_s[i]),
            )


def _function_view(session: _Session, job: _Job) -> None:
    """Replay the target's captured calls against the original and the rewritten function."""
    target = job.candidate.target or ""
    captured = session.baseline.result.get("captured", {}).get(target)
    if not captured or not captured["calls"]:
        why = captured["error"] if captured and captured["error"] else "no calls captured"
        job.row.notes.append(f"no steady-state view of {target}: {why}")
        return
    run = session.bench(job.program, [target])
    if not run.ok:
        job.fail(
            STATUS_VERDICTS.get(run.status, Verdict.CRASHED), f"replaying {target}: {run.reason}"
        )
        return
    data = run.result["functions"].get(target, {})
    if "skipped" in data or not data:
        job.row.notes.append(f"no steady-state view of {target}: {data.get('skipped', 'no data')}")
    elif "error" in data:
        job.fail(Verdict.CRASHED, f"replaying {target}: {data['error']}")
    else:
        _fill_function(session, job, target, data)


def _fill_function(session: _Session, job: _Job, target: str, data: dict[str, Any]) -> None:
    a, b, row = data["a"], data["b"], job.row
    comparison = data["comparison"]
    row.max_abs = max(row.max_abs or 0.0, comparison["max_abs"])
    row.max_rel = max(row.max_rel or 0.0, comparison["max_rel"])
    row.notes.extend(data.get("warnings", []))
    row.memory.compiled_before, row.memory.compiled_after = data["memory_a"], data["memory_b"]
    row.memory.donated_before, row.memory.donated_after = a["deleted"], b["deleted"]
    if not comparison["equal"]:
        job.fail(Verdict.NOT_EQUIVALENT, f"function {target}: {comparison['reason']}")
        return
    row.function = speed_view(
        f"function {target}",
        a["samples"],
        b["samples"],
        session.options.thresholds.floor_for(median(a["samples"])),
        compiles_before=a["compiles"],
        compiles_after=b["compiles"],
        compile_s_before=a["compile_s"],
        compile_s_after=b["compile_s"],
    )


def _combine(
    session: _Session,
    jobs: list[_Job],
    source: str,
    combine: Callable[[list[Candidate]], str] | None,
    say: Progress,
) -> tuple[Row | None, str]:
    """Verify all accepted rewrites together; fall back to the best single one."""
    accepted = [job for job in jobs if job.row.verdict.accepted]
    if not accepted:
        return None, source
    best = max(accepted, key=lambda job: job.row.best_speedup or 0.0)
    if len(accepted) == 1 or combine is None:
        return None, best.candidate.source
    say(f"verifying the {len(accepted)} accepted rewrites together")
    rules = "+".join(dict.fromkeys(job.row.rule for job in accepted))
    candidate = Candidate(rules, "all accepted", 0, "")
    try:
        candidate.source = combine([job.candidate for job in accepted])
    except AutooptError as exc:
        candidate.error = f"the fixes do not combine: {exc.message}"
    job = _job(Path(accepted[0].row.path), candidate)
    if not job.failed:
        _check_equivalence(session, job)
    if not job.failed:
        _program_views(session, [job])
    if not job.failed:
        view = job.row.program
        slow = view is not None and view.slower
        job.row.verdict = Verdict.SLOWER if slow else Verdict.ACCEPTED
        job.row.reason = describe(view) if view else "equivalent"
    if job.row.verdict.accepted:
        return job.row, candidate.source
    job.row.notes.append(f"kept only the best single rewrite: {best.row.rule} {best.row.location}")
    return job.row, best.candidate.source


def _targets(candidates: list[Candidate], entry: str) -> list[str]:
    entry_name = entry.rpartition(":")[2]
    names = {c.target for c in candidates if c.target and c.target != entry_name}
    return sorted(names)


def _environment(report: VerifyReport, result: dict[str, Any]) -> None:
    report.device = result.get("device", "")
    report.platform = result.get("platform", "")
    report.jax_version = result.get("jax", "")
    report.jaxlib_version = result.get("jaxlib", "")
    report.x64 = bool(result.get("x64"))


def _settings(options: VerifyOptions) -> dict[str, Any]:
    data = asdict(options)
    data["tolerances"] = {k: {"rtol": r, "atol_scale": a} for k, (r, a) in TOLERANCES.items()}
    return data


def verify_rewrite(
    path: str | Path,
    rewritten: str,
    *,
    rule: str = "manual",
    target: str | None = None,
    line: int = 0,
    options: VerifyOptions | None = None,
) -> VerifyReport:
    """Verify one hand-given rewritten source of the program at `path`."""
    candidate = Candidate(rule, "rewrite", line, rewritten, target=target)
    return verify_candidates(path, [candidate], options)


def verify_file(
    path: str | Path,
    *,
    entry: str | None = None,
    settings: Settings | None = None,
    timeout: float | None = None,
    rtol: float | None = None,
    atol: float | None = None,
    options: VerifyOptions | None = None,
    progress: Progress | None = None,
) -> VerifyReport:
    """Find the fixable findings of `path`, verify each fix alone, then all accepted ones."""
    from autoopt import api

    settings = settings or Settings()
    options = options or VerifyOptions()
    rtol = rtol if rtol is not None else settings.rtol
    atol = atol if atol is not None else settings.atol
    overrides = {"entry": entry, "timeout": timeout, "rtol": rtol, "atol": atol}
    options = replace(options, **{k: v for k, v in overrides.items() if v is not None})
    code = Path(path).read_text()
    result = api.optimize_source(code, path=str(path), settings=settings)
    findings = [f for f in result.findings if api.applicable(f, settings)]
    candidates = [_from_finding(api, code, str(path), f) for f in findings]

    def combine(chosen: list[Candidate]) -> str:
        return api.apply_fixes(code, [c.finding for c in chosen], path=str(path))

    return verify_candidates(path, candidates, options, combine=combine, progress=progress)


def _from_finding(api: Any, code: str, path: str, finding: Any) -> Candidate:
    candidate = Candidate(
        finding.rule, finding.name, finding.span.line, code, finding.target, finding.title, finding
    )
    try:
        candidate.source = api.apply_fixes(code, [finding], path=path)
    except AutooptError as exc:
        candidate.error = f"the fix cannot be applied: {exc.message}"
    return candidate
