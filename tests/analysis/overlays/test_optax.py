"""The optax overlay, checked against the installed optax."""

from __future__ import annotations

import gc
import inspect
import sys
import weakref

import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest

from autoopt.analysis.overlays import optax as optax_api
from tests.analysis.overlays import (
    carries_no_buffer,
    fresh_leaves,
    leaves_equal,
    node_kinds,
    pointers,
    resolve,
    snapshot,
)

#: Each listed constructor, built with small options.
BUILT = {
    "optax.sgd": lambda: optax.sgd(0.1, momentum=0.9),
    "optax.adam": lambda: optax.adam(0.1),
    "optax.adamw": lambda: optax.adamw(0.1),
    "optax.adagrad": lambda: optax.adagrad(0.1),
    "optax.rmsprop": lambda: optax.rmsprop(0.1),
    "optax.lamb": lambda: optax.lamb(0.1),
    "optax.lion": lambda: optax.lion(0.1),
    "optax.chain": lambda: optax.chain(optax.clip_by_global_norm(1.0), optax.adam(0.1)),
    "optax.clip": lambda: optax.clip(1.0),
    "optax.clip_by_global_norm": lambda: optax.clip_by_global_norm(1.0),
    "optax.scale": lambda: optax.scale(0.1),
    "optax.scale_by_adam": optax.scale_by_adam,
    "optax.adabelief": lambda: optax.adabelief(0.1),
    "optax.add_decayed_weights": lambda: optax.add_decayed_weights(1e-4),
}
#: Each listed schedule, built with small options.
SCHEDULES = {
    "optax.constant_schedule": lambda: optax.constant_schedule(0.1),
    "optax.linear_schedule": lambda: optax.linear_schedule(0.1, 0.01, 10),
    "optax.exponential_decay": lambda: optax.exponential_decay(0.1, 10, 0.9, end_value=0.01),
    "optax.cosine_decay_schedule": lambda: optax.cosine_decay_schedule(0.1, 10),
    "optax.piecewise_constant_schedule": lambda: optax.piecewise_constant_schedule(
        0.1, {6: 0.1, 8: 0.1}
    ),
    "optax.warmup_cosine_decay_schedule": lambda: optax.warmup_cosine_decay_schedule(
        0.0, 0.1, 2, 10, 1e-5
    ),
    "optax.warmup_exponential_decay_schedule": lambda: optax.warmup_exponential_decay_schedule(
        0.0, 0.1, 2, 10, 0.9
    ),
    "optax.join_schedules": lambda: optax.join_schedules(
        [optax.linear_schedule(0.0, 0.1, 2), optax.cosine_decay_schedule(0.1, 10)], [2]
    ),
}
PARAMS = {"w": jnp.ones((2, 3)), "b": jnp.zeros(3)}
GRADS = {"w": jnp.full((2, 3), 0.5), "b": jnp.ones(3)}


def test_names_exist() -> None:
    names = (optax_api.PURE_CALLS | optax_api.LOSSES | optax_api.PURE_METHODS
             | set(optax_api.SAME_STRUCTURE) | optax_api.FRESH_RESULTS
             | optax_api.MODULES)  # fmt: skip
    assert [n for n in sorted(names) if not resolve(n)] == []
    assert set(BUILT) == optax_api.OPTIMIZERS
    assert set(SCHEDULES) == optax_api.SCHEDULES
    assert optax_api.UNKEPT_OBJECTS == optax_api.OPTIMIZERS | optax_api.SCHEDULES


@pytest.mark.parametrize("name", sorted(optax_api.OPTIMIZERS))
def test_optimizers_are_pure_gradient_transformations(name: str) -> None:
    tx = BUILT[name]()
    assert isinstance(tx, optax.GradientTransformation)
    before = snapshot((PARAMS, GRADS))
    state = tx.init(PARAMS)
    assert leaves_equal(state, tx.init(PARAMS))
    first, second = tx.update(GRADS, state, PARAMS), tx.update(GRADS, state, PARAMS)
    assert leaves_equal(first, second)
    assert leaves_equal(before, snapshot((PARAMS, GRADS)))


@pytest.mark.parametrize("name", sorted(optax_api.OPTIMIZERS))
def test_update_is_shaped_like_updates_and_state(name: str) -> None:
    tx = BUILT[name]()
    state = tx.init(PARAMS)
    out = jax.eval_shape(tx.update, GRADS, state, PARAMS)
    args = (GRADS, state, PARAMS)
    like = optax_api.SAME_STRUCTURE["optax.GradientTransformation.update"]
    assert [jax.tree.structure(o) for o in out] == [jax.tree.structure(args[i]) for i in like]


def test_apply_updates_is_pure_fresh_and_shaped_like_params() -> None:
    before = snapshot((PARAMS, GRADS))
    out = optax.apply_updates(PARAMS, GRADS)
    assert leaves_equal(out, optax.apply_updates(PARAMS, GRADS))
    assert leaves_equal(before, snapshot((PARAMS, GRADS)))
    (at,) = optax_api.SAME_STRUCTURE["optax.apply_updates"]
    assert jax.tree.structure(out) == jax.tree.structure((PARAMS, GRADS)[at])
    assert "optax.apply_updates" in optax_api.FRESH_RESULTS
    assert not pointers(out) & pointers((PARAMS, GRADS))


@pytest.mark.parametrize("name", sorted(optax_api.RETURNS))
def test_constructors_return_their_class_whose_results_are_arrays(name: str) -> None:
    tx = BUILT[name]()
    assert optax_api.RETURNS[name] == "optax.GradientTransformation"
    assert isinstance(tx, optax.GradientTransformation)
    state = tx.init(PARAMS)
    updates, state = tx.update(GRADS, state, PARAMS)
    results = (state, updates, optax.apply_updates(PARAMS, updates))
    assert all(isinstance(leaf, jax.Array) for leaf in jax.tree.leaves(results))
    assert {f"{optax_api.RETURNS[name]}.{m}" for m in ("init", "update")} <= (
        optax_api.ARRAYS_RESULTS
    )


@pytest.mark.parametrize("name", sorted(optax_api.UNKEPT_OBJECTS))
def test_nothing_else_keeps_a_constructed_optimizer(name: str) -> None:
    tx = {**BUILT, **SCHEDULES}[name]()
    assert sys.getrefcount(tx) == 2  # `tx` and the call's argument: no registry, no cache


@pytest.mark.parametrize("name", sorted(optax_api.SCHEDULES))
def test_a_schedule_is_a_function_of_the_count_nothing_else_keeps(name: str) -> None:
    """A schedule holds the numbers it is given (an array too) and nothing else keeps
    them: once the schedule is dropped, so is an array given as its value."""
    schedule = SCHEDULES[name]()
    assert callable(schedule) and jnp.shape(schedule(jnp.array(3))) == ()
    assert leaves_equal(schedule(jnp.array(3)), schedule(jnp.array(3)))
    refs = _schedule_with_array_value(name)
    gc.collect()
    assert [r() for r in refs] == [None]


def _schedule_with_array_value(name: str) -> list[weakref.ref]:
    """Builds and runs the schedule `name` with its value given as an array; drops it."""
    value = jnp.array(0.1)
    kind = name.rsplit(".", 1)[1]
    keyword = {"constant_schedule": "value", "linear_schedule": "init_value"}.get(kind)
    keyword = keyword or ("peak_value" if kind.startswith("warmup_") else "init_value")
    options = {"warmup_steps": 2, "decay_steps": 10, "end_value": 1e-5, "init_value": 0.0}
    signature = inspect.signature(getattr(optax, kind)).parameters
    given = {k: v for k, v in options.items() if k in signature and k != keyword}
    given.update({k: 10 for k in ("transition_steps",) if k in signature})
    given.update({k: 0.9 for k in ("decay_rate",) if k in signature})
    given.update({k: 0.01 for k in ("end_value",) if k in signature and kind == "linear_schedule"})
    if kind == "piecewise_constant_schedule":
        given["boundaries_and_scales"] = {6: 0.1}
    if kind == "join_schedules":
        parts = [optax.constant_schedule(value), optax.constant_schedule(0.0)]
        optax.join_schedules(parts, [2])(jnp.array(3))
        return [weakref.ref(value)]
    getattr(optax, kind)(**given, **{keyword: value})(jnp.array(3))
    return [weakref.ref(value)]


@pytest.mark.parametrize("name", sorted(optax_api.OPTIMIZERS))
def test_init_makes_new_buffers_none_twice(name: str) -> None:
    assert "optax.GradientTransformation.init" in optax_api.FRESH_RESULTS
    state = BUILT[name]().init(PARAMS)
    assert fresh_leaves(state, PARAMS)


def test_a_combinator_s_init_may_return_what_its_parts_return() -> None:
    """Why `chain` is fresh only of fresh parts: a user's transformation returning
    `params` itself puts those very buffers into the chain's state."""
    keep = optax.GradientTransformation(lambda params: params, lambda u, s, p=None: (u, s))
    assert {"optax.chain"} == optax_api.COMBINATORS
    state = optax.chain(keep, optax.adam(0.1)).init(PARAMS)
    assert pointers(state[0]) == pointers(PARAMS)
    assert fresh_leaves(optax.chain(optax.scale(0.1), optax.adam(0.1)).init(PARAMS), PARAMS)


@pytest.mark.parametrize("name", sorted(optax_api.OPTIMIZERS))
def test_optimizers_hold_no_array_leaf(name: str) -> None:
    """`NO_ARRAY_CLASSES`: every listed constructor's `GradientTransformation` is a
    pytree whose leaves are functions, never arrays."""
    built = BUILT[name]()
    assert optax_api.RETURNS[name] in optax_api.NO_ARRAY_CLASSES
    assert isinstance(built, optax.GradientTransformation)
    leaves = jax.tree_util.tree_leaves(built)
    assert leaves and all(callable(leaf) and not hasattr(leaf, "shape") for leaf in leaves)


@pytest.mark.parametrize("name", sorted(optax_api.OPTIMIZERS))
def test_attributes_of_an_optimizer_hold_no_array(name: str) -> None:
    """`NO_ARRAY_CLASSES`: every attribute read from the optimizer (`opt.update`, a field
    or a bound method) is a pytree without an array leaf."""
    built = BUILT[name]()
    assert optax_api.RETURNS[name] in optax_api.NO_ARRAY_CLASSES
    names = [a for a in dir(built) if not a.startswith("__")]
    assert {"init", "update"} <= set(names)
    for attribute in names:
        leaves = jax.tree_util.tree_leaves(getattr(built, attribute))
        assert not any(isinstance(leaf, jax.Array | np.ndarray) for leaf in leaves)


@pytest.mark.parametrize("name", sorted(optax_api.OPTIMIZERS))
def test_static_classes_are_immutable_hashable_and_kept_static_by_jit(name: str) -> None:
    tx = BUILT[name]()
    assert optax_api.RETURNS[name] in optax_api.STATIC_CLASSES
    assert hash(tx) == hash(tx) and tx == tx
    with pytest.raises(AttributeError):
        tx.update = tx.init  # type: ignore[misc]  # a named tuple: no field is rebound
    traces = []

    def step(params, state, tx):
        traces.append(1)
        updates, state = tx.update(GRADS, state, params)
        return optax.apply_updates(params, updates), state

    jitted = jax.jit(step, static_argnames=("tx",))
    state = tx.init(PARAMS)
    eager = step(PARAMS, state, tx)
    first = jitted(PARAMS, state, tx=tx)
    second = jitted(PARAMS, state, tx=tx)
    assert len(traces) == 2  # the eager call and one trace for both jitted calls
    close = [
        np.allclose(a, b, rtol=1e-6)
        for a, b in zip(jax.tree.leaves(eager), jax.tree.leaves(first), strict=True)
    ]
    assert all(close) and leaves_equal(first, second)


#: Each listed constructor given its hyperparameters as arrays (issue 26: a state that
#: kept one would share its buffer with the caller's array).
LR, DECAY = jnp.array(0.1), jnp.array(0.9)
ARRAY_HYPERPARAMETERS = {
    "optax.sgd": lambda: optax.sgd(LR, momentum=DECAY),
    "optax.adam": lambda: optax.adam(LR, b1=DECAY),
    "optax.adamw": lambda: optax.adamw(LR, weight_decay=LR),
    "optax.adagrad": lambda: optax.adagrad(LR, initial_accumulator_value=DECAY),
    "optax.rmsprop": lambda: optax.rmsprop(LR, initial_scale=DECAY),
    "optax.lamb": lambda: optax.lamb(LR),
    "optax.lion": lambda: optax.lion(LR),
    "optax.chain": lambda: optax.chain(optax.clip_by_global_norm(LR), optax.adam(LR)),
    "optax.clip": lambda: optax.clip(LR),
    "optax.clip_by_global_norm": lambda: optax.clip_by_global_norm(LR),
    "optax.scale": lambda: optax.scale(LR),
    "optax.scale_by_adam": lambda: optax.scale_by_adam(b1=DECAY),
    "optax.adabelief": lambda: optax.adabelief(LR, b1=DECAY),
    "optax.add_decayed_weights": lambda: optax.add_decayed_weights(LR),
}


@pytest.mark.parametrize("name", sorted(optax_api.OPTIMIZERS))
def test_init_keeps_no_hyperparameter_array(name: str) -> None:
    """`adam`'s `mu` and `nu` are two buffers, its `count` a third; no state holds a
    buffer of `params` or of a hyperparameter given as an array."""
    assert set(ARRAY_HYPERPARAMETERS) == optax_api.OPTIMIZERS
    state = ARRAY_HYPERPARAMETERS[name]().init(PARAMS)
    assert fresh_leaves(state, PARAMS, LR, DECAY)


def test_adam_moments_are_two_buffers_per_parameter() -> None:
    (adam, _) = optax.adam(0.1).init(PARAMS)
    assert not pointers(adam.mu) & pointers(adam.nu)
    assert len(pointers((adam.count, adam.mu, adam.nu))) == 1 + 2 * len(PARAMS)


def _all_0d(tree: object) -> bool:
    return all(jnp.ndim(leaf) == 0 for leaf in jax.tree_util.tree_leaves(tree))


@pytest.mark.parametrize("name", sorted(optax_api.OPTIMIZERS))
def test_state_and_updates_of_0d_params_are_0d(name: str) -> None:
    """`LEAF_SHAPES_FROM`: 0-d parameters and updates give 0-d states and updates."""
    assert set(optax_api.LEAF_SHAPES_FROM) == {
        "optax.GradientTransformation.init",
        "optax.GradientTransformation.update",
        "optax.apply_updates",
    }
    params = {"a": jnp.array(1.0), "b": (jnp.array(2.0),)}
    opt = BUILT[name]()
    state = opt.init(params)
    assert _all_0d(state)
    for _ in range(2):
        updates, state = opt.update(params, state, params)
        assert _all_0d(updates) and _all_0d(state)
    assert _all_0d(optax.apply_updates(params, updates))


#: Arguments for each loss, by its name in `optax.losses`.
LOSS_ARGUMENTS = {
    "softmax_cross_entropy": (jnp.ones((4, 3)), jnp.full((4, 3), 1 / 3)),
    "softmax_cross_entropy_with_integer_labels": (jnp.ones((4, 3)), jnp.array([0, 1, 2, 0])),
    "sigmoid_binary_cross_entropy": (jnp.ones((4, 3)), jnp.zeros((4, 3))),
    "l2_loss": (jnp.ones((4, 3)), jnp.zeros((4, 3))),
    "squared_error": (jnp.ones((4, 3)), jnp.zeros((4, 3))),
    "huber_loss": (jnp.ones((4, 3)), jnp.zeros((4, 3))),
    "log_cosh": (jnp.ones((4, 3)), jnp.zeros((4, 3))),
    "cosine_distance": (jnp.ones((4, 3)), jnp.ones((4, 3))),
    "cosine_similarity": (jnp.ones((4, 3)), jnp.ones((4, 3))),
    "hinge_loss": (jnp.ones(4), jnp.ones(4)),
}


@pytest.mark.parametrize("name", sorted(optax_api.LOSSES))
def test_losses_are_pure_and_return_one_array(name: str) -> None:
    """`optax.X` is `optax.losses.X`; given arrays it returns one new JAX array, the same
    for the same arguments, and leaves them unchanged."""
    short = name.rsplit(".", 1)[1]
    loss = getattr(optax.losses, short)
    assert resolve(name) and getattr(optax, short) is loss
    args = LOSS_ARGUMENTS[short]
    before = snapshot(args)
    out = loss(*args)
    assert isinstance(out, jax.Array)
    assert leaves_equal(out, loss(*args))
    assert leaves_equal(before, snapshot(args))
    assert not pointers(out) & pointers(args)
    assert set(LOSS_ARGUMENTS) == {n.rsplit(".", 1)[1] for n in optax_api.LOSSES}


@pytest.mark.parametrize("name", sorted(optax_api.OPTIMIZERS))
def test_init_state_has_no_aux_data_where_the_parameters_have_none(name: str) -> None:
    """`AUX_FREE_GIVEN` (`facts/aux_free.py`): the state is tuples, named tuples (no
    registration of their own: aux data None) and None around pytrees shaped like the
    parameters, so it has no node with aux data but a dict's keys where they have none."""
    (at,) = optax_api.AUX_FREE_GIVEN["optax.GradientTransformation.init"]
    assert at == 0 and set(optax_api.AUX_FREE_GIVEN) == {"optax.GradientTransformation.init"}
    state = BUILT[name]().init(PARAMS)
    for kind in node_kinds(state):
        named = issubclass(kind, tuple) and hasattr(kind, "_fields")
        assert kind in (tuple, list, dict, type(None)) or named, kind
    nodes = []

    def visit(treedef) -> None:
        if treedef.node_data() is not None:
            nodes.append(treedef.node_data())
            for child in treedef.children():
                visit(child)

    visit(jax.tree.structure(state))
    assert all(aux is None for kind, aux in nodes if kind is not dict)


#: Each schedule `BUFFERLESS_SCHEDULES` lists, built with numbers.
BUFFERLESS_BUILDS = {
    "optax.constant_schedule": lambda: optax.constant_schedule(0.1),
    "optax.linear_schedule": lambda: optax.linear_schedule(0.0, 0.1, 10),
    "optax.cosine_decay_schedule": lambda: optax.cosine_decay_schedule(0.1, 10, alpha=0.01),
    "optax.polynomial_schedule": lambda: optax.polynomial_schedule(0.1, 0.01, 2, 10),
}


@pytest.mark.parametrize("name", sorted(optax_api.BUFFERLESS_SCHEDULES))
def test_a_bufferless_schedule_holds_no_buffer(name: str) -> None:
    assert set(BUFFERLESS_BUILDS) == optax_api.BUFFERLESS_SCHEDULES
    schedule = BUFFERLESS_BUILDS[name]()
    assert carries_no_buffer(schedule)
    for optimizer in sorted(
        optax_api.BUFFERLESS_OPTIMIZERS - {"optax.clip", "optax.clip_by_global_norm"}
    ):
        assert carries_no_buffer(getattr(optax, optimizer.rsplit(".", 1)[1])(schedule))


@pytest.mark.parametrize("name", ["optax.clip", "optax.clip_by_global_norm"])
def test_a_clip_given_a_number_holds_no_buffer(name: str) -> None:
    assert name in optax_api.BUFFERLESS_OPTIMIZERS
    assert carries_no_buffer(getattr(optax, name.rsplit(".", 1)[1])(0.5))
    assert not carries_no_buffer(getattr(optax, name.rsplit(".", 1)[1])(jnp.asarray(0.5)))


def test_a_chain_of_bufferless_transformations_holds_no_buffer() -> None:
    assert {"optax.chain"} == optax_api.BUFFERLESS_CHAINS
    tx = optax.chain(optax.clip_by_global_norm(0.5), optax.adamw(1e-3, weight_decay=1e-4))
    assert carries_no_buffer(tx)
    assert not carries_no_buffer(optax.chain(optax.clip(1.0), optax.sgd(jnp.asarray(0.1))))


def test_a_warmup_cosine_schedule_holds_lists() -> None:
    """Why `warmup_cosine_decay_schedule` is not bufferless: it joins two schedules."""
    assert "optax.warmup_cosine_decay_schedule" not in optax_api.BUFFERLESS_SCHEDULES
    assert not carries_no_buffer(optax.warmup_cosine_decay_schedule(0.0, 0.1, 2, 10))


def test_a_join_holds_the_two_lists_it_is_given_and_nothing_else() -> None:
    """`SCHEDULE_JOINS`: the joined function's closure holds the very lists it was given
    (which the caller may change later: so only lists written in place count), and
    otherwise optax's own functions and numbers."""
    schedules = [optax.linear_schedule(0.0, 0.1, 2), optax.cosine_decay_schedule(0.1, 10)]
    boundaries = [2]
    joined = optax.join_schedules(schedules=schedules, boundaries=boundaries)
    assert list(optax_api.SCHEDULE_JOINS) == ["optax.join_schedules"]
    assert [k for k, _ in optax_api.SCHEDULE_JOINS["optax.join_schedules"]] == list(
        inspect.signature(optax.join_schedules).parameters
    )
    cells = [c.cell_contents for c in joined.__closure__ or ()]
    lists = [c for c in cells if isinstance(c, list)]
    assert sorted(map(id, lists)) == sorted([id(schedules), id(boundaries)])
    others = [c for c in cells if not isinstance(c, list)]
    assert all(carries_no_buffer(c) for c in others)
    assert all(carries_no_buffer(s) for s in schedules) and carries_no_buffer(tuple(boundaries))
