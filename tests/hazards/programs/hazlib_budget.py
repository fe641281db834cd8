"""Memory budget helpers (imported by h110): nothing runs at import."""

import os


def batch_size(default: int = 8) -> int:
    fraction = os.getenv("XLA_PYTHON_CLIENT_MEM_FRACTION")
    return default if fraction is None else max(2, int(float(fraction) * 16))
