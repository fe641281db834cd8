"""Notebooks: code cells analysed together, rewritten in place, everything else untouched."""

from __future__ import annotations

import json

from autoopt.workspace.source_file import read_source, write_atomic
from tests.workspace.conftest import make_tree

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
    assert "%matplotlib" not in source.text


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
