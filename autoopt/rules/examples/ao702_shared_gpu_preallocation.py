"""AO702 shared-gpu-preallocation: the cases tests/test_rule_examples.py runs.

The one INVALID case flagged `doc=True` is the example its documentation shows.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

#: A project module that imports jax: the examples with project files import it.
_MODEL = "import jax.numpy as jnp\n\ndef train(seed):\n    return jnp.ones(3) * seed\n"
#: A test that reaches jax only through the project's package.
_TESTS = {
    "mypkg/__init__.py": "",
    "mypkg/model.py": _MODEL,
    "tests/test_model.py": "from mypkg.model import train\n\ndef test_train():\n    train(0)\n",
}
_SETTING = 'os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")'
_CONFTEST = """
\"\"\"Fixtures shared by the tests.\"\"\"
import pytest


@pytest.fixture
def seed():
    return 0
"""

VALID = (
    Valid(
        """
import os
os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
import multiprocessing
import jax

def work(i):
    return float(jax.numpy.ones(3).sum())

with multiprocessing.Pool(4) as pool:
    pool.map(work, range(4))
""",
        "preallocation is already off",
    ),
    Valid(
        """
import os
os.environ.setdefault("XLA_PYTHON_CLIENT_MEM_FRACTION", ".2")
from concurrent.futures import ProcessPoolExecutor
import jax.numpy as jnp

def work(i):
    return float(jnp.ones(3).sum())

with ProcessPoolExecutor(4) as pool:
    list(pool.map(work, range(4)))
""",
        "a memory fraction per process is already set",
    ),
    Valid(
        """
import os
import multiprocessing as mp
os.environ.update({"XLA_PYTHON_CLIENT_ALLOCATOR": "platform"})
import jax

def work(i):
    return jax.numpy.ones(3)

mp.Pool(2).map(work, range(2))
""",
        "the platform allocator does not preallocate",
    ),
    Valid(
        """
import os
import subprocess
import jax

for seed in range(2):
    env = {**os.environ, "XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
    subprocess.run(["python", "train.py"], env=env)
""",
        "a program that sets the setting for its launcher's env=",
    ),
    Valid(
        """
from concurrent.futures import ThreadPoolExecutor
import threading
import jax.numpy as jnp

def work(i):
    return jnp.ones(3) * i

with ThreadPoolExecutor(4) as pool:
    list(pool.map(work, range(4)))
threading.Thread(target=work, args=(1,)).start()
""",
        "threads share one process and one allocator",
    ),
    Valid(
        """
import multiprocessing
import numpy as np

def work(i):
    return np.ones(3) * i

with multiprocessing.Pool(4) as pool:
    pool.map(work, range(4))
""",
        "the workers never import jax",
    ),
    Valid(
        """
import os
os.environ["JAX_PLATFORMS"] = "cpu"
import multiprocessing
import jax

def work(i):
    return jax.numpy.ones(3)

multiprocessing.Pool(4).map(work, range(4))
""",
        "a CPU-only program does not preallocate GPU memory",
    ),
    Valid(
        """
import multiprocessing
import jax

def work(i):
    return jax.numpy.ones(3)

with multiprocessing.Pool(1) as pool:
    pool.map(work, range(4))
""",
        "a single worker process",
    ),
    Valid(
        """
import multiprocessing
import jax

def work():
    return jax.numpy.ones(3)

if __name__ == "__main__":
    multiprocessing.Process(target=work).start()
""",
        "a single Process",
    ),
    Valid(
        """
import jax
import ray

@ray.remote(num_gpus=1)
def work(i):
    return jax.numpy.ones(3)
""",
        "each Ray task has a GPU of its own",
    ),
    Valid(
        _CONFTEST,
        "pytest-env sets the setting for the tests",
        files={
            "pyproject.toml": (
                "[tool.pytest.ini_options]\n"
                'addopts = "-n 4"\n'
                'env = ["D:XLA_PYTHON_CLIENT_PREALLOCATE=false"]\n'
            ),
            "tests/test_model.py": "import jax\n",
        },
        path="tests/conftest.py",
    ),
    Valid(
        _CONFTEST,
        "the tests never import jax",
        files={
            "pyproject.toml": '[tool.pytest.ini_options]\naddopts = "-n 4"\n',
            "tests/test_io.py": "import json\n\ndef test_dump():\n    json.dumps(1)\n",
        },
        path="tests/conftest.py",
    ),
    Valid(
        _CONFTEST,
        "pytest runs the tests in one process (no -n)",
        files={"pyproject.toml": '[tool.pytest.ini_options]\naddopts = "-v"\n', **_TESTS},
        path="tests/conftest.py",
    ),
    Valid(
        _CONFTEST,
        "an inner conftest.py: the outer one, loaded first, carries the finding",
        files={
            "setup.cfg": "[tool:pytest]\naddopts = -n 2\n",
            "tests/conftest.py": "",
            "tests/unit/test_model.py": "import jax\n",
        },
        path="tests/unit/conftest.py",
    ),
    Valid(
        """
import multiprocessing
from model import train

if __name__ == "__main__":
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(train, range(2))
""",
        "the workers' project module uses NumPy, not jax",
        files={
            "pyproject.toml": "",
            "model.py": "import numpy as np\n\ndef train(s):\n    np.ones(3)\n",
        },
    ),
    Valid(
        """
import subprocess
import sys

for seed in range(2):
    subprocess.run([sys.executable, "train.py", str(seed)])
""",
        "the launched script does not import jax",
        files={"pyproject.toml": "", "train.py": "import numpy\n"},
    ),
)

INVALID = (
    Invalid(
        """
import multiprocessing
import jax

def work(i):
    return jax.numpy.ones(3) * i

if __name__ == "__main__":
    multiprocessing.set_start_method("spawn")
    with multiprocessing.Pool(4) as pool:
        pool.map(work, range(4))
""",
        """
import multiprocessing
import os

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import jax


def work(i):
    return jax.numpy.ones(3) * i

if __name__ == "__main__":
    multiprocessing.set_start_method("spawn")
    with multiprocessing.Pool(4) as pool:
        pool.map(work, range(4))
""",
        fix=Applicability.UNSAFE,
        message=(
            "the `Pool` workers run JAX in several processes with GPU preallocation on: the"
            " first one takes 75% of the GPU memory and the next fail with out-of-memory; set"
            " XLA_PYTHON_CLIENT_PREALLOCATE=false before `import jax`, or"
            " XLA_PYTHON_CLIENT_MEM_FRACTION of about 0.23 (0.9/4) per process; unsafe:"
            " allocating on demand costs time and may fragment memory"
        ),
        doc=True,
    ),
    Invalid(
        """
import os
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
import jax.numpy as jnp

def work(i):
    return float(jnp.ones(3).sum())

spawn = multiprocessing.get_context("spawn")
with ProcessPoolExecutor(max_workers=2, mp_context=spawn) as pool:
    list(pool.map(work, range(2)))
""",
        """
import os
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import jax.numpy as jnp


def work(i):
    return float(jnp.ones(3).sum())

spawn = multiprocessing.get_context("spawn")
with ProcessPoolExecutor(max_workers=2, mp_context=spawn) as pool:
    list(pool.map(work, range(2)))
""",
        fix=Applicability.UNSAFE,
        message="about 0.45 (0.9/2)",
    ),
    Invalid(
        """
\"\"\"Train two models at once.\"\"\"
from __future__ import annotations

import multiprocessing as mp
from jax import numpy as jnp

def train(seed):
    return jnp.ones(3) * seed

if __name__ == "__main__":
    mp.set_start_method("forkserver")
    workers = [mp.Process(target=train, args=(s,)) for s in range(2)]
""",
        """
\"\"\"Train two models at once.\"\"\"
from __future__ import annotations

import multiprocessing as mp
import os

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
from jax import numpy as jnp


def train(seed):
    return jnp.ones(3) * seed

if __name__ == "__main__":
    mp.set_start_method("forkserver")
    workers = [mp.Process(target=train, args=(s,)) for s in range(2)]
""",
        fix=Applicability.UNSAFE,
        message="the `Process` workers",
    ),
    Invalid(
        """
import multiprocessing
import jax

def work(i):
    return jax.numpy.ones(3)

ctx = multiprocessing.get_context("spawn")
pool = ctx.Pool()
""",
        """
import multiprocessing
import os

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import jax


def work(i):
    return jax.numpy.ones(3)

ctx = multiprocessing.get_context("spawn")
pool = ctx.Pool()
""",
        fix=Applicability.UNSAFE,
        message="set XLA_PYTHON_CLIENT_PREALLOCATE=false before `import jax`",
    ),
    Invalid(
        """
import multiprocessing
import jax

WORKERS = 3

def work(i):
    return jax.numpy.ones(3)

with multiprocessing.get_context("spawn").Pool(WORKERS) as pool:
    pool.map(work, range(WORKERS))
""",
        """
import multiprocessing
import os

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import jax

WORKERS = 3

def work(i):
    return jax.numpy.ones(3)

with multiprocessing.get_context("spawn").Pool(WORKERS) as pool:
    pool.map(work, range(WORKERS))
""",
        fix=Applicability.UNSAFE,
        message="about 0.30 (0.9/3)",
    ),
    Invalid(
        """
import jax
import ray

@ray.remote(num_gpus=0.5)
def work(i):
    return jax.numpy.ones(3) * i
""",
        """
import os

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import jax
import ray

@ray.remote(num_gpus=0.5)
def work(i):
    return jax.numpy.ones(3) * i
""",
        fix=Applicability.UNSAFE,
        message="Ray tasks with num_gpus=0.5",
    ),
    Invalid(
        """
import os
import jax
from multiprocessing import Process

def work(i):
    return jax.numpy.ones(3)

for i in range(2):
    Process(target=work, args=(i,)).start()
os.environ["OMP_NUM_THREADS"] = "1"
""",
        fix=Applicability.NONE,
        message=(
            "the `Process` workers run JAX in several processes with GPU preallocation on;"
            " no fix: no start method is set, and on Linux before Python 3.14 the default is"
            " `fork`: forking after `import jax` deadlocks or fails regardless of memory"
            ' (start them with `multiprocessing.get_context("spawn")` or `"forkserver"`,'
            " then set XLA_PYTHON_CLIENT_PREALLOCATE=false before `import jax`)"
        ),
    ),
    Invalid(
        """
import multiprocessing
import jax

def work(i):
    return jax.numpy.ones(3) * i

with multiprocessing.Pool(4) as pool:
    pool.map(work, range(4))
""",
        fix=Applicability.NONE,
        message="on Linux before Python 3.14 the default is `fork`",
    ),
    Invalid(
        """
import multiprocessing
import jax

def work(i):
    return jax.numpy.ones(3)

with multiprocessing.get_context("fork").Pool(2) as pool:
    pool.map(work, range(2))
""",
        fix=Applicability.NONE,
        message="no fix: they are forked after `import jax`",
    ),
    Invalid(
        """
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
import jax

def work(i):
    return jax.numpy.ones(3)

multiprocessing.set_start_method("fork")
with ProcessPoolExecutor(2) as pool:
    list(pool.map(work, range(2)))
""",
        fix=Applicability.NONE,
        message="deadlocks or fails regardless of memory",
    ),
    Invalid(
        """
import multiprocessing
from model import train

if __name__ == "__main__":
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(train, range(2))
""",
        """
import multiprocessing
import os

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
from model import train

if __name__ == "__main__":
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(train, range(2))
""",
        fix=Applicability.UNSAFE,
        message="the `Pool` workers run JAX in several processes",
        files={"pyproject.toml": "", "model.py": _MODEL},
    ),
    Invalid(
        """
import subprocess
import sys

for seed in range(2):
    subprocess.Popen([sys.executable, "train.py", str(seed)])
""",
        """
import os

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import subprocess
import sys

for seed in range(2):
    subprocess.Popen([sys.executable, "train.py", str(seed)])
""",
        fix=Applicability.UNSAFE,
        message="the launched script and this program run JAX in several processes",
        files={
            "pyproject.toml": "",
            "train.py": "import sys\nfrom model import train\n\ntrain(int(sys.argv[1]))\n",
            "model.py": _MODEL,
        },
    ),
    Invalid(
        """
import os

for seed in range(2):
    os.system(f"python train.py {seed} &")
""",
        """
import os

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
for seed in range(2):
    os.system(f"python train.py {seed} &")
""",
        fix=Applicability.UNSAFE,
        message="set XLA_PYTHON_CLIENT_PREALLOCATE=false before `import jax`",
        files={"pyproject.toml": "", "train.py": "import jax\n"},
    ),
    Invalid(
        _CONFTEST,
        """
\"\"\"Fixtures shared by the tests.\"\"\"

import os

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import pytest


@pytest.fixture
def seed():
    return 0
""",
        fix=Applicability.UNSAFE,
        message=(
            "the pytest-xdist workers (`-n 4` in pyproject.toml) run JAX in several processes"
            " with GPU preallocation on: the first one takes 75% of the GPU memory and the"
            " next fail with out-of-memory; set XLA_PYTHON_CLIENT_PREALLOCATE=false in"
            " conftest.py, before the tests import jax, or XLA_PYTHON_CLIENT_MEM_FRACTION of"
            " about 0.23 (0.9/4) per process; unsafe: allocating on demand costs time and may"
            " fragment memory"
        ),
        files={
            "pyproject.toml": '[tool.pytest.ini_options]\naddopts = "-n 4 -q"\n',
            "tests/test_model.py": "import jax.numpy as jnp\n\ndef test_ones():\n    jnp.ones(2)\n",
        },
        path="tests/conftest.py",
    ),
    Invalid(
        """
import os
import jax

jax.config.update("jax_enable_x64", True)
""",
        """
import os

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import jax

jax.config.update("jax_enable_x64", True)
""",
        fix=Applicability.UNSAFE,
        message="the pytest-xdist workers (`-n auto` in pytest.ini)",
        files={
            "pyproject.toml": "",
            "pytest.ini": "[pytest]\naddopts = -n auto --dist loadscope\n",
            **_TESTS,
        },
        path="tests/conftest.py",
    ),
    Invalid(
        "import pytest\n",
        f"import os\n\n{_SETTING}\nimport pytest\n",
        fix=Applicability.UNSAFE,
        message="the pytest-xdist workers (`--numprocesses=2` in setup.cfg)",
        files={"setup.cfg": "[tool:pytest]\naddopts = --numprocesses=2\n", **_TESTS},
        path="tests/conftest.py",
    ),
)
