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
        message="line 4 reads the environment before the setting, and after it once moved",
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
)
