"""The `autoopt` command line: a thin layer over the pipeline and the workspace."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from typer.main import get_command_name
from typer.models import CommandInfo

from autoopt._version import __version__
from autoopt.config import Settings, load_settings, parse_codes, parse_size
from autoopt.model import AutooptError
from autoopt.report.findings import (
    error_line,
    json_document,
    position,
    statistics_lines,
    text_line,
    unified_diff,
)
from autoopt.report.summary import print_summary
from autoopt.workspace import progress
from autoopt.workspace.batch import Batch, collect, collect_text, summarise, write_changes

APP_SETTINGS: dict[str, Any] = {
    "name": "autoopt",
    "help": "Find and fix avoidable host work, transfers, copies and memory in JAX programs.",
    "add_completion": False,
    "no_args_is_help": True,
}
STDIN = "-"
app = typer.Typer(**APP_SETTINGS)

EXIT_OK, EXIT_FOUND, EXIT_ERROR = 0, 1, 2


def _refuse(message: str) -> NoReturn:
    """Say `error: message` on stderr and exit with the error status."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(EXIT_ERROR)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"autoopt {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version."
        ),
    ] = False,
) -> None:
    """Options that come before the command."""


class Format(str, Enum):
    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"


Paths = Annotated[
    list[str], typer.Argument(help="Files or folders to process; - reads one source from stdin.")
]
StdinFilename = Annotated[
    str | None,
    typer.Option(
        "--stdin-filename",
        help="With -: the name the source read from stdin is shown (and configured) as.",
    ),
]
Select = Annotated[
    str | None, typer.Option("--select", help="Rule codes or prefixes to run, e.g. AO101,AO2.")
]
Ignore = Annotated[str | None, typer.Option("--ignore", help="Rule codes or prefixes to skip.")]
Unsafe = Annotated[
    bool, typer.Option("--unsafe-fixes", help="Also apply fixes whose safety is not proven.")
]
FormatOpt = Annotated[Format, typer.Option("--format", help="Output format.")]
Jobs = Annotated[
    int,
    typer.Option(
        "--jobs", "-j", show_default=False, help="Worker processes; 0, the default, uses all cores."
    ),
]
Exclude = Annotated[
    list[str] | None, typer.Option("--exclude", help="Glob of paths to skip (repeatable).")
]
NoProgress = Annotated[bool, typer.Option("--no-progress", help="Do not show a progress bar.")]
NoCache = Annotated[
    bool,
    typer.Option("--no-cache", help="Do not read or write the result and verification caches."),
]
IncludeTests = Annotated[
    bool,
    typer.Option(
        "--include-tests",
        help="Also rewrite test and benchmark files (tests/, test_*.py, *_test.py, "
        "conftest.py, benchmarks/; `test-files` in \\[tool.autoopt]). They are always checked.",
    ),
]
VerifyTests = Annotated[
    str | None,
    typer.Option(
        "--verify-tests",
        help='With --write: run CMD (e.g. "pytest -x -q") before and after; revert the '
        "rewritten files that make it fail.",
    ),
]
VerifyTimeout = Annotated[
    float, typer.Option("--verify-timeout", help="Seconds each --verify-tests run may take.")
]
Verify = Annotated[
    bool,
    typer.Option("--verify", help="Keep only rewrites that pass verification (run, compare, time)"),
]
Entry = Annotated[
    str | None,
    typer.Option("--entry", help="What verification runs: MODULE:FUNC or FUNC (default: main())."),
]
Timeout = Annotated[float, typer.Option("--timeout", help="Seconds one verification run may take.")]
ReportPath = Annotated[
    str | None, typer.Option("--report", help="Write the verification report (.md, .json, .html).")
]


class ExecutorName(str, Enum):
    local = "local"
    ray = "ray"


ExecutorOpt = Annotated[
    ExecutorName | None,
    typer.Option(
        "--executor",
        help="Where verification and --verify-tests run: local (this machine, the default) "
        "or ray (a Ray cluster: started here, or joined; pip install 'autoopt\\[ray]').",
    ),
]
RayAddress = Annotated[
    str | None,
    typer.Option("--ray-address", help="Join this Ray cluster (e.g. ray://head:10001, auto)."),
]
GpusPerJob = Annotated[
    float | None,
    typer.Option(
        "--gpus-per-job",
        min=0.0,
        metavar="N",
        help="Ray executor: GPUs each verification or test job asks for (0.5 shares one "
        "GPU between two jobs; `gpus-per-job` in pyproject.toml).",
    ),
]
VerifyBudget = Annotated[
    float | None,
    typer.Option(
        "--verify-budget",
        min=1.0,
        metavar="SECONDS",
        help="Seconds verification may measure each file (default 30; `verify-budget` in "
        "pyproject.toml); past them only the minimum rounds run and undecided speeds are "
        "inconclusive.",
    ),
]


VerifyJobs = Annotated[
    int | None,
    typer.Option(
        "--verify-jobs",
        min=1,
        metavar="N",
        help="Local executor: files verified at once, each in its own processes (default 1; "
        "`verify-jobs` in pyproject.toml); more is faster on a machine with idle cores, and "
        "noisier where they are busy.",
    ),
]


class InconclusiveName(str, Enum):
    keep_safe = "keep-safe"
    keep = "keep"
    drop = "drop"


VerifyInconclusive = Annotated[
    InconclusiveName | None,
    typer.Option(
        "--verify-inconclusive",
        help="An equivalent rewrite whose speed the budget could not decide: keep-safe (the "
        "default) keeps it if its fix is safe, keep always, drop never.",
    ),
]
Rtol = Annotated[float | None, typer.Option("--rtol", help="Relative tolerance for float outputs.")]
Atol = Annotated[float | None, typer.Option("--atol", help="Absolute tolerance for float outputs.")]


def _size(value: str) -> int:
    try:
        return parse_size(value)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc


MemoryBudget = Annotated[
    int | None,
    typer.Option(
        "--memory-budget",
        parser=_size,
        metavar="SIZE",
        help="AO601: checkpoint only where the original's compiled temp memory is at least "
        "SIZE (64MiB, 1GiB, bytes). Verification measures it and enforces the budget; "
        "without verification AO601 findings are not checked against it.",
    ),
]


def _settings(
    paths: list[str],
    select: str | None,
    ignore: str | None,
    unsafe: bool,
    memory_budget: int | None = None,
    include_tests: bool = False,
    executor: ExecutorName | None = None,
    ray_address: str | None = None,
    gpus_per_job: float | None = None,
    stdin_filename: str | None = None,
) -> Settings:
    first = (stdin_filename or "." if paths[0] == STDIN else paths[0]) if paths else "."
    try:
        base = load_settings(Path(first))
    except AutooptError as exc:
        typer.echo(error_line(exc), err=True)
        raise typer.Exit(EXIT_ERROR) from exc
    settings = base.merged(
        select=parse_codes(select),
        ignore=parse_codes(ignore),
        unsafe_fixes=unsafe or None,
        memory_budget=memory_budget,
        include_tests=include_tests or None,
        executor=executor.value if executor else ("ray" if ray_address else None),
        ray_address=ray_address,
        gpus_per_job=gpus_per_job,
    )
    if gpus_per_job is not None and settings.executor != "ray":
        _refuse(
            "--gpus-per-job needs the ray executor (--executor ray); the local one"
            " gives every job every device of this machine"
        )
    return settings


def _verify_settings(
    settings: Settings,
    budget: float | None,
    inconclusive: InconclusiveName | None,
    jobs: int | None = None,
) -> Settings:
    """The settings with `--verify-budget`, `--verify-inconclusive` and `--verify-jobs`
    over pyproject's."""
    policy = inconclusive.value if inconclusive else None
    if jobs is not None and settings.executor != "local":
        _refuse(
            "--verify-jobs is for the local executor; the ray executor runs one job per"
            " CPU of its cluster"
        )
    return settings.merged(verify_budget=budget, verify_inconclusive=policy, verify_jobs=jobs)


def _unchecked_budget(batch: Batch, settings: Settings) -> None:
    """A memory budget needs measured memory: say so when nothing was measured."""
    count = sum(f.rule == "AO601" for f in batch.findings)
    if settings.memory_budget is None or not count:
        return
    from autoopt.verify.decide import human_bytes

    typer.echo(
        f"note: the memory budget ({human_bytes(settings.memory_budget)}) was not checked for"
        f" {count} AO601 finding(s): it is enforced by verification (`autoopt verify`,"
        " `autoopt rewrite --verify`), which measures compiled temp memory",
        err=True,
    )


def _collect(
    paths: list[str],
    settings: Settings,
    exclude: list[str] | None,
    jobs: int,
    no_progress: bool,
    no_cache: bool,
    stdin_filename: str | None = None,
) -> Batch:
    if STDIN in paths:
        if len(paths) > 1:
            _refuse("- (stdin) cannot be combined with other paths")
        return collect_text(sys.stdin.read(), stdin_filename or STDIN, settings)
    show = progress.wanted(no_progress)
    batch = collect(paths, settings, exclude, jobs, cache=not no_cache, progress=show)
    for path in batch.empty:
        typer.echo(f"warning: {path}: no Python file found", err=True)
    for warning in batch.warnings:
        typer.echo(f"warning: {warning}", err=True)
    return batch


def _named_tests(batch: Batch, paths: list[str]) -> None:
    """Say so when a file named on the command line is held back as a test or benchmark."""
    for outcome in batch.held_back:
        if outcome.display in paths:
            typer.echo(
                f"note: {outcome.display}: a test or benchmark file, not rewritten;"
                " --include-tests rewrites it",
                err=True,
            )


def _report_errors(errors: list[AutooptError]) -> None:
    for error in errors:
        typer.echo(error_line(error), err=True)


def _emit_findings(batch: Batch, output_format: Format, diff: str | None = None) -> None:
    """The findings in a machine format on stdout (json, sarif, github); `diff`: the
    rewrite's unified diff, a top-level key of the JSON document."""
    findings, errors = batch.findings, batch.errors
    if output_format is Format.json:
        typer.echo(json_document(len(batch.outcomes), findings, errors, diff))
    elif output_format is Format.sarif:
        from autoopt.report.sarif import sarif_document

        typer.echo(sarif_document(findings, errors, batch.sources()))
    else:
        from autoopt.report.github import github_lines

        for line in github_lines(findings, errors):
            typer.echo(line)


@app.command()
def check(
    paths: Paths,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = False,
    output_format: FormatOpt = Format.text,
    jobs: Jobs = 0,
    exclude: Exclude = None,
    no_progress: NoProgress = False,
    no_cache: NoCache = False,
    memory_budget: MemoryBudget = None,
    include_tests: IncludeTests = False,
    exit_zero: Annotated[
        bool,
        typer.Option("--exit-zero", help="Exit 0 even with findings (errors still exit 2)."),
    ] = False,
    statistics: Annotated[
        bool,
        typer.Option(
            "--statistics", help="Print a count per rule code, most first, not the findings."
        ),
    ] = False,
    stdin_filename: StdinFilename = None,
    add_noqa: Annotated[
        bool,
        typer.Option(
            "--add-noqa",
            help="Add `# autoopt: ignore\\[CODE]` to the lines with findings (merged into one "
            "already there) and print how many were added, not the findings.",
        ),
    ] = False,
) -> None:
    """List findings, one line each. Exit 0: none, 1: findings, 2: error."""
    settings = _settings(
        paths,
        select,
        ignore,
        unsafe_fixes,
        memory_budget,
        include_tests,
        stdin_filename=stdin_filename,
    )
    if add_noqa and STDIN in paths:
        _refuse("--add-noqa writes files; it cannot take - (stdin)")
    batch = _collect(paths, settings, exclude, jobs, no_progress, no_cache, stdin_filename)
    if add_noqa:
        raise typer.Exit(_add_noqa(batch))
    findings, errors = batch.findings, batch.errors
    if statistics:
        from autoopt.rules import ALL_RULES

        for line in statistics_lines(findings, {rule.id: rule.name for rule in ALL_RULES}):
            typer.echo(line)
        _report_errors(errors)
    elif output_format is Format.text:
        for finding in findings:
            typer.echo(text_line(finding))
        _report_errors(errors)
        print_summary(summarise(batch))
    else:
        _emit_findings(batch, output_format)
    _unchecked_budget(batch, settings)
    found = EXIT_OK if exit_zero else EXIT_FOUND
    raise typer.Exit(EXIT_ERROR if errors else found if findings else EXIT_OK)


def _add_noqa(batch: Batch) -> int:
    """`check --add-noqa`: suppress every finding in place; the exit code."""
    from autoopt.workspace.noqa import add_noqa

    added, files, unplaced = add_noqa(batch)
    for finding in unplaced:
        typer.echo(
            f"warning: {position(finding)}: {finding.rule}: no line of the finding can end in"
            " a comment (inside a string, or continued with \\)",
            err=True,
        )
    _report_errors(batch.errors)
    typer.echo(f"added {added} suppression(s) in {files} file(s)", err=True)
    return EXIT_ERROR if batch.errors else EXIT_OK


@app.command()
def rewrite(
    paths: Paths,
    write: Annotated[bool, typer.Option("--write", help="Apply the rewrites in place.")] = False,
    diff: Annotated[
        bool, typer.Option("--diff", help="Print a unified diff (the default).")
    ] = True,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = False,
    output_format: FormatOpt = Format.text,
    jobs: Jobs = 0,
    exclude: Exclude = None,
    no_progress: NoProgress = False,
    no_cache: NoCache = False,
    verify_tests: VerifyTests = None,
    verify_timeout: VerifyTimeout = 600.0,
    verify: Verify = False,
    entry: Entry = None,
    timeout: Timeout = 120.0,
    report: ReportPath = None,
    memory_budget: MemoryBudget = None,
    include_tests: IncludeTests = False,
    executor: ExecutorOpt = None,
    ray_address: RayAddress = None,
    gpus_per_job: GpusPerJob = None,
    stdin_filename: StdinFilename = None,
    verify_budget: VerifyBudget = None,
    verify_inconclusive: VerifyInconclusive = None,
    verify_jobs: VerifyJobs = None,
) -> None:
    """Show the rewrites as a diff, or apply them with --write.

    Exit 0: nothing to do (or written), 1: changes shown (or reverted by
    --verify-tests), 2: error. With - (stdin), --write prints the rewritten
    source on stdout.
    """
    if verify_tests and not write:
        _refuse("--verify-tests needs --write")
    if STDIN in paths and (verify or verify_tests):
        _refuse("- (stdin) cannot be verified; name a file")
    if verify or verify_tests:
        _need_jax("rewrite --verify" if verify else "rewrite --verify-tests")
    settings = _settings(
        paths,
        select,
        ignore,
        unsafe_fixes,
        memory_budget,
        include_tests,
        executor,
        ray_address,
        gpus_per_job,
        stdin_filename,
    )
    batch = _collect(paths, settings, exclude, jobs, no_progress, no_cache, stdin_filename)
    if STDIN in paths and write:
        raise typer.Exit(_print_rewritten(batch))
    _named_tests(batch, paths)
    if verify:
        from autoopt.verify.commands import options_for, verify_outcomes

        settings = _verify_settings(settings, verify_budget, verify_inconclusive, verify_jobs)
        options = options_for(entry, timeout, None, None, settings)
        show = progress.wanted(no_progress)
        errors = verify_outcomes(
            batch.outcomes, settings, options, report, show, not no_cache, batch.tests
        )
        batch.errors.extend(errors)
    reverted = _write(batch, verify_tests, verify_timeout, settings) if write else []
    if output_format is not Format.text:
        _emit_findings(batch, output_format, _diff(batch, reverted))
    else:
        if not write and diff:
            typer.echo(_diff(batch, reverted), nl=False)
        _report_errors(batch.errors)
        print_summary(summarise(batch, reverted))
    if not verify:
        _unchecked_budget(batch, settings)
    if batch.errors:
        raise typer.Exit(EXIT_ERROR)
    raise typer.Exit(EXIT_FOUND if reverted or (batch.changed and not write) else EXIT_OK)


def _need_jax(command: str) -> None:
    """Stop, saying how to install it, when `command` needs jax and it is missing."""
    from autoopt.frontends.extras import missing_jax

    why = missing_jax(f"autoopt {command}")
    if why is not None:
        _refuse(why)


def _print_rewritten(batch: Batch) -> int:
    """`rewrite --write -`: the rewritten source (the source itself when nothing changes)
    on stdout, as `ruff check --fix -` does; on an error, nothing; the exit code."""
    outcome = batch.outcomes[0]
    if outcome.result is None:
        _report_errors(batch.errors)
        return EXIT_ERROR
    typer.echo(outcome.result.new_source, nl=False)
    return EXIT_OK


def _diff(batch: Batch, reverted: list[str]) -> str:
    """The unified diff of every rewritten file (those `reverted` left out)."""
    diffs = []
    for outcome in batch.changed:
        assert outcome.result is not None
        if outcome.display not in reverted:
            old, new = outcome.result.source, outcome.result.new_source
            diffs.append(unified_diff(outcome.display, old, new))
    return "".join(diffs)


def _write(batch: Batch, verify_tests: str | None, timeout: float, settings: Settings) -> list[str]:
    """Apply the rewrites; with a test command (run by the executor), revert those that
    break it."""
    if not verify_tests:
        write_changes(batch)
        typer.echo(f"rewrote {len(batch.written)} file(s)", err=True)
        return []
    try:
        from autoopt.verify.commands import write_tested

        verdict = write_tested(batch, verify_tests, timeout, settings)
    except AutooptError as exc:
        batch.errors.append(exc)
        return []
    for file in verdict.reverted:
        typer.echo(f"{file.display}: reverted: its rewrite makes `{verify_tests}` fail", err=True)
    typer.echo(f"rewrote {len(verdict.kept)} file(s), reverted {len(verdict.reverted)}", err=True)
    return [file.display for file in verdict.reverted]


@app.command()
def verify(
    file: Annotated[str, typer.Argument(help="The program to verify.")],
    entry: Entry = None,
    report: ReportPath = None,
    timeout: Timeout = 120.0,
    rtol: Rtol = None,
    atol: Atol = None,
    select: Select = None,
    ignore: Ignore = None,
    unsafe_fixes: Unsafe = False,
    no_progress: NoProgress = False,
    no_cache: NoCache = False,
    memory_budget: MemoryBudget = None,
    executor: ExecutorOpt = None,
    ray_address: RayAddress = None,
    gpus_per_job: GpusPerJob = None,
    verify_budget: VerifyBudget = None,
    verify_inconclusive: VerifyInconclusive = None,
) -> None:
    """Verify every rewrite of FILE (run, compare, time); FILE is not changed.

    Exit 0: all verified, 1: some rejected, 2: error.
    """
    _need_jax("verify")
    from autoopt.verify.commands import options_for, verify_command

    settings = _settings(
        [file],
        select,
        ignore,
        unsafe_fixes,
        memory_budget,
        False,
        executor,
        ray_address,
        gpus_per_job,
    )
    settings = _verify_settings(settings, verify_budget, verify_inconclusive)
    options = options_for(entry, timeout, rtol, atol, settings)
    show = progress.wanted(no_progress)
    raise typer.Exit(verify_command(file, settings, options, report, show, not no_cache))


@app.command()
def rules() -> None:
    """List every rule: id, name, summary."""
    from autoopt.rules import ALL_RULES

    for rule in ALL_RULES:
        typer.echo(f"{rule.id}  {rule.name:<26} {rule.summary}")


@app.command()
def explain(
    rule_id: Annotated[str, typer.Argument(help="A rule id, e.g. AO101, or its name.")],
) -> None:
    """Print a rule's documentation."""
    from autoopt.rules import ALL_RULES, BY_ID

    rule = BY_ID.get(rule_id.upper()) or next((r for r in ALL_RULES if r.name == rule_id), None)
    if rule is None:
        _refuse(f"unknown rule {rule_id!r}; `autoopt rules` lists them")
    typer.echo(f"# {rule.id} {rule.name}\n\n{rule.doc()}")


@app.command()
def lsp() -> None:
    """Run the language server over stdio (diagnostics, code actions, hover)."""
    from autoopt.frontends.lsp import main as serve

    serve()


@app.command()
def mcp(
    root: Annotated[
        Path | None,
        typer.Argument(
            exists=True, file_okay=False, metavar="DIR", help="The project folder (default: .)."
        ),
    ] = None,
) -> None:
    """Run the MCP server over stdio for coding agents (check, rewrite, verify, explain)."""
    try:
        from autoopt.frontends.mcp import main as serve
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] != "mcp":
            raise
        typer.echo("error: the MCP SDK is not installed: pip install 'autoopt[mcp]'", err=True)
        raise typer.Exit(EXIT_ERROR) from exc
    serve(root)


def main() -> None:
    """Console-script entry point."""
    try:
        app_for(sys.argv[1:])()
    except KeyboardInterrupt:  # outside a command
        _interrupted()
    except SystemExit as exc:  # typer turns Ctrl-C in a command into Exit(130), silently
        if isinstance(getattr(exc.__context__, "__cause__", None), KeyboardInterrupt):
            _interrupted()
        raise


def _interrupted() -> None:
    typer.echo("autoopt: interrupted", err=True)
    sys.exit(130)


def app_for(args: list[str]) -> typer.Typer:
    """`app` with only the command that `args` start with, else all of it.

    Typer builds every command's options before it runs one; a command named
    first needs none of the others (options before it, `--help`, no command or
    an unknown one get the whole app, which lists them all).
    """
    named = [c for c in app.registered_commands if args[:1] == [_command_name(c)]]
    if not named:
        return app
    one = typer.Typer(**APP_SETTINGS)
    one.registered_callback = app.registered_callback
    one.registered_commands = named
    return one


def _command_name(command: CommandInfo) -> str:
    """The name typer gives the command."""
    return command.name or get_command_name(getattr(command.callback, "__name__", ""))
