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
