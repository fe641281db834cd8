"""pytest-lsp clients talking to `python -m autoopt.frontends.lsp` over stdio."""

from __future__ import annotations

import sys

import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "autoopt.frontends.lsp"])
#: The rules these tests exercise; pinned so that rules added later do not change them.
OPTIONS = {"select": ["AO101", "AO102", "AO701"]}


async def _session(client: LanguageClient, caps: lsp.ClientCapabilities, options: object):
    result = await client.initialize_session(
        lsp.InitializeParams(capabilities=caps, initialization_options=options)
    )
    yield result
    await client.shutdown_session()


@pytest_lsp.fixture(config=SERVER, scope="module")
async def client(lsp_client: LanguageClient):
    """VS Code's capabilities (UTF-16, resolve, documentChanges, progress), one per module."""
    async for _ in _session(lsp_client, client_capabilities("visual-studio-code"), OPTIONS):
        yield


@pytest_lsp.fixture(config=SERVER, loop_scope="module")
async def bare_client(lsp_client: LanguageClient):
    """No capabilities at all: edits come inline, as `changes`; unsafe fixes allowed."""
    async for _ in _session(lsp_client, lsp.ClientCapabilities(), {**OPTIONS, "unsafeFixes": True}):
        yield


#: What the server answered to `initialize`, by fixture name.
INITIALIZED: dict[str, lsp.InitializeResult] = {}


@pytest_lsp.fixture(config=SERVER, scope="module")
async def notebook_client(lsp_client: LanguageClient):
    """VS Code's capabilities with notebook document sync (its 1.65 profile predates it)."""
    caps = client_capabilities("visual-studio-code")
    sync = lsp.NotebookDocumentSyncClientCapabilities()
    caps.notebook_document = lsp.NotebookDocumentClientCapabilities(synchronization=sync)
    async for result in _session(lsp_client, caps, OPTIONS):
        INITIALIZED["notebook_client"] = result
        yield
