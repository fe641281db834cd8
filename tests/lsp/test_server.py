"""End to end: a real LSP client drives `python -m autoopt.frontends.lsp` over stdio."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from autoopt.api import check_source, optimize_source
from autoopt.config import Settings
from autoopt.model import AutooptError

pytestmark = pytest.mark.asyncio(loop_scope="module")

#: As in conftest.OPTIONS: the clients run these rules only, and so does the CLI here.
OPTIONS = {"select": ["AO101", "AO102", "AO701"]}
SETTINGS = Settings(select=tuple(OPTIONS["select"]))

MISSING_JIT = """\
import jax.numpy as jnp


def step(u):
    return u + 0.1 * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))


def main():
    u = jnp.zeros(64)
    for _ in range(100):
        u = step(u)
    return u
"""

ENV_AND_JIT = """\
import os

import jax
import jax.numpy as jnp

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"


def step(u):
    return jnp.tanh(u) * 2


def main():
    u = jnp.ones(4)
    for _ in range(3):
        u = step(u)
    return u
"""

NON_ASCII = """\
import jax
import jax.numpy as jnp


def step(u):
    return u * 0.5 + jnp.sin(u)


def main():
    u = jnp.ones(8)
    for _ in range(10):
        tag = "héllo 😀 wörld"; fast = jax.jit(step)
        u = fast(u)
        print(tag)  # a host effect: the loop stays eager (AO103 leaves it to AO102)
    return u
"""

UNSAFE_ONLY = """\
import jax.numpy as jnp

def head(x, k):
    return jnp.abs(x[:k])

def main(x, k):
    while True:
        x = head(x, k)

main(jnp.ones(8), int(input()))
"""


def utf16_offset(text: str, position: lsp.Position) -> int:
    """The string index of an LSP position counted in UTF-16 code units."""
    lines = text.splitlines(keepends=True)
    start = sum(len(line) for line in lines[: position.line])
    line = lines[position.line] if position.line < len(lines) else ""
    units = 0
    for index, char in enumerate(line):
        if units >= position.character:
            return start + index
        units += len(char.encode("utf-16-le")) // 2
    return start + len(line.rstrip("\r\n")) if units >= position.character else start + len(line)


def apply(text: str, edit: lsp.WorkspaceEdit, uri: str) -> str:
    """Apply a workspace edit's TextEdits for `uri`, last first, as an editor would."""
    if edit.document_changes:
        edits = [e for change in edit.document_changes for e in change.edits]
    else:
        edits = list((edit.changes or {})[uri])
    spans = [(utf16_offset(text, e.range.start), utf16_offset(text, e.range.end), e) for e in edits]
    for start, end, e in sorted(spans, key=lambda s: s[0], reverse=True):
        text = text[:start] + e.new_text + text[end:]
    return text


async def wait_for(check: Callable[[], bool], timeout: float = 20.0) -> None:
    """Poll until `check()` holds; fail after `timeout` seconds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


async def open_doc(client: LanguageClient, uri: str, text: str) -> Sequence[lsp.Diagnostic]:
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "python", 1, text))
    )
    await wait_for(lambda: uri in client.diagnostics)
    return client.diagnostics[uri]


async def actions(
    client: LanguageClient, uri: str, line: int = 0, end: int = 10_000, only=None
) -> list[lsp.CodeAction]:
    params = lsp.CodeActionParams(
        lsp.TextDocumentIdentifier(uri),
        lsp.Range(lsp.Position(line, 0), lsp.Position(end, 0)),
        lsp.CodeActionContext(diagnostics=[], only=only),
    )
    return list(await client.text_document_code_action_async(params) or [])


async def resolved_text(client: LanguageClient, uri: str, text: str, action) -> str:
    if action.edit is None:
        action = await client.code_action_resolve_async(action)
    assert action.edit is not None
    return apply(text, action.edit, uri)


async def test_missing_jit_quickfix_equals_cli_rewrite(client: LanguageClient):
    uri = "file:///tmp/autoopt-lsp/missing_jit.py"
    (diag,) = await open_doc(client, uri, MISSING_JIT)
    assert diag.code == "AO101" and diag.source == "autoopt"
    assert diag.severity == lsp.DiagnosticSeverity.Information
    assert diag.range == lsp.Range(lsp.Position(3, 4), lsp.Position(3, 8))  # `step`
    assert diag.code_description.href.endswith("docs/rules/AO101-missing-jit.md")
    assert Path(diag.code_description.href.removeprefix("file://")).is_file()

    found = await actions(client, uri, 3, 3)
    quick = [a for a in found if a.kind == lsp.CodeActionKind.QuickFix]
    assert [a.title for a in quick] == ["Add @jax.jit"]
    assert quick[0].is_preferred and quick[0].diagnostics[0].code == "AO101"
    action = await client.code_action_resolve_async(quick[0])
    edits = action.edit.document_changes[0].edits
    assert 1 <= len(edits) <= 3  # hunks, not the whole document
    assert all(e.range.end.line - e.range.start.line <= 1 for e in edits)
    expected = optimize_source(MISSING_JIT, settings=SETTINGS).new_source
    assert apply(MISSING_JIT, action.edit, uri) == expected


async def test_fix_all_applies_every_safe_fix(client: LanguageClient):
    uri = "file:///tmp/autoopt-lsp/env_and_jit.py"
    diags = await open_doc(client, uri, ENV_AND_JIT)
    assert sorted(d.code for d in diags) == ["AO101", "AO701"]
    assert {d.code: d.severity for d in diags}["AO701"] == lsp.DiagnosticSeverity.Warning
    (fix_all,) = await actions(client, uri, only=[lsp.CodeActionKind.SourceFixAll])
    assert fix_all.kind == "source.fixAll.autoopt"
    new = await resolved_text(client, uri, ENV_AND_JIT, fix_all)
    assert new == optimize_source(ENV_AND_JIT, settings=SETTINGS).new_source
    assert await actions(client, uri, only=[lsp.CodeActionKind.RefactorRewrite]) == []


HOISTED = """\
import jax.numpy as jnp
import numpy as np


def main():
    host = np.arange(12, dtype=np.float64).reshape(3, 4)
    acc = jnp.zeros(4)
    for i in range(5):
        d = jnp.asarray(host)
        acc = acc + d[0] * d[2]
    return acc
"""


async def test_fix_all_applies_the_fixes_a_later_pass_proves(client: LanguageClient):
    """AO301's hoist unblocks AO103 (tests/test_pipeline.py): fix all gives what
    `rewrite --write` gives, the compiled loop included, not the first pass alone."""
    options = {**OPTIONS, "select": ["AO103", "AO301"]}
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(options))
    uri = "file:///tmp/autoopt-lsp/hoisted.py"
    diags = await open_doc(client, uri, HOISTED)
    assert sorted(d.code for d in diags) == ["AO103", "AO301"]
    (fix_all,) = await actions(client, uri, only=[lsp.CodeActionKind.SourceFixAll])
    new = await resolved_text(client, uri, HOISTED, fix_all)
    settings = Settings(select=("AO103", "AO301"))
    assert new == optimize_source(HOISTED, settings=settings).new_source
    assert "    acc = _main_loop(acc, host_dev)\n" in new
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(OPTIONS))


async def test_eager_edits_and_unsafe_fixes_for_a_client_without_resolve(
    bare_client: LanguageClient,
):
    uri = "untitled:Untitled-1"  # an unsaved buffer
    (diag,) = await open_doc(bare_client, uri, UNSAFE_ONLY)
    assert diag.code == "AO101"
    found = await actions(bare_client, uri, 2, 2)
    kinds = {a.kind for a in found}
    assert kinds == {lsp.CodeActionKind.RefactorRewrite, "source.fixAll.autoopt"}
    rewrite = next(a for a in found if a.kind == lsp.CodeActionKind.RefactorRewrite)
    assert rewrite.title == "Add @jax.jit (static: k) (unsafe)"
    assert rewrite.edit is not None and rewrite.edit.changes
    new = apply(UNSAFE_ONLY, rewrite.edit, uri)
    unsafe = replace(SETTINGS, unsafe_fixes=True)
    assert new == optimize_source(UNSAFE_ONLY, settings=unsafe).new_source


async def test_unsafe_fixes_follow_client_configuration(client: LanguageClient):
    uri = "file:///tmp/autoopt-lsp/unsafe.py"
    await open_doc(client, uri, UNSAFE_ONLY)
    assert await actions(client, uri) == []
    config = lsp.DidChangeConfigurationParams(settings={**OPTIONS, "unsafeFixes": True})
    client.workspace_did_change_configuration(config)
    found = await actions(client, uri)
    assert [a.kind for a in found] == [lsp.CodeActionKind.RefactorRewrite, "source.fixAll.autoopt"]
    assert found[0].title.endswith("(unsafe)")
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(OPTIONS))


async def test_select_and_ignore_from_client_and_pyproject(client: LanguageClient, tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.autoopt]\nignore = ["AO701"]\n')
    source = tmp_path / "train.py"
    source.write_text(ENV_AND_JIT)
    diags = await open_doc(client, source.as_uri(), ENV_AND_JIT)
    assert [d.code for d in diags] == ["AO101"]
    config = lsp.DidChangeConfigurationParams(settings={"select": "AO7", "ignore": []})
    client.workspace_did_change_configuration(config)
    await wait_for(lambda: [d.code for d in client.diagnostics[source.as_uri()]] == ["AO701"])
    client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(OPTIONS))


async def test_syntax_error_gives_one_diagnostic_and_recovers(client: LanguageClient):
    uri = "file:///tmp/autoopt-lsp/broken.py"
    broken = "import jax\n\nx = = 1\ny = 2\n"
    (diag,) = await open_doc(client, uri, broken)
    with pytest.raises(AutooptError) as error:  # the line the CLI reports too
        check_source(broken)
    assert diag.severity == lsp.DiagnosticSeverity.Error
    assert diag.range.start.line == error.value.line - 1
    assert diag.message == error.value.message
    assert await actions(client, uri) == []
    _change(client, uri, 2, MISSING_JIT)
    await wait_for(lambda: [d.code for d in client.diagnostics[uri]] == ["AO101"])


async def test_utf16_positions_after_non_ascii_text(client: LanguageClient):
    uri = "file:///tmp/autoopt-lsp/non_ascii.py"
    (diag,) = await open_doc(client, uri, NON_ASCII)
    line = NON_ASCII.splitlines()[11]
    start = len(line[: line.index("jax.jit")].encode("utf-16-le")) // 2
    assert start == line.index("jax.jit") + 1  # the emoji takes two UTF-16 units
    end = start + len("jax.jit(step)")
    assert diag.range == lsp.Range(lsp.Position(11, start), lsp.Position(11, end))
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(11, start + 3))
    )
    assert hover is not None and "AO102" in hover.contents.value
    (quick,) = await actions(client, uri, 11, 11, only=[lsp.CodeActionKind.QuickFix])
    new = await resolved_text(client, uri, NON_ASCII, quick)
    assert new == optimize_source(NON_ASCII, settings=SETTINGS).new_source


async def test_hover_shows_the_rule_explanation(client: LanguageClient):
    uri = "file:///tmp/autoopt-lsp/hover.py"
    await open_doc(client, uri, MISSING_JIT)
    at = lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(3, 6))
    hover = await client.text_document_hover_async(at)
    assert hover.contents.kind == lsp.MarkupKind.Markdown
    assert hover.contents.value.startswith("**AO101 missing-jit**")
    assert "## Why is this bad?" in hover.contents.value
    elsewhere = lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(0, 0))
    assert await client.text_document_hover_async(elsewhere) is None


async def test_rapid_changes_end_with_diagnostics_of_the_final_text(client: LanguageClient):
    uri = "file:///tmp/autoopt-lsp/rapid.py"
    await open_doc(client, uri, MISSING_JIT)
    texts = [MISSING_JIT.replace("range(100)", f"range({n})") for n in range(2, 10)]
    texts.append(ENV_AND_JIT)
    for version, text in enumerate(texts, start=2):
        _change(client, uri, version, text)
    expected = [f.rule for f in check_source(ENV_AND_JIT, settings=SETTINGS)[1]]

    def current() -> list[str]:
        return [d.code for d in client.diagnostics[uri]]

    await wait_for(lambda: current() == expected)
    await asyncio.sleep(0.5)  # nothing stale arrives afterwards
    assert current() == expected


async def test_survives_malformed_requests(client: LanguageClient):
    bad = {"jsonrpc": "2.0", "id": "bad", "method": "textDocument/codeAction", "params": {}}
    client.protocol._send_data(bad)  # params the server cannot read
    sent = client.protocol.writer.write(b"Content-Length: 9\r\n\r\n{not json")
    if asyncio.iscoroutine(sent):
        await sent
    missing = "file:///does/not/exist.py"
    assert await actions(client, missing) == []
    far = lsp.HoverParams(lsp.TextDocumentIdentifier(missing), lsp.Position(999, 999))
    assert await client.text_document_hover_async(far) is None
    result = await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams("autoopt.verify", arguments=[])
    )
    assert result["started"] is False
    uri = "file:///tmp/autoopt-lsp/after.py"
    assert [d.code for d in await open_doc(client, uri, MISSING_JIT)] == ["AO101"]
    assert any(m.message.startswith("autoopt: ") for m in client.log_messages)  # logged


async def test_verify_command_reports_progress_and_result(client: LanguageClient, tmp_path):
    source = tmp_path / "clean.py"
    source.write_text("import jax.numpy as jnp\n\n\ndef main():\n    return jnp.ones(3)\n")
    await open_doc(client, source.as_uri(), source.read_text())
    result = await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams("autoopt.verify", arguments=[source.as_uri()])
    )
    assert result["started"] is True
    await wait_for(lambda: bool(client.messages))
    assert client.messages[-1].message == "autoopt: clean.py: nothing to verify"
    kinds = [type(p).__name__ for p in client.progress_reports[result["token"]]]
    assert kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd"


def _change(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version, uri),
            [lsp.TextDocumentContentChangeWholeDocument(text)],
        )
    )


async def test_verify_without_progress_support_still_reports(bare_client, tmp_path):
    source = tmp_path / "clean.py"
    source.write_text("import jax.numpy as jnp\n\n\ndef main():\n    return jnp.ones(3)\n")
    result = await bare_client.workspace_execute_command_async(
        lsp.ExecuteCommandParams("autoopt.verify", arguments=[{"uri": source.as_uri()}])
    )
    assert result["started"] is True
    await wait_for(lambda: bool(bare_client.messages))
    assert bare_client.messages[-1].message == "autoopt: clean.py: nothing to verify"
    assert bare_client.progress_reports == {}
