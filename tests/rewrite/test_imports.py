"""Imports a fix needs, added once, next to the module's own imports."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.model import RequireImport
from autoopt.rewrite.imports import add_imports

JAX = RequireImport("jax")


@pytest.mark.parametrize(
    ("source", "required", "expected"),
    [
        pytest.param(
            '"""Doc."""\nfrom __future__ import annotations\n\nx = 1\n',
            [JAX],
            '"""Doc."""\nfrom __future__ import annotations\nimport jax\n\nx = 1\n',
            id="after-docstring-and-future",
        ),
        pytest.param(
            "from __future__ import annotations\nimport jax.numpy as jnp\n",
            [JAX],
            "from __future__ import annotations\nimport jax\nimport jax.numpy as jnp\n",
            id="before-the-package-not-the-future-import",
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
            id="before-a-from-import-of-the-package",
        ),
        pytest.param(
            "import os\nimport numpy as np\n\nx = 1\n",
            [JAX, RequireImport("functools")],
            "import os\nimport numpy as np\nimport functools\nimport jax\n\nx = 1\n",
            id="after-the-last-import-sorted",
        ),
        pytest.param(
            "import os\nx = 1\nimport numpy as np\ny = 2\n",
            [JAX],
            "import os\nx = 1\nimport numpy as np\nimport jax\ny = 2\n",
            id="after-the-last-top-level-import",
        ),
        pytest.param(
            "import os\n\nx = 1\n",
            [RequireImport("jax.numpy", "jnp")],
            "import os\nimport jax.numpy as jnp\n\nx = 1\n",
            id="with-an-alias",
        ),
        pytest.param("x = 1\n", [JAX], "import jax\nx = 1\n", id="no-imports"),
        pytest.param(
            "# header\n\nx = 1\n", [JAX], "# header\n\nimport jax\nx = 1\n", id="below-the-header"
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
    assert out.code == "import os\ndef f():\n    import os\n"


def test_an_alias_bound_to_another_module_is_not_enough() -> None:
    source = "import numpy as jnp\n"
    out = add_imports(cst.parse_module(source), [RequireImport("jax.numpy", "jnp")])
    assert out.code == "import numpy as jnp\nimport jax.numpy as jnp\n"


def test_an_import_goes_above_its_first_use_when_the_imports_come_later() -> None:
    """A notebook's cells joined: the first cell uses `functools`, the last imports
    NumPy. The import joins the first cell's import block, not the last."""
    source = (
        "# cell 0\nimport jax\n\n@functools.partial(jax.jit)\ndef f(x):\n    return x\n"
        "# cell 1\nimport numpy as np\n"
    )
    out = add_imports(cst.parse_module(source), [RequireImport("functools")])
    assert out.code == (
        "# cell 0\nimport jax\nimport functools\n\n@functools.partial(jax.jit)\n"
        "def f(x):\n    return x\n# cell 1\nimport numpy as np\n"
    )


def test_with_no_import_above_the_first_use_the_import_takes_its_comments() -> None:
    source = "# cell 0\nx = functools.reduce(max, [1, 2])\n# cell 1\nimport numpy as np\n"
    out = add_imports(cst.parse_module(source), [RequireImport("functools")])
    assert out.code == (
        "# cell 0\nimport functools\nx = functools.reduce(max, [1, 2])\n"
        "# cell 1\nimport numpy as np\n"
    )
