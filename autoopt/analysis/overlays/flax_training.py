"""Facts about flax.training that the analyses rely on.

`TrainState` is an immutable pytree (a `flax.struct.dataclass`): its methods return a
new state. Qualified names as `ImportMap.qualify` spells them; methods by the class that
defines them. A name missing here is unknown.
"""

from __future__ import annotations

#: Calls and methods that compute on their arguments and touch nothing else:
#: `create(apply_fn=..., params=..., tx=...)` runs `tx.init(params)`,
#: `apply_gradients(grads=...)` runs `tx.update` and `optax.apply_updates`.
PURE_CALLS = frozenset(
    {"flax.training.train_state.TrainState.create",
     "flax.training.train_state.TrainState.apply_gradients",
     "flax.training.train_state.TrainState.replace"}
)  # fmt: skip
#: Methods whose result has the pytree structure of their receiver.
SAME_AS_SELF = frozenset(
    {"flax.training.train_state.TrainState.apply_gradients",
     "flax.training.train_state.TrainState.replace"}
)  # fmt: skip
#: Classes that are immutable pytrees of their fields.
FROZEN_CLASSES = frozenset({"flax.training.train_state.TrainState"})
#: `TrainState.create(apply_fn=..., params=..., tx=..., **fields)`: calls -> the
#: arguments that are no leaves of the result (a function, the optimizer); every other
#: argument is a field holding its very buffers, and `opt_state = tx.init(params)` is
#: new buffers where `tx.init`'s results are.
CREATE_STATIC = {"flax.training.train_state.TrainState.create": frozenset({"apply_fn", "tx"})}
#: Constructors of a record (`TrainState(step=0, apply_fn=f, params=p, tx=t,
#: opt_state=s)`) -> the fields that are no leaves (`pytree_node=False`): the record
#: holds each keyword argument itself as the field of that name, makes no buffer (no
#: `tx.init`) and keeps nothing else.
CONSTRUCTOR_STATIC = {"flax.training.train_state.TrainState": frozenset({"apply_fn", "tx"})}
#: Calls that keep no reference to their arguments once they return and return none of
#: them -> the parameters that keep this so, in order (by position or keyword): any
#: other argument voids it. `save_checkpoint` writes `target` before it returns (with
#: Orbax, through a synchronous `Checkpointer` it makes and drops) and returns the path;
#: given an `async_manager` or an `orbax_checkpointer` it may write later, from
#: references it keeps.
KEEPS_NO_ARGUMENT = {
    "flax.training.checkpoints.save_checkpoint": (
        "ckpt_dir", "target", "step", "prefix", "keep", "overwrite", "keep_every_n_steps"
    )
}  # fmt: skip
#: Classes a subclass may extend with fields alone (annotated names, no method): their
#: `create` (`CREATE_STATIC`) passes its keyword arguments to the subclass's constructor,
#: which, like theirs (`CONSTRUCTOR_STATIC`), holds them as fields
#: (`class TrainState(train_state.TrainState): batch_stats: Any`).
FIELD_SUBCLASSES = frozenset({"flax.training.train_state.TrainState"})
