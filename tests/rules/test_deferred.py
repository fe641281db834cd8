"""Fix edits written when first read (rules/deferred.py): `check_source` reports AO103's
fix without writing it; written before or after the analysis is released, the edits are
the ones `optimize_source` applies."""

from __future__ import annotations

from autoopt import Settings, apply_fixes, optimize_source
from autoopt.api import check_source, render
from autoopt.model import Applicability
from autoopt.rules.ao103_compiled_loop_step import CompiledLoopStep
from autoopt.rules.deferred import DeferredEdits

CODE = CompiledLoopStep.example().code
EXPECTED = CompiledLoopStep.example().expected
STEP_ONLY = Settings(select=("AO103",))


def _step_finding(code: str = CODE):
    module, findings = check_source(code, settings=STEP_ONLY)
    (finding,) = findings
    return module, finding


def test_check_source_reports_a_safe_fix_without_writing_it() -> None:
    _, finding = _step_finding()
    assert finding.fix is Applicability.SAFE and finding.fixable
    assert isinstance(finding.edits, DeferredEdits) and not finding.edits.written


def test_edits_first_read_after_release_come_from_a_fresh_analysis() -> None:
    module, finding = _step_finding()
    assert render(module, [finding], "main.py") == EXPECTED
    assert finding.edits.written
    assert render(module, [finding], "main.py") == EXPECTED  # written once, kept


def test_optimize_source_writes_what_it_applies_before_release() -> None:
    result = optimize_source(CODE, settings=STEP_ONLY)
    assert result.new_source == EXPECTED
    assert [type(f.edits) for f in result.applied] == [tuple]


def test_apply_fixes_writes_the_chosen_fix() -> None:
    _, finding = _step_finding()
    assert apply_fixes(CODE, [finding.detached()]) == EXPECTED


def test_deferred_edits_compare_by_the_edits_they_write() -> None:
    _, finding = _step_finding()
    again = _step_finding()[1].edits
    assert len(finding.edits) == len(again) > 0
    assert finding.edits == tuple(finding.edits) and finding.edits != ()
