"""A verification job: one file's candidate rewrites with everything needed to verify them.

The job is built where autoopt runs (analysis, the candidates' texts) and verified by an
executor (`autoopt.verify.executor`): in place on this machine, or on a Ray worker that
writes the file and the project modules it imports into a directory of its own.
"""

from __future__ import annotations

import ast
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from autoopt.config import Settings, project_root
from autoopt.model import AutooptError
from autoopt.verify.pipeline import (
    Candidate,
    Progress,
    VerifyOptions,
    combiner,
    file_candidates,
    file_options,
    verify_candidates,
)
from autoopt.verify.report import VerifyReport
from autoopt.verify.runner import run_worker

MARKER = "pyproject.toml"  # marks the project root of a written-out job, as on the source side
PROBE = "def main():\n    return 0\n"
PROBE_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class Environment:
    """Where a job runs: what a verdict depends on besides the job itself."""

    device: str
    jax: str
    jaxlib: str

    @classmethod
    def of(cls, report: VerifyReport) -> Environment:
        return cls(report.device, report.jax_version, report.jaxlib_version)


Outcome = VerifyReport | AutooptError  # a job's report, or the error that stopped it


@dataclass
class FileJob:
    """One file's candidates, its text, its project modules and the options to verify with.

    `name` is the file's path relative to its project root; `modules` the text of the
    project files it imports (transitively), by path relative to that root.
    """

    display: str
    name: str
    source: str
    candidates: list[Candidate]
    options: VerifyOptions
    modules: dict[str, str] = field(default_factory=dict)


def file_job(display: str, settings: Settings, options: VerifyOptions) -> FileJob:
    """Analyse `display` (a path) and build its job."""
    path = Path(display).resolve()
    source = path.read_text()
    root = project_root(path.parent) or path.parent
    candidates = file_candidates(display, source, settings)
    return FileJob(
        display,
        path.relative_to(root).as_posix(),
        source,
        candidates,
        file_options(settings, options),
        project_modules(path, root),
    )


def project_modules(path: Path, root: Path) -> dict[str, str]:
    """The project files `path` imports, directly or through each other, with their text.

    A module is looked up as the verifier's worker finds it (the program's folder), and
    as the analysis follows calls (the project root and its `src/`); only files under
    `root` count, so installed packages never travel.
    """
    found: dict[str, str] = {}
    marker = root / MARKER
    if marker.is_file():
        found[MARKER] = marker.read_text()
    queue = [path]
    seen = {path}
    while queue:
        for file in _imported_files(queue.pop(), root):
            if file not in seen:
                seen.add(file)
                queue.append(file)
                found[file.relative_to(root).as_posix()] = file.read_text()
    return found


def _imported_files(path: Path, root: Path) -> list[Path]:
    """The project files under `root` that the imports of `path` read.

    `from a.b import c` reads a, a.b and a.b.c (if a module); a relative import is
    looked up from the file's own package.
    """
    try:
        tree = ast.parse(path.read_text())
    except (SyntaxError, OSError, UnicodeDecodeError):
        return []
    bases = [path.parent, root, root / "src"]
    files: list[Path] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                files += _module_files(alias.name, bases, root)
        elif isinstance(node, ast.ImportFrom):
            here = [path.parents[node.level - 1]] if node.level else bases
            prefix = f"{node.module}." if node.module else ""
            names = [node.module] if node.module else []
            for name in [*names, *(prefix + alias.name for alias in node.names)]:
                files += _module_files(name, here, root)
    return files


def _module_files(module: str, bases: list[Path], root: Path) -> list[Path]:
    """The files under `root` that importing `module` reads: the module and its packages."""
    parts = module.split(".")
    files = []
    for base in dict.fromkeys(bases):
        for depth in range(1, len(parts) + 1):
            for file in (
                base.joinpath(*parts[:depth]).with_suffix(".py"),
                base.joinpath(*parts[:depth], "__init__.py"),
            ):
                if file.is_file() and file.resolve().is_relative_to(root):
                    files.append(file.resolve())
    return files


def run_job(job: FileJob, progress: Progress | None = None) -> VerifyReport:
    """Verify the job's file where it lies (this machine's executor)."""
    return _verify(job, Path(job.display), progress)


def run_detached(job: FileJob, progress: Progress | None = None) -> VerifyReport:
    """Verify the job in a directory of its own, holding the file and its project modules,
    with the report naming the file as the job does (a remote executor)."""
    with tempfile.TemporaryDirectory(prefix="autoopt-job-") as folder:
        root = Path(folder)
        for name, text in {**job.modules, job.name: job.source}.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        (root / MARKER).touch()
        report = _verify(job, root / job.name, progress)
    report.path = job.display
    for row in [*report.rows, *([report.combined] if report.combined else [])]:
        row.path = job.display
    return report


def _verify(job: FileJob, path: Path, progress: Progress | None) -> VerifyReport:
    combine = combiner(job.source, path)
    return verify_candidates(path, job.candidates, job.options, combine=combine, progress=progress)


def guarded(
    verify: Callable[[FileJob, Progress], VerifyReport], job: FileJob, say: Progress
) -> Outcome:
    """`verify(job, say)`: the report, or the error that stopped the job, as an outcome."""
    try:
        return verify(job, say)
    except AutooptError as exc:
        return exc
    except OSError as exc:
        return AutooptError(job.display, str(exc))


def probe_environment() -> Environment:
    """The device kind and jax versions a worker here sees (one forked run of a stub)."""
    with tempfile.TemporaryDirectory(prefix="autoopt-probe-") as folder:
        program = Path(folder) / "autoopt_probe.py"
        program.write_text(PROBE)
        spec = {
            "mode": "run",
            "program": str(program),
            "module": program.stem,
            "search_path": [folder],
            "entry": "main",
        }
        run = run_worker(spec, Path(folder) / "out", timeout=PROBE_TIMEOUT_S, cwd=Path(folder))
    result = run.result
    return Environment(result.get("device", ""), result.get("jax", ""), result.get("jaxlib", ""))
