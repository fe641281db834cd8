"""A trainer's callback that keeps nothing of `self.state` (`unkept_parameters.py`), with
the linen model whose `apply` it calls (`linen_outputs.py`), seen through AO201's verdict
on the trainer class (the autoencoder tutorial's `log_generations`)."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.donation import targets, verdicts
from autoopt.analysis.facts.linen_outputs import apply_holds_nothing
from autoopt.model import Applicability

from ..helpers import context

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE
HEADER = """\
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state

LOG = []
"""
TRAINER = """
class Encoder(nn.Module):
    width: int

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(features=2 * self.width)(x)
        x = nn.gelu(x)
        return x.reshape(x.shape[0], -1)


class Autoencoder(nn.Module):
    width: int

    def setup(self):
        self.encoder = Encoder(width=self.width)
        self.decoder = nn.Dense(features=3)

    def __call__(self, x):
        return self.decoder(self.encoder(x))


class Callback:
    def __init__(self, images, every=1):
        self.images = images
        self.every = every

    def log(self, model, state, logger, epoch):
        if epoch % self.every == 0:
            out = model.apply({"params": state.params}, self.images)
            out = jax.device_get(out)
            grid = np.stack([self.images, out], axis=1).reshape(-1, *self.images.shape[1:])
            logger.append(grid.sum())


class Trainer:
    def __init__(self, images):
        self.model = Autoencoder(width=4)
        self.callback = Callback(images, every=2)
        self.logger = []
        params = self.model.init(jax.random.PRNGKey(0), images)["params"]
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=params, tx=optax.sgd(0.1)
        )
        self.train_step = jax.jit(_step)

    def fit(self, batches):
        for epoch, batch in enumerate(batches):
            self.state, loss = self.train_step(self.state, batch)
            self.callback.log(self.model, self.state, logger=self.logger, epoch=epoch)


def _step(state, batch):
    grads = jax.grad(lambda p: state.apply_fn({"params": p}, batch).sum())(state.params)
    return state.apply_gradients(grads=grads), batch.sum()


if __name__ == "__main__":
    Trainer(jnp.ones((2, 3))).fit([jnp.ones((2, 3))])
"""
_CALL = "self.callback.log(self.model, self.state, logger=self.logger, epoch=epoch)"
_APPLY = 'out = model.apply({"params": state.params}, self.images)'
_READ = f"`self.state` is read at line 57 (`{_CALL}`), where a reference to its buffers may be kept"
_ENCODER = "        x = nn.gelu(x)\n        return x.reshape(x.shape[0], -1)"


def _code(*replaces: tuple[str, str]) -> str:
    code = TRAINER
    for old, new in replaces:
        assert old in code, old
        code = code.replace(old, new)
    return code


def _verdict(*replaces: tuple[str, str]) -> tuple[Applicability, str]:
    ctx = context(_code(*replaces), HEADER)
    (target,) = targets(ctx, "self.train_step")
    donate, blocked = verdicts(ctx, target)
    if donate:
        return donate[0][1], donate[0][2]
    return _NONE, blocked[0]


def test_a_callback_that_logs_the_model_output_keeps_nothing() -> None:
    assert _verdict() == (_SAFE, "")
    loop = (  # a loop, a branch and a new container of a field of the state
        _APPLY,
        'for _ in range(2):\n                variables = {"params": state.params}\n'
        "                out = model.apply(variables, self.images)",
    )
    assert _verdict(loop) == (_SAFE, "")
    rngs = (_APPLY, _APPLY.replace("self.images)", 'self.images, rngs={"dropout": 0})'))
    assert _verdict(rngs) == (_SAFE, "")


@pytest.mark.parametrize(
    "replace",
    [
        # the callback stores the state on itself
        ("            logger.append(grid.sum())", "            self.last = state"),
        # or in a global list
        ("            logger.append(grid.sum())", "            LOG.append(state.params)"),
        # or hands it to the logger, which may keep it
        ("            logger.append(grid.sum())", "            logger.append(state)"),
        # or returns it
        ("            logger.append(grid.sum())", "            return state"),
        # a name bound to a field of the state, handed on
        (
            "            logger.append(grid.sum())",
            "            p = state.params\n            logger.append(p)",
        ),
        # the model's output computed from the state's own arrays by arithmetic
        (_APPLY, 'out = state.params["w"] + 1.0'),
        # `mutable=` returns the collections, which hold the variables given
        (_APPLY, _APPLY.replace("self.images)", 'self.images, mutable=["params"])')),
        # `method=` runs a function of the caller's
        (_APPLY, _APPLY.replace("self.images)", "self.images, method=keep)")),
        # the state as the model's input: the model may return its input
        (_APPLY, 'out = model.apply({"params": state.params}, state.params["w"])'),
        # the callback's method is replaced on an instance outside the class
        (
            "    Trainer(jnp.ones((2, 3))).fit",
            "    Callback.log = print\n    Trainer(jnp.ones((2, 3))).fit",
        ),
        # the callback attribute is set to another object outside the class
        (
            "    Trainer(jnp.ones((2, 3))).fit",
            "    t = Trainer(jnp.ones((2, 3)))\n    t.callback = LOG\n    t.fit",
        ),
        # the state handed twice in one call
        (_CALL, _CALL.replace("epoch=epoch)", "epoch=self.state)")),
        # a callback class that makes its instances itself
        (
            "    def __init__(self, images, every=1):",
            "    def __new__(cls, *a, **k):\n        return LOG\n\n"
            "    def __init__(self, images, every=1):",
        ),
        # the model's `__call__` set on the instance by name
        (
            "        self.model = Autoencoder(width=4)\n",
            "        self.model = Autoencoder(width=4)\n"
            '        object.__setattr__(self.model, "__call__", print)\n',
        ),
        # an object's class changed in place
        (
            "        self.every = every\n",
            "        self.every = every\n        self.__class__ = list\n",
        ),
        # a callback class with a base (its methods may come from it)
        ("class Callback:", "class Callback(object):"),
        # the model's `apply` may be set to anything
        (
            "    Trainer(jnp.ones((2, 3))).fit",
            "    Autoencoder.apply = print\n    Trainer(jnp.ones((2, 3))).fit",
        ),
    ],
)
def test_a_callback_that_may_keep_the_state_is_not_proven(replace: tuple[str, str]) -> None:
    assert _verdict(replace)[0] is not _SAFE


def test_the_premise_that_fails_is_the_read() -> None:
    keep = ("            logger.append(grid.sum())", "            self.last = state")
    assert _verdict(keep) == (_UNSAFE, _READ)


_MODELS = [
    # the model returns a parameter it makes
    (_ENCODER, '        return x + self.param("b", nn.initializers.zeros, (1,))'),
    # or its variables
    (_ENCODER, "        return self.variables"),
    # or hands itself on
    (_ENCODER, "        return keep(self, x)"),
    # it calls a field, which may be a module returning its own variables
    ("        x = nn.gelu(x)\n", "        x = self.width(x)\n"),
    # a flax layer given a function that runs in `apply` with the kernel
    ("nn.Dense(features=2 * self.width)", "nn.Dense(2 * self.width, dot_general=keep)"),
    # a layer the overlay does not list
    ("nn.Dense(features=2 * self.width)", "nn.Einsum((3, 4), '...a,ab->...b')"),
    # a method of its input: the caller's code, which may build a module here
    ("        x = nn.Dense(features=2 * self.width)(x)\n", "        x = x.prepare()\n"),
    # a function of the module: may build modules while the model runs
    ("        x = nn.gelu(x)\n", "        x = keep(x)\n"),
    # a JAX function given a function it may run
    ("        x = nn.gelu(x)\n", "        x = jax.tree.map(keep, x)\n"),
    # a method other than `setup` and `__call__`
    (_ENCODER, _ENCODER + "\n\n    def extra(self, x):\n        return x"),
    # its `__call__` set by a statement outside the class
    (
        "    Trainer(jnp.ones((2, 3))).fit",
        "    Encoder.__call__ = keep\n    Trainer(jnp.ones((2, 3))).fit",
    ),
]


@pytest.mark.parametrize("replace", _MODELS)
def test_a_model_that_may_return_or_keep_a_variable_is_not_proven(
    replace: tuple[str, str],
) -> None:
    code = _code(
        replace, ("class Trainer:", "def keep(*a, **k):\n    return a\n\n\nclass Trainer:")
    )
    ctx = context(code, HEADER)
    assert not apply_holds_nothing(ctx, "Autoencoder")
    assert (
        _verdict(
            replace, ("class Trainer:", "def keep(*a, **k):\n    return a\n\n\nclass Trainer:")
        )[0]
        is not _SAFE
    )


def test_the_models_classes_are_proven() -> None:
    ctx = context(TRAINER, HEADER)
    assert apply_holds_nothing(ctx, "Encoder") and apply_holds_nothing(ctx, "Autoencoder")
    assert not apply_holds_nothing(ctx, "Callback") and not apply_holds_nothing(ctx, "Trainer")
