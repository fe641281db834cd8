"""AO701 xla-env-after-import: the cases tests/test_rule_examples.py runs.

The one INVALID case flagged `doc=True` is the example its documentation shows.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

VALID = (
    Valid(
        """
import os
os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
import jax
""",
        "already before the import",
    ),
    Valid(
        """
import os
import jax
os.environ["OMP_NUM_THREADS"] = "1"
""",
        "not a JAX setting",
    ),
    Valid(
        """
import os
import jax

def main():
    print(os.environ["XLA_FLAGS"])
""",
        "a read, not a write",
    ),
    Valid(
        """
import os
import jax
key = "JAX_ENABLE_X64"
print(os.environ.get(key))
""",
        "a read with get",
    ),
    Valid(
        """
import os
os.environ.update({"JAX_PLATFORMS": "cpu"})
import jax.numpy as jnp
""",
        "update before the import",
    ),
    Valid(
        """
import os
import numpy as np
os.environ["XLA_FLAGS"] = "--xla_cpu_enable_fast_math=false"
""",
        "the module does not import jax",
    ),
)

INVALID = (
    Invalid(
        """
import os
import jax
os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
""",
        """
import os

os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
import jax
""",
        message="before the first use it still works",
        doc=True,
    ),
    Invalid(
        """
import jax
import jax.numpy as jnp
import os

x = jnp.ones(3)
os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = ".5"  # limit memory
""",
        """
import os

os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = ".5"  # limit memory
import jax
import jax.numpy as jnp

x = jnp.ones(3)
""",
        message="after the first JAX use at line 6",
    ),
    Invalid(
        """
import os
import jax
os.environ.setdefault("JAX_ENABLE_X64", "1")
""",
        """
import os

os.environ.setdefault("JAX_ENABLE_X64", "1")
import jax
""",
        fix=Applicability.UNSAFE,
        message="once moved, `JAX_ENABLE_X64` takes effect",
    ),
    Invalid(
        """
import os
from jax import numpy as jnp
os.environ.update({"XLA_FLAGS": "--xla_force_host_platform_device_count=2"})
""",
        """
import os

os.environ.update({"XLA_FLAGS": "--xla_force_host_platform_device_count=2"})
from jax import numpy as jnp
""",
        fix=Applicability.UNSAFE,
        message="once moved, `XLA_FLAGS` takes effect",
    ),
    Invalid(
        """
\"\"\"Train a model.\"\"\"
import os
import jax

# memory
os.environ["XLA_PYTHON_CLIENT_ALLOCATOR"] = "platform"
jax.devices()
""",
        """
\"\"\"Train a model.\"\"\"
import os

# memory
os.environ["XLA_PYTHON_CLIENT_ALLOCATOR"] = "platform"
import jax

jax.devices()
""",
    ),
    Invalid(
        """
import jax
import os
os.environ["JAX_PLATFORMS"] = "cpu"
""",
        """
import os

os.environ["JAX_PLATFORMS"] = "cpu"
import jax
""",
        fix=Applicability.UNSAFE,
        message="once moved, `JAX_PLATFORMS` takes effect",
    ),
    Invalid(
        """
import os
import jax
STARTUP = os.environ.get("XLA_PYTHON_CLIENT_PREALLOCATE", "")
os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
""",
        """
import os

os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
import jax

STARTUP = os.environ.get("XLA_PYTHON_CLIENT_PREALLOCATE", "")
""",
        fix=Applicability.UNSAFE,
        message="line 4 may read the environment before the setting, and after it once moved",
    ),
    Invalid(
        """
import os
import jax
flags = "--xla_cpu_enable_fast_math=false"
os.environ["XLA_FLAGS"] = flags
""",
        fix=Applicability.NONE,
        message="computed after the import",
    ),
    Invalid(
        """
import os
import jax
import os as _os; os.environ["JAX_ENABLE_X64"] = "1"
""",
        fix=Applicability.NONE,
        message="shares its line",
    ),
    Invalid(
        """
import os
import jax
import numpy as np
import sizing
os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = ".25"
""",
        """
import os

os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = ".25"
import jax
import numpy as np
import sizing
""",
        message="move it above the import",
        files={"pyproject.toml": "", "sizing.py": "import jax.numpy as jnp\n\nBATCH = 8\n"},
    ),
    Invalid(
        """
import os
import jax
import envcfg
os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = ".25"
""",
        """
import os

os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = ".25"
import jax
import envcfg
""",
        fix=Applicability.UNSAFE,
        message="line 4 may read the environment before the setting, and after it once moved: "
        "it imports `envcfg`, whose line 2 reads `os.environ`",
        files={
            "pyproject.toml": "",
            "envcfg.py": 'import os\nFRACTION = os.environ.get("XLA_PYTHON_CLIENT_MEM_FRACTION")\n',
        },
    ),
    Invalid(
        """
import os
import jax
from settings import *
os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
""",
        """
import os

os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
import jax
from settings import *
""",
        fix=Applicability.UNSAFE,
        message="it imports `settings`, which autoopt cannot see",
    ),
    Invalid(
        """
import os
import jax
from config import load
BUDGET = load()
os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
""",
        """
import os

os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
import jax
from config import load
BUDGET = load()
""",
        fix=Applicability.UNSAFE,
        message="it calls `load`, which may read it",
        files={"pyproject.toml": "", "config.py": "def load():\n    return 1\n"},
    ),
    Invalid(
        """
import os
from os import environ as env
import jax
LIMIT = env.get("XLA_PYTHON_CLIENT_MEM_FRACTION")
os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = ".5"
""",
        """
import os
from os import environ as env

os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = ".5"
import jax

LIMIT = env.get("XLA_PYTHON_CLIENT_MEM_FRACTION")
""",
        fix=Applicability.UNSAFE,
        message="it reads `env`",
    ),
    Invalid(
        """
import logging
import os
import sys
import jax
os.environ["JAX_LOG_COMPILES"] = "1"
logging.basicConfig(stream=sys.stdout)
""",
        """
import logging
import os
import sys

os.environ["JAX_LOG_COMPILES"] = "1"
import jax

logging.basicConfig(stream=sys.stdout)
""",
        fix=Applicability.UNSAFE,
        message="once moved, `JAX_LOG_COMPILES` takes effect, which can change what the program "
        "computes or prints",
    ),
)
