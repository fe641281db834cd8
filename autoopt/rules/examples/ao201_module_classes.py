"""AO201 cases on objects of module classes of the file (issue 26): an nnx or equinox
module whose `__init__` stores only new buffers and Python values is donated safely;
tied weights, a caller's array, a global array or a layer of another object are not.
`ao201_missing_donation` lists them after its own."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_UNSAFE, _NONE = Applicability.UNSAFE, Applicability.NONE

_NNX_STEP = """

@nnx.jit
def step(model, x):
    params = nnx.state(model, nnx.Param)
    nnx.update(model, jax.tree.map(lambda p: p - 0.1 * x.sum(), params))


def main():
    x = jnp.ones(4)
    model = MAKE
    for _ in range(3):
        step(model, x)
    return model
"""

_NNX_HEAD = """
import jax
import jax.numpy as jnp
from flax import nnx
"""


def _nnx(classes: str, make: str) -> str:
    return _NNX_HEAD + classes + _NNX_STEP.replace("MAKE", make)


def _donated(code: str) -> str:
    """`code` as AO201 rewrites it: `step` donates `model`."""
    donated = '@functools.partial(nnx.jit, donate_argnames=("model",))'
    return "\nimport functools\n" + code.replace("@nnx.jit", donated)


#: Layers the overlay knows draw new parameters from `rngs`, sizes given as literals
#: (or left to literal defaults), one `rngs` shared by every layer: distinct buffers.
NNX_MLP = _nnx(
    """

class MLP(nnx.Module):
    def __init__(self, n_in: int = 4, n_hidden: int = 8, *, rngs: nnx.Rngs):
        self.n_in = n_in
        self.layer1 = nnx.Linear(n_in, n_hidden, rngs=rngs)
        self.dropout = nnx.Dropout(0.1, rngs=rngs)
        self.layer2 = nnx.Linear(n_hidden, n_hidden, rngs=rngs)
        self.scale = nnx.Param(jnp.ones(n_hidden))

    def __call__(self, x):
        return self.layer2(self.dropout(nnx.relu(self.layer1(x)))) * self.scale
""",
    "MLP(rngs=nnx.Rngs(0))",
)
#: Classes of the file built inside one another, sizes passed down (a tuple, a product
#: of its items, a field read back), a branch choosing a field's layer, a `Sequential`.
NNX_NESTED = _nnx(
    """

class Encoder(nnx.Module):
    def __init__(self, n_in: int, n_out: int, *, rngs: nnx.Rngs):
        self.rngs = rngs
        self.mean = nnx.Linear(n_in, n_out, rngs=rngs)
        self.std = nnx.Linear(n_in, n_out, rngs=rngs)


class Model(nnx.Module):
    def __init__(self, shape: tuple[int, int], classes: int, skip: bool, *, rngs: nnx.Rngs):
        self.shape = shape
        self.classes = classes
        size = shape[0] * shape[1]
        strides = (2,) if skip else (1,)
        self.encoder = Encoder(size, 4, rngs=rngs)
        self.block = nnx.Sequential(
            nnx.Conv(1, 2, kernel_size=(3,), strides=strides, use_bias=False, rngs=rngs),
            nnx.BatchNorm(2, rngs=rngs),
        )
        if skip:
            self.skip = nnx.Linear(4, 4, rngs=rngs)
        else:
            self.skip = lambda x: x
        self.head = nnx.Linear(4, self.classes, rngs=rngs)
""",
    "Model((2, 2), 3, True, rngs=nnx.Rngs(0, noise=1))",
)
#: `self.decoder.kernel = self.encoder.kernel`: one array in two variables.
NNX_TIED = _nnx(
    """

class Tied(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.encoder = nnx.Linear(4, 4, rngs=rngs)
        self.decoder = nnx.Linear(4, 4, rngs=rngs)
        self.decoder.kernel = self.encoder.kernel
""",
    "Tied(rngs=nnx.Rngs(0))",
)
#: A method other than `__init__` ties two variables after construction.
NNX_TIED_LATER = _nnx(
    """

class Tied(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.encoder = nnx.Linear(4, 4, rngs=rngs)
        self.decoder = nnx.Linear(4, 4, rngs=rngs)

    def tie(self):
        self.decoder.kernel = self.encoder.kernel
""",
    "Tied(rngs=nnx.Rngs(0))",
)
#: One layer object in two attributes.
NNX_SHARED = _nnx(
    """

class Shared(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        shared = nnx.Linear(4, 4, rngs=rngs)
        self.first = shared
        self.second = shared
""",
    "Shared(rngs=nnx.Rngs(0))",
)
#: `__init__` stores the caller's array, passed to the step too.
NNX_ARGUMENT = _nnx(
    """

class Scaled(nnx.Module):
    def __init__(self, w, *, rngs: nnx.Rngs):
        self.linear = nnx.Linear(4, 4, rngs=rngs)
        self.w = nnx.Param(w)
""",
    "Scaled(x, rngs=nnx.Rngs(0))",
)
#: A module built from another object's layer, which is read after the loop.
NNX_OTHER_LAYER = (
    _nnx(
        """

class Wrap(nnx.Module):
    def __init__(self, layer):
        self.layer = layer
""",
        "Wrap(other.layer)",
    )
    .replace(
        "    model = Wrap(other.layer)",
        "    other = Wrap(nnx.Linear(4, 4, rngs=nnx.Rngs(1)))\n    model = Wrap(other.layer)",
    )
    .replace("    return model\n", "    return model, other.layer.kernel[...]\n")
)
#: `__init__` stores an array of the module, which other code reads.
NNX_GLOBAL = _nnx(
    """
TABLE = jnp.ones(4)


class Table(nnx.Module):
    def __init__(self):
        self.table = nnx.Param(TABLE)
""",
    "Table()",
).replace("    return model\n", "    return model, TABLE\n")
#: An initializer may return an array it holds: not proven new.
NNX_INITIALIZER = _nnx(
    """

class Init(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.linear = nnx.Linear(4, 4, kernel_init=lambda *_: jnp.ones((4, 4)), rngs=rngs)
""",
    "Init(rngs=nnx.Rngs(0))",
)

_EQX_STEP = """

@eqx.filter_jit
def step(x, model):
    params, static = eqx.partition(model, eqx.is_array)
    return eqx.combine(jax.tree.map(lambda p: p - 0.1 * x.sum(), params), static)


def main():
    x = jnp.ones(4)
    model = MAKE
    for _ in range(3):
        model = step(x, model)
    return model
"""


def _eqx(classes: str, make: str) -> str:
    head = "\nimport equinox as eqx\nimport jax\nimport jax.numpy as jnp\n"
    return head + classes + _EQX_STEP.replace("MAKE", make)


def _eqx_donated(code: str) -> str:
    """`code` as AO201 rewrites it: `step` donates all but its first argument."""
    return code.replace("@eqx.filter_jit", '@eqx.filter_jit(donate="all-except-first")')


#: A record of the file built from new arrays, and sizes stored as fields.
EQX_RECORD = _eqx(
    """

class Func(eqx.Module):
    scale: jax.Array
    mlp: eqx.nn.MLP


class Model(eqx.Module):
    func: Func
    size: int

    def __init__(self, size, *, key, **kwargs):
        super().__init__(**kwargs)
        scale = jnp.ones(())
        mlp = eqx.nn.MLP(size, size, 8, 1, key=key)
        self.func = Func(scale, mlp)
        self.size = size
""",
    "Model(4, key=jax.random.key(0))",
)
#: `__init__` stores an array of the module, which the caller reads after the loop.
EQX_GLOBAL = _eqx(
    """
TABLE = jnp.ones(4)


class Table(eqx.Module):
    table: jax.Array

    def __init__(self):
        self.table = TABLE
""",
    "Table()",
).replace("    return model\n", "    return model, TABLE\n")

INVALID = (
    Invalid(NNX_MLP, _donated(NNX_MLP)),
    Invalid(NNX_NESTED, _donated(NNX_NESTED)),
    Invalid(
        NNX_TIED,
        _donated(NNX_TIED),
        fix=_UNSAFE,
        message="two variables (tied weights), or one of the caller's (`Tied`)",
    ),
    Invalid(
        NNX_TIED_LATER,
        _donated(NNX_TIED_LATER),
        fix=_UNSAFE,
        message="two variables (tied weights), or one of the caller's (`Tied`)",
    ),
    Invalid(NNX_SHARED, fix=_NONE, message="fills two leaves of `model`"),
    Invalid(NNX_ARGUMENT, fix=_NONE, message="`x` may hold the buffers of `model`"),
    Invalid(NNX_OTHER_LAYER, fix=_NONE, message="`other` may hold the buffers of `model`"),
    Invalid(NNX_GLOBAL, fix=_NONE, message="`TABLE` may hold the buffers of `model`"),
    Invalid(
        NNX_INITIALIZER,
        _donated(NNX_INITIALIZER),
        fix=_UNSAFE,
        message="two variables (tied weights), or one of the caller's (`Init`)",
    ),
    Invalid(EQX_RECORD, _eqx_donated(EQX_RECORD)),
    Invalid(EQX_GLOBAL, fix=_NONE, message="`TABLE` may hold the buffers of `model`"),
)
