"""AO201 cases for values made by code autoopt cannot see, read where the donation runs
(`analysis/facts/escape.py`): such a value holds a model's buffers only if something that
may share them reached that code before the call; appended to `ao201_missing_donation`'s."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_UNSAFE, _NONE = Applicability.UNSAFE, Applicability.NONE

#: A module that imports the checked one: it may read the model, a global, at any time.
_IMPORTER = """\
import main

print(main.params)
"""

LOOP_THEN_SHOW = """
import jax
import jax.numpy as jnp
from data import Loader, show

loader = Loader(8)
params = {"w": jnp.ones(3)}


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
show(params["w"])
"""
LOOP_THEN_SHOW_DONATED = """
import functools

import jax
import jax.numpy as jnp
from data import Loader, show

loader = Loader(8)
params = {"w": jnp.ones(3)}


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
show(params["w"])
"""

INVALID: tuple[Invalid, ...] = (
    # safe: the model's leaf reaches `show` only after the loop, when no call is left
    Invalid(LOOP_THEN_SHOW, LOOP_THEN_SHOW_DONATED),
    # safe: `images` was made and handed out before the model existed, and nothing hands
    # the model out before the calls
    Invalid(
        """
import jax
import jax.numpy as jnp
from data import load, show

images = load("train")
show(images)
params = {"w": jnp.ones(3)}


@jax.jit
def step(params, images):
    return {"w": params["w"] - 0.1 * images.mean()}


for _ in range(3):
    params = step(params, images)
show(params)
""",
        """
import functools

import jax
import jax.numpy as jnp
from data import load, show

images = load("train")
show(images)
params = {"w": jnp.ones(3)}


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, images):
    return {"w": params["w"] - 0.1 * images.mean()}


for _ in range(3):
    params = step(params, images)
show(params)
""",
    ),
    # unsafe: the loader is built with the model: what it yields may hold its buffers
    Invalid(
        """
import jax
import jax.numpy as jnp
from data import Loader

params = {"w": jnp.ones(3)}
loader = Loader(params)


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
print(params["w"])
""",
        """
import functools

import jax
import jax.numpy as jnp
from data import Loader

params = {"w": jnp.ones(3)}
loader = Loader(params)


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
print(params["w"])
""",
        fix=_UNSAFE,
        message="`batch` may hold the buffers of `params` and is passed in the same call",
    ),
    # unsafe: a logger is handed the model before the batches are made
    Invalid(
        """
import jax
import jax.numpy as jnp
from data import Loader, log

params = {"w": jnp.ones(3)}
log(params)
loader = Loader(8)


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
print(params["w"])
""",
        """
import functools

import jax
import jax.numpy as jnp
from data import Loader, log

params = {"w": jnp.ones(3)}
log(params)
loader = Loader(8)


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
print(params["w"])
""",
        fix=_UNSAFE,
        message="`params` is handed to `log`, which may keep it",
    ),
    # unsafe: a logger handed the model after the call runs before the next one
    Invalid(
        """
import jax
import jax.numpy as jnp
from data import Loader, log

params = {"w": jnp.ones(3)}
loader = Loader(8)


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
    log(params["w"])
print(params["w"])
""",
        """
import functools

import jax
import jax.numpy as jnp
from data import Loader, log

params = {"w": jnp.ones(3)}
loader = Loader(8)


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
    log(params["w"])
print(params["w"])
""",
        fix=_UNSAFE,
        message="`params` is handed to `log`, which may keep it",
    ),
    # unsafe: the model is stored where a loader may read it (a module's attribute)
    Invalid(
        """
import jax
import jax.numpy as jnp
import config
from data import Loader

params = {"w": jnp.ones(3)}
config.params = params
loader = Loader(8)


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
print(params["w"])
""",
        """
import functools

import jax
import jax.numpy as jnp
import config
from data import Loader

params = {"w": jnp.ones(3)}
config.params = params
loader = Loader(8)


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
print(params["w"])
""",
        fix=_UNSAFE,
        message="`params` is stored in `config.params`, which keeps a reference to it",
    ),
    # unsafe: a closure over the model is handed to the loader
    Invalid(
        """
import jax
import jax.numpy as jnp
from data import Loader

params = {"w": jnp.ones(3)}
loader = Loader(8, collate_fn=lambda items: params["w"])


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
print(params["w"])
""",
        """
import functools

import jax
import jax.numpy as jnp
from data import Loader

params = {"w": jnp.ones(3)}
loader = Loader(8, collate_fn=lambda items: params["w"])


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
print(params["w"])
""",
        fix=_UNSAFE,
        message="`batch` may hold the buffers of `params` and is passed in the same call",
    ),
    # unsafe: the batch of iteration k is made from the model of iteration k - 1
    Invalid(
        """
import jax
import jax.numpy as jnp
from data import make_batch

params = {"w": jnp.ones(3)}


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for _ in range(3):
    batch = make_batch(params)
    params = step(params, batch)
print(params["w"])
""",
        """
import functools

import jax
import jax.numpy as jnp
from data import make_batch

params = {"w": jnp.ones(3)}


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for _ in range(3):
    batch = make_batch(params)
    params = step(params, batch)
print(params["w"])
""",
        fix=_UNSAFE,
        message="`batch` may hold the buffers of `params` and is passed in the same call",
    ),
    # unsafe: the loader's dataset holds a leaf of the model
    Invalid(
        """
import jax
import jax.numpy as jnp
from data import Loader

params = {"w": jnp.ones(3)}
dataset = [params["w"], jnp.zeros(3)]
loader = Loader(dataset)


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
print(params["w"])
""",
        """
import functools

import jax
import jax.numpy as jnp
from data import Loader

params = {"w": jnp.ones(3)}
dataset = [params["w"], jnp.zeros(3)]
loader = Loader(dataset)


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
print(params["w"])
""",
        fix=_UNSAFE,
        message="`batch` may hold the buffers of `params` and is passed in the same call",
    ),
    # unsafe: the module hands its own namespace out: any code may read the model later
    Invalid(
        """
import jax
import jax.numpy as jnp
from data import Loader, show

loader = Loader(globals())
params = {"w": jnp.ones(3)}


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
show(params["w"])
""",
        """
import functools

import jax
import jax.numpy as jnp
from data import Loader, show

loader = Loader(globals())
params = {"w": jnp.ones(3)}


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
show(params["w"])
""",
        fix=_UNSAFE,
        message="`batch` may hold the buffers of `params` and is passed in the same call",
    ),
    # safe: a function may run again, but what an earlier call handed out after the loop
    # holds that call's buffers, not the ones this call made
    Invalid(
        """
import jax
import jax.numpy as jnp
from data import Loader, show


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


def train(loader):
    params = {"w": jnp.ones(3)}
    for batch in loader:
        params = step(params, batch)
    show(params["w"])
    return params


train(Loader(8))
""",
        """
import functools

import jax
import jax.numpy as jnp
from data import Loader, show


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


def train(loader):
    params = {"w": jnp.ones(3)}
    for batch in loader:
        params = step(params, batch)
    show(params["w"])
    return params


train(Loader(8))
""",
    ),
    # unsafe: the model is the caller's, handed out by the first call after its loop
    Invalid(
        """
import jax
import jax.numpy as jnp
from data import Loader, show


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


def train(params, loader):
    for batch in loader:
        params = step(params, batch)
    show(params["w"])
    return params


params = train({"w": jnp.ones(3)}, Loader(8))
train(params, Loader(8))
""",
        """
import functools

import jax
import jax.numpy as jnp
from data import Loader, show


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


def train(params, loader):
    for batch in loader:
        params = step(params, batch)
    show(params["w"])
    return params


params = train({"w": jnp.ones(3)}, Loader(8))
train(params, Loader(8))
""",
        fix=_UNSAFE,
        message="`params` is handed to `show`, which may keep it",
    ),
    # no fix: a function the loader is handed reads the model, a global
    Invalid(
        """
import jax
import jax.numpy as jnp
from data import Loader

params = {"w": jnp.ones(3)}


def collate(items):
    return params["w"]


loader = Loader(8, collate_fn=collate)


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
print(params["w"])
""",
        None,
        fix=_NONE,
        message="the function `collate` reads `params`",
    ),
    # unsafe: another file of the project imports this one and may read the model
    Invalid(
        """
import jax
import jax.numpy as jnp
from data import Loader, show

loader = Loader(8)
params = {"w": jnp.ones(3)}


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
show(params["w"])
""",
        """
import functools

import jax
import jax.numpy as jnp
from data import Loader, show

loader = Loader(8)
params = {"w": jnp.ones(3)}


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in loader:
    params = step(params, batch)
show(params["w"])
""",
        fix=_UNSAFE,
        message="`params` is handed to `show`, which may keep it",
        files={"other.py": _IMPORTER},
    ),
    # unsafe: no statement hands the model out, but the module hands out its namespace
    Invalid(
        """
import jax
import jax.numpy as jnp
from data import Loader

params = {"w": jnp.ones(3)}


@jax.jit
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in Loader(globals()):
    params = step(params, batch)
print(params["w"])
""",
        """
import functools

import jax
import jax.numpy as jnp
from data import Loader

params = {"w": jnp.ones(3)}


@functools.partial(jax.jit, donate_argnames=("params",))
def step(params, batch):
    return {"w": params["w"] - 0.1 * batch}


for batch in Loader(globals()):
    params = step(params, batch)
print(params["w"])
""",
        fix=_UNSAFE,
        message="`params` is a global and the module may hand out its own namespace (`globals`)",
    ),
)
