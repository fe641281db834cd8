"""Notebook documents over LSP: diagnostics and code actions per cell, as the CLI by cell."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from tests.lsp.conftest import INITIALIZED
from tests.lsp.test_server import OPTIONS, actions, apply, wait_for

pytestmark = pytest.mark.asyncio(loop_scope="module")

IMPORTS = "import jax.numpy as jnp\n"
NOTES = "# Heat\nOne step, then a loop."
STEP = """\
def step(u):
    return u * 0.5 + jnp.sin(u)


def main():
    u = jnp.zeros(4)
    for _ in range(10):
        u = step(u)
    return u
"""
BROKEN = "x = = 1\n"
CELLS = [(IMPORTS, True), (NOTES, False), (STEP, True), (BROKEN, True)]


def cell_uri(name: str, index: int) -> str:
    return f"vscode-notebook-cell:/tmp/autoopt-lsp/{name}.ipynb#C{index}"


def open_notebook(client: LanguageClient, name: str, cells=CELLS) -> list[str]:
    """Open a notebook of `cells` (text, is code); the cells' URIs."""
    uris = [cell_uri(name, i) for i in range(len(cells))]
    kinds = [
        lsp.NotebookCellKind.Code if code else lsp.NotebookCellKind.Markup for _, code in cells
    ]
    notebook = lsp.NotebookDocument(
        f"file:///tmp/autoopt-lsp/{name}.ipynb",
        "jupyter-notebook",
        1,
        [lsp.NotebookCell(kind, uri) for kind, uri in zip(kinds, uris, strict=True)],
    )
    items = [
        lsp.TextDocumentItem(uri, "python" if code else "markdown", 1, text)
        for uri, (text, code) in zip(uris, cells, strict=True)
    ]
    client.notebook_document_did_open(lsp.DidOpenNotebookDocumentParams(notebook, items))
    return uris


def codes(client: LanguageClient, uri: str) -> list[object]:
    return [d.code or d.message for d in client.diagnostics.get(uri, ())]


async def test_server_advertises_notebook_sync_for_python_cells(notebook_client):
    sync = INITIALIZED["notebook_client"].capabilities.notebook_document_sync
    assert isinstance(sync, lsp.NotebookDocumentSyncOptions)
    (selector,) = sync.notebook_selector
    assert selector.notebook == "jupyter-notebook"
    assert [c.language for c in selector.cells] == ["python"]


async def test_diagnostics_per_cell_a_broken_cell_skipped(notebook_client: LanguageClient):
    imports, notes, step, broken = open_notebook(notebook_client, "per_cell")
    await wait_for(lambda: all(u in notebook_client.diagnostics for u in (imports, step, broken)))
    assert list(notebook_client.diagnostics[imports]) == []
    assert notes not in notebook_client.diagnostics  # a markdown cell gets nothing
    (found,) = notebook_client.diagnostics[step]
    assert found.code == "AO101"
    assert found.range == lsp.Range(lsp.Position(0, 4), lsp.Position(0, 8))  # `step`, line 1
    (error,) = notebook_client.diagnostics[broken]
    assert error.severity == lsp.DiagnosticSeverity.Error
    assert error.message == "cell skipped: syntax error: invalid syntax (line 1)"
    assert error.range == lsp.Range(lsp.Position(0, 0), lsp.Position(0, 7))


async def test_hover_in_a_cell(notebook_client: LanguageClient):
    _, _, step, _ = open_notebook(notebook_client, "hover")
    await wait_for(lambda: step in notebook_client.diagnostics)
    at = lsp.HoverParams(lsp.TextDocumentIdentifier(step), lsp.Position(0, 6))
    hover = await notebook_client.text_document_hover_async(at)
    assert hover is not None and hover.contents.value.startswith("**AO101 missing-jit**")
    assert hover.range == lsp.Range(lsp.Position(0, 4), lsp.Position(0, 8))


async def test_code_action_on_a_cell_edits_the_cells_as_the_cli_does(
    notebook_client: LanguageClient, tmp_path: Path
):
    uris = open_notebook(notebook_client, "action")
    await wait_for(lambda: uris[2] in notebook_client.diagnostics)
    assert await actions(notebook_client, uris[0], only=[lsp.CodeActionKind.QuickFix]) == []
    (quick,) = await actions(notebook_client, uris[2], 0, 0, only=[lsp.CodeActionKind.QuickFix])
    assert quick.title == "Add @jax.jit" and quick.diagnostics[0].range.start.line == 0
    action = await notebook_client.code_action_resolve_async(quick)
    changes = action.edit.document_changes
    assert sorted(c.text_document.uri for c in changes) == [uris[0], uris[2]]
    assert all(c.text_document.version == 1 for c in changes)
    texts = [text for text, _ in CELLS]
    for change in changes:
        index = uris.index(change.text_document.uri)
        texts[index] = apply(
            texts[index], lsp.WorkspaceEdit(document_changes=[change]), uris[index]
        )
    # the blank lines the import adds before the next statement stay in its cell, as in the CLI
    assert texts[0] == "import jax\nimport jax.numpy as jnp\n\n\n"
    assert texts[2] == "@jax.jit\n" + STEP
    assert texts == _cli_rewrite(tmp_path)


def _cli_rewrite(folder: Path) -> list[str]:
    """The cells after `autoopt rewrite --write` of the same notebook saved as .ipynb."""
    cells = [
        {"cell_type": "code" if code else "markdown", "metadata": {}, "source": text}
        | ({"execution_count": None, "outputs": []} if code else {})
        for text, code in CELLS
    ]
    path = folder / "same.ipynb"
    path.write_text(
        json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    )
    select = ",".join(OPTIONS["select"])
    command = [sys.executable, "-m", "autoopt", "rewrite", "--write", "--select", select, str(path)]
    subprocess.run(command, check=False, capture_output=True)
    return ["".join(c["source"]) for c in json.loads(path.read_text())["cells"]]


async def test_cells_edited_added_and_removed(notebook_client: LanguageClient):
    uris = open_notebook(notebook_client, "edited")
    notebook = lsp.VersionedNotebookDocumentIdentifier(2, "file:///tmp/autoopt-lsp/edited.ipynb")
    await wait_for(lambda: codes(notebook_client, uris[3]) != [])
    fixed = lsp.NotebookDocumentCellContentChanges(
        lsp.VersionedTextDocumentIdentifier(2, uris[3]),
        [lsp.TextDocumentContentChangeWholeDocument("x = 1\n")],
    )
    cells = lsp.NotebookDocumentCellChanges(text_content=[fixed])
    change = lsp.DidChangeNotebookDocumentParams(
        notebook, lsp.NotebookDocumentChangeEvent(cells=cells)
    )
    notebook_client.notebook_document_did_change(change)
    await wait_for(lambda: codes(notebook_client, uris[3]) == [])
    assert codes(notebook_client, uris[2]) == ["AO101"]

    removed = lsp.NotebookDocumentCellChangeStructure(
        lsp.NotebookCellArrayChange(2, 1, []), did_close=[lsp.TextDocumentIdentifier(uris[2])]
    )
    notebook.version = 3
    cells = lsp.NotebookDocumentCellChanges(structure=removed)
    change = lsp.DidChangeNotebookDocumentParams(
        notebook, lsp.NotebookDocumentChangeEvent(cells=cells)
    )
    notebook_client.notebook_document_did_change(change)
    await wait_for(lambda: codes(notebook_client, uris[2]) == [])

    identifiers = [lsp.TextDocumentIdentifier(u) for u in (uris[0], uris[1], uris[3])]
    notebook_client.diagnostics[uris[0]] = [
        lsp.Diagnostic(lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), "marker")
    ]
    closed = lsp.DidCloseNotebookDocumentParams(
        lsp.NotebookDocumentIdentifier(notebook.uri), identifiers
    )
    notebook_client.notebook_document_did_close(closed)
    await wait_for(lambda: codes(notebook_client, uris[0]) == [])


async def test_settings_change_and_close_of_a_notebook_with_an_encoded_uri(
    notebook_client: LanguageClient,
):
    name = "with%20space"
    uris = open_notebook(notebook_client, name)
    await wait_for(lambda: codes(notebook_client, uris[2]) == ["AO101"])
    config = lsp.DidChangeConfigurationParams(settings={"select": "AO7"})
    notebook_client.workspace_did_change_configuration(config)
    await wait_for(lambda: codes(notebook_client, uris[2]) == [])
    assert f"file:///tmp/autoopt-lsp/{name}.ipynb" not in notebook_client.diagnostics
    notebook_client.workspace_did_change_configuration(lsp.DidChangeConfigurationParams(OPTIONS))
    await wait_for(lambda: codes(notebook_client, uris[2]) == ["AO101"])
    closed = lsp.DidCloseNotebookDocumentParams(
        lsp.NotebookDocumentIdentifier(f"file:///tmp/autoopt-lsp/{name}.ipynb"),
        [lsp.TextDocumentIdentifier(u) for u in uris],
    )
    notebook_client.notebook_document_did_close(closed)
    await wait_for(
        lambda: codes(notebook_client, uris[2]) == [] and codes(notebook_client, uris[3]) == []
    )
