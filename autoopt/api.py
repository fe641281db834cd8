"""The pipeline: parse -> analyse -> rules -> rewrite. Every frontend calls this."""

from __future__ import annotations

import ast
import contextlib
import gc
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.project import dependencies
from autoopt.analysis.core.suppress import is_suppressed, suppressions
from autoopt.analysis.facts.test_functions import reached_test
from autoopt.config import DEFAULT_LINE_LENGTH, Settings, line_length
from autoopt.model import Applicability, AutooptError, Finding, Result
from autoopt.rewrite.apply import apply_edits
from autoopt.rewrite.line_map import LineMap
from autoopt.rewrite.text_edits import changed_lines, with_text_edits
from autoopt.rules import ALL_RULES


def parse(code: str, path: str = "<string>") -> cst.Module:
    """Parse with LibCST; a syntax error becomes an AutooptError naming path and line."""
    try:
        return cst.parse_module(code)
    except cst.ParserSyntaxError as exc:
        line, message = _python_syntax_error(code) or (exc.raw_line, exc.message)
        raise AutooptError(path, f"syntax error: {message}", line=line) from None


def _python_syntax_error(code: str) -> tuple[int, str] | None:
    """Python's own location and wording, which point at the offending line."""
    try:
        ast.parse(code)
    except SyntaxError as exc:
        return exc.lineno or 1, exc.msg
    except (ValueError, RecursionError):
        return None
    return None


def mentions_jax(code: str) -> bool:
    """Cheap pre-filter: a module that never names jax has nothing to optimise, but for
    the rules that read it anyway (`Rule.reads_without_jax`)."""
    return "jax" in code


def check_source(
    code: str, *, path: str = "<string>", settings: Settings | None = None
) -> tuple[cst.Module, list[Finding]]:
    """Every finding of the enabled rules, in source order, suppressions applied (a fix's
    edits are written when first read: rules/deferred.py)."""
    module, findings, _ = _analyse(code, path, settings or Settings())
    return module, findings


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector paused while a module is analysed.

    Analysis allocates millions of objects (the syntax tree, facts, values) that reference
    counting frees when the context is released; meanwhile the collector would traverse
    the live ones again and again, about a fifth of `check`'s time on the corpus
    (benchmarks/analysis_speed.py). Nothing leaks: a cycle left behind is collected once
    the collector runs again. Where a caller paused it already, it stays paused."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@_collector_paused()
def _analyse(
    code: str, path: str, settings: Settings, written: Callable[[Finding], bool] = lambda f: False
) -> tuple[cst.Module, list[Finding], dict[str, str]]:
    """The findings, and the other project files the analysis read (see `Result`); the
    fixes of the findings `written` selects are written before the analysis is released
    (a fix is otherwise written when first read: rules/deferred.py)."""
    module = parse(code, path)
    ctx = ModuleContext(path=path, source=code, module=module)
    try:
        findings = check_context(ctx, settings)
        for finding in findings:
            if written(finding):
                finding.edits = tuple(finding.edits)
        return module, findings, dependencies(ctx)
    finally:
        ctx.release()


@_collector_paused()
def check_context(
    ctx: ModuleContext, settings: Settings, checkpoint: Callable[[], None] = lambda: None
) -> list[Finding]:
    """`check_source` for a module already parsed (an editor reparses only what changed).

    `checkpoint()` runs before each rule: an editor raises there to stop work that a
    newer text made stale.
    """
    code, path = ctx.source, ctx.path
    rules = [rule for rule in ALL_RULES if settings.enabled(rule.id)]
    if not mentions_jax(code) or not ctx.imports.uses_jax():
        rules = [rule for rule in rules if rule.reads_without_jax(code, path)]
    table = suppressions(code)
    ctx.rules = frozenset(rule.id for rule in rules)  # a rule may defer to another
    findings = []
    for rule in rules:
        checkpoint()
        findings += [
            finding
            for finding in rule.findings(ctx)
            if not is_suppressed(
                finding.rule, range(finding.span.line, finding.span.end_line + 1), table
            )
        ]
    findings.sort(key=lambda f: (f.span, f.rule))
    if settings.test_file:
        findings = [_outside_tests(ctx, finding, settings) for finding in findings]
    return findings


def _outside_tests(ctx: ModuleContext, finding: Finding, settings: Settings) -> Finding:
    """A test file's finding, its fix dropped where it reaches into a test function's
    body (analysis/facts/test_functions.py): a rewrite there changes what the test checks."""
    if not applicable(finding, settings):
        return finding
    finding.edits = tuple(finding.edits)
    test = reached_test(ctx, finding.edits)
    if test is None:
        return finding
    message = f"{finding.message}; not rewritten: inside the test function `{test.name.value}`"
    return replace(finding, message=message, edits=())


def applicable(finding: Finding, settings: Settings) -> bool:
    """Whether a fix is applied under these settings (unsafe ones only when asked)."""
    if not finding.fixable:
        return False
    return finding.fix is Applicability.SAFE or settings.unsafe_fixes


def render(module: cst.Module, findings: Iterable[Finding], path: str) -> str:
    """The code with exactly these findings' edits applied; checked to parse again."""
    findings = list(findings)
    if not findings:
        return module.code
    edits = [e for f in findings for e in f.edits]
    new_code = apply_edits(module, edits, line_length=_line_length(path)).code
    try:
        cst.parse_module(new_code)
    except cst.ParserSyntaxError as exc:  # pragma: no cover - a rule bug, never user error
        rules = ", ".join(sorted({f.rule for f in findings}))
        raise AutooptError(
            path, f"internal error: {rules} produced code that does not parse ({exc.message})"
        ) from None
    return new_code


def _line_length(path: str) -> int:
    """The project's line length for a file on disk; Ruff's default for code given as
    text (`<string>`, stdin without a file name)."""
    if path in ("<string>", "-"):
        return DEFAULT_LINE_LENGTH
    return line_length(Path(path).parent.resolve())


#: How many times `optimize_source` analyses and fixes at most. A fix can remove what kept
#: another rule off the code (AO301's hoist leaves a loop AO103 compiles), which only an
#: analysis of the fixed code proves; so the fixed code is analysed again, as Ruff's
#: `--fix` does, until no fix changes it.
MAX_PASSES = 4


def optimize_source(
    code: str, *, path: str = "<string>", settings: Settings | None = None
) -> Result:
    """Findings for `code` and the code with every applicable fix applied, analysed and
    fixed again until it is stable (`MAX_PASSES`). The findings are the first pass's and
    the fixes of later passes, their spans mapped onto `code` (`_merged`)."""
    settings = settings or Settings()
    module, findings, read = _analyse(code, path, settings, lambda f: applicable(f, settings))
    applied = [f for f in findings if applicable(f, settings)]
    new_code = render(module, applied, path)
    new_code, later, more = _later_passes(
        code, new_code, path, settings, lambda f: applicable(f, settings)
    )
    owned = {id(f): ranges for f, ranges in later}
    with_text_edits(
        code,
        new_code,
        applied + [f for f, _ in later],
        lambda f: owned[id(f)] if id(f) in owned else changed_lines(code, _alone(module, f, path)),
    )
    findings = _merged(findings, applied, [f for f, _ in later])
    return Result(path, code, findings, new_code, applied + [f for f, _ in later], read | more)


def _later_passes(
    source: str, code: str, path: str, settings: Settings, chosen: Callable[[Finding], bool]
) -> tuple[str, list[tuple[Finding, list[tuple[int, int]]]], dict[str, str]]:
    """`code` (`source` fixed once) analysed and fixed again while the fixes `chosen`
    takes (given the finding with its span mapped onto `source`) change it; the final
    code, those fixes' findings with the lines of `source` each changes alone (mapped
    onto `source`: rewrite/line_map.py), and the files the analyses read."""
    later: list[tuple[Finding, list[tuple[int, int]]]] = []
    read: dict[str, str] = {}
    previous = source
    for _ in range(MAX_PASSES - 1):
        if code == previous:
            break
        lines = LineMap(source, code)

        def fixed(finding: Finding, lines: LineMap = lines) -> bool:
            return chosen(replace(finding, span=lines.span(finding.span)))

        module, fresh, deps = _analyse(code, path, settings, fixed)
        read |= deps
        applied = [f for f in fresh if fixed(f)]
        for finding in applied:
            alone = changed_lines(code, _alone(module, finding, path))
            mapped = replace(finding, span=lines.span(finding.span))
            later.append((mapped, [lines.lines(i1, i2) for i1, i2 in alone]))
        previous, code = code, render(module, applied, path)
    return code, later, read


def _merged(findings: list[Finding], applied: list[Finding], later: list[Finding]) -> list[Finding]:
    """The first pass's findings and the later passes' fixes, a later fix replacing a
    finding of its rule on its line that the first pass did not apply."""
    fixed = {(f.rule, f.span.line) for f in later}
    first = {id(f) for f in applied}
    kept = [f for f in findings if id(f) in first or (f.rule, f.span.line) not in fixed]
    return sorted(kept + later, key=lambda f: (f.span, f.rule))


def _alone(module: cst.Module, finding: Finding, path: str) -> str:
    """The code with only this finding's fix; the code itself where that fix alone does
    not give valid code (it leans on another fix): it then owns no line of its own."""
    try:
        return render(module, [finding], path)
    except AutooptError:
        return module.code


def apply_fixes(code: str, findings: Iterable[Finding], *, path: str = "<string>") -> str:
    """`code` with the fixes of the given findings (matched by rule and span) applied.

    The findings may come from an earlier run or another process: the code is
    analysed again and the matching fresh findings are applied, then (as in
    `optimize_source`) the fixed code again, for the findings a later pass fixed.
    """
    wanted = {(f.rule, f.span) for f in findings}

    def chosen(finding: Finding) -> bool:
        return (finding.rule, finding.span) in wanted and finding.fixable

    module, fresh, _ = _analyse(code, path, Settings(), chosen)
    new_code = render(module, [f for f in fresh if chosen(f)], path)
    return _later_passes(code, new_code, path, Settings(), chosen)[0]
