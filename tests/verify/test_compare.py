"""Equivalence checks: tolerances per dtype, exact ints and bools, NaN/inf, structure."""

from __future__ import annotations

import numpy as np
import pytest

from autoopt.verify.compare import Tolerance, compare_trees, compare_values, tolerance_for
from autoopt.verify.trees import ARRAY, SCALAR, TEXT, FlatTree, Leaf, load_tree, save_tree

RNG = np.random.default_rng(0)


def tree(*values: object, structure: str = "PyTreeDef([*])") -> FlatTree:
    leaves = []
    for i, value in enumerate(values):
        if isinstance(value, str):
            leaves.append(Leaf(f"[{i}]", TEXT, "str", (), value))
        elif isinstance(value, float):
            leaves.append(Leaf(f"[{i}]", SCALAR, "float", (), np.asarray(value)))
        else:
            array = np.asarray(value)
            leaves.append(Leaf(f"[{i}]", ARRAY, str(array.dtype), array.shape, array))
    return FlatTree(structure, leaves)


def same(a: object, b: object, **tol: float) -> bool:
    return compare_trees(tree(a), tree(b), Tolerance(**tol)).equal


def test_float32_rounding_differences_pass() -> None:
    ref = RNG.normal(size=1000).astype(np.float32)
    fused = (ref * np.float32(1 + 3e-7)).astype(np.float32)  # a few ulps, as jit fusion gives
    assert same(ref, fused)


def test_float32_relative_change_of_1e_3_fails() -> None:
    ref = RNG.normal(size=1000).astype(np.float32)
    result = compare_trees(tree(ref), tree((ref * np.float32(1.001)).astype(np.float32)))
    assert not result.equal
    assert result.max_rel == pytest.approx(1e-3, rel=0.05)
    assert "differ beyond tolerance" in result.reason


def test_nan_in_a_new_place_fails_and_same_nans_pass() -> None:
    ref = np.array([1.0, np.nan, 3.0], np.float32)
    assert same(ref, ref.copy())
    moved = np.array([np.nan, 2.0, 3.0], np.float32)
    result = compare_trees(tree(ref), tree(moved))
    assert not result.equal and "NaN" in result.reason


def test_inf_must_keep_its_place_and_sign() -> None:
    ref = np.array([np.inf, 1.0], np.float64)
    assert same(ref, ref.copy())
    assert not same(ref, np.array([-np.inf, 1.0]))
    assert not same(ref, np.array([1e308, 1.0]))


def test_int_off_by_one_fails() -> None:
    ref = np.arange(10, dtype=np.int32)
    result = compare_trees(tree(ref), tree(ref + np.eye(1, 10, 3, dtype=np.int32)[0]))
    assert not result.equal
    assert result.max_abs == 1 and "1 of 10 values differ" in result.reason


def test_bools_and_text_are_exact() -> None:
    assert not same(np.array([True, False]), np.array([True, True]))
    assert not same("adam", "sgd")
    assert same("adam", "adam")


def test_shape_change_fails() -> None:
    result = compare_trees(tree(np.zeros((2, 3), np.float32)), tree(np.zeros((3, 2), np.float32)))
    assert not result.equal and "shape (2, 3) vs (3, 2)" in result.reason


def test_dtype_change_fails() -> None:
    result = compare_trees(tree(np.zeros(3, np.float32)), tree(np.zeros(3, np.float64)))
    assert not result.equal and "float32[3] vs float64[3]" in result.reason


def test_type_and_shape_of_every_leaf_come_before_any_value() -> None:
    ref = tree(np.ones(3, np.float32), np.zeros(2, np.float32), np.zeros((1, 8), np.float32))
    new = tree(np.full(3, 9, np.float32), np.zeros(2), np.zeros((4, 2), np.float32))
    assert compare_trees(ref, new).reason == (
        "leaf [1]: type float32[2] vs float64[2]; leaf [2]: shape (1, 8) vs (4, 2)"
    )


def test_at_most_three_leaves_are_named() -> None:
    ref = tree(*[np.zeros(2, np.float32)] * 5)
    result = compare_trees(ref, tree(*[np.zeros(2)] * 5))
    assert result.reason.endswith("; leaf [2]: type float32[2] vs float64[2]; and 2 more leaves")


def test_python_float_vs_numpy_scalar_is_a_type_change() -> None:
    assert not compare_trees(tree(1.0), tree(np.float32(1.0))).equal


def test_structure_change_fails() -> None:
    a, b = tree(1.0), tree(1.0, structure="PyTreeDef((*,))")
    assert "structure differs" in compare_trees(a, b).reason


def test_float64_is_stricter_than_float32() -> None:
    ref = RNG.normal(size=100)
    assert not same(ref, ref * (1 + 1e-7))
    assert same(ref.astype(np.float32), (ref * (1 + 1e-7)).astype(np.float32))


def test_low_precision_and_complex_tolerances() -> None:
    ref16 = RNG.normal(size=100).astype(np.float16)
    assert same(ref16, (ref16 * np.float16(1.002)).astype(np.float16))
    ref_c = (RNG.normal(size=50) + 1j * RNG.normal(size=50)).astype(np.complex64)
    assert same(ref_c, ref_c * np.complex64(1 + 1e-6))
    assert not same(ref_c, ref_c * np.complex64(1 + 1e-2j))
    assert tolerance_for("bfloat16")[0] > tolerance_for("float16")[0]
    assert tolerance_for("complex128") == tolerance_for("float64")


def test_atol_scales_with_the_largest_reference_value() -> None:
    ref = np.array([1000.0, 1e-6], np.float32)
    near_zero_noise = np.array([1000.0, 2e-6], np.float32)  # 1e-6 off, far below 1e-5 * 1000
    assert same(ref, near_zero_noise)


def test_overrides_loosen_or_tighten() -> None:
    ref = np.ones(4, np.float32)
    assert same(ref, ref * np.float32(1.001), rtol=1e-2)
    assert not same(ref, ref * np.float32(1 + 1e-6), rtol=0.0, atol=0.0)


def test_python_float_tolerance_follows_x64() -> None:
    ref, new = np.asarray(1.0), np.asarray(1.0 + 1e-7)
    tol = Tolerance()
    assert compare_values(ref, new, "float", tol, x64=False).equal
    assert not compare_values(ref, new, "float", tol, x64=True).equal


def test_trees_round_trip_through_files(tmp_path) -> None:
    original = tree(np.arange(3.0, dtype=np.float32), "text", 2.5)
    save_tree(original, tmp_path, "out")
    loaded = load_tree(tmp_path, "out")
    assert loaded.structure == original.structure
    assert [leaf.dtype for leaf in loaded.leaves] == ["float32", "str", "float"]
    assert compare_trees(original, loaded).equal


def test_jit_versus_eager_sgd_in_float32_passes() -> None:
    """20 SGD steps of a small MLP, eager and jitted: not bit-equal, but within tolerance."""
    jax = pytest.importorskip("jax")
    from autoopt.verify.probes import flatten

    jnp = jax.numpy
    key = jax.random.key(0)
    params = [
        jax.random.normal(k, s) * 0.1
        for k, s in zip(jax.random.split(key, 2), [(32, 64), (64, 8)], strict=True)
    ]
    x, y = jax.random.normal(key, (16, 32)), jnp.zeros((16, 8))

    def loss(ps):
        return jnp.mean((jnp.tanh(x @ ps[0]) @ ps[1] - y) ** 2)

    def step(ps):
        grads = jax.grad(loss)(ps)
        return [p - 0.1 * g for p, g in zip(ps, grads, strict=True)]

    eager, jitted, fast = params, params, jax.jit(step)
    for _ in range(20):
        eager, jitted = step(eager), fast(jitted)
    result = compare_trees(flatten(eager), flatten(jitted))
    assert result.equal, result.reason


def test_float32_values_collected_as_float64_compare_as_float32() -> None:
    """`np.array([float(loss) ...])` with x64 off: float32 values in a float64 array; a
    jitted step's rounding (a few float32 ulps) is no change."""
    losses = np.linspace(0.1, 2.0, 50).astype(np.float32).astype(np.float64)
    jitted = (losses.astype(np.float32) * np.float32(1 + 4e-7)).astype(np.float64)
    assert compare_values(losses, jitted, "float64", Tolerance()).equal
    assert not compare_values(losses, jitted, "float64", Tolerance(), x64=True).equal


def test_genuine_float64_values_keep_float64_tolerance() -> None:
    values = np.linspace(0.1, 2.0, 50) / 3.0  # not float32 values
    assert not compare_values(values, values * (1 + 4e-7), "float64", Tolerance()).equal
    collected = values.astype(np.float32).astype(np.float64)
    assert not compare_values(collected, collected * (1 + 1e-3), "float64", Tolerance()).equal
