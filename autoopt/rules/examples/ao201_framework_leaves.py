"""AO201 cases on the buffers inside and between framework objects passed to one
donating call (issue 26): an equinox model and state from `eqx.nn.make_with_state`, an
nnx optimizer built from the model passed with it, values that hold one buffer in two
leaves behind a name, a class or a helper, and what an `eqx.filter_jit` function returns
of the model, kept while it trains. `ao201_missing_donation` lists them after its own."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid

_UNSAFE, _NONE = Applicability.UNSAFE, Applicability.NONE

_EQX_HEAD = """
import equinox as eqx
import jax
import jax.numpy as jnp
"""

_EQX_STEP = """

@eqx.filter_jit
def step(x, model, state):
    params, static = eqx.partition(model, eqx.is_inexact_array)
    params = jax.tree.map(lambda p: p - 0.1 * x.sum(), params)
    return eqx.combine(params, static), jax.tree.map(lambda s: s + 1.0, state)


def main():
    x = jnp.ones(4)
    MAKE
    for _ in range(3):
        model, state = step(x, model, state)
    return model, state
"""


def _eqx(classes: str, make: str) -> str:
    return _EQX_HEAD + classes + _EQX_STEP.replace("MAKE", make)


def _eqx_donated(code: str) -> str:
    """`code` as AO201 rewrites it: `step` donates all but its first argument."""
    return code.replace("@eqx.filter_jit", '@eqx.filter_jit(donate="all-except-first")')


#: Layers with states, a wrapped layer and a transposed convolution, split into a model
#: and its state by `make_with_state`: distinct buffers, none shared between the two.
EQX_STATEFUL = _eqx(
    """

class Model(eqx.Module):
    norm: eqx.nn.BatchNorm
    spectral: eqx.nn.SpectralNorm
    up: eqx.nn.ConvTranspose2d

    def __init__(self, key):
        key1, key2, key3 = jax.random.split(key, 3)
        self.norm = eqx.nn.BatchNorm(input_size=4, axis_name="batch")
        self.spectral = eqx.nn.SpectralNorm(
            layer=eqx.nn.Linear(4, 4, key=key1), weight_name="weight", key=key2
        )
        self.up = eqx.nn.ConvTranspose2d(1, 1, 2, key=key3)
""",
    "model, state = eqx.nn.make_with_state(Model)(jax.random.key(0))",
)
#: The state's initial value is the array of a field: the pair holds it twice.
EQX_STATE_OF_FIELD = _eqx(
    """

class Tied(eqx.Module):
    w: jax.Array
    index: eqx.nn.StateIndex

    def __init__(self):
        w = jnp.ones(4)
        self.w = w
        self.index = eqx.nn.StateIndex(w)
""",
    "model, state = eqx.nn.make_with_state(Tied)()",
)
#: One layer stored in a field and wrapped in another: its weight in two leaves.
EQX_WRAPPED_TWICE = _eqx(
    """

class Twice(eqx.Module):
    linear: eqx.nn.Linear
    spectral: eqx.nn.SpectralNorm

    def __init__(self, key):
        key1, key2 = jax.random.split(key)
        linear = eqx.nn.Linear(4, 4, key=key1)
        self.linear = linear
        self.spectral = eqx.nn.SpectralNorm(linear, "weight", key=key2)
""",
    "model, state = eqx.nn.make_with_state(Twice)(jax.random.key(0))",
)
#: The model keeps the caller's array, which the step is given too.
EQX_ARGUMENT = _eqx(
    """

class Scaled(eqx.Module):
    w: jax.Array
    norm: eqx.nn.BatchNorm

    def __init__(self, w):
        self.w = w
        self.norm = eqx.nn.BatchNorm(4, "batch")
""",
    "model, state = eqx.nn.make_with_state(Scaled)(x)",
)
#: `eqx.nn.State(model)` holds the initial values the model keeps, the very buffers.
EQX_STATE_OF_MODEL = _eqx(
    """

class Model(eqx.Module):
    norm: eqx.nn.BatchNorm

    def __init__(self):
        self.norm = eqx.nn.BatchNorm(4, "batch")
""",
    "model = Model()\n    state = eqx.nn.State(model)",
)
#: A model whose layers are a list of equinox layers, a pooling layer among them, and
#: JAX functions: a pooling layer given sizes holds no array (`overlays/equinox.py`,
#: `ARRAYLESS_LAYERS`), so the model's leaves are the layers' new buffers, none twice.
EQX_POOLED = _eqx(
    """

class Model(eqx.Module):
    layers: list

    def __init__(self, key):
        key1, key2 = jax.random.split(key)
        self.layers = [
            eqx.nn.Conv2d(1, 2, kernel_size=3, key=key1),
            eqx.nn.MaxPool2d(kernel_size=2),
            jax.nn.relu,
            jnp.ravel,
            eqx.nn.Linear(8, 4, key=key2),
        ]
""",
    "model = Model(jax.random.key(0))\n    state = jnp.zeros(4)",
)
#: The same list holds one linear layer twice around a pooling layer: one buffer in two
#: leaves, which donating `model` would donate twice.
EQX_POOLED_TIED = _eqx(
    """

class Model(eqx.Module):
    layers: list

    def __init__(self, key):
        linear = eqx.nn.Linear(4, 4, key=key)
        self.layers = [linear, eqx.nn.AvgPool1d(kernel_size=1), linear]
""",
    "model = Model(jax.random.key(0))\n    state = jnp.zeros(4)",
)
#: A pooling layer given the caller's array (as its stride): not proven to hold none.
EQX_POOL_GIVEN_ARRAY = _eqx(
    """

class Model(eqx.Module):
    layers: list

    def __init__(self, key, stride):
        self.layers = [eqx.nn.Linear(4, 4, key=key), eqx.nn.MaxPool1d(1, stride=stride)]
""",
    "model = Model(jax.random.key(0), jnp.ones(()))\n    state = jnp.zeros(4)",
)

_NNX_HEAD = """
import jax
import jax.numpy as jnp
import optax
from flax import nnx
"""

_NNX_STEP = """

@nnx.jit
def step(model, optimizer, x):
    grads = nnx.grad(lambda m: jnp.sum(m(x) ** 2))(model)
    optimizer.update(grads)


def main():
    x = jnp.ones((2, 4))
    MAKE
    for _ in range(3):
        step(model, optimizer, x)
    return model
"""


def _nnx(classes: str, make: str) -> str:
    return _NNX_HEAD + classes + _NNX_STEP.replace("MAKE", make)


def _nnx_donated(code: str) -> str:
    """`code` as AO201 rewrites it: `step` donates the model and the optimizer."""
    donated = '@functools.partial(nnx.jit, donate_argnames=("model", "optimizer"))'
    return "\nimport functools\n" + code.replace("@nnx.jit", donated)


_MLP = """

class MLP(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.hidden = nnx.Linear(4, 8, rngs=rngs)
        self.out = nnx.Linear(8, 4, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden(x)))
"""
#: An optimizer holding the model, its state `optax.adam`'s new buffers: `nnx.jit` passes
#: the model's variables once, so both are donated safely.
NNX_OPTIMIZER = _nnx(
    _MLP,
    "model = MLP(rngs=nnx.Rngs(0))\n    optimizer = nnx.ModelAndOptimizer(model, optax.adam(1e-3))",
)
#: A transformation of the program's own, whose `init` may return the parameters.
NNX_OWN_TRANSFORMATION = _nnx(
    _MLP
    + """

def keep_params():
    return optax.GradientTransformation(lambda p: p, lambda u, s, p=None: (u, s))
""",
    "model = MLP(rngs=nnx.Rngs(0))\n    optimizer = nnx.ModelAndOptimizer(model, keep_params())",
)
#: An array of the model stored into the optimizer after it is built.
NNX_STORED = _nnx(
    _MLP,
    "model = MLP(rngs=nnx.Rngs(0))\n"
    "    optimizer = nnx.ModelAndOptimizer(model, optax.adam(1e-3))\n"
    "    optimizer.extra = nnx.Param(model.out.kernel[...])",
)
#: A model tying two variables to one array, wrapped by the optimizer.
NNX_TIED = _nnx(
    """

class Tied(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.encoder = nnx.Linear(4, 4, rngs=rngs)
        self.decoder = nnx.Linear(4, 4, rngs=rngs)
        self.decoder.kernel = nnx.Param(self.encoder.kernel[...])

    def __call__(self, x):
        return self.decoder(self.encoder(x))
""",
    "model = Tied(rngs=nnx.Rngs(0))\n"
    "    optimizer = nnx.ModelAndOptimizer(model, optax.adam(1e-3))",
)

_PLAIN_STEP = """

@jax.jit
def step(state):
    return jax.tree.map(lambda p: p + 1.0, state)


def main():
    w = jnp.ones(3)
    MAKE
    for _ in range(3):
        state = step(state)
    return state
"""


def _plain_donated(code: str) -> str:
    """`code` as AO201 rewrites it: `step` donates `state`."""
    donated = '@functools.partial(jax.jit, donate_argnames=("state",))'
    return "\nimport functools\n" + code.replace("@jax.jit", donated)


def _plain(head: str, make: str) -> str:
    return "\nimport jax\nimport jax.numpy as jnp\n" + head + _PLAIN_STEP.replace("MAKE", make)


#: A name holding one array twice, inside the donated tuple.
PAIR_IN_NAME = _plain("", "pair = [w, w]\n    state = (pair, 1)")
#: A helper that returns its argument, given a list holding one array twice.
HELPER_ARGUMENT = _plain(
    """

def wrap(x):
    return (x, 1)
""",
    "pair = [w, w]\n    state = wrap(pair)",
)
#: A helper returning its `*args`, given one array twice.
HELPER_VARIADIC = _plain(
    """

def pack(*xs):
    return xs
""",
    "state = pack(w, w)",
)
#: The caller hands in a tuple holding one array twice.
CALLER_PAIR = (
    "\nimport jax\nimport jax.numpy as jnp\n"
    + """

@jax.jit
def step(state):
    return jax.tree.map(lambda p: p + 1.0, state)


def train(state):
    for _ in range(3):
        state = step(state)
    return state


def main():
    w = jnp.ones(3)
    pair = (w, w)
    return train(pair)
"""
)

_EQX_RESULT = (
    _EQX_HEAD
    + """

class Linear(eqx.Module):
    weight: jax.Array


@eqx.filter_jit
def step(x, model):
    return eqx.tree_at(lambda m: m.weight, model, model.weight - 0.1 * x)


@eqx.filter_jit
def weight_of(model):
    return jnp.asarray(model.weight)


def main():
    model = Linear(jnp.arange(4.0))
    x = jnp.ones(4)
    seen = []
    for _ in range(3):
        seen.append(weight_of(model))
        model = step(x, model)
    return model.weight, seen
"""
)
#: A jitted function returns the model's weight as it is, kept in a list read after
#: training: the jit returns every array leaf in a new buffer (`facts/jit_outputs.py`),
#: but its body sees the model's non-array leaves as they are (`facts/jit_arguments.py`).
EQX_JIT_RESULT = _EQX_RESULT
#: It returns a plain object it was given, holding the weight: no pytree, so the jit
#: hands it back as the very object, and `kept` holds the weight donating `model` deletes.
EQX_JIT_STATIC_RESULT = (
    _EQX_RESULT.replace(
        """def weight_of(model):
    return jnp.asarray(model.weight)""",
        """def weight_of(model, box):
    return box""",
    )
    .replace(
        """    seen = []
    for _ in range(3):
        seen.append(weight_of(model))
""",
        """    kept = weight_of(model, Box(model.weight))
    for _ in range(3):
""",
    )
    .replace("return model.weight, seen", "return model.weight, kept.value")
    .replace(
        "class Linear",
        "class Box:\n    def __init__(self, value):\n        self.value = value\n\n\nclass Linear",
    )
)

INVALID = (
    Invalid(EQX_STATEFUL, _eqx_donated(EQX_STATEFUL)),
    # unsafe: `weight_of` sees the model's non-array leaves as they are and may keep one
    # (in a global); not proven to hold no buffer (tests/hazards h1260)
    Invalid(
        EQX_JIT_RESULT,
        EQX_JIT_RESULT.replace(
            "@eqx.filter_jit\ndef step", '@eqx.filter_jit(donate="all-except-first")\ndef step'
        ),
        fix=_UNSAFE,
        message="`model` is handed to `weight_of`, which may keep it",
    ),
    Invalid(
        EQX_JIT_STATIC_RESULT,
        EQX_JIT_STATIC_RESULT.replace(
            "@eqx.filter_jit\ndef step", '@eqx.filter_jit(donate="all-except-first")\ndef step'
        ),
        fix=_UNSAFE,
        message="`kept` may hold the buffers of `model` and is read at line 32",
    ),
    Invalid(
        EQX_STATE_OF_FIELD,
        _eqx_donated(EQX_STATE_OF_FIELD),
        fix=_UNSAFE,
        message="cannot prove the leaves of `model` are distinct buffers",
    ),
    Invalid(EQX_WRAPPED_TWICE, fix=_NONE, message="fills two leaves of `model`"),
    Invalid(EQX_POOLED, _eqx_donated(EQX_POOLED)),
    # `model` is kept from donation, `state` donated
    Invalid(
        EQX_POOLED_TIED,
        EQX_POOLED_TIED.replace(
            "@eqx.filter_jit\ndef step(x, model, state):\n",
            '@eqx.filter_jit(donate="all-except-first")\n'
            "def step(undonated, state):\n    x, model = undonated\n",
        ).replace("step(x, model, state)", "step((x, model), state)"),
        message="not donated: `Model.linear` fills two leaves of `model`",
    ),
    Invalid(
        EQX_POOL_GIVEN_ARRAY,
        _eqx_donated(EQX_POOL_GIVEN_ARRAY),
        fix=_UNSAFE,
        message="cannot prove the leaves of `model` are distinct buffers",
    ),
    Invalid(EQX_ARGUMENT, fix=_NONE, message="`state` may hold the buffers of `model`"),
    Invalid(EQX_STATE_OF_MODEL, fix=_NONE, message="`state` may hold the buffers of `model`"),
    Invalid(NNX_OPTIMIZER, _nnx_donated(NNX_OPTIMIZER)),
    Invalid(
        NNX_OWN_TRANSFORMATION,
        _nnx_donated(NNX_OWN_TRANSFORMATION),
        fix=_UNSAFE,
        message="`optimizer` is built from `model` and passed in the same call",
    ),
    Invalid(
        NNX_STORED,
        _nnx_donated(NNX_STORED),
        fix=_UNSAFE,
        message="`optimizer` is built from `model` and passed in the same call",
    ),
    Invalid(
        NNX_TIED,
        _nnx_donated(NNX_TIED),
        fix=_UNSAFE,
        message="one array in two variables (tied weights), or one of the caller's (`Tied`)",
    ),
    Invalid(
        PAIR_IN_NAME,
        _plain_donated(PAIR_IN_NAME),
        fix=_UNSAFE,
        message="cannot prove the leaves of `state`",
    ),
    Invalid(
        HELPER_ARGUMENT,
        _plain_donated(HELPER_ARGUMENT),
        fix=_UNSAFE,
        message="cannot prove the leaves of `state`",
    ),
    Invalid(
        HELPER_VARIADIC,
        _plain_donated(HELPER_VARIADIC),
        fix=_UNSAFE,
        message="cannot prove the leaves of `state` are distinct buffers (`pack(w, w)`)",
    ),
    Invalid(
        CALLER_PAIR,
        _plain_donated(CALLER_PAIR),
        fix=_UNSAFE,
        message="`w` fills two leaves of `pair`",
    ),
)
