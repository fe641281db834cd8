"""Verification of rewrites: run, compare, time and measure each one in subprocesses.

The original runs once, capturing the calls of the functions the rewrites target.
Then the original and every rewrite (plus, speculatively, all of them together)
run alternately in fresh processes: each run is compared with the original's
output, timed, and counted (transfers, host syncs, compilations, peak memory).
One more worker replays the captured calls against each rewritten function for
its steady state. Finally the accepted rewrites are checked together.
See docs/verification.md for the protocol and the thresholds.
"""

from __future__ import annotations

import ast
import contextlib
import itertools
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from autoopt.config import Settings
from autoopt.model import Applicability, AutooptError, Finding
from autoopt.verify.capture import load_output
from autoopt.verify.compare import TOLERANCES, Comparison, Tolerance, compare_trees
from autoopt.verify.decide import (
    REMAT,
    Thresholds,
    decide,
    describe,
    memory_goal,
    peak_wins,
    settle,
)
from autoopt.verify.environment import changes_setup
from autoopt.verify.printed import OutputDiff, Position, compare_output
from autoopt.verify.region import changed_region
from autoopt.verify.report import STATUS_VERDICTS, Row, Verdict, VerifyReport
from autoopt.verify.runner import WorkerRun, run_worker
from autoopt.verify.stats import MIN_PAIRS, median, pooled_noise, speed_view
from autoopt.verify.trees import FlatTree, load_tree

Progress = Callable[[str], None]
Sample = tuple[float, float]  # seconds (CPU or wall) and compile seconds of one entry run
Memory = tuple[bool, int | None, int | None]  # compiled nothing; peak RSS; device peak
BENCH_SHARE = 0.5  # of the budget left after the first rounds, for the steady-state view
MIN_BENCH_S = 2.0  # seconds a region gets however little budget is left


@dataclass(frozen=True)
class VerifyOptions:
    """How to run and measure; the defaults suit a small CPU machine."""

    entry: str | None = None  # MODULE:FUNC or FUNC; default: main()
    timeout: float = 120.0  # seconds per subprocess
    rtol: float | None = None  # overrides the dtype's relative tolerance
    atol: float | None = None  # absolute tolerance, overrides the scaled default
    repeats: int = 1  # fresh-process rounds every rewrite gets, budget or not
    max_repeats: int = 20  # ... and at most, while its speed is undecided and budget is left
    budget_s: float = 30.0  # seconds per file; past it, no round begins beyond the minimum
    rounds: int = 60  # interleaved steady-state rounds per region, at most
    warmup: int = 2  # calls per variant before the timed rounds
    max_calls: int = 3  # captured calls per target function
    bench_budget_s: float = 20.0  # steady-state rounds of one region, at most this long
    memory_limit: int | None = None  # bytes of address space a program may add (RLIMIT_AS)
    memory_budget: int | None = None  # AO601 is not kept below this much compiled temp memory
    inconclusive: str = "keep-safe"  # which undecided equivalent rewrites are kept (decide.settle)
    compilation_cache: bool = True  # the file's runs share compilations (verify.xla_cache)
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
    finding: Finding | None = None  # where it came from, to combine fixes
    error: str = ""  # the fix could not be applied


@dataclass
class _Job:
    candidate: Candidate
    row: Row
    program: Path = Path()
    failed: bool = False
    members: list[_Job] = field(default_factory=list)  # a combination's rewrites

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
        self.printed: dict[str, Any] = {}  # what the baseline printed and logged
        self.volatile: set[Position] = set()  # printed numbers the original's runs disagree on
        self.x64 = False
        self.unstable = ""  # why the original's own runs disagree, if they do
        self.rechecked = False  # the original ran again and was compared with its baseline
        self.fresh = ""  # why every run starts a fresh interpreter; "" when forked
        self.deadline = time.perf_counter() + options.budget_s
        self.cpu = False  # CPU backend: runs are timed by their CPU time
        self.round = 0  # rounds of entry runs so far; samples are paired by round
        self.samples: dict[Path, dict[int, Sample]] = {}  # by program, by round
        self.first_sample: Sample | None = None  # the baseline's, the original's in round 0
        self.memory: dict[Path, Memory] = {}  # by program (`_note_memory`)

    def left_s(self) -> float:
        """Seconds of the file's budget left (negative once past it)."""
        return self.deadline - time.perf_counter()

    def write_variant(self, source: str) -> Path:
        """The rewritten program, under the original file name in its own directory."""
        directory = self.work / "variants" / str(next(self.ids))
        directory.mkdir(parents=True)
        program = directory / self.path.name
        program.write_text(source)
        return program

    def run(self, program: Path, timeout: float | None = None, **spec: Any) -> WorkerRun:
        """One worker on `program` (entry runs are always instrumented, for equal footing)."""
        search = [str(program.parent), str(self.path.parent)]
        spec = {
            "mode": "run",
            "program": str(program),
            "module": self.path.stem,
            "search_path": list(dict.fromkeys(search)),
            "entry": self.entry,
            "instrument": True,
            "memory_limit": self.options.memory_limit,
            "compilation_cache": self.cache_dir(),
            **spec,
        }
        out = self.work / "runs" / str(next(self.ids))
        limit = timeout or self.options.timeout
        return run_worker(spec, out, timeout=limit, cwd=self.path.parent, fresh=bool(self.fresh))

    def run_baseline(self, targets: list[str]) -> WorkerRun:
        """The original once, capturing the first calls of the target functions."""
        capture: dict[str, Any] = {"targets": targets, "dir": str(self.work / "captures")}
        capture["max_calls"] = self.options.max_calls
        shutil.rmtree(capture["dir"], ignore_errors=True)  # from a forked run, if any
        self.baseline = self.run(self.path, capture=capture)
        if self.baseline.ok:
            _note_memory(self, self.path, self.baseline)
            self.reference = load_tree(self.baseline.out_dir, "outputs")
            self.printed = load_output(self.baseline.out_dir)
            self.x64 = bool(self.baseline.result.get("x64"))
            self.cpu = self.baseline.result.get("platform") == "cpu"
            self.first_sample = self.sample(self.baseline)
        return self.baseline

    def sample(self, run: WorkerRun) -> Sample:
        """The timing sample of an entry run: CPU seconds on the CPU backend, else wall
        seconds, and its compile seconds."""
        return run.result["cpu_s" if self.cpu else "total_s"], run.result["compile_s"]

    def compare(self, run: WorkerRun) -> Comparison:
        return compare_trees(
            self.reference, load_tree(run.out_dir, "outputs"), self.tolerance, x64=self.x64
        )

    def compare_printed(self, run: WorkerRun, compared: bool = True) -> OutputDiff:
        """What `run` printed and logged against the baseline; unless `compared` is
        false, the volatile numbers are left out."""
        volatile = self.volatile if compared else set()
        return compare_output(self.printed, load_output(run.out_dir), self.tolerance, volatile)

    def bench(self, pairs: list[dict[str, str]]) -> WorkerRun:
        """Replay captured calls of each pair's target, original against its rewrite,
        sharing half of the budget left between the pairs."""
        share = max(BENCH_SHARE * self.left_s() / len(pairs), MIN_BENCH_S)
        budget = min(share, self.options.bench_budget_s)
        thresholds = self.options.thresholds
        spec = {
            "mode": "bench",
            "pairs": pairs,
            "capture_dir": str(self.work / "captures"),
            "entry_region": self.entry_region(),
            "rounds": self.options.rounds,
            "warmup": self.options.warmup,
            "budget_s": budget,
            "floor": thresholds.function_floor,
            "tiny_floor": thresholds.tiny_floor,
            "tiny_s": thresholds.tiny_s,
            "rtol": self.options.rtol,
            "atol": self.options.atol,
        }
        timeout = self.options.timeout + 3 * budget * len(pairs)
        return self.run(self.path, timeout=timeout, **spec)

    def cache_dir(self) -> str | None:
        """The compilation cache the file's runs share, in its work directory (deleted
        with it); None when the options turn it off."""
        return str(self.work / "compilation-cache") if self.options.compilation_cache else None

    def entry_region(self) -> str | None:
        """The entry's name when it is a function of this program (called without
        arguments, it can be timed as a region)."""
        module, _, name = self.entry.rpartition(":")
        return name if module in ("", self.path.stem) and "." not in name else None


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
    report = VerifyReport(str(path), entry, accepted_source=source, settings=settings_of(options))
    say = progress or (lambda _: None)
    if not candidates:
        return report
    candidates = [_with_region(source, c) for c in candidates]
    clock = Phases(report.timings)
    with tempfile.TemporaryDirectory(prefix="autoopt-verify-") as work:
        session = _Session(path.resolve(), entry, options, Path(work))
        if any(changes_setup(source, c.source) for c in candidates if not c.error):
            session.fresh = "a rewrite changes the environment settings or imports"
        say(f"{path}: running the original")
        with clock("baseline"):
            baseline = _baseline(session, _targets(candidates, entry))
        _environment(report, baseline.result)
        if not baseline.ok:
            report.error = f"the original program fails: {baseline.reason}"
            return report
        jobs = [_job(session, path, c) for c in candidates]
        for job in jobs if session.fresh else []:
            job.row.notes.append(f"run in fresh interpreters: {session.fresh}")
        live = [job for job in jobs if not job.failed]
        combo = _combo(session, path, live, combine) if combine and len(live) > 1 else None
        measured = [*live, *([combo] if combo else [])]
        with clock("first_round"):
            _measure_programs(session, measured, say, options.repeats, options.repeats)
        with clock("steady_state"):
            _measure_functions(session, [job for job in live if not job.failed], say)
        more = options.max_repeats - options.repeats
        with clock("more_rounds"):
            _measure_programs(session, [j for j in measured if _unsettled(j)], say, 0, more)
            _warm_memory(session, live, say)
        for job in live:
            if not job.failed:
                _decide(job, options, report.platform)
        report.rows = [job.row for job in jobs]
        with clock("together"):
            report.combined, kept, report.accepted_source = _combined(
                session, path, jobs, combo, combine, say
            )
        report.kept = [job.candidate.finding for job in kept if job.candidate.finding]
    return report


class Phases:
    """Wall seconds of each phase of a file's verification, written into `timings`."""

    def __init__(self, timings: dict[str, float]) -> None:
        self.timings = timings

    @contextlib.contextmanager
    def __call__(self, phase: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.timings[phase] = round(time.perf_counter() - start, 3)


def _with_region(source: str, candidate: Candidate) -> Candidate:
    """The candidate with the region its rewrite changed as its target, unless its rule
    named one (`autoopt.verify.region`)."""
    if candidate.target or candidate.error:
        return candidate
    return replace(candidate, target=changed_region(source, candidate.source))


def _decide(job: _Job, options: VerifyOptions, platform: str) -> None:
    """The job's verdict; an inconclusive one kept or not by `options.inconclusive`."""
    verdict, reason = decide(job.row, options.thresholds, options.memory_budget, platform)
    finding = job.candidate.finding
    safe = finding is not None and finding.fix is Applicability.SAFE
    job.row.verdict, job.row.reason = settle(verdict, options.inconclusive, safe), reason


def _baseline(session: _Session, targets: list[str]) -> WorkerRun:
    """The original once; again in a fresh interpreter if, forked, it changed the
    environment (what it sets there can only take effect in a fresh interpreter)."""
    baseline = session.run_baseline(targets)
    changed = baseline.result.get("environ")
    if changed and not session.fresh:
        session.fresh = f"the program sets {', '.join(changed)}"
        baseline = session.run_baseline(targets)
    return baseline


def _job(session: _Session, path: Path, candidate: Candidate) -> _Job:
    row = Row(candidate.rule, candidate.name, str(path), candidate.line, candidate.title)
    row.target = candidate.target
    job = _Job(candidate, row)
    if candidate.error:
        job.fail(Verdict.ERROR, candidate.error)
    elif candidate.source == session.source:
        job.fail(Verdict.NO_GAIN, "the rewrite changes nothing")
    else:
        job.program = session.write_variant(candidate.source)
    return job


def _combo(
    session: _Session,
    path: Path,
    jobs: list[_Job],
    combine: Callable[[list[Candidate]], str],
) -> _Job:
    """All these rewrites applied together, as one more job to verify."""
    members = ", ".join(f"{job.row.rule}:{job.row.line}" for job in jobs)
    candidate = Candidate("combined", members, 0, "")
    try:
        candidate.source = combine([job.candidate for job in jobs])
    except AutooptError as exc:
        candidate.error = f"the fixes do not combine: {exc.message}"
    combo = _job(session, path, candidate)
    combo.members = list(jobs)
    return combo


def _measure_programs(
    session: _Session, jobs: list[_Job], say: Progress, minimum: int, maximum: int
) -> None:
    """Up to `maximum` rounds of fresh-process entry runs of the original and the rewrites.

    Every run is compared with the original's output; the first run of each rewrite
    also gives its transfer, sync, compile and memory counts. The capturing baseline
    is not a sample: the first run of a session tended to be the slowest. The first
    `minimum` rounds run every rewrite; after them a round begins only within the
    budget, and runs only the rewrites whose speed is still unsettled, and a combination
    until it has `MIN_PAIRS` pairs, budget or not.
    """
    for count in range(maximum):
        first, within, owing = count < minimum, session.left_s() > 0, count < MIN_PAIRS
        active = [
            job
            for job in jobs
            if not job.failed and (first or (owing and _owed(job)) or (within and _unsettled(job)))
        ]
        if not active:
            break
        _program_round(session, active, say)
        _program_views(session, jobs)


def _program_round(session: _Session, jobs: list[_Job], say: Progress) -> None:
    """The original and `jobs`, one entry run each, forward or backward by round."""
    number = session.round
    session.round += 1
    order: list[_Job | None] = [None, *jobs]
    for job in order if number % 2 == 0 else reversed(order):
        if job is None and number == 0 and session.first_sample is not None:
            session.samples.setdefault(session.path, {})[0] = session.first_sample
            continue  # the capturing baseline ran the original first, as a fresh process
        program = job.program if job else session.path
        say(f"run {number + 1}: {job.row.rule if job else 'original'}")
        run = session.run(program)
        if run.ok:
            _note_memory(session, program, run)
        if _usable(session, job, run, program not in session.samples):
            session.samples.setdefault(program, {})[number] = session.sample(run)
        else:
            session.samples.setdefault(program, {})


def _program_views(session: _Session, jobs: list[_Job]) -> None:
    """Each job's program view from the rounds it shares with the original."""
    groups = [[t for t, _ in runs.values()] for runs in session.samples.values()]
    spread = pooled_noise(groups)
    original = session.samples.get(session.path, {})
    for job in jobs:
        _memory_counters(session, job)
        runs = session.samples.get(job.program, {})
        common = sorted(original.keys() & runs.keys())
        if job.failed or not common:
            continue
        job.row.program = speed_view(
            "program",
            [original[r][0] for r in common],
            [runs[r][0] for r in common],
            session.options.thresholds.program_floor,
            noise_floor=spread,
            compile_s_before=median([original[r][1] for r in common]),
            compile_s_after=median([runs[r][1] for r in common]),
            clock="cpu" if session.cpu else "wall",
        )


def _note_memory(session: _Session, program: Path, run: WorkerRun) -> None:
    """Keep the peak memory of the program's first run that compiled nothing (every
    compilation served by the file's cache), else of its first run: a run that compiles
    peaks higher, and the original's runs after the first compile nothing."""
    warm = run.result.get("compiles") == run.result.get("cache_hits")
    known = session.memory.get(program)
    if known is None or (warm and not known[0]):
        session.memory[program] = (warm, run.result.get("peak_rss"), run.result.get("device_peak"))


def _memory_counters(session: _Session, job: _Job) -> None:
    """Peak RSS and device peak of the original and the rewrite (`_note_memory`): a run
    that compiled nothing against the rewrite's, which compiled only if it never ran
    without compiling (then its figure errs high, never low)."""
    before, after = session.memory.get(session.path), session.memory.get(job.program)
    memory = job.row.memory
    if before:
        memory.peak_rss_before, memory.device_peak_before = before[1:]
    if after:
        memory.peak_rss_after, memory.device_peak_after = after[1:]


def _usable(session: _Session, job: _Job | None, run: WorkerRun, first: bool) -> bool:
    """Whether a run is a timing sample: the original's, or a rewrite's that still matches."""
    return _check_rewrite(session, job, run, first) if job else _check_original(session, run)


def _unsettled(job: _Job) -> bool:
    """The rewrite's speed is not decided yet: its program view is undecided, and so is its
    region's, or the two point different ways: the region faster while the whole program
    measured no faster than the original, or the region no faster while the program leans
    faster than its bar. The program, which is what runs, gets more rounds then.
    A combination has rules of its own (`_combination_unsettled`)."""
    program, function = job.row.program, job.row.function
    if job.failed or (program is not None and not program.undecided):
        return False
    if job.members:
        return _combination_unsettled(job)
    if function is None or function.undecided:
        return True
    if function.faster:
        return program is None or program.speedup < 1
    return program is not None and program.leans_faster


def _owed(job: _Job) -> bool:
    """A combination measured on fewer than `MIN_PAIRS` pairs: it gets rounds past the
    budget too, since one pair can never show it slower."""
    view = job.row.program
    return bool(job.members) and (view is None or view.samples < MIN_PAIRS)


def _combination_unsettled(combo: _Job) -> bool:
    """An undecided combination of rewrites needs more rounds until it has `MIN_PAIRS`
    (enough to find it slower), then only while it may matter: its estimate is below 1x
    (it may yet be shown slower, and the best rewrite alone kept), or some rewrite is not
    faster alone (the rewrites are kept together only if the combination decides faster).
    When every rewrite was decided faster alone and together they lean no slower, more
    rounds would only narrow a figure that changes nothing kept."""
    program = combo.row.program
    if program is None or program.samples < MIN_PAIRS or program.speedup < 1:
        return True
    return not all(_faster_alone(job) for job in combo.members)


def _faster_alone(job: _Job) -> bool:
    """A rewrite that some view of its own decided faster, and none slower."""
    views = [view for view in (job.row.function, job.row.program) if view is not None]
    return not job.failed and any(v.faster for v in views) and not any(v.slower for v in views)


def _check_original(session: _Session, run: WorkerRun) -> bool:
    """A timing run of the original: usable, and does it agree with the baseline?"""
    session.rechecked = True
    if not run.ok:
        session.unstable = f"the original failed on a later run: {run.reason}"
        return False
    same = session.compare(run)
    if not same.equal:
        session.unstable = f"the original itself differs run to run: {same.reason}"
    # Printed numbers that differ (timings, dates) are not compared from now on; other
    # differences (text, lines) make the original unstable, as different values do.
    session.volatile |= session.compare_printed(run, compared=False).numbers
    printed = session.compare_printed(run)
    if same.equal and not printed.equal:
        session.unstable = f"the original itself differs run to run: {printed.reason}"
    return True


def _check_rewrite(session: _Session, job: _Job, run: WorkerRun, first: bool) -> bool:
    """A run of a rewrite: it must finish and match the original's output every time."""
    if first:
        _counters(job.row, session.baseline, run)
    if not run.ok:
        job.fail(STATUS_VERDICTS.get(run.status, Verdict.CRASHED), run.reason)
        return False
    result = session.compare(run)
    job.row.max_abs = max(job.row.max_abs or 0.0, result.max_abs)
    job.row.max_rel = max(job.row.max_rel or 0.0, result.max_rel)
    differs = _differs(session, result, run)
    if differs and _original_again(session):
        differs = _differs(session, result, run)
    if differs:
        note = f" ({session.unstable})" if session.unstable else ""
        job.fail(Verdict.NOT_EQUIVALENT, differs + note)
        return False
    return True


def _differs(session: _Session, result: Comparison, run: WorkerRun) -> str:
    """Why a rewrite's run does not match the original's baseline; "" when it does."""
    if not result.equal:
        return result.reason
    printed = session.compare_printed(run)
    return "" if printed.equal else printed.reason


def _warm_memory(session: _Session, jobs: list[_Job], say: Progress) -> None:
    """Where the original's peak memory comes only from its baseline (which compiled every
    function, and so peaks higher) and a memory rewrite's peak falls against it, the
    original runs once more, compiling nothing, and its peaks are the ones compared."""
    warm = session.memory.get(session.path, (True, None, None))[0]
    live = [job for job in jobs if not job.failed and memory_goal(job.row.rule)]
    thresholds = session.options.thresholds
    if warm or not any(peak_wins(job.row.memory, thresholds) for job in live):
        return
    say("peak memory of the original, compiling nothing")
    _original_again(session, force=True)
    for job in live:
        _memory_counters(session, job)


def _original_again(session: _Session, force: bool = False) -> bool:
    """Before a rewrite is judged not equivalent, the original runs a second time if it
    has not yet (its baseline stood in for its first timing run): what its own runs
    disagree on, printed timings or an unstable result, is then known. False when the
    original had run again already, unless `force`."""
    if session.rechecked and not force:
        return False
    run = session.run(session.path)
    if run.ok:
        _note_memory(session, session.path, run)
    _check_original(session, run)
    return True


def _counters(row: Row, before: WorkerRun, after: WorkerRun) -> None:
    """Transfers, host syncs and compilations of the two entry runs (peak memory is
    `_memory_counters`')."""
    row.transfers_before = before.transfers.get("host-to-device", 0)
    row.syncs_before = sum(before.result.get("syncs", {}).values())
    row.compiles_before = before.result.get("compiles")
    if after.ok:
        row.transfers_after = after.transfers.get("host-to-device", 0)
        row.syncs_after = sum(after.result.get("syncs", {}).values())
        row.compiles_after = after.result.get("compiles")


def _measure_functions(session: _Session, jobs: list[_Job], say: Progress) -> None:
    """Steady state of each rewritten target function, all pairs in one worker."""
    captured = session.baseline.result.get("captured", {})
    pairs: dict[str, _Job] = {}
    for number, job in enumerate(jobs):
        target = job.candidate.target
        if not target:
            job.row.notes.append(_NO_REGION)
            continue
        info = captured.get(target)
        if target == session.entry_region():
            info = {"calls": 1, "error": ""}  # the entry, called without arguments
        if changes_setup(session.source, job.candidate.source):
            job.row.notes.append(
                f"no steady-state view of {target}: the rewrite changes the environment"
                " or imports, which one process cannot hold for both programs"
            )
        elif info and info["calls"]:
            pairs[str(number)] = job
        else:
            why = info["error"] if info and info["error"] else "no calls captured"
            job.row.notes.append(f"no steady-state view of {target}: {why}")
    if not pairs:
        return
    say(f"steady state of {len(pairs)} function(s)")
    results = _bench(session, pairs)
    for key, job in pairs.items():
        _apply_function(session, job, results.get(key, {"error": "no result"}))


def _bench(session: _Session, pairs: dict[str, _Job]) -> dict[str, Any]:
    """Run the bench worker; if it dies with several pairs, retry each alone."""
    spec = [
        {"id": key, "rewritten": str(job.program), "target": job.candidate.target or ""}
        for key, job in pairs.items()
    ]
    run = session.bench(spec)
    if run.ok:
        return run.result["functions"]
    if len(pairs) == 1:
        return {key: {"error": run.reason, "status": run.status} for key in pairs}
    results: dict[str, Any] = {}
    for key, job in pairs.items():
        results.update(_bench(session, {key: job}))
    return results


def _apply_function(session: _Session, job: _Job, data: dict[str, Any]) -> None:
    target = job.candidate.target or ""
    if "skipped" in data:
        job.row.notes.append(f"no steady-state view of {target}: {data['skipped']}")
    elif "error" in data:
        verdict = STATUS_VERDICTS.get(data.get("status", "error"), Verdict.CRASHED)
        job.fail(verdict, f"replaying {target}: {data['error']}")
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
        session.options.thresholds.floor_for(min(a["samples"])),
        compiles_before=a["compiles"],
        compiles_after=b["compiles"],
        compile_s_before=a["compile_s"],
        compile_s_after=b["compile_s"],
        clock=data.get("clock", "cpu" if session.cpu else "wall"),
    )


_NO_REGION = (
    "no region timed alone: the rewrite changes module-level code or several functions,"
    " so only the whole program is timed"
)


def _combined(
    session: _Session,
    path: Path,
    jobs: list[_Job],
    combo: _Job | None,
    combine: Callable[[list[Candidate]], str] | None,
    say: Progress,
) -> tuple[Row | None, list[_Job], str]:
    """The accepted rewrites together: the combination's row, the kept jobs and their source.

    Reuses `combo` when it holds exactly the accepted rewrites.
    """
    if combo is not None and (together := _together(jobs, combo)):
        return combo.row, together, combo.candidate.source
    accepted = [job for job in jobs if job.row.verdict.accepted]
    if not accepted:
        return None, [], session.source
    best = max(accepted, key=lambda job: job.row.best_speedup or 0.0)
    if len(accepted) == 1 or combine is None:
        return None, [best], best.candidate.source
    live = [job for job in jobs if job.program != Path()]
    if combo is None or len(accepted) != len(live):
        say(f"verifying the {len(accepted)} accepted rewrites together")
        combo = _combo(session, path, accepted, combine)
        if not combo.failed:
            repeats = max(session.options.repeats, MIN_PAIRS)  # enough to find it slower
            _measure_programs(session, [combo], say, repeats, repeats)
    if not combo.failed:
        view = combo.row.program
        slow = view is not None and view.slower
        combo.row.verdict = Verdict.SLOWER if slow else Verdict.ACCEPTED
        combo.row.reason = describe(view) if view else "equivalent"
    if combo.row.verdict.accepted:
        return combo.row, accepted, combo.candidate.source
    combo.row.notes.append(
        f"kept only the best single rewrite: {best.row.rule} {best.row.location}"
    )
    return combo.row, [best], best.candidate.source


def _together(jobs: list[_Job], combo: _Job) -> list[_Job]:
    """Keep every rewrite, marked accepted, when some gained nothing measurable alone
    but all of them together are measured faster than the original and than any one
    alone, and none failed or was slower alone (e.g. four small hoists out of one loop,
    next to a donation). Not when an AO601 gained nothing: its purpose is memory."""
    live = [job for job in jobs if job.program != Path()]
    view = None if combo.failed else combo.row.program
    idle = [job for job in live if job.row.verdict in (Verdict.NO_GAIN, Verdict.INCONCLUSIVE)]
    usable = all(job.row.verdict.accepted or job in idle for job in live)
    if view is None or not view.faster or not idle or not usable:
        return []
    if any(job.row.rule == REMAT for job in idle) or view.speedup < _best_alone(live):
        return []
    combo.row.verdict, combo.row.reason = Verdict.ACCEPTED, describe(view)
    for job in idle:
        job.row.verdict = Verdict.ACCEPTED
        job.row.reason += f"; kept with the others: together {describe(view)}"
    return live


def _best_alone(jobs: list[_Job]) -> float:
    """The largest whole-program speedup of an accepted rewrite on its own (1 if none)."""
    speedups = [
        job.row.program.speedup for job in jobs if job.row.verdict.accepted and job.row.program
    ]
    return max(speedups, default=1.0)


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


def settings_of(options: VerifyOptions) -> dict[str, Any]:
    """The options as data, with the tolerance table: what a report was verified under."""
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
    """Find the fixable findings of `path`, verify each fix alone, then all accepted ones.

    Tolerances (and the memory budget): the arguments, else `options`, else
    `[tool.autoopt]` in `settings`.
    """
    settings = settings or Settings()
    options = file_options(settings, options, entry=entry, timeout=timeout, rtol=rtol, atol=atol)
    code = Path(path).read_text()
    candidates = file_candidates(path, code, settings)
    combine = combiner(code, path)
    return verify_candidates(path, candidates, options, combine=combine, progress=progress)


def file_options(
    settings: Settings,
    options: VerifyOptions | None = None,
    *,
    entry: str | None = None,
    timeout: float | None = None,
    rtol: float | None = None,
    atol: float | None = None,
) -> VerifyOptions:
    """The options a file is verified with: the arguments, else `options`, else settings."""
    options = options or VerifyOptions()
    return replace(
        options,
        entry=_first(entry, options.entry),
        timeout=_first(timeout, options.timeout),
        rtol=_first(rtol, options.rtol, settings.rtol),
        atol=_first(atol, options.atol, settings.atol),
        memory_budget=_first(options.memory_budget, settings.memory_budget),
    )


def file_candidates(path: str | Path, code: str, settings: Settings) -> list[Candidate]:
    """One candidate per applicable fix of `code` (the text of `path`)."""
    from autoopt import api

    result = api.optimize_source(code, path=str(path), settings=settings)
    findings = [f for f in result.findings if api.applicable(f, settings)]
    return [_from_finding(api, code, str(path), f) for f in findings]


def combiner(code: str, path: str | Path) -> Callable[[list[Candidate]], str]:
    """Applies several candidates' fixes to `code` together."""
    from autoopt import api

    def combine(chosen: list[Candidate]) -> str:
        return api.apply_fixes(code, [c.finding for c in chosen if c.finding], path=str(path))

    return combine


def _first(*values: Any) -> Any:
    return next((value for value in values if value is not None), None)


def _from_finding(api: Any, code: str, path: str, finding: Finding) -> Candidate:
    candidate = Candidate(
        finding.rule,
        finding.name,
        finding.span.line,
        code,
        finding.target,
        finding.title,
        finding.detached(),
    )
    try:
        candidate.source = api.apply_fixes(code, [finding], path=path)
    except AutooptError as exc:
        candidate.error = f"the fix cannot be applied: {exc.message}"
    return candidate
