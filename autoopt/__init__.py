"""autoopt: a source-to-source optimizer for JAX programs."""

from autoopt.api import apply_fixes, check_source, optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability, AutooptError, Finding, Result, Span

__version__ = "0.1.0"

__all__ = [
    "Applicability",
    "AutooptError",
    "Finding",
    "Result",
    "Settings",
    "Span",
    "__version__",
    "apply_fixes",
    "check_source",
    "optimize_source",
]
