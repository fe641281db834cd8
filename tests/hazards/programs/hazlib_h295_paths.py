"""Cache locations for h295, computed at import from the environment with
`os.path.expandvars` (no `os.environ` in this module)."""

import os.path

CACHE_NOTE = os.path.expandvars("fraction=$XLA_PYTHON_CLIENT_MEM_FRACTION")
