"""Verification: prove each rewrite equivalent and measure it, in subprocesses.

Nothing here imports jax; user code runs only in `autoopt.verify.worker` processes.
"""

from autoopt.verify.compare import Tolerance, compare_trees
from autoopt.verify.decide import Thresholds
from autoopt.verify.pipeline import (
    Candidate,
    VerifyOptions,
    verify_candidates,
    verify_file,
    verify_rewrite,
)
from autoopt.verify.report import MemoryView, Row, Verdict, VerifyReport
from autoopt.verify.stats import SpeedView

__all__ = [
    "Candidate",
    "MemoryView",
    "Row",
    "SpeedView",
    "Thresholds",
    "Tolerance",
    "Verdict",
    "VerifyOptions",
    "VerifyReport",
    "compare_trees",
    "verify_candidates",
    "verify_file",
    "verify_rewrite",
]
