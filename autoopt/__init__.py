"""autoopt: a source-to-source optimizer for JAX programs.

The public names are imported on first use (PEP 562), so `import autoopt` and
`autoopt.__version__` cost nothing: the pipeline and LibCST load with the first
name that needs them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from autoopt._lazy import lazy_exports
from autoopt._version import __version__

if TYPE_CHECKING:
    from autoopt.api import apply_fixes, check_source, optimize_source
    from autoopt.config import Settings
    from autoopt.model import Applicability, AutooptError, Finding, Result, Span

_EXPORTS = {
    "Applicability": "autoopt.model",
    "AutooptError": "autoopt.model",
    "Finding": "autoopt.model",
    "Result": "autoopt.model",
    "Settings": "autoopt.config",
    "Span": "autoopt.model",
    "apply_fixes": "autoopt.api",
    "check_source": "autoopt.api",
    "optimize_source": "autoopt.api",
}

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

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
