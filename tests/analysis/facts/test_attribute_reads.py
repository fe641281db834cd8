"""Reads of `self.state` that keep nothing (`attribute_reads.py`), and the record that
replaces `self.state` with its own fields (`replaced_fields`), seen through AO201's
verdict on a trainer class."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.donation import targets, verdicts
from autoopt.analysis.facts.train_states import create_static
from autoopt.analysis.facts.unkept_arguments import keeps_no_argument
from autoopt.model import Applicability

from ..helpers import context

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE
HEADER = """\
from typing import Any

import jax
import jax.numpy as jnp
import optax
from flax.training import checkpoints, train_state
"""
TRAINER = """
@jax.jit
def step(state, batch):
    return state.replace(step=state.step + 1), batch.sum()

class Trainer:
    def __init__(self):
        self.state = train_state.TrainState.create(
            apply_fn=None, params={"w": jnp.zeros(3)}, tx=optax.adam(1e-3)
        )

    def reset(self):
        self.state = train_state.TrainState.create(
            apply_fn=self.state.apply_fn, params=self.state.params, tx=optax.sgd(0.1)
        )

    def save(self, n):
        checkpoints.save_checkpoint("/tmp/ck", target={"params": self.state.params}, step=n)

    def fit(self, batches):
        self.reset()
        for i, batch in enumerate(batches):
            self.state, loss = step(self.state, batch)
            self.save(i)

def main():
    Trainer().fit([jnp.ones(3)])
"""
_SAVE = 'checkpoints.save_checkpoint("/tmp/ck", target={"params": self.state.params}, step=n)'
_RESET = "params=self.state.params, tx"
_STORE = "self.state = train_state.TrainState.create(\n            apply_fn=self.state"
_SUBCLASS = "class TrainState(train_state.TrainState):\n    batch_stats: Any = None\n\n"


def _verdict(*replaces: tuple[str, str]):
    code = TRAINER
    for old, new in replaces:
        assert old in code, old
        code = code.replace(old, new)
    ctx = context(code, HEADER)
    (target,) = targets(ctx, "step")
    donate, blocked = verdicts(ctx, target)
    if donate:
        return donate[0][1], donate[0][2]
    return (_NONE, blocked[0]) if blocked else None


def test_a_saved_checkpoint_and_a_record_replacing_the_state_keep_nothing() -> None:
    assert _verdict() == (_SAFE, "")
    assert _verdict((_SAVE, _SAVE.replace(", step=n)", ", step=n, overwrite=True)"))) == (
        _SAFE,
        "",
    )
    positional = 'checkpoints.save_checkpoint("/tmp/ck", self.state.params, n, "p", 1, True)'
    assert _verdict((_SAVE, positional)) == (_SAFE, "")
    whole = (_RESET, "params=self.state, tx")  # the old record as the new one's params
    assert _verdict(whole) == (_SAFE, "")
    branch = (_RESET, "params=self.state.params if self.state is not None else None, tx")
    found = _verdict(branch)  # the read keeps nothing; a field in a branch is not followed
    assert found is not None and found[1].startswith("the value stored in `self.state` at"), found


def test_a_field_subclass_creates_as_train_state_does() -> None:
    sub = ("class Trainer:", _SUBCLASS + "class Trainer:")
    reset = (
        "train_state.TrainState.create(\n            apply_fn=self",
        "TrainState.create(\n            apply_fn=self",
    )
    stats = (_RESET, "params=self.state.params, batch_stats=self.state.batch_stats, tx")
    assert _verdict(sub, reset, stats) == (_SAFE, "")
    made = (  # built by the subclass's `create` too, which keeps none of its arguments
        "tx=optax.adam(1e-3)\n        )",
        "tx=optax.adam(1e-3), batch_stats=stats\n        )\n        self.state = made",
    )
    first = (
        "self.state = train_state.TrainState.create(\n            apply_fn=None",
        'stats = {"m": jnp.ones(3)}\n        made = TrainState.create(\n            apply_fn=None',
    )
    assert _verdict(sub, reset, stats, made, first) == (_SAFE, "")
    twice = (_RESET, "params=self.state.params, batch_stats=self.state.params, tx")
    found = _verdict(sub, reset, twice)
    assert found == (
        _NONE,
        "`self.state.params` fills two leaves of the value stored in `self.state` at line 21: "
        "one buffer would be donated twice",
    ), found
    inside = (_RESET, 'params=self.state.params, batch_stats=self.state.params["w"], tx')
    found = _verdict(sub, reset, inside)
    assert found is not None and found[0] is _NONE and "`self.state.params` fills two" in found[1]


_READ = "`self.state` is read at line"


@pytest.mark.parametrize(
    ("replaces", "fix", "doubt"),
    [
        ([(_SAVE, _SAVE.replace("step=n)", "step=n, async_manager=AM)"))], _UNSAFE, _READ),
        ([(_SAVE, _SAVE.replace("step=n)", "step=n, orbax_checkpointer=CK)"))], _UNSAFE, _READ),
        (  # the eighth parameter, by position, is the async manager
            [(_SAVE, 'checkpoints.save_checkpoint("/c", self.state, n, "p", 1, True, None, AM)')],
            _UNSAFE,
            _READ,
        ),
        ([(_SAVE, _SAVE.replace("step=n)", "**OPTIONS)"))], _UNSAFE, _READ),
        ([(_SAVE, "LOGGER.log(self.state.params)")], _UNSAFE, _READ),
        ([(_SAVE, "HISTORY.append(self.state.params)")], _UNSAFE, _READ),
        (
            [(_SAVE, "checkpoints.save_checkpoint('/c', target=(lambda: self.state)(), step=n)")],
            _UNSAFE,
            _READ,
        ),
        (
            [(_SAVE, "checkpoints.save_checkpoint('/c', target=self.state.params.copy(), step=n)")],
            _UNSAFE,
            _READ,
        ),
        (  # a best record made from the state, read after more steps
            [
                (_STORE, _STORE.replace("self.state = ", "self.best = ", 1)),
                (_SAVE, "print(self.best.params)"),
            ],
            _UNSAFE,
            _READ,
        ),
        (  # the record made from the state is bound to a name too
            [
                (
                    _STORE,
                    _STORE.replace("self.state = ", "self.state = keep = ", 1),
                )
            ],
            _UNSAFE,
            _READ,
        ),
        (  # a field from the state and another attribute
            [(_RESET, "params=(self.state.params, self.start), tx")],
            _UNSAFE,
            "the value stored in `self.state` at line 18 may be held by another attribute",
        ),
    ],
)
def test_what_may_keep_the_state_stays_unsafe(replaces, fix, doubt) -> None:
    found = _verdict(*replaces)
    assert found is not None and found[0] is fix and found[1].startswith(doubt), found


@pytest.mark.parametrize(
    "subclass",
    [
        _SUBCLASS.replace(
            "= None", "= None\n\n    def create(cls, **kw):\n        return KEEP(kw)"
        ),
        _SUBCLASS.replace("= None", "= field(pytree_node=False)"),
        "@register\n" + _SUBCLASS,
        _SUBCLASS + "TrainState = Other\n\n",
    ],
)
def test_a_subclass_that_may_create_otherwise_is_not_followed(subclass: str) -> None:
    sub = ("class Trainer:", subclass + "class Trainer:")
    reset = (
        "train_state.TrainState.create(\n            apply_fn=self",
        "TrainState.create(\n            apply_fn=self",
    )
    found = _verdict(sub, reset)
    assert found is not None and found[0] is _UNSAFE and found[1].startswith(_READ), found


def _call(code: str) -> tuple[object, cst.Call]:
    ctx = context(code, HEADER)
    stmt = ctx.graph.scope_stmts("<module>")[-1]
    return ctx, stmt.calls[0]


@pytest.mark.parametrize(
    ("code", "kept"),
    [
        ("checkpoints.save_checkpoint('d', target=t, step=0)", False),
        ("checkpoints.save_checkpoint('d', t, 0, 'p', 2, True, None)", False),
        ("checkpoints.save_checkpoint('d', t, 0, 'p', 2, True, None, am)", True),
        ("checkpoints.save_checkpoint('d', target=t, step=0, async_manager=am)", True),
        ("checkpoints.save_checkpoint(*args)", True),
        ("checkpoints.restore_checkpoint('d', target=t)", True),
    ],
)
def test_keeps_no_argument(code: str, kept: bool) -> None:
    ctx, call = _call(code)
    assert keeps_no_argument(ctx, call) is not kept  # type: ignore[arg-type]


def test_create_static_of_flax_and_of_a_field_subclass() -> None:
    ctx, call = _call(_SUBCLASS + "TrainState.create(apply_fn=f, params=p, tx=t)")
    assert create_static(ctx, call) == {"apply_fn", "tx"}  # type: ignore[arg-type]
    ctx, call = _call("train_state.TrainState.create(apply_fn=f, params=p, tx=t)")
    assert create_static(ctx, call) == {"apply_fn", "tx"}  # type: ignore[arg-type]
    ctx, call = _call("class TrainState:\n    x: int\n\nTrainState.create(params=p)")
    assert create_static(ctx, call) is None  # type: ignore[arg-type]
