"""The premises of AO301's sliced form (analysis/plans/sliced.py), checked against the
installed JAX: the whole array converted then sliced equals the slice converted, and an
index out of range is where NumPy and a JAX array part."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

ARRAYS = {
    "float64": np.linspace(-3.0, 3.0, 40).reshape(10, 4),
    "float32": np.linspace(-3.0, 3.0, 40, dtype=np.float32).reshape(10, 4),
    "int64": np.arange(-20, 20).reshape(10, 4) * 2**40,
    "uint8": np.arange(40, dtype=np.uint8).reshape(10, 4),
    "bool": (np.arange(40) % 3 == 0).reshape(10, 4),
}
SLICES = [(0, 4), (4, 8), (8, 12), (12, 16), (-3, None), (None, 2), (7, 3), (-100, 100)]


@pytest.mark.parametrize("x64", [False, True])
@pytest.mark.parametrize("transfer", [jnp.asarray, jnp.array, jax.device_put])
@pytest.mark.parametrize("name", sorted(ARRAYS))
def test_whole_then_sliced_equals_sliced_then_converted(x64, transfer, name) -> None:
    data = ARRAYS[name]
    with jax.enable_x64(x64):
        whole = transfer(data)
        for lo, hi in SLICES:
            part, direct = whole[lo:hi], transfer(data[lo:hi])
            assert isinstance(part, jax.Array) and isinstance(direct, jax.Array)
            assert part.dtype == direct.dtype and part.shape == direct.shape
            assert part.weak_type is direct.weak_type is False
            np.testing.assert_array_equal(np.asarray(part), np.asarray(direct))
        assert whole[1:3, 1:].shape == transfer(data[1:3, 1:]).shape


def test_an_index_out_of_range_raises_in_numpy_and_clamps_on_the_device() -> None:
    data = ARRAYS["float32"]
    idx = np.array([8, 9, 10])
    with pytest.raises(IndexError):
        data[idx]
    with pytest.raises(IndexError):
        data[12]
    np.testing.assert_array_equal(np.asarray(jnp.asarray(data)[idx]), data[[8, 9, 9]])
    np.testing.assert_array_equal(np.asarray(jnp.asarray(data)[12]), data[9])
