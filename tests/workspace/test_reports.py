"""SARIF (schema-validated), GitHub annotations and the summary table."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from rich.console import Console

from autoopt.model import Applicability, AutooptError, Finding, Span
from autoopt.report.github import github_lines
from autoopt.report.sarif import artifact, sarif_document
from autoopt.report.summary import Summary, print_summary
from tests.workspace.conftest import fixable, make_tree

SCHEMA = json.loads((Path(__file__).parent / "sarif-2.1.0-subset.schema.json").read_text())


def _validate(document: dict) -> None:
    checker = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
    checker.validate(document)


def test_cli_sarif_validates_against_the_schema(tmp_path, cli):
    make_tree(tmp_path, {"pkg/a b.py": fixable(1), "pkg/c.py": fixable(2), "bad.py": "def (:\n"})
    result = cli("check", ".", "--format", "sarif", cwd=tmp_path)
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    _validate(document)
    run = document["runs"][0]
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]
    }
    assert uris == {"pkg/a%20b.py", "pkg/c.py"}
    rule_ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert all(rule_ids[r["ruleIndex"]] == r["ruleId"] for r in run["results"])
    (notification,) = run["invocations"][0]["toolExecutionNotifications"]
    assert "syntax error" in notification["message"]["text"]
    assert run["invocations"][0]["executionSuccessful"] is False


def test_sarif_fingerprints_are_stable_and_distinct():
    finding = Finding(
        "AO101", "missing-jit", "m", Span(2, 1, 2, 5), Applicability.SAFE, path="a.py"
    )
    other = Finding("AO101", "missing-jit", "m", Span(3, 1, 3, 5), Applicability.SAFE, path="a.py")
    source = {"a.py": "\ndef f(x):\ndef f(x):\n"}
    run = json.loads(sarif_document([finding, other], [], source))["runs"][0]
    prints = [r["partialFingerprints"]["primaryLocationLineHash"] for r in run["results"]]
    assert prints[0].endswith(":1") and prints[1].endswith(":2")
    assert prints[0].split(":")[0] == prints[1].split(":")[0]
    moved = json.loads(sarif_document([other], [], {"a.py": "\n\ndef f(x):\n"}))
    assert (
        moved["runs"][0]["results"][0]["partialFingerprints"]["primaryLocationLineHash"]
        == (prints[0])
    )


def test_artifact_locations():
    assert artifact("./src/m.py") == {"uri": "src/m.py", "uriBaseId": "%SRCROOT%"}
    assert artifact("/abs/m.py") == {"uri": "file:///abs/m.py"}


def test_github_annotations_escape_their_fields():
    finding = Finding(
        "AO102",
        "jit-in-loop",
        "50% slower,\nreally",
        Span(4, 2, 4, 9),
        Applicability.UNSAFE,
        path="dir,x/m:1.py",
    )
    error = AutooptError("bad.py", "syntax error: oops", 3)
    lines = list(github_lines([finding], [error]))
    assert lines == [
        "::warning file=dir%2Cx/m%3A1.py,line=4,col=2,endLine=4,endColumn=9,"
        "title=AO102 jit-in-loop::AO102 50%25 slower,%0Areally [fix: unsafe]",
        "::error file=bad.py,title=autoopt error,line=3::syntax error: oops",
    ]


def test_cli_github_format(tmp_path, cli):
    make_tree(tmp_path, {"a.py": fixable(1)})
    result = cli("check", "a.py", "--format", "github", "--select", "AO101", cwd=tmp_path)
    assert result.exit_code == 1
    assert result.stdout.startswith("::warning file=a.py,line=")


def test_summary_table_counts(tmp_path):
    f = Finding("AO101", "missing-jit", "m", Span(1, 1, 1, 2), Applicability.SAFE)
    g = Finding("AO701", "xla-env-after-import", "m", Span(1, 1, 1, 2), Applicability.NONE)
    summary = Summary(files=7, findings=[f, f, g], fixes=[f], changed=1, errors=2, seconds=1.5)
    console = Console(record=True, width=100)
    print_summary(summary, console)
    text = console.export_text()
    assert "AO101" in text and "AO701" in text
    assert "7 files scanned, 1 files to rewrite, 2 errors, 1.50 s" in text


def test_cli_text_output_prints_the_summary_on_stderr(tmp_path, cli):
    make_tree(tmp_path, {"a.py": fixable(1)})
    result = cli("rewrite", ".", "--write", "--select", "AO101", cwd=tmp_path)
    assert "1 files scanned, 1 files rewritten, 0 errors" in result.stderr
    assert "AO101" not in result.stdout


def test_rewrite_write_with_json_reports_errors_in_the_document(tmp_path, cli):
    make_tree(tmp_path, {"a.py": fixable(1), "bad.py": "def (:\n"})
    result = cli("rewrite", ".", "--write", "--format", "json", cwd=tmp_path)
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    assert [e["path"] for e in document["errors"]] == ["./bad.py"]
    assert "jax.jit" in (tmp_path / "a.py").read_text()
