"""AO201 cases on trainer classes (issue 26): `self.state` read by a checkpoint save or
by the `TrainState.create` that replaces it keeps no reference to its buffers; one kept
by a callback, a list, a logger, an asynchronous save or another attribute does. A
state built by `TrainState(...)` itself holds each field as given; one that holds
another attribute's or a global's buffers, or one buffer in two fields, is not donated
safely. `ao201_missing_donation` lists them after its own."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_UNSAFE, _NONE = Applicability.UNSAFE, Applicability.NONE

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


_INDENT = "\n            "
_FIELDS = 'params={"w": jnp.zeros(3)}, tx=None, opt_state=None'
_BUILT = _TRAINER.replace(
    f'TrainState.create({_INDENT}apply_fn=None, params={{"w": jnp.zeros(3)}}, tx=optax.adam(1e-3)',
    f"TrainState({_INDENT}step=0, apply_fn=None, {_FIELDS}",
)


def _built(
    fields: str, first: str = "", fix: Applicability = _UNSAFE, message: str = ""
) -> Invalid:
    """The trainer whose first state is `TrainState(step=0, apply_fn=None, <fields>)`,
    after the statement `first` in `__init__`."""
    code = _BUILT.replace(_FIELDS, fields)
    code = code.replace("    def __init__(self):\n", f"    def __init__(self):\n{first}")
    assert _FIELDS not in code and (not first or first in code), fields
    expected = None if fix is _NONE else _donated(code)
    return Invalid(code, expected, fix=fix, message=message)


INVALID: tuple[Invalid, ...] = (
    # fires: the optimizer's re-creation replaces `self.state` from its own fields, and a
    # synchronous checkpoint save keeps nothing once it returns
    Invalid(_TRAINER, _donated(_TRAINER)),
    # fires: the first state is built by `TrainState(...)`, which holds its new params
    # and keeps nothing else
    Invalid(_BUILT, _donated(_BUILT)),
    # fires, unsafe: the built state's params are another attribute's too
    _built(
        "params=self.init_params, tx=None, opt_state=None",
        '        self.init_params = {"w": jnp.zeros(3)}\n',
        message="may be held by another attribute of `self` too (`self.init_params`)",
    ),
    # fires, unsafe: the built state's params are a global's
    _built("params=PARAMS, tx=None, opt_state=None", message="may hold `PARAMS`"),
    # fires, unsafe: an optimizer autoopt does not see made (it may hold the params)
    _built('params={"w": jnp.zeros(3)}, tx=TX, opt_state=None', message="may hold `TX`"),
    # fires, no fix: one buffer in two fields, donated twice at the first step
    _built(
        "params=w, tx=None, opt_state=w",
        '        w = {"w": jnp.zeros(3)}\n',
        fix=_NONE,
        message="`w` fills two leaves of the value stored in `self.state` at line 17",
    ),
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

#: One name as two fields of a field subclass's `create` (`params=p, ema_params=p`), in a
#: trainer class handed on as a value: no fix, whatever else holds.
_EMA = """
from typing import Any

import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class EmaState(train_state.TrainState):
    ema_params: Any = None


@jax.jit
def train_step(state, batch):
    grads = jax.tree.map(lambda p: p * batch.mean(), state.params)
    return state.apply_gradients(grads=grads), batch.sum()


class Trainer:
    def __init__(self):
        params = {"w": jnp.zeros(3)}
        self.state = EmaState.create(
            apply_fn=None, params=params, ema_params=params, tx=optax.adam(1e-3)
        )

    def fit(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)


def main(batches, make=Trainer):
    make().fit(batches)
"""

INVALID += (
    Invalid(
        _EMA,
        fix=_NONE,
        message="`params` fills two leaves of the value stored in `self.state` at line 23",
    ),
)

#: `_TRAINER` run through a subclass whose override replaces its checkpoint save.
_TASK = _TRAINER.replace(
    "def main(batches):\n    Trainer().train_model(batches)",
    "class Task(Trainer):\n    def save_model(self, step):\n        OVERRIDE\n\n\n"
    "def main(batches):\n    Task().train_model(batches)",
)


def _task(override: str, fix: Applicability = _UNSAFE, message: str = "") -> Invalid:
    """The trainer run as a `Task` whose `save_model` is `override`."""
    code = _TASK.replace("OVERRIDE", override)
    return Invalid(code, _donated(code), fix=fix, message=message)


INVALID += (
    # fires: a subclass's override reads the state only to count it, and its instance
    # is followed as the base's would be
    _task("self.saved = step", fix=Applicability.SAFE),
    # fires, unsafe: the subclass's override keeps the state in a list
    _task("HISTORY.append(self.state)", message="`self.state` is read at line 37"),
    # fires, unsafe: the subclass's override hands the trainer itself on
    _task("KEEP.append(self)", message="`self` is used other than through its attributes"),
    # fires, unsafe: a class deriving from the trainer and another class is not followed
    Invalid(
        _TRAINER + "\n\nclass Mixed(dict, Trainer):\n    pass\n",
        _donated(_TRAINER + "\n\nclass Mixed(dict, Trainer):\n    pass\n"),
        fix=_UNSAFE,
        message="`Mixed` at line 39 derives from `Trainer` in a way autoopt does not follow",
    ),
)

#: A trainer that keeps its PRNG key in `self.rng`, split in `__init__` and replaced by
#: the step with the state (the uvadlc tutorials' shape).
_KEYED = """
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


@jax.jit
def train_step(state, rng, batch):
    rng, noise_rng = jax.random.split(rng)
    noise = jax.random.normal(noise_rng, batch.shape)
    grads = jax.tree.map(lambda p: p * (batch + noise).mean(), state.params)
    return state.apply_gradients(grads=grads), rng, batch.sum()


class Trainer:
    def __init__(self, seed):
        self.rng = jax.random.PRNGKey(seed)
        self.rng, init_rng = jax.random.split(self.rng)
        params = {"w": jax.random.normal(init_rng, (3,))}
        self.state = train_state.TrainState.create(apply_fn=None, params=params, tx=optax.sgd(0.1))

    def train_model(self, batches):
        for batch in batches:
            self.state, self.rng, loss = train_step(self.state, self.rng, batch)


def main(batches):
    Trainer(0).train_model(batches)
"""
_SPLIT = "self.rng, init_rng = jax.random.split(self.rng)"


def _keyed(new: str, message: str) -> Invalid:
    """`_KEYED` with its key split written `new`: unsafe, `message` names why."""
    code = _KEYED.replace(_SPLIT, new)
    assert code != _KEYED, new
    return Invalid(code, _keyed_donated(code), fix=_UNSAFE, message=message)


def _keyed_donated(code: str) -> str:
    """`code` as AO201 rewrites it: `train_step` donates `state` and `rng`."""
    jit = '@functools.partial(jax.jit, donate_argnames=("state", "rng"))'
    return "\nimport functools\n" + code.replace("@jax.jit", jit)


INVALID += (
    # fires: `jax.random.split` keeps no reference to the key it reads, and unpacked its
    # result gives `self.rng` and `init_rng` new buffers of their own
    Invalid(_KEYED, _keyed_donated(_KEYED)),
    # fires, unsafe: the key is split by code autoopt cannot see, which may keep it
    _keyed(
        "self.rng, init_rng = split_key(self.rng)",
        "`self.rng` is read at line 19 (`self.rng, init_rng = split_key(self.rng)`)",
    ),
    # fires, unsafe: a starred target is not followed
    _keyed(
        "self.rng, *subs = jax.random.split(self.rng, 3)\n        init_rng = subs[0]",
        "the value stored in `self.rng` at line 19 is not followed",
    ),
    # fires, unsafe: the old key is kept in a list
    _keyed(
        "KEYS.append(self.rng)\n        init_rng = jax.random.PRNGKey(1)",
        "`self.rng` is read at line 19 (`KEYS.append(self.rng)`)",
    ),
)

#: A trainer that builds its linen model from keyword arguments and initialises it in a
#: method its constructor calls (the uvadlc tutorials' shape); code outside reads
#: `trainer.model` after training.
_MODELLED = """
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class MLP(nn.Module):
    width: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.relu(nn.Dense(self.width)(x)))


@jax.jit
def train_step(state, batch):
    grads = jax.grad(lambda p: state.apply_fn(p, batch).sum())(state.params)
    return state.apply_gradients(grads=grads), batch.sum()


class Trainer:
    def __init__(self, exmp, **hparams):
        self.model = MLP(**hparams)
        self.init_model(exmp)

    def init_model(self, exmp):
        params = self.model.init(jax.random.PRNGKey(0), exmp)
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=params, tx=optax.sgd(0.1)
        )

    def train_model(self, batches):
        for batch in batches:
            self.state, loss = train_step(self.state, batch)


def main(batches):
    trainer = Trainer(jnp.ones((2, 3)), width=8)
    trainer.train_model(batches)
    return trainer.model.apply(trainer.state.params, batches[0])
"""
#: `_MODELLED` whose model class is given to the trainer, through a function handing on
#: its `*args, **kwargs` (the uvadlc tutorials' `train_classifier(model_class=...)`).
_CLASS_GIVEN = (
    _MODELLED.replace(
        "    def __init__(self, exmp, **hparams):\n        self.model = MLP(**hparams)\n",
        "    def __init__(self, exmp, model_class, hparams):\n"
        "        self.model_class = model_class\n"
        "        self.model = self.model_class(**hparams)\n",
    )
    .replace(
        "def main(batches):\n    trainer = Trainer(jnp.ones((2, 3)), width=8)\n",
        "def build(batches, **kwargs):\n    trainer = Trainer(**kwargs)\n"
        "    trainer.train_model(batches)\n    return trainer\n\n\n"
        "def main(batches):\n"
        "    trainer = build(\n"
        '        batches=batches, exmp=jnp.ones((2, 3)), model_class=MLP, hparams={"width": 8}\n'
        "    )\n",
    )
    .replace(
        "    trainer.train_model(batches)\n    return trainer.model", "    return trainer.model"
    )
)
_HELD = "may be held by another attribute of `self` too (`self.model`)"


def _modelled_as(base: str, old: str, new: str) -> Invalid:
    """`base` with `old` replaced by `new`: `self.model` may hold the state's buffers,
    unsafe."""
    code = base.replace(old, new)
    assert code != base, old
    return Invalid(code, _donated(code), fix=_UNSAFE, message=_HELD)


def _modelled(old: str, new: str) -> Invalid:
    """`_MODELLED` with `old` replaced by `new`: `self.model` may hold the state's
    buffers, unsafe."""
    code = _MODELLED.replace(old, new)
    assert code != _MODELLED, old
    return Invalid(code, _donated(code), fix=_UNSAFE, message=_HELD)


INVALID += (
    # fires: every building of the trainer gives it `MLP`, through `build`
    Invalid(_CLASS_GIVEN, _donated(_CLASS_GIVEN)),
    # fires, unsafe: `build` reads what it hands on, which may then be anything
    _modelled_as(
        _CLASS_GIVEN,
        "    trainer = Trainer(**kwargs)\n",
        "    trainer = Trainer(**kwargs)\n    kwargs.clear()\n",
    ),
    # fires, unsafe: a caller gives `build` a positional argument, not followed
    _modelled_as(_CLASS_GIVEN, "build(\n        batches=batches,", "build(\n        batches,"),
    # fires, unsafe: the class given is no class of the module
    _modelled_as(_CLASS_GIVEN, "model_class=MLP,", "model_class=nn.Dense,"),
)

#: `_CLASS_GIVEN` whose trainer keeps its hyperparameters and builds the model from them
#: (`self.model_class(**self.model_hparams)`), the model calling a field given one of
#: JAX's functions in the dict literal the caller writes (the uvadlc tutorials' shape).
_HPARAMS = (
    _CLASS_GIVEN.replace(
        "    width: int\n\n    @nn.compact\n    def __call__(self, x):\n"
        "        return nn.Dense(1)(nn.relu(nn.Dense(self.width)(x)))",
        "    width: int\n    act_fn: object\n\n    @nn.compact\n    def __call__(self, x):\n"
        "        return nn.Dense(1)(self.act_fn(nn.Dense(self.width)(x)))",
    )
    .replace(
        "        self.model = self.model_class(**hparams)\n",
        "        self.model_hparams = hparams\n"
        "        self.model = self.model_class(**self.model_hparams)\n",
    )
    .replace('hparams={"width": 8}', 'hparams={"width": 8, "act_fn": nn.relu}')
)

INVALID += (
    # fires: the dict literal every building passes gives `act_fn` `nn.relu`, which the
    # model only calls, and nothing changes the dict before `**` reads it
    Invalid(_HPARAMS, _donated(_HPARAMS)),
    # fires, unsafe: the trainer changes the dict before it builds the model
    _modelled_as(
        _HPARAMS,
        "        self.model_hparams = hparams\n",
        "        self.model_hparams = hparams\n        self.model_hparams.update(width=4)\n",
    ),
    # fires, unsafe: a function of the program may build layers of its own when called
    _modelled_as(_HPARAMS, '"act_fn": nn.relu', '"act_fn": lambda h: h'),
)

INVALID += (
    # fires: read while the trainer is built, `self.model` holds the `MLP` its
    # constructor stores, whose one field only sizes a layer: `init` makes new buffers
    Invalid(_MODELLED, _donated(_MODELLED)),
    # fires, unsafe: a field the model calls may be a module holding arrays of its own
    _modelled(
        "    width: int\n\n    @nn.compact\n    def __call__(self, x):\n"
        "        return nn.Dense(1)(nn.relu(nn.Dense(self.width)(x)))",
        "    width: int\n    act: object = nn.relu\n\n    @nn.compact\n    def __call__(self, x):\n"
        "        return nn.Dense(1)(self.act(nn.Dense(self.width)(x)))",
    ),
    # fires, unsafe: the model keeps a field's array as a variable (`jnp.asarray`)
    _modelled(
        "        return nn.Dense(1)(nn.relu(nn.Dense(self.width)(x)))",
        '        return x + self.variable("c", "t", jnp.asarray, self.width).value',
    ),
    # fires, unsafe: the model writes its input into a variable it made new
    _modelled(
        "        return nn.Dense(1)(nn.relu(nn.Dense(self.width)(x)))",
        '        seen = self.variable("cache", "x", jnp.zeros, x.shape)\n'
        "        if self.is_initializing():\n            seen.value = x\n"
        "        return nn.Dense(1)(nn.relu(nn.Dense(self.width)(x)))",
    ),
    # fires, unsafe: the model is initialised again after training, when code outside
    # may have stored another object in `trainer.model`
    _modelled(
        "            self.state, loss = train_step(self.state, batch)\n",
        "            self.state, loss = train_step(self.state, batch)\n"
        "        self.init_model(batches[0])\n",
    ),
)

#: A trainer that keeps its first parameters in `self.init_params` and builds its state
#: from them when training starts (the uvadlc tutorials' shape): the state holds their
#: very buffers, but nothing reads `self.init_params` once a step may have run.
_SPENT = """
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


@jax.jit
def train_step(state, batch):
    grads = jax.grad(lambda p: state.apply_fn(p, batch).sum())(state.params)
    return state.apply_gradients(grads=grads), batch.sum()


class Trainer:
    def __init__(self, exmp):
        self.model = nn.Dense(3)
        self.init_model(exmp)

    def init_model(self, exmp):
        self.init_params = self.model.init(jax.random.PRNGKey(0), exmp)
        self.state = None

    def init_optimizer(self, lr):
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply,
            params=self.init_params if self.state is None else self.state.params,
            tx=optax.sgd(lr),
        )

    def train_model(self, batches):
        self.init_optimizer(0.1)
        for batch in batches:
            self.state, loss = train_step(self.state, batch)


def main(batches):
    trainer = Trainer(jnp.ones((2, 3)))
    trainer.train_model(batches)
    return trainer.state.params
"""
_SPENT_HELD = "may be held by another attribute of `self` too (`self.init_params`)"
#: `_SPENT` trained twice: `init_optimizer` runs after steps too.
_TWICE = _SPENT.replace(
    "    trainer.train_model(batches)\n", "    trainer.train_model(batches)\n" * 2
)


def _spent(base: str, old: str, new: str, message: str = _SPENT_HELD) -> Invalid:
    """`base` with `old` replaced by `new`: `self.init_params` may be read once a step
    has deleted its buffers, unsafe."""
    code = base.replace(old, new)
    assert code != base, old
    return Invalid(code, _donated(code), fix=_UNSAFE, message=message)


_COPIED = "\nimport copy\n" + _SPENT.replace(
    "    return trainer.state.params\n", "    return copy.deepcopy(trainer).state.params\n"
)

INVALID += (
    # fires: `self.init_params` holds new buffers (`init` of a linen layer), read only by
    # `init_optimizer`, which runs before the first step of the one `train_model` call
    Invalid(_SPENT, _donated(_SPENT)),
    # fires, unsafe: the trained trainer is handed to code that may read every attribute
    # (`copy.deepcopy` copies `init_params`, whose buffers the first step donated: h1416)
    Invalid(
        _COPIED,
        _COPIED.replace("import copy\n", "import copy\nimport functools\n").replace(
            "@jax.jit", '@functools.partial(jax.jit, donate_argnames=("state",))'
        ),
        fix=_UNSAFE,
        message=(
            "`state` is dead after every call of `train_step` and replaced by its output: donate "
            "it (`donate_argnames`) so XLA reuses the buffer; unsafe: the value stored in "
            "`self.state` at line 27 may be held by another attribute of `self` too "
            "(`self.init_params`): `self.init_params` may be read after a step by code autoopt "
            "cannot see: `trainer` is used other than through its attributes at line 42: code it "
            "reaches may copy it, sharing `.init_params`"
        ),
    ),
    # fires: `train_model` runs twice, so the second `init_optimizer` follows steps; it
    # reads `self.init_params` only while `self.state` is None, which it is only right
    # after `init_model` stores new buffers in them (`facts/none_guards.py`). This was
    # unsafe before the guard was proven: an improvement
    Invalid(_TWICE, _donated(_TWICE)),
    # fires, unsafe: a method reads the first parameters after training
    _spent(
        _SPENT,
        "    def train_model(self, batches):",
        "    def reset(self):\n        return self.init_params\n\n"
        "    def train_model(self, batches):",
    ),
    # fires, unsafe: code outside the class reads them
    _spent(_SPENT, "    return trainer.state.params", "    return trainer.init_params"),
    # fires, unsafe: the optimizer's set-up keeps them elsewhere too
    _spent(
        _SPENT,
        "    def init_optimizer(self, lr):\n",
        "    def init_optimizer(self, lr):\n        self.backup = self.init_params\n",
    ),
)

#: `_SPENT` whose trainer a function builds, trains and returns with another value to its
#: one caller, which unpacks it (the uvadlc tutorials' `train_model(...)` shape).
_HANDED_BACK = _SPENT.replace(
    "def main(batches):\n    trainer = Trainer(jnp.ones((2, 3)))\n"
    "    trainer.train_model(batches)\n    return trainer.state.params\n",
    "def fit(batches):\n    trainer = Trainer(jnp.ones((2, 3)))\n"
    "    trainer.train_model(batches)\n    return trainer, len(batches)\n\n\n"
    "def main(batches):\n    trainer, steps = fit(batches)\n    return trainer.state.params\n",
)
_HANDED_READ = "`self.init_params` may be read after a step by code autoopt cannot see: "


_RUNS_READ = "    return trainer.state.params\n"


def _handed_on(old: str, new: str, where: str) -> Invalid:
    """`_HANDED_BACK` whose caller hands the returned trainer on (`where`): unsafe."""
    code = "\nimport copy\n" + _HANDED_BACK.replace(old, new)
    assert new in code, old
    fixed = code.replace("import copy\n", "import copy\nimport functools\n").replace(
        "@jax.jit", '@functools.partial(jax.jit, donate_argnames=("state",))'
    )
    message = f"{_SPENT_HELD}: {_HANDED_READ}{where}: code it reaches may copy it, sharing "
    return Invalid(code, fixed, fix=_UNSAFE, message=message + "`.init_params`")


INVALID += (
    # fires: the returned trainer is read only through its attributes where it is bound
    Invalid(_HANDED_BACK, _donated(_HANDED_BACK)),
    # fires, unsafe: the caller copies the trainer it is handed back (h1417)
    _handed_on(
        "    return trainer.state.params\n",
        "    return copy.deepcopy(trainer).state.params\n",
        "`trainer` is used other than through its attributes at line 47",
    ),
    # fires, unsafe: the caller keeps the pair whole, trainer within (h1418)
    _handed_on(
        "    trainer, steps = fit(batches)\n    return trainer.state.params\n",
        "    pair = fit(batches)\n    return copy.deepcopy(pair)[0].state.params\n",
        "`trainer` is used other than through its attributes at line 42",
    ),
    # fires, unsafe: the function is handed on as a value, its callers unknown (h1419)
    _handed_on(
        "    trainer, steps = fit(batches)\n",
        "    trainer, steps = copy.copy(fit)(batches)\n",
        "`trainer` is used other than through its attributes at line 42",
    ),
    # fires, unsafe: the caller lists the trainer, and copies the list
    _handed_on(
        _RUNS_READ,
        "    runs = [(steps, trainer)]\n    return copy.deepcopy(runs)[0][1].state.params\n",
        "`trainer` is used other than through its attributes at line 47",
    ),
)

#: `_HANDED_BACK` whose caller lists the trainer with a name and reads it back only by
#: unpacking the list's items in a comprehension (the uvadlc tutorials' results table).
_LISTED = _HANDED_BACK.replace(
    _RUNS_READ,
    "    runs = [(steps, trainer)]\n    return [t.state.params for n, t in runs]\n",
)
INVALID += (
    # fires: the list is only iterated, its items unpacked, the trainer read at `.state`
    Invalid(_LISTED, _donated(_LISTED)),
)

#: The guard `facts/none_guards.py` proves in `_TWICE`, and how a read is meant by it.
_GUARD = "params=self.init_params if self.state is None else self.state.params,"
_LATE = "`self.init_params` is read at line 25, where a step may have run"
_WHILE_NONE = f"{_LATE} (only while `self.state` is None, which it may be after a step: "
_BEFORE_TRAIN = "    def train_model(self, batches):"
_RETURNED = "    return trainer.state.params"


def _guarded(old: str, new: str, message: str) -> Invalid:
    """`_TWICE` with `old` replaced by `new`: `self.init_params` may be read once a step
    has donated it, unsafe."""
    return _spent(_TWICE, old, new, message)


def _method(body: str) -> str:
    """A method `m` of `Trainer` with `body` (one statement), put before `train_model`."""
    return f"    def m(self):\n        {body}\n\n{_BEFORE_TRAIN}"


INVALID += (
    # fires, unsafe: the read is not guarded
    _guarded(_GUARD, "params=self.init_params,", _LATE),
    # fires, unsafe: guarded by `is not None` (the branch taken while a state exists)
    _guarded(
        _GUARD,
        "params=self.init_params if self.state is not None else self.state.params,",
        _LATE,
    ),
    # fires, unsafe: guarded by another attribute
    _guarded(_GUARD, _GUARD.replace("self.state is None", "self.model is None"), _LATE),
    # fires, unsafe: `m` drops the state without new initial parameters, and training
    # again reads the donated ones
    _guarded(
        _BEFORE_TRAIN,
        _method("self.state = None"),
        f"{_WHILE_NONE}it is stored `None` at line 32 with no store in `self.init_params` "
        "just before)",
    ),
    # fires, unsafe: a call between the new parameters and `self.state = None` may run
    # a step on them
    _guarded(
        "        self.state = None\n",
        '        print("reset")\n        self.state = None\n',
        "(only while `self.state` is None, which it may be after a step: it is stored "
        "`None` at line 23 with no store in `self.init_params` just before)",
    ),
    # fires, unsafe: a call autoopt cannot see may store None
    _guarded(
        _BEFORE_TRAIN,
        _method("self.state = restore()"),
        f"{_WHILE_NONE}the value stored in it at line 32 may be None)",
    ),
    # fires, unsafe: the step may return None in the state's place
    _guarded(
        "    return state.apply_gradients(grads=grads), batch.sum()",
        "    new = state.apply_gradients(grads=grads)\n"
        "    return (new if batch.sum() > 0 else None), batch.sum()",
        "(only while `self.state` is None, which it may be after a step: the value stored "
        "in it at line 35 may be None)",
    ),
    # fires, unsafe: `del self.state`, `self.state += ...`
    _guarded(_BEFORE_TRAIN, _method("del self.state"), f"{_WHILE_NONE}it is deleted at line 32)"),
    _guarded(
        _BEFORE_TRAIN,
        _method("self.state += 1"),
        f"{_WHILE_NONE}it is written at line 32 other than by `=` to it alone)",
    ),
    # fires, unsafe: the initial parameters are taken from the state
    _guarded(
        _BEFORE_TRAIN,
        _method("self.init_params = self.state.params"),
        "`self.init_params` is stored at line 32 a value not proven new buffers",
    ),
    # fires, unsafe: code outside the class drops the state (or deletes it), then makes a
    # new one from the donated parameters
    _guarded(
        _RETURNED,
        f"    trainer.state = None\n    trainer.init_optimizer(0.1)\n{_RETURNED}",
        f"{_WHILE_NONE}`trainer.state` at line 41 binds or deletes it outside `Trainer`)",
    ),
    _guarded(
        _RETURNED,
        f"    del trainer.state\n    trainer.init_optimizer(0.1)\n{_RETURNED}",
        f"{_WHILE_NONE}`trainer.state` at line 41 binds or deletes it outside `Trainer`)",
    ),
    # fires, unsafe: by name, through `object.__setattr__` or `getattr`
    _guarded(
        _RETURNED,
        f'    object.__setattr__(trainer, "state", None)\n    trainer.init_optimizer(0.1)\n'
        f"{_RETURNED}",
        "`__setattr__` at line 41 may reach `self.state`",
    ),
    _guarded(
        _RETURNED,
        '    return getattr(trainer, "init_params")',
        "`getattr` at line 41 may reach `self.state`",
    ),
    # fires, unsafe: a subclass's `init_model` drops the state alone
    _guarded(
        "\n\ndef main(batches):\n    trainer = Trainer(",
        "\n\nclass Fresh(Trainer):\n    def init_model(self, exmp):\n        self.state = None"
        "\n\n\ndef main(batches):\n    trainer = Fresh(",
        f"{_WHILE_NONE}it is stored `None` at line 39 with no store in `self.init_params` "
        "just before)",
    ),
    # fires, unsafe: the statement that reads them calls a method, which may run a step
    # (setting the state from them) before the state is stored
    _guarded(
        "            tx=optax.sgd(lr),",
        "            tx=optax.sgd(self.rate(lr)),",
        f"{_LATE} (only while `self.state` is None, but `self.rate(...)` at line 25 may run "
        "a step first)",
    ),
    # fires, unsafe: it makes a function that the optimizer may call
    _guarded(
        "            tx=optax.sgd(lr),",
        "            tx=optax.sgd(lambda n: lr),",
        f"{_LATE} (only while `self.state` is None, but line 25 makes a function that code "
        "it calls may run)",
    ),
    # fires, unsafe: the trainer is handed to code that may drop its state, or read the
    # donated parameters (`copy.deepcopy` does)
    _guarded(
        _RETURNED,
        "    return print(trainer)",
        f"{_LATE} (only while `self.state` is None, but `trainer` is used other than "
        "through its attributes at line 41: code it reaches may copy it, sharing "
        "`.init_params`)",
    ),
    # fires, unsafe: a method reads another instance's initial parameters
    _guarded(
        _BEFORE_TRAIN,
        "    def m(self, other):\n        return other.init_params\n\n" + _BEFORE_TRAIN,
        f"{_LATE} (only while `self.state` is None, but `other.init_params` at line 32 "
        "reaches an attribute `init_params` outside `Trainer`)",
    ),
)

#: `_SPENT` whose first variables are bound to a name and unpacked into attributes (the
#: uvadlc tutorials' shape: `self.init_params, self.init_batch_stats = variables[...], ...`).
_UNPACKED = _SPENT.replace(
    "        self.init_params = self.model.init(jax.random.PRNGKey(0), exmp)\n",
    "        variables = self.model.init(jax.random.PRNGKey(0), exmp)\n"
    '        self.init_params, self.seed = variables["params"], 0\n',
)
_UNPACKED_HELD = "`self.init_params` is stored at line 22 a value not proven new buffers"

INVALID += (
    # fires: the unpacked part of `variables` is new buffers, and nothing else reads
    # `variables`, so only `self.init_params` holds them
    Invalid(_UNPACKED, _donated(_UNPACKED)),
    # fires, unsafe: `variables` is kept whole in another attribute too
    _spent(
        _UNPACKED,
        '        self.init_params, self.seed = variables["params"], 0\n',
        '        self.init_params, self.seed = variables["params"], 0\n'
        "        self.first = variables\n",
        _UNPACKED_HELD,
    ),
    # fires, unsafe: one item unpacked into two attributes
    _spent(
        _UNPACKED,
        'self.init_params, self.seed = variables["params"], 0',
        'self.init_params, self.seed = variables["params"], variables["params"]',
        _UNPACKED_HELD,
    ),
)

#: `_MODELLED` whose model is initialised from attributes of `self` (`self.seed`,
#: `self.exmp`, the uvadlc tutorials' shape): a fresh `init` holds none of what it is
#: given, so the state holds no buffer of theirs.
_SEEDED = _MODELLED.replace(
    "        self.model = MLP(**hparams)\n        self.init_model(exmp)\n",
    "        self.seed = 0\n        self.exmp = exmp\n        self.model = MLP(**hparams)\n"
    "        self.init_model()\n",
).replace(
    "    def init_model(self, exmp):\n"
    "        params = self.model.init(jax.random.PRNGKey(0), exmp)\n",
    "    def init_model(self):\n        init_rng = jax.random.PRNGKey(self.seed)\n"
    "        params = self.model.init(init_rng, self.exmp)\n",
)
#: `_SEEDED` whose model has a method only users call (`sample`, jitting a lambda).
_SAMPLING = _SEEDED.replace(
    "        return nn.Dense(1)(nn.relu(nn.Dense(self.width)(x)))\n",
    "        return nn.Dense(1)(nn.relu(nn.Dense(self.width)(x)))\n\n"
    "    def sample(self, x):\n        return jax.jit(lambda v: jnp.tanh(v))(x)\n\n"
    "    def tied(self, x):\n        return nn.Dense(1, kernel_init=lambda *_: TABLE)(x)\n",
).replace(
    "from flax.training import train_state\n",
    "from flax.training import train_state\n\nTABLE = jnp.ones((3, 1))\n",
)


def _seeded(code: str, old: str, new: str, message: str) -> Invalid:
    """`code` with `old` replaced by `new`: `init` may hold what it is given, unsafe."""
    changed = code.replace(old, new)
    assert changed != code, old
    return Invalid(changed, _donated(changed), fix=_UNSAFE, message=message)


INVALID += (
    # fires: `init` of the `MLP` makes new buffers, none of `self.exmp`'s or the key's
    Invalid(_SEEDED, _donated(_SEEDED)),
    # fires: `sample` and `tied` run only when called, and `init` runs neither
    Invalid(_SAMPLING, _donated(_SAMPLING)),
    # fires, unsafe: `init` told to run `tied`, whose parameter is the global `TABLE`
    _seeded(
        _SAMPLING,
        "self.model.init(init_rng, self.exmp)",
        "self.model.init(init_rng, self.exmp, method=MLP.tied)",
        "`self.model.init(init_rng, self.exmp, method=MLP.tied)` is not proven to make new buffers",
    ),
    # fires, unsafe: a model of no linen class may return what it is given
    _seeded(
        _SEEDED,
        "        self.model = MLP(**hparams)\n",
        "        self.model = MODELS[0](**hparams)\n",
        "`self.model.init(init_rng, self.exmp)` is not proven to make new buffers",
    ),
)

#: A trainer that hands `self.model` and `self.state` to a callback of the file after
#: every epoch (the autoencoder tutorial's `log_generations`): the callback computes the
#: model's output with the state's parameters and logs a number from it.
_CALLBACK = """
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training import train_state


class Autoencoder(nn.Module):
    width: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(features=3)(nn.gelu(nn.Dense(features=self.width)(x)))


class GenerateCallback:
    def __init__(self, images):
        self.images = images

    def log_generations(self, model, state, logger, epoch):
        reconst = jax.device_get(model.apply({"params": state.params}, self.images))
        logger.append((epoch, float(np.stack([self.images, reconst]).sum())))


class Trainer:
    def __init__(self, images):
        self.model = Autoencoder(width=8)
        self.callback = GenerateCallback(images)
        self.logs = []
        params = self.model.init(jax.random.PRNGKey(0), images)["params"]
        self.state = train_state.TrainState.create(
            apply_fn=self.model.apply, params=params, tx=optax.sgd(0.1)
        )

        def train_step(state, batch):
            loss_fn = lambda p: jnp.mean((self.model.apply({"params": p}, batch) - batch) ** 2)
            loss, grads = jax.value_and_grad(loss_fn)(state.params)
            return state.apply_gradients(grads=grads), loss

        self.train_step = jax.jit(train_step)

    def train_model(self, batches, epochs):
        for epoch in range(epochs):
            for batch in batches:
                self.state, loss = self.train_step(self.state, batch)
            self.callback.log_generations(self.model, self.state, logger=self.logs, epoch=epoch)


if __name__ == "__main__":
    Trainer(jnp.ones((2, 3))).train_model([jnp.ones((2, 3))], 2)
"""
_LOGGED = "        logger.append((epoch, float(np.stack([self.images, reconst]).sum())))\n"
_CALLED = "self.callback.log_generations(self.model, self.state, logger=self.logs, epoch=epoch)"
_CALLBACK_READ = f"(`{_CALLED}`), where a reference to its buffers may be kept"


def _callback(old: str, new: str) -> Invalid:
    """`_CALLBACK` with `old` replaced by `new`: the callback may keep the state, unsafe."""
    code = _CALLBACK.replace(old, new)
    assert code != _CALLBACK, old
    donated = code.replace("jax.jit(train_step)", 'jax.jit(train_step, donate_argnames=("state",))')
    return Invalid(code, donated, fix=_UNSAFE, message=_CALLBACK_READ)


INVALID += (
    # fires: the callback hands the state's parameters only to the model's `apply`, whose
    # code reaches no variable, and keeps only numbers computed from the output
    Invalid(
        _CALLBACK,
        _CALLBACK.replace("jax.jit(train_step)", 'jax.jit(train_step, donate_argnames=("state",))'),
    ),
    # fires, unsafe: the callback keeps the state it is given
    _callback(_LOGGED, _LOGGED + "        self.last = state\n"),
    # fires, unsafe: the callback keeps the parameters in a list it is given
    _callback(_LOGGED, "        logger.append(state.params)\n"),
    # fires, unsafe: `mutable=` returns the collections, which hold the parameters given
    _callback("self.images))\n", 'self.images, mutable=["params"]))\n'),
    # fires, unsafe: the model returns its own parameter, which the callback keeps
    _callback(
        "        return nn.Dense(features=3)(nn.gelu(nn.Dense(features=self.width)(x)))",
        '        return self.param("w", nn.initializers.zeros, (3,)) + 0 * x',
    ),
)
