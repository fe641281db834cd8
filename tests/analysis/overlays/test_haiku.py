"""The haiku overlay, checked against the installed haiku."""

from __future__ import annotations

import inspect

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from autoopt.analysis.overlays import haiku as hk_api
from tests.analysis.overlays import (
    fresh_leaves,
    leaves_equal,
    node_kinds,
    pointers,
    resolve,
    snapshot,
)

X = jnp.ones((2, 3))
KEY = jax.random.key(0)


def forward(x):
    return hk.Linear(3)(x)


def test_names_exist() -> None:
    names = hk_api.TRANSFORMS | hk_api.PURE_CALLS | hk_api.PURE_METHODS | hk_api.FRESH_RESULTS
    names |= set(hk_api.ARRAY_PARAMETERS) | hk_api.ARRAYS_RESULTS | hk_api.SAME_INIT
    assert [n for n in sorted(names) if not resolve(n)] == []
    assert hk_api.WRAPS_FUNCTION <= hk_api.PURE_CALLS


@pytest.mark.parametrize("name", sorted(hk_api.WRAPS_FUNCTION))
def test_wrappers_run_the_function_as_written_and_refuse_a_jitted_one(name: str) -> None:
    wrap = getattr(hk, name.rsplit(".", 1)[1])
    params = wrap(forward).init(KEY, X)
    assert jax.tree.leaves(params)
    with pytest.raises(ValueError, match="already jit"):
        wrap(jax.jit(forward)).init(KEY, X)


def test_transformed_init_and_apply_are_pure_and_init_is_fresh() -> None:
    model = hk.transform(forward)
    assert isinstance(model, hk.Transformed)
    params = model.init(KEY, X)
    assert leaves_equal(params, model.init(KEY, X)) and not pointers(params) & pointers(X)
    before = snapshot(params)
    out = model.apply(params, None, X)
    assert leaves_equal(out, model.apply(params, None, X))
    assert leaves_equal(before, snapshot(params))
    assert hk.without_apply_rng(model).apply(params, X).shape == X.shape
    with_state = hk.transform_with_state(forward)
    params, state = with_state.init(KEY, X)
    assert with_state.apply(params, state, None, X)[0].shape == X.shape


@pytest.mark.parametrize("name", sorted(hk_api.TRANSFORMS))
def test_transforms_trace_inside_a_transformed_function(name: str) -> None:
    lifted = getattr(hk, name.rsplit(".", 1)[1])

    def inner(x):
        if name in hk_api.SCAN_LIKE:
            layer = hk.Linear(3)
            layer(x[0])  # parameters are made outside the scanned body
            carry, _ = lifted(lambda c, x: (c + layer(x), c), jnp.zeros(3), x)
            return carry
        if name in hk_api.VMAP_LIKE:
            return lifted(forward, split_rng=False)(x)
        return lifted(forward)(x)

    model = hk.transform(inner)
    assert model.apply(model.init(KEY, X), None, X).shape[-1] == 3


def normed(x):
    return hk.BatchNorm(True, True, 0.9)(hk.Linear(3)(x), is_training=True)


@pytest.mark.parametrize("name", sorted(hk_api.RETURNS))
def test_constructors_return_objects_whose_init_is_fresh(name: str) -> None:
    stateful = name == "haiku.transform_with_state"
    made = getattr(hk, name.rsplit(".", 1)[1])(normed if stateful else forward)
    cls = hk_api.RETURNS[name]
    assert type(made).__name__ == cls.rsplit(".", 1)[1]
    assert f"{cls}.init" in hk_api.FRESH_RESULTS
    assert fresh_leaves(made.init(KEY, X), X, KEY)


def test_array_parameters_keep_the_array_given() -> None:
    """Why `initializers.py` refuses an array handed to `hk.Embed` or to an initializer:
    two parameters made from one array are one buffer."""
    table = jnp.zeros((3, 2))

    def tied(x):
        a = hk.Embed(embedding_matrix=table)(x)
        b = hk.Embed(embedding_matrix=table, name="other")(x)
        c = hk.get_parameter("c", [3, 2], init=hk.initializers.Constant(table))
        return a + b + c

    params = hk.transform(tied).init(KEY, jnp.array([0]))
    assert pointers(params) == pointers(table)
    (keyword, position) = hk_api.ARRAY_PARAMETERS["haiku.Embed"]
    assert list(inspect.signature(hk.Embed).parameters)[position] == keyword


def test_initializers_given_constants_make_new_buffers() -> None:
    def built_in(x):
        a = hk.get_parameter("a", [3], init=hk.initializers.Constant(1.0))
        b = hk.get_parameter("b", [3], init=hk.initializers.Constant(1.0))
        return hk.Linear(3, w_init=hk.initializers.RandomNormal(0.1))(x) + a + b

    assert fresh_leaves(hk.transform(built_in).init(KEY, X), X, KEY)


@pytest.mark.parametrize("name", sorted(hk_api.ARRAYS_RESULTS))
def test_init_of_library_initializers_gives_a_pytree_of_jax_arrays(name: str) -> None:
    stateful = name.startswith("haiku.TransformedWithState")
    made = (hk.transform_with_state(normed) if stateful else hk.transform(forward)).init(KEY, X)
    assert type(made) is (tuple if stateful else dict)
    leaves = jax.tree.leaves(made)
    assert leaves and all(isinstance(leaf, jax.Array) for leaf in leaves)


def test_init_keeps_a_numpy_array_an_initializer_of_the_users_returns() -> None:
    """Why `ARRAYS_RESULTS` holds only of sealed code (`facts/fresh.py`)."""
    host = np.ones(3, np.float64)
    params = hk.transform(lambda x: x + hk.get_parameter("w", [3], init=lambda *_: host)).init(
        KEY, X
    )
    assert type(params["~"]["w"]) is np.ndarray


@pytest.mark.parametrize("name", sorted(hk_api.SAME_INIT))
def test_same_init_wrappers_keep_the_class_and_the_init(name: str) -> None:
    wrap = getattr(hk, name.rsplit(".", 1)[1])
    for made in (hk.transform(forward), hk.transform_with_state(normed)):
        wrapped = wrap(made)
        assert type(wrapped) is type(made) and wrapped.init is made.init


#: Each listed module, built inside a transformed function with small options.
LAYERS = {
    "haiku.Linear": lambda: hk.Linear(2),
    "haiku.nets.MLP": lambda: hk.nets.MLP([4, 2], activation=jnp.tanh),
    "haiku.Conv2D": lambda: hk.Conv2D(2, 3),
    "haiku.LayerNorm": lambda: hk.LayerNorm(-1, True, True),
}


@pytest.mark.parametrize("name", sorted(hk_api.LAYERS))
def test_layers_compute_on_their_parameters_and_arguments_alone(name: str) -> None:
    """Built and called in a transformed function, a listed module keeps no state and
    draws no rng (`without_apply_rng` and `transform`, not `transform_with_state`):
    `apply` gives the same output twice and leaves its arguments unchanged."""
    assert resolve(name) and set(LAYERS) == hk_api.LAYERS
    net = hk.without_apply_rng(hk.transform(lambda x: LAYERS[name]()(x)))
    x = jnp.ones((1, 5, 5, 3))
    params = net.init(jax.random.key(0), x)
    before = snapshot((params, x))
    assert leaves_equal(net.apply(params, x), net.apply(params, x))
    assert leaves_equal(before, snapshot((params, x)))


def test_transforming_calls_give_an_apply_that_runs_the_function_as_written() -> None:
    calls = []

    def forward(x):
        calls.append(1)
        return x * 2

    assert all(resolve(n) for n in hk_api.TRANSFORMING)
    assert {"haiku.transform", "haiku.transform_with_state"} == hk_api.TRANSFORMING
    plain = hk.transform(forward)
    plain.apply(plain.init(jax.random.key(0), jnp.ones(2)), None, jnp.ones(2))
    stateful = hk.transform_with_state(forward)
    params, state = stateful.init(jax.random.key(0), jnp.ones(2))
    stateful.apply(params, state, None, jnp.ones(2))
    assert len(calls) == 4  # each `init` and each `apply` ran `forward` as written


@pytest.mark.parametrize("name", sorted(hk_api.AUX_FREE_RESULTS))
def test_init_gives_dicts_of_dicts(name: str) -> None:
    """`AUX_FREE_RESULTS` (`facts/aux_free.py`): no node of what `init` gives holds aux
    data but a dict's keys (a tuple of two such with state)."""
    stateful = name.startswith("haiku.TransformedWithState")
    made = (hk.transform_with_state(normed) if stateful else hk.transform(forward)).init(KEY, X)
    assert node_kinds(made) == ({tuple, dict} if stateful else {dict})
    assert hk_api.AUX_FREE_RESULTS <= hk_api.ARRAYS_RESULTS
