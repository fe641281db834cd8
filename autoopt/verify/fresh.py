"""A worker in a fresh interpreter that loads the program before jax is imported.

A worker forked from the server (`autoopt.verify.forkserver`) has imported jax and
started a backend before the program runs, so what the program sets in `os.environ`
(`JAX_ENABLE_X64`, `XLA_FLAGS`) never takes effect there. Here the program is loaded
first, as by `python prog.py`, and only then the worker itself (which imports jax).
Transfers are logged from the start (`JAX_TRANSFER_GUARD`, read when the program
imports jax); host syncs and compilations are counted from the entry call on.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from autoopt.verify.program import preload


def main(argv: list[str]) -> int:
    """`python -c BOOTSTRAP ROOT SPEC.json`: load the program, then run the worker on it."""
    spec = json.loads(Path(argv[1]).read_text())
    if spec["mode"] == "run" and spec.get("instrument"):
        os.environ["JAX_TRANSFER_GUARD"] = "log"
    loaded = preload(spec)
    from autoopt.verify import worker

    return worker.main(argv, loaded)
