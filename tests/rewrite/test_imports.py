"""Imports a fix needs, added once, next to the module's own imports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import libcst as cst
import pytest

from autoopt.model import RequireImport
from autoopt.rewrite.imports import add_imports

JAX = RequireImport("jax")


@pytest.mark.parametrize(
    ("source", "required", "expected"),
    [
        pytest.param(
            '"""Doc."""\n\nfrom __future__ import annotations\n\nx = 1\n',
            [JAX],
            '"""Doc."""\n\nfrom __future__ import annotations\n\nimport jax\n\nx = 1\n',
            id="a-section-of-its-own-after-the-future-import",
        ),
        pytest.param(
            "from __future__ import annotations\n\nimport jax.numpy as jnp\n",
            [JAX],
            "from __future__ import annotations\n\nimport jax\nimport jax.numpy as jnp\n",
            id="sorted-before-a-submodule-of-the-package",
        ),
        pytest.param(
            "import os\n\n# jax things\nimport jax.numpy as jnp\nimport numpy as np\n\nx = 1\n",
            [JAX],
            "import os\n\n# jax things\nimport jax\nimport jax.numpy as jnp\n"
            "import numpy as np\n\nx = 1\n",
            id="before-the-first-import-of-the-package-taking-its-comment",
        ),
        pytest.param(
            "from jax import numpy as jnp\n\nx = 1\n",
            [JAX],
            "import jax\nfrom jax import numpy as jnp\n\nx = 1\n",
            id="import-before-from-import",
        ),
        pytest.param(
            "import os\nimport zlib\n\nimport numpy as np\n\nx = 1\n",
            [JAX, RequireImport("functools")],
            "import functools\nimport os\nimport zlib\n\nimport jax\nimport numpy as np\n\nx = 1\n",
            id="each-in-its-section-sorted",
        ),
        pytest.param(
            "import os\nfrom typing import Any\n\nimport numpy as np\nfrom jax import lax\n",
            [RequireImport("zlib"), JAX],
            "import os\nimport zlib\nfrom typing import Any\n\nimport jax\nimport numpy as np\n"
            "from jax import lax\n",
            id="after-the-last-plain-import-before-from-imports",
        ),
        pytest.param(
            "import numpy as np\n\nx = 1\n",
            [RequireImport("functools")],
            "import functools\n\nimport numpy as np\n\nx = 1\n",
            id="a-standard-library-section-above-third-party",
        ),
        pytest.param(
            "import os\n\nfrom . import sibling\n",
            [JAX],
            "import os\n\nimport jax\n\nfrom . import sibling\n",
            id="a-third-party-section-between-stdlib-and-relative",
        ),
        pytest.param(
            "import os\n\nx = 1\nimport numpy as np\n\ny = 2\n",
            [JAX],
            "import os\n\nx = 1\nimport jax\nimport numpy as np\n\ny = 2\n",
            id="in-the-block-holding-its-section",
        ),
        pytest.param(
            "import os\n\nx = 1\n",
            [RequireImport("jax.numpy", "jnp")],
            "import os\n\nimport jax.numpy as jnp\n\nx = 1\n",
            id="with-an-alias",
        ),
        pytest.param("x = 1\n", [JAX], "import jax\n\nx = 1\n", id="no-imports"),
        pytest.param(
            '"""Doc."""\nx = 1\n',
            [JAX],
            '"""Doc."""\n\nimport jax\n\nx = 1\n',
            id="after-a-docstring",
        ),
        pytest.param(
            "# header\n\nx = 1\n",
            [JAX],
            "# header\n\nimport jax\n\nx = 1\n",
            id="below-the-header",
        ),
        pytest.param(
            "import os\ndef f():\n    pass\n",
            [JAX],
            "import os\n\nimport jax\n\n\ndef f():\n    pass\n",
            id="two-blank-lines-above-a-function",
        ),
    ],
)
def test_add_imports(source: str, required: list[RequireImport], expected: str) -> None:
    assert add_imports(cst.parse_module(source), required).code == expected


@pytest.mark.parametrize(
    ("source", "required"),
    [
        ("import jax\n", JAX),
        ("import jax.numpy\n", JAX),  # binds `jax`
        ("import jax.numpy as jnp\n", RequireImport("jax.numpy", "jnp")),
    ],
)
def test_present_imports_are_not_added_again(source: str, required: RequireImport) -> None:
    assert add_imports(cst.parse_module(source), [required]).code == source


def test_an_import_inside_a_function_binds_no_module_level_name() -> None:
    source = "def f():\n    import os\n"
    out = add_imports(cst.parse_module(source), [RequireImport("os")])
    assert out.code == "import os\n\n\ndef f():\n    import os\n"


def test_an_alias_bound_to_another_module_is_not_enough() -> None:
    source = "import numpy as jnp\n"
    out = add_imports(cst.parse_module(source), [RequireImport("jax.numpy", "jnp")])
    assert out.code == "import jax.numpy as jnp\nimport numpy as jnp\n"


def test_an_import_goes_above_its_first_use_when_the_imports_come_later() -> None:
    """A notebook's cells joined: the first cell uses `functools`, the last imports
    NumPy. The import joins the first cell's import block, not the last, in a section of
    its own."""
    source = (
        "# cell 0\nimport jax\n\n@functools.partial(jax.jit)\ndef f(x):\n    return x\n"
        "# cell 1\nimport numpy as np\n"
    )
    out = add_imports(cst.parse_module(source), [RequireImport("functools")])
    assert out.code == (
        "# cell 0\nimport functools\n\nimport jax\n\n@functools.partial(jax.jit)\n"
        "def f(x):\n    return x\n# cell 1\nimport numpy as np\n"
    )


def test_with_no_import_above_the_first_use_the_import_takes_its_comments() -> None:
    source = "# cell 0\nx = functools.reduce(max, [1, 2])\n# cell 1\nimport numpy as np\n"
    out = add_imports(cst.parse_module(source), [RequireImport("functools")])
    assert out.code == (
        "# cell 0\nimport functools\n\nx = functools.reduce(max, [1, 2])\n"
        "# cell 1\nimport numpy as np\n"
    )


LAX = RequireImport("jax", name="lax")


def ruff_isort(code: str, tmp_path: Path, *options: str) -> str:
    """Ruff's import-sorting complaints about `code` (empty when clean), defaults aside
    from `options`."""
    path = tmp_path / "code.py"
    path.write_text(code)
    command = [sys.executable, "-m", "ruff", "check", "--isolated", "--no-cache", "-q"]
    command += ["--select", "I", *options, str(path)]
    return subprocess.run(command, capture_output=True, text=True, check=False).stdout


@pytest.mark.parametrize(
    ("source", "required", "expected", "options"),
    [
        pytest.param(
            "from jax import random\n\nx = 1\n",
            LAX,
            "from jax import lax, random\n\nx = 1\n",
            (),
            id="joined-sorted",
        ),
        pytest.param(
            "from typing import TYPE_CHECKING, Any\n",
            RequireImport("typing", name="cast"),
            "from typing import TYPE_CHECKING, Any, cast\n",
            (),
            id="constants-then-classes-then-the-rest",
        ),
        pytest.param(
            "from jax import Array, random\n",
            LAX,
            "from jax import Array, lax, random\n",
            (),
            id="after-a-class",
        ),
        pytest.param(
            "from jax import lax, numpy as jnp, random\n",
            RequireImport("jax", name="jit"),
            "from jax import jit, lax, numpy as jnp, random\n",
            ("--config", "lint.isort.combine-as-imports=true"),
            id="into-a-line-that-combines-as-imports",
        ),
        pytest.param(
            "from jax import random, tree_util\n",
            LAX,
            "from jax import (\n    lax,\n    random,\n    tree_util,\n)\n",
            ("--line-length", "36"),
            id="wrapped-past-the-line-length",
        ),
        pytest.param(
            "from jax import (\n    random,\n    tree_util,\n)\n",
            LAX,
            "from jax import (\n    lax,\n    random,\n    tree_util,\n)\n",
            (),
            id="into-a-wrapped-line",
        ),
        pytest.param(
            "from jax import random, tree_util  # noqa: F401\n",
            LAX,
            "from jax import lax, random, tree_util  # noqa: F401\n",
            (),
            id="the-line-keeps-its-comment",
        ),
        pytest.param(
            "from jax import random  # noqa: F401\n",
            LAX,
            "from jax import (\n    lax,\n    random,  # noqa: F401\n)\n",
            (),
            id="a-lone-name-keeps-its-comment",
        ),
        pytest.param(
            "from jax import numpy as jnp\n",
            LAX,
            "from jax import lax\nfrom jax import numpy as jnp\n",
            (),
            id="never-into-as-imports-only",
        ),
        pytest.param(
            "from jax import *\n",
            LAX,
            "from jax import *\nfrom jax import lax\n",
            (),
            id="never-into-a-star-import",
        ),
        pytest.param(
            "import os\n\ntry:\n    from jax import random\n"
            "except ImportError:\n    random = None\n",
            LAX,
            "import os\n\nfrom jax import lax\n\ntry:\n    from jax import random\n"
            "except ImportError:\n    random = None\n",
            (),
            id="never-into-a-guarded-import",
        ),
        pytest.param(
            "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from jax import lax\n",
            LAX,
            "from typing import TYPE_CHECKING\n\nfrom jax import lax\n\n"
            "if TYPE_CHECKING:\n    from jax import lax\n",
            (),
            id="a-type-checking-import-binds-nothing-at-run-time",
        ),
    ],
)
def test_from_imports_join_the_files_line(
    source: str, required: RequireImport, expected: str, options: tuple[str, ...], tmp_path: Path
) -> None:
    length = int(options[1]) if options[:1] == ("--line-length",) else 88
    out = add_imports(cst.parse_module(source), [required], length).code
    assert out == expected
    assert ruff_isort(source, tmp_path, *options) == ""  # Ruff-clean before ...
    assert ruff_isort(out, tmp_path, *options) == ""  # ... and after


def test_a_type_checking_import_is_not_taken_as_bound() -> None:
    source = "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    import jax\n"
    out = add_imports(cst.parse_module(source), [JAX])
    assert out.code == (
        "from typing import TYPE_CHECKING\n\nimport jax\n\nif TYPE_CHECKING:\n    import jax\n"
    )


def test_a_from_import_already_there_is_not_added() -> None:
    source = "from jax import lax, random\n"
    assert add_imports(cst.parse_module(source), [LAX]).code == source


def test_a_from_import_joins_no_line_below_its_first_use() -> None:
    source = "x = lax.add\nfrom jax import random\n"
    out = add_imports(cst.parse_module(source), [LAX])
    assert out.code == "from jax import lax\n\nx = lax.add\nfrom jax import random\n"
