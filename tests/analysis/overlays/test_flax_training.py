"""The flax.training overlay, checked against the installed flax."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state

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
