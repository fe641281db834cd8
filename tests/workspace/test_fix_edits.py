"""The JSON fix edits (ruff's `fix.edits`): applied to the original text, sorted and from
the end, they reproduce exactly what `rewrite --write` writes."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from autoopt.frontends.cli import app

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
HAZARDS = Path(__file__).resolve().parents[1] / "hazards" / "programs"

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, [*args, "--no-progress", "--no-cache"])


def offset(text: str, row: int, column: int) -> int:
    """The index in `text` of a 1-based (row, column)."""
    starts = [0]
    for index, char in enumerate(text):
        if char == "\n":
            starts.append(index + 1)
    return starts[row - 1] + column - 1


def apply_json_edits(text: str, findings: list[dict]) -> str:
    edits = []
    for finding in findings:
        for edit in finding.get("fix_edits", {}).get("edits", []):
            start = offset(text, edit["location"]["row"], edit["location"]["column"])
            end = offset(text, edit["end_location"]["row"], edit["end_location"]["column"])
            edits.append((start, end, edit["content"]))
    edits.sort()
    for (_, end, _), (start, _, _) in itertools.pairwise(edits):
        assert end <= start, "edits overlap"
    for start, end, content in reversed(edits):
        text = text[:start] + content + text[end:]
    return text


@pytest.mark.parametrize(
    "name",
    [
        "mlp_train.py",
        "bootstrap_per_item.py",
        "rnn_outputs.py",
        "env_after_import.py",
        "minibatch_list_logreg.py",
    ],
)
@pytest.mark.parametrize("unsafe", [False, True])
def test_json_edits_reproduce_rewrite_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, unsafe: bool
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(CORPUS / name, name)
    original = Path(name).read_text(encoding="utf-8")
    flags = ["--unsafe-fixes"] if unsafe else []
    result = invoke("check", name, "--format", "json", *flags)
    findings = json.loads(result.stdout)["findings"]
    with_edits = [f for f in findings if "fix_edits" in f]
    assert with_edits
    for finding in with_edits:
        fix = finding["fix_edits"]
        assert fix["applicability"] == finding["fix"] != "none"
        assert fix["message"] and fix["edits"]
    if not unsafe:  # an unsafe fix is not applied, so it has no edits
        assert all(f["fix"] == "safe" for f in with_edits)
    elif name not in ("mlp_train.py", "rnn_outputs.py"):  # the others have an unsafe fix
        # (rnn_outputs's unsafe AO201 fix changes only lines that AO101's safe fix changes
        # too, the import block and the decorator: the first fix owns them)
        assert any(f["fix"] == "unsafe" for f in with_edits)
    invoke("rewrite", name, "--write", *flags)
    written = Path(name).read_text(encoding="utf-8")
    assert written != original
    assert apply_json_edits(original, with_edits) == written


def test_json_edits_of_a_fix_a_later_pass_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """AO103 fixes the loop only once AO302 deferred its syncs (api.MAX_PASSES): its
    finding carries its own edits, and all of them give what `--write` writes."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(HAZARDS / "h300_ao103_unblocked_by_deferred_syncs.py", "prog.py")
    original = Path("prog.py").read_text(encoding="utf-8")
    findings = json.loads(invoke("check", "prog.py", "--format", "json").stdout)["findings"]
    assert [(f["rule"], f["line"], f["fix"]) for f in findings] == [
        ("AO101", 8, "safe"),
        ("AO103", 15, "safe"),
        ("AO302", 17, "safe"),
    ]
    (step,) = [f for f in findings if f["rule"] == "AO103"]
    assert any("def _main_step(i, w1):" in e["content"] for e in step["fix_edits"]["edits"])
    invoke("rewrite", "prog.py", "--write")
    written = Path("prog.py").read_text(encoding="utf-8")
    assert "w1, losses1_item = _main_step(i, w1)" in written
    assert apply_json_edits(original, findings) == written
    assert invoke("rewrite", "prog.py").stdout == ""


def test_rewrite_json_carries_the_diff(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(CORPUS / "mlp_train.py", "mlp_train.py")
    text = invoke("rewrite", "mlp_train.py").stdout
    document = json.loads(invoke("rewrite", "mlp_train.py", "--format", "json").stdout)
    assert document["diff"] == text
    assert document["diff"].startswith("--- mlp_train.py\n+++ mlp_train.py\n")
    check = json.loads(invoke("check", "mlp_train.py", "--format", "json").stdout)
    assert "diff" not in check


def test_edit_at_the_end_of_a_file_without_newline() -> None:
    from autoopt.model import Applicability, Finding, Span
    from autoopt.rewrite.text_edits import with_text_edits

    finding = Finding("AO000", "x", "m", Span(2, 1, 2, 2), Applicability.SAFE)
    source, new = "a = 1\nb", "a = 1\nc = 2"
    with_text_edits(source, new, [finding], lambda f: [(1, 2)])
    assert apply_json_edits(source, [finding.to_json()]) == new
