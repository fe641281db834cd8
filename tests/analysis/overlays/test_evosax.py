"""The evosax overlay, checked against the installed evosax."""

from __future__ import annotations

import inspect

import jax
import jax.numpy as jnp
import pytest
from evosax.algorithms.base import EvolutionaryAlgorithm
from evosax.problems import Problem

from autoopt.analysis.overlays import evosax as evosax_api
from tests.analysis.overlays import leaves_equal, lookup, resolve, snapshot

KEY = jax.random.key(0)
PROBLEM = lookup("evosax.problems.BBOBProblem")(fn_name="sphere", num_dims=3, seed=0)  # type: ignore[operator]
SOLUTION = PROBLEM.sample(KEY)
#: The population-based strategies, whose `init` takes a population and its fitness.
POPULATION_BASED = {"SimpleGA", "DifferentialEvolution", "PSO", "MR15_GA", "SAMR_GA", "GESMR_GA"}


def _strategy(name: str):
    return lookup(name)(population_size=8, solution=SOLUTION)  # type: ignore[operator]


def _init(es, name: str):
    params = es.default_params
    if name.rsplit(".", 1)[-1] in POPULATION_BASED:
        population = jax.vmap(PROBLEM.sample)(jax.random.split(KEY, 8))
        fitness, _, _ = PROBLEM.eval(KEY, population, PROBLEM.init(KEY))
        return es.init(KEY, population, fitness, params)
    return es.init(KEY, SOLUTION, params)


def _equal(a, b) -> bool:
    """Equal pytrees, NaN leaves (an empty archive's best solution) equal to NaN."""
    same = jax.tree.structure(a) == jax.tree.structure(b)
    pairs = zip(jax.tree.leaves(a), jax.tree.leaves(b), strict=True)
    return same and all(jnp.array_equal(x, y, equal_nan=True) for x, y in pairs)


def test_names_exist() -> None:
    names = (evosax_api.STRATEGIES | evosax_api.PROBLEMS | evosax_api.PURE_FUNCTIONS
             | evosax_api.FUNCTION_MAKERS | {evosax_api.STRATEGY, evosax_api.PROBLEM})  # fmt: skip
    assert [n for n in sorted(names) if not resolve(n)] == []
    assert lookup(evosax_api.STRATEGY) is EvolutionaryAlgorithm
    assert lookup(evosax_api.PROBLEM) is Problem


@pytest.mark.parametrize("name", sorted(evosax_api.RETURNS))
def test_constructors_make_the_class_named(name: str) -> None:
    cls = {evosax_api.STRATEGY: EvolutionaryAlgorithm, evosax_api.PROBLEM: Problem}
    assert issubclass(lookup(name), cls[evosax_api.RETURNS[name]])  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(evosax_api.OPTIONS))
def test_options_are_the_leading_data_parameters(name: str) -> None:
    """The data options are the constructor's first parameters, in order; every other
    parameter of a strategy is a function option or one the overlay does not accept."""
    params = list(inspect.signature(lookup(name)).parameters)  # type: ignore[arg-type]
    options = evosax_api.OPTIONS[name]
    assert params[: len(options)] == list(options)
    if name in evosax_api.STRATEGIES:
        assert set(params) >= evosax_api.FUNCTION_OPTIONS


@pytest.mark.parametrize("name", sorted(evosax_api.STRATEGIES))
def test_strategy_methods_are_pure(name: str) -> None:
    """`init`, `ask`, `tell`: the same result when run again, inputs unchanged."""
    es = _strategy(name)
    params = es.default_params
    state = _init(es, name)
    assert _equal(state, _init(es, name))
    before = snapshot((state, params))
    asked = es.ask(KEY, state, params)
    assert _equal(asked, es.ask(KEY, state, params))
    population, next_state = asked
    fitness, _, _ = PROBLEM.eval(KEY, population, PROBLEM.init(KEY))
    told = es.tell(KEY, population, fitness, next_state, params)
    assert _equal(told, es.tell(KEY, population, fitness, next_state, params))
    assert _equal(before, snapshot((state, params)))


@pytest.mark.parametrize("name", sorted(evosax_api.STRATEGIES))
def test_a_generation_traces_with_the_strategy_closed_over(name: str) -> None:
    """ask, eval, tell under one jit, the strategy and problem closed over: arrays out,
    the state's structure kept; the default params are a pytree of arrays and numbers."""
    es = _strategy(name)
    params = es.default_params
    state = _init(es, name)

    def generation(key, state, problem_state):
        k1, k2, k3 = jax.random.split(key, 3)
        population, state = es.ask(k1, state, params)
        fitness, problem_state, _ = PROBLEM.eval(k2, population, problem_state)
        state, metrics = es.tell(k3, population, fitness, state, params)
        return state, problem_state, metrics

    out = jax.eval_shape(generation, KEY, state, PROBLEM.init(KEY))
    assert jax.tree.structure(out[0]) == jax.tree.structure(state)
    assert all(isinstance(x, jax.ShapeDtypeStruct) for x in jax.tree.leaves(out))
    assert all(isinstance(x, jax.Array | float | int) for x in jax.tree.leaves(params))
    hash(es)  # jit may keep it static (evosax's own jits do, by identity)


def test_problem_methods_are_pure_and_trace() -> None:
    state = PROBLEM.init(KEY)
    assert leaves_equal(state, PROBLEM.init(KEY))
    assert leaves_equal(PROBLEM.sample(KEY), PROBLEM.sample(KEY))
    population = jnp.stack([SOLUTION, -SOLUTION])
    before = snapshot((population, state))
    assert leaves_equal(PROBLEM.eval(KEY, population, state), PROBLEM.eval(KEY, population, state))
    assert leaves_equal(before, snapshot((population, state)))
    fitness, _, _ = jax.eval_shape(lambda k, s: PROBLEM.eval(k, population, s), KEY, state)
    assert fitness.shape == (2,)
    hash(PROBLEM)


@pytest.mark.parametrize("name", sorted(evosax_api.PURE_FUNCTIONS))
def test_pure_functions_are_pure(name: str) -> None:
    """Shaping and metrics functions: the same result twice, inputs unchanged."""
    es = _strategy("evosax.algorithms.CMA_ES")
    params = es.default_params
    state = _init(es, "CMA_ES")
    population = jax.random.normal(KEY, (8, 3))
    fitness = jnp.arange(8.0)
    fn = lookup(name)
    args = (KEY, population, fitness, state, params) if "metrics" in name else (
        population, fitness, state, params)  # fmt: skip
    before = snapshot(args[-4:])  # the key aside: no host copy of a key
    assert _equal(fn(*args), fn(*args))  # type: ignore[operator]
    assert _equal(before, snapshot(args[-4:]))


def test_add_weight_decay_wraps_a_pure_function() -> None:
    make = lookup("evosax.core.fitness_shaping.add_weight_decay")
    base = lookup("evosax.core.fitness_shaping.standardize_fitness_shaping_fn")
    es = _strategy("evosax.algorithms.CMA_ES")
    state, params = _init(es, "CMA_ES"), es.default_params
    population, fitness = jax.random.normal(KEY, (8, 3)), jnp.arange(8.0)
    fn = make(base, weight_decay=0.01)  # type: ignore[operator]
    assert _equal(fn(population, fitness, state, params), fn(population, fitness, state, params))
    assert jax.eval_shape(fn, population, fitness, state, params).shape == (8,)
