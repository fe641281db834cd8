"""The API facts table: internally consistent, and qualified names only."""

from __future__ import annotations

from autoopt.analysis.overlays import jax as jax_api


def test_every_jit_spelling_is_a_tracing_transform() -> None:
    assert jax_api.JIT_SPELLINGS <= jax_api.TRACING_TRANSFORMS
    assert "jax.jit" in jax_api.JIT_SPELLINGS and "jax.lax.scan" in jax_api.TRACING_TRANSFORMS


def test_names_are_qualified() -> None:
    names = jax_api.TRACING_TRANSFORMS | jax_api.PURE_JAX | set(jax_api.SHAPE_ARGS)
    assert all("." in name for name in names)
    assert all(name.startswith(("jax.", "flax.", "equinox.")) for name in names)


def test_option_positions_follow_the_data() -> None:
    assert set(jax_api.OPTION_POSITIONS.values()) == {1, 2}
    assert jax_api.OPTION_POSITIONS["sum"] == 1 and jax_api.OPTION_POSITIONS["take"] == 2


def test_side_effects_are_never_pure() -> None:
    impure = set(jax_api.IMPURE_MODULES) | set(jax_api.IMPURE_JAX)
    assert not impure & jax_api.PURE_JAX
    assert {f"numpy.{n}" for n in ("copyto", "put", "place", "putmask",
        "fill_diagonal", "put_along_axis")} | {"numpy.random.shuffle", "numpy.add.at",
        "numpy.random.seed"} >= jax_api.MUTATING_NUMPY  # fmt: skip
