"""Finite-difference stencil coefficients, computed once per order and cached (h79)."""

import functools

import numpy as np


@functools.lru_cache(maxsize=None)  # noqa: UP033 (the trap is this spelling)
def stencil(order):
    if order == 0:
        return np.array([0.0, 1.0, 0.0])
    if order == 1:
        return np.array([0.25, 0.5, 0.25])
    return np.array([0.5, 0.0, 0.5])
