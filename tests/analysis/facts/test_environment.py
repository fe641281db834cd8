"""Which top-level statements may read the process environment: names, calls, imports
followed into the project's modules."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.facts.environment import env_reader

HEAD = "import os\nimport os as system\nfrom os import environ as env, getenv\nimport jax\n"
MODULES = {
    "plain.py": "import jax.numpy as jnp\nimport numpy as np\n\nBATCH = 8\n",
    "envcfg.py": 'import os\n\nFRACTION = os.environ.get("XLA_PYTHON_CLIENT_MEM_FRACTION")\n',
    "chained.py": "import plain\nimport envcfg\n",
    "calls.py": "def size():\n    return 4\n\nSIZE = size()\n",
    "defines.py": "import os\n\ndef fraction():\n    return os.getenv('X')\n",
    "unseen.py": "import optax\n",
    "cycle_a.py": "import cycle_b\n",
    "cycle_b.py": "import cycle_a\n",
}
MODULES["pkg/__init__.py"] = ""
MODULES["pkg/conf.py"] = MODULES["envcfg.py"]


@pytest.mark.parametrize(
    ("statement", "reason"),
    [
        # provably not
        ("import jax.numpy as jnp", None),
        ("import numpy as np, time, logging", None),
        ("from jax import numpy as jnp", None),
        ("import plain", None),
        ("from plain import BATCH", None),
        ("import defines", None),  # the read is in a function nobody calls at import
        ("import cycle_a", None),
        ("x = jax.numpy.ones(3)", None),
        ("n = len(str(3))", None),
        ("print('ready')", None),
        ("def f(x=1):\n    return os.environ['A']", None),
        # the environment named, however spelled
        ("A = os.environ.get('XLA_FLAGS')", "reads `os.environ`"),
        ("A = system.environ['X']", "reads `system.environ`"),
        ("A = env.get('X')", "reads `env`"),
        ("A = getenv('X')", "reads `getenv`"),
        ("os.environ.pop('XLA_PYTHON_CLIENT_PREALLOCATE')", "reads `os.environ`"),
        ("class C:\n    A = os.getenv('X')", "reads `os.getenv`"),
        ("def f(x=os.environ):\n    return x", "reads `os.environ`"),
        # a call of code that may read it
        ("BUDGET = configure()", "calls `configure`, which may read it"),
        ("os.system('ls')", "calls `os.system`, which may read it"),
        ("n = len(list(map(configure, [1])))", "calls `map`, which may read it"),  # calls back
        ("@register\ndef f():\n    pass", "calls `register`, which may read it"),
        ("@jax.jit\ndef f(x):\n    return x", None),
        ("class C(Base):\n    pass", "calls `Base`, which may read it"),
        ("class C:\n    pass", None),
        # an import of a module that reads it at import, or that autoopt cannot see
        ("import envcfg", "imports `envcfg`, whose line 3 reads `os.environ`"),
        ("from envcfg import FRACTION", "imports `envcfg`, whose line 3 reads `os.environ`"),
        (
            "import chained",
            "imports `chained`, whose line 2 imports `envcfg`, whose line 3 reads `os.environ`",
        ),
        ("import calls", "imports `calls`, whose line 4 calls `size`, which may read it"),
        ("import pkg.conf", "imports `pkg.conf`, whose line 3 reads `os.environ`"),
        ("from pkg import conf", "imports `pkg.conf`, whose line 3 reads `os.environ`"),
        ("import optax", "imports `optax`, which autoopt cannot see (it may read it)"),
        (
            "import unseen",
            "imports `unseen`, whose line 1 imports `optax`, which autoopt cannot see (it may"
            " read it)",
        ),
        ("if True:\n    import optax", "imports `optax`, which autoopt cannot see"),
        ("from . import plain", "imports a module by a relative import"),
    ],
)
def test_env_reader(tmp_path: Path, statement: str, reason: str | None) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    for name, text in MODULES.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    source = HEAD + statement + "\n"
    (tmp_path / "main.py").write_text(source)
    ctx = ModuleContext(str(tmp_path / "main.py"), source, cst.parse_module(source))
    found = env_reader(ctx, ctx.module.body[-1])
    assert found == reason if reason is None else found is not None and found.startswith(reason)
