"""The flax.training overlay, checked against the installed flax."""

from __future__ import annotations

import dataclasses
import gc
import inspect
import warnings
import weakref
from typing import Any

import flax
import jax
import jax.numpy as jnp
import optax
import pytest
from flax import serialization
from flax.training import checkpoints, train_state

from autoopt.analysis.overlays import flax_training as training_api
from tests.analysis.overlays import fresh_leaves, leaves_equal, pointers, resolve, snapshot

PARAMS = {"w": jnp.ones((2, 3))}
GRADS = {"w": jnp.full((2, 3), 0.5)}
TX = optax.adam(0.1)  # a static field: one object, one tree structure


def state() -> train_state.TrainState:
    return train_state.TrainState.create(apply_fn=None, params=PARAMS, tx=TX)


def test_names_exist() -> None:
    names = training_api.PURE_CALLS | training_api.SAME_AS_SELF | training_api.FROZEN_CLASSES
    assert [n for n in sorted(names) if not resolve(n)] == []


def test_create_and_apply_gradients_are_pure_and_keep_the_structure() -> None:
    first = state()
    assert leaves_equal(first, state())
    before = snapshot((first, GRADS))
    stepped = first.apply_gradients(grads=GRADS)
    assert leaves_equal(stepped, first.apply_gradients(grads=GRADS))
    assert leaves_equal(before, snapshot((first, GRADS)))
    replaced = first.replace(step=3)
    assert jax.tree.structure(stepped) == jax.tree.structure(first)
    assert jax.tree.structure(replaced) == jax.tree.structure(first) and first.step == 0


def test_train_state_is_frozen() -> None:
    (cls,) = training_api.FROZEN_CLASSES
    assert cls == "flax.training.train_state.TrainState"
    try:
        state().step = 1
    except Exception as error:  # dataclasses.FrozenInstanceError
        assert "frozen" in type(error).__name__.lower() or "cannot assign" in str(error)
    else:
        raise AssertionError("TrainState is mutable")


def test_create_holds_its_fields_buffers_and_makes_a_new_opt_state() -> None:
    (static,) = training_api.CREATE_STATIC.values()
    made = train_state.TrainState.create(apply_fn=lambda v, x: x, params=PARAMS, tx=TX)
    assert static == {"apply_fn", "tx"}
    fields = (made.step, made.params, made.opt_state)  # `apply_fn` and `tx` are no leaves
    assert len(jax.tree.leaves(made)) == len(jax.tree.leaves(fields))
    assert pointers(made.params) == pointers(PARAMS)
    assert fresh_leaves(made.opt_state, PARAMS)


class _Tree(dict):
    """A dict a weak reference can point to (a plain dict cannot)."""


jax.tree_util.register_pytree_node(
    _Tree,
    lambda t: (list(t.values()), list(t)),
    lambda keys, values: _Tree(zip(keys, values, strict=True)),
)
serialization.register_serialization_state(  # what the checkpoints without Orbax write
    _Tree,
    lambda t: {k: serialization.to_state_dict(v) for k, v in t.items()},
    lambda t, state: _Tree(state),
)


def _dropped(make_and_use) -> bool:
    """Whether the arrays and the pytree `make_and_use` makes and hands on are freed once
    it returns (nothing the call reached keeps a reference)."""
    refs = make_and_use()
    gc.collect()
    return all(ref() is None for ref in refs)


@pytest.mark.parametrize("orbax", [True, False])
def test_save_checkpoint_keeps_no_argument_and_returns_the_path(tmp_path, orbax: bool) -> None:
    (name,) = training_api.KEEPS_NO_ARGUMENT
    assert resolve(name)
    params = inspect.signature(checkpoints.save_checkpoint).parameters
    listed = training_api.KEEPS_NO_ARGUMENT[name]
    assert list(params)[: len(listed)] == list(listed)  # the order positional calls use
    assert {"async_manager", "orbax_checkpointer"} <= set(params) - set(listed)
    returned: list[object] = []

    def save(step: int) -> list[weakref.ref]:
        leaves = [jnp.arange(4.0) + step, jnp.ones(3) * step]
        target = _Tree(params=_Tree(a=leaves[0], b=leaves[1]))
        returned.append(
            checkpoints.save_checkpoint(str(tmp_path), target=target, step=step, overwrite=True)
        )
        return [weakref.ref(x) for x in (*leaves, target, target["params"])]

    with flax.config.temp_flip_flag("use_orbax_checkpointing", orbax), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the path without Orbax
        for step in range(2):  # a second save replaces the first checkpoint
            assert _dropped(lambda step=step: save(step))
    assert all(isinstance(path, str) for path in returned)


def test_create_keeps_no_argument_but_in_its_result() -> None:
    def create() -> list[weakref.ref]:
        params = _Tree(w=jnp.ones((2, 3)))
        made = train_state.TrainState.create(apply_fn=None, params=params, tx=optax.adam(0.1))
        assert made.params is params
        return [weakref.ref(params), weakref.ref(params["w"])]

    assert _dropped(create)


def test_a_subclass_with_fields_alone_creates_as_train_state_does() -> None:
    (base,) = training_api.FIELD_SUBCLASSES
    assert resolve(base) and f"{base}.create" in training_api.CREATE_STATIC

    class WithStats(train_state.TrainState):
        batch_stats: Any
        note: Any = None

    stats = {"mean": jnp.zeros(3)}
    made = WithStats.create(apply_fn=None, params=PARAMS, tx=TX, batch_stats=stats)
    assert (
        type(made) is WithStats
        and WithStats.create.__func__ is train_state.TrainState.create.__func__
    )
    assert made.batch_stats is stats and pointers(made.params) == pointers(PARAMS)
    assert len(jax.tree.leaves(made)) == len(
        jax.tree.leaves((made.step, PARAMS, made.opt_state, stats))
    )


def test_the_constructor_holds_each_field_as_given_and_keeps_nothing_else() -> None:
    (name,) = training_api.CONSTRUCTOR_STATIC
    assert resolve(name) and name in training_api.FIELD_SUBCLASSES
    fields = dataclasses.fields(train_state.TrainState)
    no_leaves = {f.name for f in fields if not f.metadata.get("pytree_node", True)}
    assert training_api.CONSTRUCTOR_STATIC[name] == no_leaves == {"apply_fn", "tx"}
    opt_state = TX.init(PARAMS)
    made = train_state.TrainState(step=0, apply_fn=None, params=PARAMS, tx=TX, opt_state=opt_state)
    assert made.params is PARAMS and made.opt_state is opt_state and made.tx is TX
    assert len(jax.tree.leaves(made)) == len(jax.tree.leaves((0, PARAMS, opt_state)))
    assert pointers(made) == pointers((PARAMS, opt_state))  # its leaves, as given

    def build() -> list[weakref.ref]:
        params = _Tree(w=jnp.ones((2, 3)))
        made = train_state.TrainState(step=0, apply_fn=None, params=params, tx=None, opt_state=None)
        assert made.params is params and jax.tree.leaves(made)[1] is params["w"]
        return [weakref.ref(params), weakref.ref(params["w"])]

    assert _dropped(build)


def test_a_field_subclass_constructor_holds_its_fields_as_given() -> None:
    class WithStats(train_state.TrainState):
        batch_stats: Any

    stats = {"mean": jnp.zeros(3)}
    made = WithStats(
        step=0, apply_fn=None, params=PARAMS, tx=None, opt_state=None, batch_stats=stats
    )
    assert made.batch_stats is stats and made.params is PARAMS
    assert len(jax.tree.leaves(made)) == len(jax.tree.leaves((0, PARAMS, stats)))
    assert pointers(made) == pointers((PARAMS, stats))
