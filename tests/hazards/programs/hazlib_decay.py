"""Host-side envelope helpers (h81)."""

from math import exp as _exp


def envelope(t, tau):
    return _exp(-t / tau)
