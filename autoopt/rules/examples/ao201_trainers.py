"""AO201 cases on trainer classes (issue 26): `self.state` read by a checkpoint save or
by the `TrainState.create` that replaces it keeps no reference to its buffers; one kept
by a callback, a list, a logger, an asynchronous save or another attribute does.
`ao201_missing_donation` lists them after its own."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_UNSAFE = Applicability.UNSAFE

_TRAINER = """
import jax
import jax.numpy as jnp
import optax
from flax.training import checkpoints, train_state


@jax.jit
def train_step(state, batch):
    grads = jax.tree.map(lambda p: p * batch.mean(), state.params)
    return state.apply_gradients(grads=grads), batch.sum()


class Trainer:
    def __init__(self):
        self.state = train_state.TrainState.create(
            apply_fn=None, params={"w": jnp.zeros(3)}, tx=optax.adam(1e-3)
        )

    def init_optimizer(self, lr):
        self.state = train_state.TrainState.create(
            apply_fn=self.state.apply_fn, params=self.state.params, tx=optax.sgd(lr)
        )

    def save_model(self, step):
        checkpoints.save_checkpoint("/tmp/ckpt", target=self.state.params, step=step)

    def train_model(self, batches):
        self.init_optimizer(0.1)
        for i, batch in enumerate(batches):
            self.state, loss = train_step(self.state, batch)
            self.save_model(i)


def main(batches):
    Trainer().train_model(batches)
"""
_SAVE = 'checkpoints.save_checkpoint("/tmp/ckpt", target=self.state.params, step=step)'
_READ = "`self.state` is read at line"


def _donated(code: str) -> str:
    """`code` as AO201 rewrites it: `train_step` donates `state`."""
    code = code.replace("@jax.jit", '@functools.partial(jax.jit, donate_argnames=("state",))')
    return "\nimport functools\n" + code


def _kept(old: str, new: str, message: str = _READ) -> Invalid:
    """The trainer with `old` replaced by `new`, which may keep `self.state`: unsafe."""
    code = _TRAINER.replace(old, new)
    assert code != _TRAINER, old
    return Invalid(code, _donated(code), fix=_UNSAFE, message=message)


INVALID = (
    # fires: the optimizer's re-creation replaces `self.state` from its own fields, and a
    # synchronous checkpoint save keeps nothing once it returns
    Invalid(_TRAINER, _donated(_TRAINER)),
    # fires, unsafe: a callback keeps the state
    _kept(_SAVE, "self.best_state = self.state"),
    # fires, unsafe: its params are appended to a list
    _kept(_SAVE, "HISTORY.append(self.state.params)"),
    # fires, unsafe: a logger autoopt cannot see may store what it is given
    _kept(_SAVE, "LOGGER.log_params(self.state.params)"),
    # fires, unsafe: an asynchronous save writes the arrays after it returns
    _kept("step=step)", "step=step, async_manager=checkpoints.AsyncManager())"),
    # fires, unsafe: a record made from the state is kept in another attribute and read
    # after more donated steps
    _kept(
        "self.state = train_state.TrainState.create(\n            apply_fn=self.state.apply_fn",
        "self.best = train_state.TrainState.create(\n            apply_fn=self.state.apply_fn",
    ),
)
