"""Notebooks: code cells analysed together, rewritten in place, everything else untouched."""

from __future__ import annotations

import hashlib
import json

from autoopt.workspace import notebook as notebook_module
from autoopt.workspace.source_file import read_source, write_atomic
from tests.workspace.conftest import make_tree
from tests.workspace.test_reports import _validate as validate_sarif

CELLS = [
    ("markdown", "# Heat\nsome *prose*"),
    (
        "code",
        "import jax.numpy as jnp\n\n\ndef step(u, alpha):\n"
        "    return u + alpha * (jnp.roll(u, 1) - 2 * u)",
    ),
    ("code", "%matplotlib inline"),
    ("code", "u = jnp.ones(8)\nfor _ in range(10):\n    u = step(u, 0.1)\nu"),
]


def notebook() -> str:
    cells = []
    for kind, text in CELLS:
        cell = {"cell_type": kind, "metadata": {}, "source": text.splitlines(keepends=True)}
        if kind == "code":
            cell |= {
                "execution_count": 3,
                "outputs": [{"output_type": "stream", "text": ["é ok\n"]}],
            }
        cells.append(cell)
    meta = {"language_info": {"name": "python"}}
    document = {"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def test_round_trip_is_byte_identical(tmp_path):
    make_tree(tmp_path, {"nb.ipynb": notebook()})
    source = read_source(tmp_path / "nb.ipynb")
    assert source.encode(source.text) == (tmp_path / "nb.ipynb").read_bytes()
    assert "# autoopt-cell 2\n# autoopt-magic %matplotlib inline\n" in source.text


MAGIC_CELLS = {
    "inert": "%matplotlib inline\n!pip install optax\nimport jax",
    "timed": "%%time\nimport jax",
    "runs code": "%time y = jax.numpy.ones(3)\nimport jax",
    "repeats": "%%timeit\nimport jax",
    "continued": "%config InlineBackend.figure_format = \\\n  'svg'\nimport jax",
    "sets the environment": "%env XLA_FLAGS=--xla_cpu_use_thunk_runtime=false\nimport jax",
}


def test_inert_magics_are_commented_out_others_leave_the_cell_out(tmp_path):
    document = json.loads(notebook())
    for text in MAGIC_CELLS.values():
        document["cells"].append({"cell_type": "code", "metadata": {}, "source": [text]})
    make_tree(tmp_path, {"nb.ipynb": json.dumps(document, indent=1) + "\n"})
    source = read_source(tmp_path / "nb.ipynb")
    assert "# autoopt-magic !pip install optax\nimport jax\n" in source.text
    assert "# autoopt-magic %%time\nimport jax\n" in source.text
    assert [n for n in ("%time y", "%%timeit", "%config", "%env") if n in source.text] == []
    assert source.encode(source.text) == (tmp_path / "nb.ipynb").read_bytes()


def test_a_rewritten_cell_keeps_its_magic_lines(tmp_path, cli):
    document = json.loads(notebook())
    document["cells"][1]["source"].insert(0, "%matplotlib inline\n")
    make_tree(tmp_path, {"nb.ipynb": json.dumps(document, indent=1) + "\n"})
    result = cli("rewrite", "nb.ipynb", "--write", "--select", "AO101", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    cell = json.loads((tmp_path / "nb.ipynb").read_text())["cells"][1]["source"]
    assert cell[:4] == ["%matplotlib inline\n", "import jax\n", "import jax.numpy as jnp\n", "\n"]
    assert "@jax.jit\n" in cell


def test_rewrite_changes_only_code_cell_sources(tmp_path, cli):
    make_tree(tmp_path, {"nb.ipynb": notebook()})
    before = json.loads((tmp_path / "nb.ipynb").read_text())
    result = cli("rewrite", "nb.ipynb", "--write", "--select", "AO101", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    after = json.loads((tmp_path / "nb.ipynb").read_text())
    changed = [
        i for i, (a, b) in enumerate(zip(before["cells"], after["cells"], strict=True)) if a != b
    ]
    assert changed == [1]
    assert "@jax.jit\n" in after["cells"][1]["source"]
    assert after["cells"][1]["outputs"] == before["cells"][1]["outputs"]
    assert not after["cells"][1]["source"][-1].endswith("\n")  # cell kept its open end
    assert {k: v for k, v in after.items() if k != "cells"} == {
        k: v for k, v in before.items() if k != "cells"
    }


def test_a_rewrite_across_cells_is_refused(tmp_path):
    make_tree(tmp_path, {"nb.ipynb": notebook()})
    source = read_source(tmp_path / "nb.ipynb")
    swapped = source.text.replace("# autoopt-cell 1\n", "").replace(
        "# autoopt-cell 3\n", "# autoopt-cell 3\n# autoopt-cell 1\n"
    )
    try:
        write_atomic(source, swapped)
    except Exception as exc:
        assert "across notebook cells" in str(exc)
    else:
        raise AssertionError("expected a refusal")


def test_non_python_notebook_is_an_error(tmp_path, cli):
    document = {"cells": [], "metadata": {"kernelspec": {"language": "julia"}}}
    make_tree(tmp_path, {"j.ipynb": json.dumps(document), "bad.ipynb": "{not json"})
    result = cli("check", ".", cwd=tmp_path)
    assert result.exit_code == 2
    assert "j.ipynb: a julia notebook, not Python" in result.stderr
    assert "bad.ipynb: not a Jupyter notebook" in result.stderr


BROKEN = "x = (1,\n"


def broken_notebook() -> str:
    """The notebook with a cell that does not parse between the definition and the loop."""
    document = json.loads(notebook())
    cell = {"cell_type": "code", "execution_count": 4, "metadata": {}, "outputs": []}
    document["cells"].insert(2, cell | {"source": [BROKEN]})
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def test_text_positions_count_lines_in_cells(tmp_path, cli):
    make_tree(tmp_path, {"nb.ipynb": notebook()})
    result = cli("check", "nb.ipynb", "--select", "AO101,AO103", cwd=tmp_path)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "nb.ipynb:cell 2:4:5: AO101 `step` is called in a loop without `jax.jit`: "
        "add `@jax.jit` [fix: safe]",
        "nb.ipynb:cell 4:2:1: AO103 this loop's body runs eagerly, one dispatch per operation: "
        "run the whole loop as one jitted `lax.scan`, `_loop`, donating `u` [fix: safe]",
    ]


def test_json_sarif_and_github_positions_name_the_cell(tmp_path, cli):
    make_tree(tmp_path, {"nb.ipynb": notebook()})
    args = ("check", "nb.ipynb", "--select", "AO101", "--format")
    [finding] = json.loads(cli(*args, "json", cwd=tmp_path).stdout)["findings"]
    where = {k: finding[k] for k in ("cell", "line", "column", "end_line", "end_column")}
    assert where == {"cell": 2, "line": 4, "column": 5, "end_line": 4, "end_column": 9}
    assert [(e["cell"], e["location"]["row"]) for e in finding["fix_edits"]["edits"]] == [
        (2, 1),
        (2, 4),
    ]
    sarif = json.loads(cli(*args, "sarif", cwd=tmp_path).stdout)
    validate_sarif(sarif)
    [result] = sarif["runs"][0]["results"]
    region = result["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 4, "startColumn": 5, "endLine": 4, "endColumn": 9}
    assert result["properties"]["cell"] == 2
    digest = hashlib.sha256(b"AO101\0def step(u, alpha):").hexdigest()[:16]
    assert result["partialFingerprints"]["primaryLocationLineHash"] == f"{digest}:1"
    github = cli(*args, "github", cwd=tmp_path).stdout
    assert github.startswith("::warning file=nb.ipynb,line=4,col=5,endLine=4,endColumn=9,")
    assert "title=AO101 missing-jit (cell 2)::" in github


def test_a_broken_cell_is_reported_and_skipped_alone(tmp_path, cli):
    make_tree(tmp_path, {"nb.ipynb": broken_notebook()})
    for _ in ("analysed", "from the cache"):
        result = cli("check", "nb.ipynb", "--select", "AO101", cwd=tmp_path)
        assert result.exit_code == 1  # findings, not an error of the whole file
        assert result.stdout.startswith("nb.ipynb:cell 2:4:5: AO101 `step`")
        assert result.stderr.splitlines()[0] == (
            "warning: nb.ipynb:cell 3: cell skipped: syntax error: '(' was never closed (line 1)"
        )


def test_an_error_of_the_whole_notebook_names_the_cell(tmp_path, cli, monkeypatch):
    """A cell Python's parser accepts but LibCST does not fails the notebook, at its cell."""
    monkeypatch.setattr(notebook_module, "_syntax_error", lambda code: None)
    make_tree(tmp_path, {"nb.ipynb": broken_notebook()})
    result = cli("check", "nb.ipynb", "--no-cache", cwd=tmp_path)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0] == (
        "error: nb.ipynb:cell 3:1: syntax error: '(' was never closed"
    )
    report = json.loads(cli("check", "nb.ipynb", "--format", "json", cwd=tmp_path).stdout)
    assert report["errors"] == [
        {"path": "nb.ipynb", "cell": 3, "message": "syntax error: '(' was never closed"}
    ]
    sarif = json.loads(cli("check", "nb.ipynb", "--format", "sarif", cwd=tmp_path).stdout)
    validate_sarif(sarif)
    [note] = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert note["properties"] == {"cell": 3}
    assert note["locations"][0]["physicalLocation"]["region"] == {"startLine": 1}


def test_rewrite_keeps_the_broken_cell_byte_for_byte(tmp_path, cli):
    make_tree(tmp_path, {"nb.ipynb": broken_notebook()})
    before = (tmp_path / "nb.ipynb").read_bytes()
    result = cli("rewrite", "nb.ipynb", "--write", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    after = (tmp_path / "nb.ipynb").read_bytes()
    cells_before, cells_after = (json.loads(raw)["cells"] for raw in (before, after))
    assert cells_after[2] == cells_before[2]
    broken = json.dumps(cells_before[2], indent=1).replace("\n", "\n  ").encode()
    assert before.count(broken) == after.count(broken) == 1
    pairs = enumerate(zip(cells_before, cells_after, strict=True))
    assert [i for i, (a, b) in pairs if a != b] == [1, 4]


def test_json_cell_edits_applied_give_the_written_cells(tmp_path, cli):
    make_tree(tmp_path, {"nb.ipynb": broken_notebook()})
    report = json.loads(cli("rewrite", "nb.ipynb", "--format", "json", cwd=tmp_path).stdout)
    edits = [e for f in report["findings"] if "fix_edits" in f for e in f["fix_edits"]["edits"]]
    cells = json.loads((tmp_path / "nb.ipynb").read_text())["cells"]
    expected = [_text(cell) for cell in cells]
    assert cli("rewrite", "nb.ipynb", "--write", cwd=tmp_path).exit_code == 0
    written = json.loads((tmp_path / "nb.ipynb").read_text())["cells"]
    for index, cell in enumerate(cells):
        mine = sorted((e for e in edits if e["cell"] == index + 1), key=_start, reverse=True)
        text = _text(cell) if _text(cell).endswith("\n") else _text(cell) + "\n"
        for edit in mine:
            text = _replace(text, edit)
        expected[index] = text if _text(cell).endswith("\n") else text[:-1]
    assert expected == [_text(cell) for cell in written]
    assert expected != [_text(cell) for cell in cells]


def _text(cell: dict) -> str:
    return "".join(cell["source"])


def _start(edit: dict) -> tuple[int, int]:
    return edit["location"]["row"], edit["location"]["column"]


def _replace(text: str, edit: dict) -> str:
    """`text` with `edit`'s range (1-based rows and columns, end exclusive) replaced."""
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]

    def offset(point: dict) -> int:
        return starts[point["row"] - 1] + point["column"] - 1

    return text[: offset(edit["location"])] + edit["content"] + text[offset(edit["end_location"]) :]
