"""The diffrax overlay, checked against the installed diffrax."""

from __future__ import annotations

import gc
import inspect
import weakref

import diffrax
import equinox as eqx
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


class _Field(eqx.Module):
    """A vector field that records what the solve hands it."""

    scale: jax.Array

    def __call__(self, t, y, args):
        SEEN.append((t, y, args, self.scale))
        return -self.scale * y


SEEN: list = []


def _solve_field(scale, y0, ts):
    term = lookup(diffrax_api.ODE_TERM)(_Field(scale))
    solver = lookup("diffrax.Tsit5")()
    save = diffrax.SaveAt(ts=ts)
    return diffrax.diffeqsolve(term, solver, ts[0], ts[-1], 0.1, y0, saveat=save)


def test_the_solve_is_an_equinox_jit() -> None:
    """`SOLVE_PARAMETERS`: the solve's function runs under `eqx.filter_jit`."""
    assert type(lookup(diffrax_api.SOLVE)) is type(eqx.filter_jit(lambda: None))


def test_the_solve_runs_the_vector_field_on_tracers_only() -> None:
    """`ODE_TERM`: `f(t, y, args)` on tracers of the arguments' array leaves, the field's
    own included, `args` None where left out; once per trace, not per call."""
    SEEN.clear()
    for _ in range(3):
        _solve_field(jnp.ones(()), jnp.arange(3.0), TS)
    assert SEEN
    for t, y, args, scale in SEEN:
        assert all(isinstance(v, jax.core.Tracer) for v in (t, y, scale))
        assert args is None
    count = len(SEEN)
    _solve_field(2 * jnp.ones(()), jnp.arange(3.0), TS)
    assert len(SEEN) == count  # the same static part: no new trace
    SEEN.clear()


def _solved_refs() -> list[weakref.ref]:
    """Weak references to what a solve was given, its result checked and dropped (in a
    frame of their own: a test's locals may be kept by the test runner)."""
    scale, y0, ts = jnp.ones(()), jnp.arange(3.0), jnp.linspace(0.0, 1.0, 4)
    sol = _solve_field(scale, y0, ts)
    assert fresh_leaves((sol.ts, sol.ys, sol.stats), scale, y0, ts)
    return [weakref.ref(v) for v in (scale, y0, ts)]


def test_the_solve_keeps_no_reference_to_its_arguments() -> None:
    """Once it returns and its result is dropped, nothing holds the arrays it was given."""
    refs = _solved_refs()
    SEEN.clear()
    gc.collect()
    assert all(ref() is None for ref in refs)


def test_the_solve_parameters_are_spelled_as_it_takes_them() -> None:
    params = inspect.signature(lookup(diffrax_api.SOLVE)).parameters
    positional = [n for n, p in params.items() if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
    assert tuple(positional) == diffrax_api.SOLVE_PARAMETERS
    assert [n for n in positional if params[n].default is not inspect.Parameter.empty] == [
        diffrax_api.SOLVE_ARGS
    ]
    assert params[diffrax_api.SOLVE_ARGS].default is None
    assert all(params[n].kind is inspect.Parameter.KEYWORD_ONLY for n in diffrax_api.SOLVE_OPTIONS)
    term = inspect.signature(lookup(diffrax_api.ODE_TERM)).parameters
    assert list(term) == [diffrax_api.VECTOR_FIELD]


@pytest.mark.parametrize("qual", sorted(diffrax_api.PLAIN_SOLVERS))
def test_plain_solvers_hold_no_array_and_solve(qual: str) -> None:
    """`PLAIN_SOLVERS`: built from nothing, explicit Runge-Kutta solvers (their steps only
    evaluate the terms) holding no array."""
    solver = lookup(qual)()
    assert not [x for x in jax.tree.leaves(solver) if eqx.is_array(x)]
    assert isinstance(solver, diffrax.AbstractERK | diffrax.Euler)
    term = diffrax.ODETerm(lambda t, y, args: -y)
    sol = diffrax.diffeqsolve(term, solver, 0.0, 1.0, 0.1, jnp.ones(2))
    assert isinstance(sol.ys, jax.Array)


def test_the_data_of_a_solution_is_arrays() -> None:
    """`SOLUTION_DATA`: arrays, None, a pytree of `y0`'s arrays or a dict of arrays and
    numbers (`stats["max_steps"]`), from a `SaveAt` of states."""
    y0 = (jnp.arange(3.0), jnp.ones(2))
    term = diffrax.ODETerm(lambda t, y, args: jax.tree.map(lambda v: -v, y))
    for save in (diffrax.SaveAt(ts=TS), diffrax.SaveAt(t1=False), diffrax.SaveAt(steps=True)):
        sol = diffrax.diffeqsolve(term, diffrax.Tsit5(), 0.0, 1.0, 0.1, y0, saveat=save)
        for name in diffrax_api.SOLUTION_DATA:
            value = getattr(sol, name)
            leaves, _ = jax.tree.flatten(value)
            assert type(value) in (tuple, dict, type(None)) or isinstance(value, jax.Array)
            assert all(isinstance(v, jax.Array | int) for v in leaves)
