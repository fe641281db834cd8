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
