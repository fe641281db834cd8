"""`check --add-noqa`: the findings' codes written into `# autoopt: ignore[...]` comments
on the lines the suppression is read from, atomically, the count printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from autoopt.frontends.cli import app
from tests.workspace.test_notebook import notebook

runner = CliRunner()

LOOPS = """\
import jax.numpy as jnp
import numpy as np

data = np.ones(3)
x = jnp.zeros(3)
for _ in range(10):  # the steps
    x = x + jnp.asarray(
        data
    )
    x = x * jnp.asarray( \\
        data)


def step(x):  # autoopt: ignore[AO102]
    return x * 2


for _ in range(10):
    x = step(x)
"""

SUPPRESSED = """\
import jax.numpy as jnp
import numpy as np

data = np.ones(3)
x = jnp.zeros(3)
for _ in range(10):  # the steps  # autoopt: ignore[AO103]
    x = x + jnp.asarray(  # autoopt: ignore[AO301]
        data
    )
    x = x * jnp.asarray( \\
        data)  # autoopt: ignore[AO301]


def step(x):  # autoopt: ignore[AO102,AO101,AO201]
    return x * 2


for _ in range(10):  # autoopt: ignore[AO103]
    x = step(x)
"""


def invoke(*args: str):
    return runner.invoke(app, [*args, "--no-progress", "--no-cache"])


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "loops.py").write_text(LOOPS)
    return tmp_path


def test_codes_go_to_the_first_line_that_takes_a_comment(project: Path) -> None:
    """A multi-line call gets it on its first line; one continued with a backslash on the
    next; an existing comment is kept, an existing ignore merged into."""
    result = invoke("check", "loops.py", "--add-noqa")
    assert (result.exit_code, result.stdout) == (0, "")
    assert result.stderr == "added 6 suppression(s) in 1 file(s)\n"
    assert (project / "loops.py").read_text() == SUPPRESSED
    again = invoke("check", "loops.py")
    assert (again.exit_code, again.stdout) == (0, "")


def test_nothing_to_add_leaves_the_file_as_it_is(project: Path) -> None:
    (project / "loops.py").write_text(SUPPRESSED)
    before = (project / "loops.py").stat().st_mtime_ns
    result = invoke("check", "loops.py", "--add-noqa")
    assert (result.exit_code, result.stderr) == (0, "added 0 suppression(s) in 0 file(s)\n")
    assert (project / "loops.py").stat().st_mtime_ns == before


def test_only_the_selected_codes_are_added(project: Path) -> None:
    result = invoke("check", "loops.py", "--add-noqa", "--select", "AO301")
    assert result.stderr == "added 2 suppression(s) in 1 file(s)\n"
    assert (project / "loops.py").read_text() == LOOPS.replace(
        "jnp.asarray(\n", "jnp.asarray(  # autoopt: ignore[AO301]\n"
    ).replace("        data)\n", "        data)  # autoopt: ignore[AO301]\n")


def test_a_finding_no_comment_can_reach_is_named(project: Path) -> None:
    """The span of `jnp.asarray(data)` is one line, continued with a backslash."""
    code = LOOPS.replace(
        "x = x + jnp.asarray(\n        data\n    )", "x = x + jnp.asarray(data) + \\\n        1"
    )
    (project / "loops.py").write_text(code)
    result = invoke("check", "loops.py", "--add-noqa", "--select", "AO301")
    assert result.exit_code == 0
    assert result.stderr == (
        "warning: loops.py:7:13: AO301: no line of the finding can end in a comment (inside"
        " a string, or continued with \\)\nadded 1 suppression(s) in 1 file(s)\n"
    )
    assert (project / "loops.py").read_text() == code.replace(
        "        data)\n", "        data)  # autoopt: ignore[AO301]\n"
    )


def test_crlf_and_other_files_are_kept_byte_for_byte(project: Path) -> None:
    (project / "loops.py").write_bytes(LOOPS.replace("\n", "\r\n").encode())
    (project / "clean.py").write_bytes(b"import jax.numpy as jnp\r\n\r\nx = jnp.ones(3)\r\n")
    result = invoke("check", ".", "--add-noqa")
    assert result.stderr == "added 6 suppression(s) in 1 file(s)\n"
    assert (project / "loops.py").read_bytes() == SUPPRESSED.replace("\n", "\r\n").encode()
    assert (
        project / "clean.py"
    ).read_bytes() == b"import jax.numpy as jnp\r\n\r\nx = jnp.ones(3)\r\n"


def test_a_file_changed_since_it_was_read_is_not_overwritten(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from autoopt.workspace import noqa

    def edited_meanwhile(text, findings):
        (project / "loops.py").write_text("# edited\n" + LOOPS)
        return noqa_text(text, findings)

    noqa_text = noqa.with_noqa
    monkeypatch.setattr(noqa, "with_noqa", edited_meanwhile)
    result = invoke("check", "loops.py", "--add-noqa")
    assert result.exit_code == 2
    assert result.stderr == (
        "error: loops.py: changed on disk since it was read; not overwritten\n"
        "added 0 suppression(s) in 0 file(s)\n"
    )
    assert (project / "loops.py").read_text() == "# edited\n" + LOOPS


def test_stdin_cannot_take_comments(project: Path) -> None:
    result = runner.invoke(app, ["check", "-", "--add-noqa"], input=LOOPS)
    assert result.exit_code == 2
    assert result.stderr == "error: --add-noqa writes files; it cannot take - (stdin)\n"


def test_a_notebook_gets_its_comments_in_its_cells(project: Path) -> None:
    """Code cells are joined for the analysis; the comments land in the cells' sources,
    everything else of the notebook kept."""
    (project / "nb.ipynb").write_text(notebook())
    before = json.loads((project / "nb.ipynb").read_text())
    result = invoke("check", "nb.ipynb", "--add-noqa")
    assert (result.exit_code, result.stderr) == (0, "added 3 suppression(s) in 1 file(s)\n")
    after = json.loads((project / "nb.ipynb").read_text())
    sources = ["".join(cell["source"]) for cell in after["cells"]]
    assert sources[1] == (
        "import jax.numpy as jnp\n\n\ndef step(u, alpha):  # autoopt: ignore[AO101,AO201]\n"
        "    return u + alpha * (jnp.roll(u, 1) - 2 * u)"
    )
    assert sources[3] == "u = jnp.ones(8)\nfor _ in range(10):  # autoopt: ignore[AO103]\n" + (
        "    u = step(u, 0.1)\nu"
    )
    assert [after["cells"][i] for i in (0, 2)] == [before["cells"][i] for i in (0, 2)]
    for i in (1, 3):  # outputs, counts and metadata kept
        assert {**after["cells"][i], "source": []} == {**before["cells"][i], "source": []}
    assert {**after, "cells": []} == {**before, "cells": []}
    assert invoke("check", "nb.ipynb").exit_code == 0
