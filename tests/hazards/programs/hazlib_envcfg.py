"""Batch size chosen from the memory budget the launcher exported (imported by h109):
read once, when the module is imported."""

import os

_frac = os.environ.get("XLA_PYTHON_CLIENT_MEM_FRACTION")
BATCH = 8 if _frac is None else max(2, int(float(_frac) * 16))
