"""AO702 shared-gpu-preallocation: the cases tests/test_rule_examples.py runs.

The one INVALID case flagged `doc=True` is the example its documentation shows.
"""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

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
)

INVALID = (
    Invalid(
        """
import multiprocessing
import jax

def work(i):
    return jax.numpy.ones(3) * i

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

with multiprocessing.Pool(4) as pool:
    pool.map(work, range(4))
""",
        fix=Applicability.UNSAFE,
        message="XLA_PYTHON_CLIENT_MEM_FRACTION of about 0.23 (0.9/4)",
        doc=True,
    ),
    Invalid(
        """
import os
from concurrent.futures import ProcessPoolExecutor
import jax.numpy as jnp

def work(i):
    return float(jnp.ones(3).sum())

with ProcessPoolExecutor(max_workers=2) as pool:
    list(pool.map(work, range(2)))
""",
        """
import os
from concurrent.futures import ProcessPoolExecutor
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import jax.numpy as jnp

def work(i):
    return float(jnp.ones(3).sum())

with ProcessPoolExecutor(max_workers=2) as pool:
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

def work(i):
    return jax.numpy.ones(3)

with multiprocessing.get_context("spawn").Pool(3) as pool:
    pool.map(work, range(3))
""",
        """
import multiprocessing
import os
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import jax

def work(i):
    return jax.numpy.ones(3)

with multiprocessing.get_context("spawn").Pool(3) as pool:
    pool.map(work, range(3))
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
        """
import os
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
import jax
from multiprocessing import Process

def work(i):
    return jax.numpy.ones(3)

for i in range(2):
    Process(target=work, args=(i,)).start()
os.environ["OMP_NUM_THREADS"] = "1"
""",
        fix=Applicability.UNSAFE,
        message="unsafe: allocating on demand",
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
)
