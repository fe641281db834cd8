"""Verification: prove each rewrite equivalent and measure it, in subprocesses.

Nothing here imports jax; user code runs only in `autoopt.verify.worker` processes.
The public names are imported on first use (PEP 562): a worker, which imports this
package first, must not pay for the pipeline, LibCST or the rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from autoopt._lazy import lazy_exports

if TYPE_CHECKING:
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

_EXPORTS = {
    "Candidate": "autoopt.verify.pipeline",
    "MemoryView": "autoopt.verify.report",
    "Row": "autoopt.verify.report",
    "SpeedView": "autoopt.verify.stats",
    "Thresholds": "autoopt.verify.decide",
    "Tolerance": "autoopt.verify.compare",
    "Verdict": "autoopt.verify.report",
    "VerifyOptions": "autoopt.verify.pipeline",
    "VerifyReport": "autoopt.verify.report",
    "compare_trees": "autoopt.verify.compare",
    "verify_candidates": "autoopt.verify.pipeline",
    "verify_file": "autoopt.verify.pipeline",
    "verify_rewrite": "autoopt.verify.pipeline",
}

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

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
