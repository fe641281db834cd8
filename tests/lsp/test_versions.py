"""Edits that come faster than the analysis: only the newest version is ever published."""

from __future__ import annotations

import asyncio
import sys

import pytest
from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

from autoopt.api import check_source

URI = "file:///tmp/autoopt-lsp/versions.py"

#: Forty copies of a step called in a loop from `main` (findings on each): long enough
#: that an edit arrives while the previous one is still being analysed.
BLOCK = """

def step_{i}(u):
    return u + 0.1 * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))


def run_{i}(u):
    for _ in range(100):
        u = step_{i}(u)
    return u
"""
MAIN = "\n\ndef main():\n" + "".join(f"    run_{i}(jnp.zeros(64))\n" for i in range(40))
TEXT = "import jax.numpy as jnp\n" + "".join(BLOCK.format(i=i) for i in range(40)) + MAIN


class Recorder(LanguageClient):
    """Keeps every publishDiagnostics, in the order they arrive."""

    def __init__(self) -> None:
        super().__init__("versions-test", "1")
        self.published: list[tuple[int | None, list[lsp.Diagnostic]]] = []

        @self.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _published(params: lsp.PublishDiagnosticsParams) -> None:
            self.published.append((params.version, params.diagnostics))


async def until(check, timeout: float = 60.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


class _Held:
    """A writer that keeps what the client sends until `release` writes it in one piece."""

    def __init__(self, writer) -> None:
        self.writer, self.held = writer, bytearray()

    def write(self, data: bytes) -> None:
        self.held += data

    def release(self) -> None:
        self.writer.write(bytes(self.held))


def change(version: int, line: int, text: str) -> lsp.DidChangeTextDocumentParams:
    """Replace line `line` with `text` (an incremental change)."""
    edit = lsp.TextDocumentContentChangePartial(
        range=lsp.Range(lsp.Position(line, 0), lsp.Position(line + 1, 0)), text=text
    )
    return lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(version, URI), [edit]
    )


@pytest.mark.asyncio
async def test_three_quick_edits_publish_only_the_last_version(tmp_path) -> None:
    client = Recorder()
    log = tmp_path / "server.log"  # pygls pipes stderr and never reads it: a long log blocks
    await client.start_io("sh", "-c", f'exec "{sys.executable}" -m autoopt.frontends.lsp 2>"{log}"')
    try:
        await client.initialize_async(
            lsp.InitializeParams(lsp.ClientCapabilities(), initialization_options={})
        )
        client.initialized(lsp.InitializedParams())
        client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(URI, "python", 1, TEXT))
        )
        await until(lambda: len(client.published) == 1)
        lines = TEXT.splitlines(keepends=True)
        target = lines.index("def run_20(u):\n") + 1  # `for _ in range(100):`
        texts = ["    for _ in range(7):\n", "    for _ in range(8):\n", "    if u is not None:\n"]
        # all three in one write: the server has them before it can finish version 2
        # (sent one by one, a loaded machine may pause the client between them, and then
        # version 2 is the newest the server knows and rightly published)
        held = client.protocol.writer = _Held(client.protocol.writer)
        for version, text in enumerate(texts, start=2):
            client.text_document_did_change(change(version, target, text))
        client.protocol.writer = held.writer
        held.release()
        await until(lambda: any(v == 4 for v, _ in client.published))
        await asyncio.sleep(1.0)  # anything still on its way for versions 2 and 3
    finally:
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
    assert [version for version, _ in client.published] == [1, 4]
    final = "".join([*lines[:target], texts[-1], *lines[target + 1 :]])
    _, findings = check_source(final, path="/tmp/autoopt-lsp/versions.py")
    published = client.published[-1][1]
    assert [(d.code, d.range.start.line + 1) for d in published] == [
        (f.rule, f.span.line) for f in findings
    ]
    assert len(published) < len(client.published[0][1])  # run_20's loop is gone
