"""AO201 cases on pytrees whose leaves must be distinct buffers (issue 26): made by a
function of the module, a haiku `init`, an equinox module class, or filled in place.
`ao201_missing_donation` lists them after its own."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_UNSAFE, _NONE = Applicability.UNSAFE, Applicability.NONE

_STEP = """
@jax.jit
def step(p):
    return jax.tree.map(lambda q: q - 0.1, p)


def main():
    params = MAKE
    for _ in range(3):
        params = step(params)
    return params
"""


def _program(head: str, make: str) -> str:
    return head + _STEP.replace("MAKE", make)


def _donated(code: str, imported: bool = False) -> str:
    """`code` as AO201 rewrites it: `step` donates `p` (and `functools` is imported)."""
    code = code.replace("@jax.jit", '@functools.partial(jax.jit, donate_argnames=("p",))')
    return code if imported else "\nimport functools\n" + code


#: Every leaf a new random draw, appended in place: distinct, donated safely.
MLP = _program(
    """
import jax
import jax.numpy as jnp


def init_mlp(sizes, key, scale=0.01):
    params = []
    for n_in, n_out in zip(sizes[:-1], sizes[1:]):
        key, wkey, bkey = jax.random.split(key, 3)
        params.append(
            [
                scale * jax.random.normal(wkey, (n_out, n_in)),
                scale * jax.random.normal(bkey, (n_out,)),
            ]
        )
    return params
""",
    "init_mlp([3, 4, 2], jax.random.key(0))",
)
#: Each leaf a local bound to a new draw in the loop body just before it is stored, read
#: nowhere else: a buffer made for that store alone.
LOCAL_DRAW = _program(
    """
import jax
import jax.numpy as jnp


def init_mlp(sizes, key):
    params = []
    keys = jax.random.split(key, len(sizes) - 1)
    for k, n_in, n_out in zip(keys, sizes[:-1], sizes[1:]):
        w = jax.random.normal(k, (n_in, n_out)) * jnp.sqrt(2.0 / n_in)
        params.append({"w": w, "b": jnp.zeros(n_out)})
    return params
""",
    "init_mlp([3, 4, 2], jax.random.key(0))",
)
#: The local is bound once, before the loop: every element holds the same buffer.
LOCAL_BEFORE_LOOP = LOCAL_DRAW.replace(
    "    keys = jax.random.split", "    w = jnp.ones((3, 4))\n    keys = jax.random.split"
).replace("        w = jax.random.normal(k, (n_in, n_out)) * jnp.sqrt(2.0 / n_in)\n", "")
#: The local is bound only on some iterations: the others store the previous buffer again.
LOCAL_SOMETIMES = LOCAL_DRAW.replace(
    "        w = jax.random.normal", "        if n_in > 3:\n            w = jax.random.normal"
)
#: The local is kept in a second list too: donating `params` deletes what `kept` holds.
LOCAL_KEPT = LOCAL_DRAW.replace(
    '"b": jnp.zeros(n_out)})\n', '"b": jnp.zeros(n_out)})\n        kept.append(w)\n'
).replace("    params = []\n", "    params = []\n    kept = []\n")
#: One zeros array in both leaves: XLA would be asked to donate it twice.
PAIR = _program(
    """
import jax
import jax.numpy as jnp


def init(n):
    z = jnp.zeros(n)
    return [z, z]
""",
    "init(3)",
)
#: A cached init returns the same arrays at every call: not proven new.
CACHED = _program(
    """
import functools

import jax
import jax.numpy as jnp


@functools.cache
def init(n):
    return [jnp.zeros(n), jnp.ones(n)]
""",
    "init(3)",
)
#: An equinox module storing one array in two fields (tied weights).
TIED = _program(
    """
import equinox as eqx
import jax
import jax.numpy as jnp


class Tied(eqx.Module):
    encode: jax.Array
    decode: jax.Array

    def __init__(self, table):
        self.encode = table
        self.decode = table
""",
    "Tied(jnp.ones((3, 2)))",
)
#: An equinox module reusing one layer in two fields.
SHARED = _program(
    """
import equinox as eqx
import jax


class Shared(eqx.Module):
    first: eqx.nn.Linear
    second: eqx.nn.Linear

    def __init__(self, key):
        self.first = eqx.nn.Linear(2, 2, key=key)
        self.second = self.first
""",
    "Shared(jax.random.key(0))",
)
#: A haiku function tying two parameters to one local array.
HAIKU_TIED = _program(
    """
import haiku as hk
import jax
import jax.numpy as jnp


@hk.transform
def model(x):
    w = jnp.ones(3)
    a = hk.get_parameter("a", [3], init=lambda *_: w)
    return x * a + hk.get_parameter("b", [3], init=lambda *_: w)
""",
    "model.init(jax.random.key(0), jnp.ones(3))",
)
#: haiku module classes calling `super(C, self)`, the function reading a global only
#: ever bound to an array (a data statistic): library initializers only, new buffers.
HAIKU_CLASSES = _program(
    """
import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np

SCALE = np.var(np.arange(4.0))


class Block(hk.Module):
    def __init__(self, width, name=None):
        super(Block, self).__init__(name=name)
        self._width = width

    def __call__(self, x):
        return hk.Linear(self._width)(x) / SCALE


def forward(x):
    return Block(3)(x) + Block(3)(x)


model = hk.transform_with_state(forward)
""",
    "model.init(jax.random.key(0), jnp.ones(3))",
)
#: The same class keeping the global array as its embedding table: `init` returns it.
HAIKU_TABLE = HAIKU_CLASSES.replace(
    "return hk.Linear(self._width)(x) / SCALE",
    "return x * hk.Embed(embedding_matrix=TABLE)(jnp.arange(3))",
).replace("SCALE = np.var(np.arange(4.0))", "TABLE = jnp.ones((4, 3))")
#: A parameter read twice under one name and stored as state too: one buffer, two leaves.
HAIKU_STATE = HAIKU_CLASSES.replace(
    "return hk.Linear(self._width)(x) / SCALE",
    'w = hk.get_parameter("w", [3], init=jnp.zeros)\n'
    '        hk.set_state("w_copy", hk.get_parameter("w", [3], init=jnp.zeros))\n'
    "        return x * w / SCALE",
)

_UNPROVEN = "cannot prove the leaves of `params` are distinct buffers (`init_mlp("

INVALID = (
    Invalid(MLP, _donated(MLP)),
    Invalid(LOCAL_DRAW, _donated(LOCAL_DRAW)),
    Invalid(LOCAL_BEFORE_LOOP, _donated(LOCAL_BEFORE_LOOP), fix=_UNSAFE, message=_UNPROVEN),
    Invalid(LOCAL_SOMETIMES, _donated(LOCAL_SOMETIMES), fix=_UNSAFE, message=_UNPROVEN),
    Invalid(LOCAL_KEPT, _donated(LOCAL_KEPT), fix=_UNSAFE, message=_UNPROVEN),
    Invalid(PAIR, fix=_NONE, message="`init.z` fills two leaves of `params`"),
    Invalid(
        CACHED,
        _donated(CACHED, imported=True),
        fix=_UNSAFE,
        message="cannot prove the leaves of `params` are distinct buffers (`init(3)`)",
    ),
    Invalid(TIED, fix=_NONE, message="`Tied.table` fills two leaves of `params`"),
    Invalid(
        SHARED,
        _donated(SHARED),
        fix=_UNSAFE,
        message="two variables (tied weights), or one of the caller's (`Shared`)",
    ),
    Invalid(
        HAIKU_TIED,
        _donated(HAIKU_TIED),
        fix=_UNSAFE,
        message="cannot prove the leaves of `params` are distinct buffers (`model.init(",
    ),
    Invalid(HAIKU_CLASSES, _donated(HAIKU_CLASSES)),
    Invalid(
        HAIKU_TABLE,
        _donated(HAIKU_TABLE),
        fix=_UNSAFE,
        message="cannot prove the leaves of `params` are distinct buffers (`model.init(",
    ),
    Invalid(
        HAIKU_STATE,
        _donated(HAIKU_STATE),
        fix=_UNSAFE,
        message="cannot prove the leaves of `params` are distinct buffers (`model.init(",
    ),
)
