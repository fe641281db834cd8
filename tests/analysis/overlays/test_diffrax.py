"""The diffrax overlay, checked against the installed diffrax."""

from __future__ import annotations

import inspect

import diffrax
import jax
import jax.numpy as jnp
import pytest

from autoopt.analysis.overlays import diffrax as diffrax_api
from tests.analysis.overlays import fresh_leaves, lookup, resolve

TS = jnp.linspace(0.0, 1.0, 5)


def _solve(y0, **options):
    term = diffrax.ODETerm(lambda t, y, args: jax.tree.map(lambda v: -v, y))
    return diffrax.diffeqsolve(term, diffrax.Tsit5(), 0.0, 1.0, 0.1, y0, **options)


def test_every_name_resolves() -> None:
    assert all(resolve(qual) for qual in diffrax_api.CALLS)


def test_the_initial_state_and_the_save_option_are_spelled_as_the_solver_takes_them() -> None:
    params = inspect.signature(lookup(diffrax_api.SOLVE)).parameters
    name, position = diffrax_api.INITIAL_STATE
    assert list(params)[position] == name
    assert params[diffrax_api.SAVE_OPTION].kind is inspect.Parameter.KEYWORD_ONLY
    saves = inspect.signature(lookup(diffrax_api.SAVE_AT)).parameters
    assert set(saves) >= diffrax_api.SAVES_STATES


@pytest.mark.parametrize(
    "options",
    [
        {},  # the final state (`SaveAt(t1=True)`)
        {"saveat": diffrax.SaveAt(ts=TS)},
        {"saveat": diffrax.SaveAt(t0=True, t1=True)},
        {"saveat": diffrax.SaveAt(steps=True)},
    ],
)
def test_the_saved_states_of_an_array_are_an_array(options: dict) -> None:
    """`SAVED_STATES`: `y0`'s structure, each leaf with a leading axis of saved times."""
    y0 = jnp.arange(3.0)
    ys = getattr(_solve(y0, **options), diffrax_api.SAVED_STATES)
    assert isinstance(ys, jax.Array)
    assert ys.shape[1:] == y0.shape


def test_a_save_of_no_state_saves_none() -> None:
    """Why a `SaveAt` of other options (or of `False`) is not `SAVES_STATES`'."""
    ys = _solve(jnp.arange(3.0), saveat=diffrax.SaveAt(t1=False, dense=True)).ys
    assert ys is None


def test_a_pytree_initial_state_saves_that_pytree() -> None:
    """Why `y0` must be proven an array: the states have its structure."""
    ys = _solve((jnp.arange(3.0), jnp.ones(2)), saveat=diffrax.SaveAt(ts=TS)).ys
    assert isinstance(ys, tuple) and len(ys) == 2


@pytest.mark.parametrize(("qual", "count"), sorted(diffrax_api.ARRAY_TUPLES.items()))
def test_array_tuples_are_tuples_of_new_arrays(qual: str, count: int) -> None:
    ts, ys = TS, jnp.stack([TS, TS**2], axis=-1)
    out = lookup(qual)(ts, ys)
    assert type(out) is tuple and len(out) == count
    assert all(isinstance(v, jax.Array) for v in out)
    assert fresh_leaves(out, ts, ys)
