"""`autoopt mcp` driven by the MCP SDK's own client over stdio, one server per module."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from mcp import ClientSession, StdioServerParameters, stdio_client
from typer.testing import CliRunner

from autoopt.frontends import mcp as mcp_tools
from autoopt.frontends.cli import app
from autoopt.rules import BY_ID

ROOT = Path(__file__).resolve().parents[2]
STEP = """\
import jax.numpy as jnp


def step(u):
    return jnp.tanh(u) * 0.5


def main():
    u = jnp.ones(4)
    for _ in range(10):
        u = step(u)
    return u
"""
#: The AO101 rewrite of STEP, as a unified diff (context lines start with a space).
STEP_DIFF = "".join(
    f"{line}\n"
    for line in [
        "--- step.py",
        "+++ step.py",
        "@@ -1,6 +1,8 @@",
        "+import jax",
        " import jax.numpy as jnp",
        " ",
        " ",
        "+@jax.jit",
        " def step(u):",
        "     return jnp.tanh(u) * 0.5",
        " ",
    ]
)
FINDING = {
    "code": "AO101",
    "name": "missing-jit",
    "message": "`step` is called in a loop without `jax.jit`: add `@jax.jit`",
    "path": "step.py",
    "cell": None,
    "line": 4,
    "column": 5,
    "end_line": 4,
    "end_column": 9,
    "fix": "safe",
}


class Client:
    """Synchronous calls into one client session running in a portal's event loop."""

    def __init__(self, portal: BlockingPortal, session: ClientSession) -> None:
        self.portal, self.session = portal, session

    def call(self, tool: str, **arguments: Any) -> Any:
        return self.portal.call(self.session.call_tool, tool, arguments)


@asynccontextmanager
async def _session(folder: Path, cache: Path) -> AsyncIterator[ClientSession]:
    """`autoopt mcp FOLDER`, started elsewhere, as VS Code and Cursor start it."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "autoopt", "mcp", str(folder)],
        env={**os.environ, "PYTHONPATH": path, "AUTOOPT_CACHE_DIR": str(cache)},
        cwd=cache,
    )
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("mcp")
    (folder / "step.py").write_text(STEP)
    return folder


@pytest.fixture(scope="module")
def client(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    session = _session(folder, tmp_path_factory.mktemp("cache"))
    with start_blocking_portal() as portal, portal.wrap_async_context_manager(session) as started:
        yield Client(portal, started)


def test_lists_the_four_tools_with_typed_inputs(client: Client) -> None:
    tools = {tool.name: tool for tool in client.portal.call(client.session.list_tools).tools}
    assert sorted(tools) == ["check", "explain", "rewrite", "verify"]
    inputs = {name: tool.input_schema for name, tool in tools.items()}
    common = ["paths", "source", "filename", "select", "ignore", "unsafe_fixes"]
    assert list(inputs["check"]["properties"]) == common
    assert list(inputs["rewrite"]["properties"]) == [*common, "include_tests", "write"]
    assert inputs["rewrite"]["properties"]["write"]["default"] is False
    assert list(inputs["verify"]["properties"]) == [
        *["path", "entry", "timeout"],
        *["select", "ignore", "unsafe_fixes"],
    ]
    assert inputs["verify"]["required"] == ["path"]
    assert inputs["explain"]["required"] == ["code"]
    assert inputs["check"]["properties"]["select"]["anyOf"][0] == {
        "items": {"type": "string"},
        "type": "array",
    }
    outputs = {name: tool.output_schema["title"] for name, tool in tools.items()}
    assert outputs == {
        "check": "CheckOutput",
        "rewrite": "RewriteOutput",
        "verify": "VerifyOutput",
        "explain": "ExplainOutput",
    }
    assert "Slow" in (tools["verify"].description or "")
    assert tools["check"].annotations is not None and tools["check"].annotations.read_only_hint


def test_check_a_file(client: Client) -> None:
    result = client.call("check", paths=["step.py"], select=["AO101"])
    assert not result.is_error
    assert result.structured_content == {"files": 1, "findings": [FINDING], "errors": []}


def test_check_a_source_text(client: Client) -> None:
    result = client.call("check", source=STEP, filename="step.py", select=["ao101"])
    assert result.structured_content == {"files": 1, "findings": [FINDING], "errors": []}


def test_check_reports_an_unparsable_file_and_checks_the_others(
    client: Client, folder: Path
) -> None:
    (folder / "broken.py").write_text("def f(:\n    pass\n")
    result = client.call("check", paths=["broken.py", "step.py"], select=["AO101"])
    assert result.structured_content == {
        "files": 2,
        "findings": [FINDING],
        "errors": [{"path": "broken.py", "message": "syntax error: invalid syntax"}],
    }


def test_rewrite_shows_the_diff_and_writes_nothing(client: Client, folder: Path) -> None:
    result = client.call("rewrite", paths=["step.py"], select=["AO101"])
    assert result.structured_content == {
        "diff": STEP_DIFF,
        "fixed": [FINDING],
        "written": [],
        "held_back": [],
        "new_source": None,
        "errors": [],
    }
    assert (folder / "step.py").read_text() == STEP


def test_rewrite_a_source_text_returns_the_new_source(client: Client) -> None:
    result = client.call("rewrite", source=STEP, filename="step.py", select=["AO101"])
    content = result.structured_content
    assert content["diff"] == STEP_DIFF
    assert content["new_source"] == "import jax\n" + STEP.replace("def step", "@jax.jit\ndef step")


def test_rewrite_writes_only_when_asked(client: Client, folder: Path) -> None:
    (folder / "written.py").write_text(STEP)
    result = client.call("rewrite", paths=["written.py"], select=["AO101"], write=True)
    assert result.structured_content["written"] == ["written.py"]
    assert result.structured_content["diff"] == STEP_DIFF.replace("step.py", "written.py")
    assert (folder / "written.py").read_text() == "import jax\n" + STEP.replace(
        "def step", "@jax.jit\ndef step"
    )


def test_rewrite_holds_back_test_files(client: Client, folder: Path) -> None:
    (folder / "test_step.py").write_text(STEP)
    result = client.call("rewrite", paths=["test_step.py"], select=["AO101"], write=True)
    assert result.structured_content["held_back"] == ["test_step.py"]
    assert result.structured_content["written"] == []
    assert (folder / "test_step.py").read_text() == STEP


def test_rewrite_refuses_to_write_a_source_text(client: Client) -> None:
    result = client.call("rewrite", source=STEP, write=True)
    assert result.is_error
    assert result.content[0].text == (
        "Error executing tool rewrite: write needs paths: a `source` has no file to write"
    )


def test_paths_or_source_exactly_one(client: Client) -> None:
    result = client.call("check")
    assert result.is_error
    assert result.content[0].text == "Error executing tool check: give either `paths` or `source`"


def test_explain(client: Client) -> None:
    rule = BY_ID["AO101"]
    result = client.call("explain", code="ao101")
    assert result.structured_content == {
        "code": "AO101",
        "name": "missing-jit",
        "summary": rule.summary,
        "documentation": rule.doc(),
    }
    assert client.call("explain", code="missing-jit").structured_content["code"] == "AO101"


def test_explain_an_unknown_rule(client: Client) -> None:
    result = client.call("explain", code="AO999")
    assert result.is_error
    assert result.content[0].text.startswith(
        "Error executing tool explain: unknown rule 'AO999'; the rules are AO101, AO102,"
    )


def test_verify_returns_each_decision(client: Client, folder: Path) -> None:
    result = client.call("verify", path="step.py", select=["AO101"])
    content = result.structured_content
    [row] = content["rows"]
    assert (content["path"], content["entry"], content["error"]) == ("step.py", "main", None)
    assert (row["code"], row["line"], row["title"]) == ("AO101", 4, "Add @jax.jit")
    assert row["verdict"] in {"accepted", "no gain", "slower"}  # timing: noise decides
    assert row["accepted"] is (row["verdict"] == "accepted")
    assert row["max_abs_error"] == 0.0
    assert row["memory_measure"] in {"compiled", "device", "RSS"}  # the best one measured
    assert row["memory_before"] > 0 and row["memory_after"] > 0
    assert content["all_verified"] is row["accepted"]
    assert content["accepted_diff"] == (STEP_DIFF if row["accepted"] else "")
    assert (folder / "step.py").read_text() == STEP


def test_verify_says_why_it_cannot_run(client: Client, folder: Path) -> None:
    result = client.call("verify", path="step.py", entry="nope", select=["AO101"])
    content = result.structured_content
    assert (content["rows"], content["all_verified"]) == ([], False)
    assert content["error"] == "the original program fails: step has no attribute 'nope'"
    missing = client.call("verify", path="missing.py")
    assert missing.is_error
    assert missing.content[0].text == (
        "Error executing tool verify: missing.py: [Errno 2] No such file or directory:"
        f" '{folder / 'missing.py'}'"
    )


def test_without_the_sdk_the_command_says_how_to_install_it() -> None:
    code = (
        "import sys; sys.modules['mcp'] = None; sys.argv = ['autoopt', 'mcp'];"
        " from autoopt.frontends.cli import main; main()"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 2
    assert done.stderr == "error: the MCP SDK is not installed: pip install 'autoopt[mcp]'\n"


def test_the_project_folder_must_exist(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["mcp", "nowhere"])
    assert result.exit_code == 2
    assert "Invalid value for 'DIR': Directory 'nowhere' does not exist." in result.output


def test_notebook_findings_count_lines_in_their_cell(tmp_path, monkeypatch):
    """The tools report a notebook's positions as `autoopt check` does: cell and line in it."""
    cells = [("markdown", "# steps"), ("code", STEP), ("code", "main()")]
    document = {
        "cells": [{"cell_type": kind, "metadata": {}, "source": text} for kind, text in cells],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (tmp_path / "nb.ipynb").write_text(json.dumps(document))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("AUTOOPT_CACHE_DIR", str(tmp_path / "cache"))
    where = {**FINDING, "path": "nb.ipynb", "cell": 2}
    assert mcp_tools.check(paths=["nb.ipynb"], select=["AO101"]).model_dump()["findings"] == [where]
    fixed = mcp_tools.rewrite(paths=["nb.ipynb"], select=["AO101"]).model_dump()["fixed"]
    assert fixed == [where]
