"""Library calls whose results are new buffers: `fresh_result` and `held_fields`."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.fresh import fresh_result, held_fields, receiver_class
from autoopt.analysis.facts.initializer_globals import initializer_globals

from ..helpers import HEADER, context, stmt

IMPORTS = (
    HEADER
    + "import optax\nimport haiku as hk\nimport equinox as eqx\nimport flax.linen as nn\n"
    + "from flax.training import train_state\nimport functools\n"
)
PROGRAM = """
TABLE = jnp.ones(3)
HIDDEN = 8
opt = optax.adam(1e-3)
net = hk.transform(lambda x: hk.Linear(HIDDEN)(x))
leaky = hk.transform(lambda x: hk.get_parameter("w", [3], init=lambda *_: TABLE))
mixed = optax.chain(my_transform(), optax.adam(1e-3))
pure = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-3))

def tied_fn(x):
    w = jnp.zeros(3)
    a = hk.get_parameter("a", [3], init=lambda *_: w)
    return a + hk.get_parameter("b", [3], init=lambda *_: w)

def const_fn(x):
    w = jnp.zeros(3)
    return hk.get_parameter("a", [3], init=hk.initializers.Constant(w))

def embed_fn(x):
    return hk.Embed(embedding_matrix=jnp.zeros((3, 2)))(x)

@functools.cache
def zeros_init(shape, dtype):
    return jnp.zeros(shape, dtype)

def cached_fn(x):
    return hk.get_parameter("a", [3], init=zeros_init)

def state_fn(x):
    w = jnp.zeros(3)
    hk.set_state("s", w)
    return x

def built_in_fn(x):
    return hk.Linear(3, w_init=hk.initializers.Constant(1.0))(x)

tied = hk.transform(tied_fn)
const = hk.transform(const_fn)
embed = hk.transform(embed_fn)
cached = hk.transform(cached_fn)
stateful = hk.transform_with_state(state_fn)
built_in = hk.transform(built_in_fn)
plain = hk.without_apply_rng(hk.transform(built_in_fn))
plain_leaky = hk.without_apply_rng(hk.transform(tied_fn))
wrapped = wrap(hk.transform(built_in_fn))

@hk.transform
def decorated(x):
    return hk.Linear(3)(x)

@hk.transform
def decorated_tied(x):
    w = jnp.zeros(3)
    return hk.get_parameter("a", [3], init=lambda *_: w)

class Tied(nn.Module):
    def setup(self):
        w = jnp.zeros(3)
        self.a = self.param("a", lambda *_: w)
        self.b = self.param("b", lambda *_: w)

    def __call__(self, x):
        return x + self.a + self.b

class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(x)

class Pretrained(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x + self.param("w", lambda *_: TABLE)

SCALE = np.var(np.ones(3))
INIT = hk.initializers.RandomNormal()

class Block(hk.Module):
    def __init__(self, name=None):
        super(Block, self).__init__(name=name)

    def __call__(self, x):
        return hk.Linear(3)(x) / SCALE

class Lookup(hk.Module):
    def __init__(self, name=None):
        super(Lookup, self).__init__(name=name)

    def __call__(self, x):
        return hk.Embed(embedding_matrix=TABLE)(x)

class Borrowed(hk.Module):
    def __init__(self, name=None):
        super(Block, self).__init__(name=name)

    def __call__(self, x):
        return hk.Linear(3)(x)

class Drawn(hk.Module):
    def __call__(self, x):
        return x + hk.get_parameter("w", [3], init=INIT)

def block_fn(x):
    return Block()(x)

blocks = hk.transform_with_state(block_fn)
lookup = hk.transform(lambda x: Lookup()(x))
borrowed = hk.transform(lambda x: Borrowed()(x))
drawn = hk.transform(lambda x: Drawn()(x))

class Custom(nn.Module):
    def init(self, key, x):
        return GLOBAL

def main(params, key, x):
    local = optax.sgd(0.1)
    if x:
        local = my_transform()
    CALL
"""


@pytest.mark.parametrize(
    ("call", "fresh"),
    [
        ("opt.init(params)", True),
        ("net.init(key, x)", True),
        ("pure.init(params)", True),
        ("MLP().init(key, x)", True),
        ("nn.Dense(3).init(key, x)", True),
        ("eqx.nn.MLP(2, 2, 4, 1, key=key)", True),
        ("optax.adam(0.1).init(params)", True),
        ("mixed.init(params)", False),  # a user's transformation may return `params`
        ("local.init(params)", False),  # not one constructor on every path
        ("Custom().init(key, x)", False),  # its own `init`
        ("opt.update(params, params)", False),  # not listed fresh
        ("eqx.nn.Lambda(f)", False),  # not listed
        ("eqx.nn.Embedding(weight=TABLE)", False),  # holds `TABLE`
        ("leaky.init(key, x)", False),  # its initializer returns the global `TABLE`
        ("Pretrained().init(key, x)", False),  # likewise
        ("nn.Embed(3, 2, embedding_init=lambda *_: TABLE).init(key, x)", False),
        ("built_in.init(key, x)", True),  # a library initializer given a constant
        ("plain.init(key, x)", True),  # `hk.without_apply_rng` keeps the `init`
        ("plain_leaky.init(key, x)", False),  # of a transform that ties two parameters
        ("wrapped.init(key, x)", False),  # a wrapper the overlay does not list
        ("decorated.init(key, x)", True),  # `@hk.transform` on a sealed function
        ("tied.init(key, x)", False),  # two parameters from one local array
        ("decorated_tied.init(key, x)", False),
        ("const.init(key, x)", False),  # `Constant(w)` returns `w` itself
        ("embed.init(key, x)", False),  # `Embed(embedding_matrix=t)` keeps `t`
        ("cached.init(key, x)", False),  # a module function handed on as initializer
        ("stateful.init(key, x)", False),  # a state set to an array as it is
        ("Tied().init(key, x)", False),  # a linen module tying two parameters
        # classes calling `super(C, self)`, reading a global only ever bound to an array
        ("blocks.init(key, x)", True),
        ("lookup.init(key, x)", False),  # `Embed(embedding_matrix=TABLE)` keeps `TABLE`
        ("borrowed.init(key, x)", False),  # `super(Block, self)` hands `Block` on
        # a global only ever bound to a library initializer given constants, only ever
        # `init=INIT` (refused before; `test_an_initializer_global_must_only_ever_be_one`)
        ("drawn.init(key, x)", True),
    ],
)
def test_fresh_result(call: str, fresh: bool) -> None:
    ctx = context(PROGRAM.replace("CALL", f"out = {call}"), IMPORTS)
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    assert fresh_result(ctx, at, at.node.value) is fresh


def test_a_rebound_global_is_no_proven_object() -> None:
    ctx = context(PROGRAM.replace("CALL", "out = opt.init(params)") + "opt = other()\n", IMPORTS)
    at = stmt(ctx, "out = ")
    assert receiver_class(ctx, at, cst.parse_expression("opt")) is None


@pytest.mark.parametrize(
    ("call", "held"),
    [
        ("train_state.TrainState.create(apply_fn=f, params=params, tx=opt)", ["params"]),
        ("train_state.TrainState.create(apply_fn=f, params=params, tx=mixed)", None),
        ("train_state.TrainState.create(f, params, opt)", None),  # not by keyword
        ("make_state(params=params, tx=opt)", None),
        ("train_state.TrainState.create(apply_fn=f, params=params, tx=None)", None),
        (  # the constructor holds every field but `apply_fn` and `tx`, as given
            "train_state.TrainState(step=0, apply_fn=f, params=params, tx=None, opt_state=s)",
            ["0", "params", "s"],
        ),
        (
            "train_state.TrainState(step=0, apply_fn=f, params=params, tx=opt, opt_state=s)",
            ["0", "params", "s"],
        ),
        ("train_state.TrainState(step=0, apply_fn=f, params=params, tx=mixed, opt_state=s)", None),
        ("train_state.TrainState(0, f, params, None, s)", None),  # not by keyword
    ],
)
def test_held_fields(call: str, held: list[str] | None) -> None:
    ctx = context(PROGRAM.replace("CALL", f"out = {call}"), IMPORTS)
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    found = held_fields(ctx, at, at.node.value)
    assert (None if found is None else [ctx.code(e) for e in found]) == held


TRAIN = """
def train(params, optim):
    state = optim.init(params)
    return state

CALLS
"""


@pytest.mark.parametrize(
    ("calls", "cls"),
    [
        ("train(p, optax.adam(1e-3))", "optax.GradientTransformation"),
        (
            "opt = optax.sgd(0.1)\ntrain(p, opt)\ntrain(q, optax.adam(0.1))",
            "optax.GradientTransformation",
        ),
        ("train(p, make_optimizer())", None),  # one caller passes an unknown object
        ("train(p, optax.adam(1e-3))\ntrain(q, keep)", None),
        ("train(p, *rest)", None),  # behind a starred argument
        ("", None),  # never called here: its callers are unknown
        ("run = train\nrun(p, optax.adam(1e-3))", None),  # handed out as a value
    ],
)
def test_a_parameter_every_known_call_gives_one_class(calls: str, cls: str | None) -> None:
    ctx = context(TRAIN.replace("CALLS", calls), IMPORTS)
    at = stmt(ctx, "state = ")
    assert receiver_class(ctx, at, cst.parse_expression("optim")) == cls


def test_a_parameter_rebound_in_its_function_is_not_followed() -> None:
    code = TRAIN.replace("CALLS", "train(p, optax.adam(1e-3))").replace(
        "    state = optim", "    optim = wrap(optim)\n    state = optim"
    )
    ctx = context(code, IMPORTS)
    assert receiver_class(ctx, stmt(ctx, "state = "), cst.parse_expression("optim")) is None


def test_a_recursive_function_s_parameter_is_not_followed_forever() -> None:
    code = "def train(n, optim):\n    state = optim.init(n)\n    return train(n - 1, optim)\n"
    ctx = context(code + "train(3, optax.adam(0.1))\n", IMPORTS)
    at = stmt(ctx, "state = ")
    assert receiver_class(ctx, at, cst.parse_expression("optim")) is None


_SUPER = "def super(cls, obj):\n    return REGISTRY.setdefault(cls, obj)\n"
_SHADOWED = f"""
SCALE = np.var(np.ones(3))

{_SUPER}
class Block(hk.Module):
    def __init__(self, name=None):
        super(Block, self).__init__(name=name)

    def __call__(self, x):
        return hk.Linear(3)(x) / SCALE

net = hk.transform(lambda x: Block()(x))
out = net.init(key, x)
"""
_RESET = "def reset():\n    global SCALE\n    SCALE = lambda *_: TABLE\n"


@pytest.mark.parametrize(
    ("program", "fresh"),
    [
        (_SHADOWED, False),  # `super` is the module's own function: `Block` handed on
        (_SHADOWED.replace(_SUPER, ""), True),
        # a global rebound by a function through `global` is no data global
        (_SHADOWED.replace(_SUPER, _RESET), False),
        # nor one bound to a call the value model cannot read
        (_SHADOWED.replace(_SUPER, "").replace("np.var(np.ones(3))", "load_scale()"), False),
    ],
)
def test_super_and_data_globals_in_sealed_code(program: str, fresh: bool) -> None:
    ctx = context(program, IMPORTS)
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    assert fresh_result(ctx, at, at.node.value) is fresh


_NAMESAKE = """
def relu(x):
    return jnp.maximum(x, 0)

class Block(hk.Module):
    def __call__(self, x):
        return ACT(hk.Linear(3)(x))

net = hk.transform(lambda x: Block()(x))
out = net.init(key, x)
"""


@pytest.mark.parametrize(
    ("act", "fresh"),
    [
        ("jax.nn.relu", True),  # the attribute `relu` names no function of the module
        ("relu", True),  # the module's function, called
        ("hk.Sequential([relu])", False),  # the module's function handed on as a value
        ("getattr(jax.nn, 'relu')", True),
    ],
)
def test_an_attribute_named_like_a_module_function_is_not_that_function(
    act: str, fresh: bool
) -> None:
    ctx = context(_NAMESAKE.replace("ACT(", f"{act}("), IMPORTS)
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    assert fresh_result(ctx, at, at.node.value) is fresh


_TESTED = """
class Leaf(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(x)

class Tested(nn.Module):
    @nn.compact
    def __call__(self, x):
        y = Leaf()(x)
        return TEST

def main(key, x):
    out = Tested().init(key, x)
"""


@pytest.mark.parametrize(
    ("test", "fresh"),
    [
        # the class only tested against, the builtins', or compared: a bool
        ("y if isinstance(x, Leaf) else -y", True),
        ("y if issubclass(type(x), (Leaf, nn.Dense)) else -y", True),
        ("y if type(x) == Leaf else -y", True),
        ("y if type(x) is not Leaf else -y", True),
        # handed on as a value: to a layer, or kept
        ("nn.Dense(2, kernel_init=Leaf)(y)", False),
        ("(y, [Leaf])", False),
        # an ordering is no test of identity (`__lt__` may run any code)
        ("y if type(x) < Leaf else -y", False),
        # isinstance the module's own function: `Leaf` handed to it
        ("y if isinstance(x, Leaf) else -y\n\ndef isinstance(a, b):\n    return b", False),
    ],
)
def test_a_class_tested_against_is_not_handed_on(test: str, fresh: bool) -> None:
    ctx = context(_TESTED.replace("TEST", test), IMPORTS)
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    assert fresh_result(ctx, at, at.node.value) is fresh


_POOLED = """
TABLE = jnp.ones((2, 2))

class Pooled(nn.Module):
    @nn.compact
    def __call__(self, x):
        blocks = [nn.Dense(2), LAMBDA]
        for block in blocks:
            x = block(x)
        return x

def main(key, x):
    out = Pooled().init(key, x)
"""


@pytest.mark.parametrize(
    ("function", "fresh"),
    [
        # flax's pooling or JAX functions given the lambda's own parameter and constants
        ("lambda inp: nn.max_pool(inp, (3, 3), strides=(2, 2))", True),
        ("lambda h: nn.relu(h)", True),
        # a closure over a global array, or over one through a default
        ("lambda h: nn.relu(TABLE)", False),
        ("lambda h, w=TABLE: nn.relu(w)", False),
        ("lambda *_: TABLE", False),
        # a function keeping what it is given (`jnp.asarray`), or an expression given
        ("lambda h: jnp.asarray(h)", False),
        ("lambda h: nn.relu(h + TABLE)", False),
        # handed to a layer as its initializer: only library initializers are
        ("nn.Dense(2, kernel_init=lambda k, s, d: nn.relu(k))", False),
    ],
)
def test_a_lambda_applying_a_jax_function_closes_over_nothing(function: str, fresh: bool) -> None:
    ctx = context(_POOLED.replace("LAMBDA", function), IMPORTS)
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    assert fresh_result(ctx, at, at.node.value) is fresh


_FOREIGN = """
def forward(x):
    x = hk.Linear(3, w_init=INIT)(x)
    return hk.Linear(3, w_init=INIT)(x)

net = hk.transform(forward)
out = net.init(key, x)
"""


@pytest.mark.parametrize(
    ("header", "init", "fresh"),
    [
        ("", "hk.initializers.Constant(0.5)", True),
        ("", "jax.nn.initializers.ones", True),
        # another file's initializer may return one global array for both layers
        ("import helpers\n", "helpers.table_init", False),
        ("from helpers import table_init\n", "table_init", False),
        ("import helpers\n", "helpers.make_init()", False),
    ],
)
def test_sealed_code_names_no_import_of_an_unknown_package(
    header: str, init: str, fresh: bool
) -> None:
    ctx = context(_FOREIGN.replace("INIT", init), IMPORTS + header)
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    assert fresh_result(ctx, at, at.node.value) is fresh


_LINEN = """
TABLE = jnp.ones(3)

class Kept(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x + self.variable("consts", "t", jnp.asarray, TABLE).value

class Zeroed(nn.Module):
    @nn.compact
    def __call__(self, x):
        return x + self.variable("stats", "t", jnp.zeros, (3,)).value

class Written(nn.Module):
    @nn.compact
    def __call__(self, x):
        seen = self.variable("cache", "seen", jnp.zeros, x.shape)
        if self.is_initializing():
            WRITE
        return x + seen.value

class Sized(nn.Module):
    width: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.width)(x)

class Activated(nn.Module):
    act: object

    @nn.compact
    def __call__(self, x):
        return self.act(nn.Dense(3)(x))

def main(key, x, cfg, f):
    CALL
"""


@pytest.mark.parametrize(
    ("call", "fresh"),
    [
        ("Kept().init(key, x)", False),  # `jnp.asarray(TABLE)` is `TABLE` itself
        ("Zeroed().init(key, x)", True),
        # the variable is made new, then given the input itself
        ("Written().init(key, x)", False),
        ("Sized(**cfg).init(key, x)", True),  # its one field only sizes a layer
        ("Sized(width=x).init(key, x)", True),
        ("Activated(act=f).init(key, x)", False),  # a field called may hold arrays
        ("Activated(**cfg).init(key, x)", False),
    ],
)
def test_linen_modules_built_from_anything(call: str, fresh: bool) -> None:
    ctx = context(
        _LINEN.replace("CALL", f"out = {call}").replace("WRITE", "seen.value = x"), IMPORTS
    )
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    assert fresh_result(ctx, at, at.node.value) is fresh


@pytest.mark.parametrize(
    "write",
    [
        "seen.value = x",
        "seen.value += x",
        "seen.value, n = x, 1",
        'setattr(seen, "value", x)',
        "pass",
    ],
)
def test_a_variable_written_is_not_new_buffers(write: str) -> None:
    program = _LINEN.replace("CALL", "out = Written().init(key, x)").replace("WRITE", write)
    ctx = context(program, IMPORTS)
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    assert fresh_result(ctx, at, at.node.value) is (write == "pass")


_HANDED = """
KERNEL = nn.initializers.lecun_normal()
SCALED = nn.initializers.normal(X)

class Handed(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1, kernel_init=INIT)(x.data)

def main(key, x):
    out = Handed().init(key, x)
"""


@pytest.mark.parametrize(
    ("init", "fresh"),
    [
        ("nn.initializers.zeros", True),
        ("nn.initializers.normal(0.02)", True),
        # a global only ever bound to a library initializer given constants, and only
        # handed to `*_init` keywords: the call written in place (it was refused before)
        ("KERNEL", True),
        ("None", True),
        ("x.init", False),  # a function the input hands in may return any array
        ("SCALED", False),  # a library initializer given what is not a constant
        ("make_init()", False),
    ],
)
def test_a_layer_s_initializer_keyword_is_a_library_initializer(init: str, fresh: bool) -> None:
    ctx = context(_HANDED.replace("INIT", init), IMPORTS)
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    assert fresh_result(ctx, at, at.node.value) is fresh


_SHADOWS = {
    # `kernel_init=KERNEL` reads a parameter, not the global: any function
    "param": ("def __call__(self, x):", "def __call__(self, x, KERNEL=None):"),
    # a function rebinds the global through `global`
    "global": (
        "def main(key, x):",
        "def reset(w):\n    global KERNEL\n    KERNEL = w\n\ndef main(key, x):",
    ),
    # the global is read other than as an initializer keyword (handed on, here)
    "read": ("def main(key, x):", "kept = [KERNEL]\n\ndef main(key, x):"),
    # a second binding gives it an array's initializer: `constant(W)` returns `W`
    "twice": ("SCALED =", "KERNEL = nn.initializers.constant(TABLE)\nSCALED ="),
    # an initializer of no library the audit knows
    "foreign": (
        "KERNEL = nn.initializers.lecun_normal()",
        "KERNEL = mylib.initializers.lecun_normal()",
    ),
    # the module may rebind any global through its namespace
    "namespace": ("def main(key, x):", "globals().update(cfg)\n\ndef main(key, x):"),
    # a comprehension's variable named like it
    "comprehension": (
        "return nn.Dense(1, kernel_init=KERNEL)(x.data)",
        "return [nn.Dense(1, kernel_init=KERNEL)(x.data) for KERNEL in x.inits][0]",
    ),
}


@pytest.mark.parametrize("shadow", sorted(_SHADOWS))
def test_an_initializer_global_must_only_ever_be_one(shadow: str) -> None:
    old, new = _SHADOWS[shadow]
    program = _HANDED.replace("INIT", "KERNEL")
    assert old in program
    ctx = context(program.replace(old, new), IMPORTS + "import mylib\n")
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    assert initializer_globals(ctx) == frozenset()
    assert fresh_result(ctx, at, at.node.value) is False


_GOTTEN = """
def forward(x):
    return x.data * hk.get_parameter("w", [3], init=INIT)

net = hk.transform(forward)
out = net.init(key, x)
"""


@pytest.mark.parametrize(
    ("init", "fresh"), [("hk.initializers.Constant(0.5)", True), ("x.init", False)]
)
def test_a_haiku_parameter_s_init_is_a_library_initializer(init: str, fresh: bool) -> None:
    ctx = context(_GOTTEN.replace("INIT", init), IMPORTS)
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    assert fresh_result(ctx, at, at.node.value) is fresh


_SAMPLED = """
TABLE = jnp.ones(3)

class Net(nn.Module):
    width: int

    @nn.compact
    def __call__(self, x):
        return self.logits(x)

    def logits(self, x):
        return nn.Dense(self.width)(x)

    def sample(self, x):
        step = jax.jit(lambda v: self.logits(v))
        return step(x)

    def tied(self, x):
        return nn.Dense(3, kernel_init=lambda *_: TABLE)(x)

def generate(model, params, x):
    return model.bind(params).sample(x)

def main(key, x, cfg):
    CALL
"""


@pytest.mark.parametrize(
    ("program", "call", "fresh"),
    [
        # `sample` and `tied` (a lambda each) run only when a user calls them: `init`
        # runs `__call__` and `logits`
        (_SAMPLED, "Net(**cfg).init(key, x)", True),
        # told to run another method, or given `**kw` that may tell it
        (_SAMPLED, "Net(**cfg).init(key, x, method=Net.tied)", False),
        (_SAMPLED, "Net(**cfg).init(key, x, **cfg)", False),
        # the methods `init` runs name `tied`, as an attribute or a string, or reach
        # attributes by name
        (_SAMPLED.replace("self.logits(x)\n\n    def logits", "self.tied(x)\n\n    def logits"),
         "Net(**cfg).init(key, x)", False),
        (_SAMPLED.replace("return nn.Dense(self.width)(x)", 'return nn.apply(self, "tied")(x)'),
         "Net(**cfg).init(key, x)", False),
        (_SAMPLED.replace("return self.logits(x)", 'return getattr(self, "lo" + "gits")(x)'),
         "Net(**cfg).init(key, x)", False),
        # a submodule it uses calls its parent's `tied`
        (_SAMPLED.replace("return nn.Dense(self.width)(x)", "return Child()(x)")
         + "\nclass Child(nn.Module):\n    @nn.compact\n"
         "    def __call__(self, x):\n        return self.parent.tied(x)\n",
         "Net(**cfg).init(key, x)", False),
    ],
)  # fmt: skip
def test_methods_init_does_not_run_are_not_audited(program: str, call: str, fresh: bool) -> None:
    ctx = context(program.replace("CALL", f"out = {call}"), IMPORTS)
    at = stmt(ctx, "out = ")
    assert type(at.node) is cst.Assign and type(at.node.value) is cst.Call
    assert fresh_result(ctx, at, at.node.value) is fresh


_OPTIMIZER = """
def keep(params):
    return params

def make(name, lr, decay):
    if name == "adam":
        opt_class = optax.adam
    else:
        opt_class = optax.sgd
    transf = [optax.clip(1.0)]
    if decay:
        transf.append(optax.add_decayed_weights(decay))
    opt = optax.chain(*transf, opt_class(lr))
    return opt.init(jnp.ones(3))
"""


@pytest.mark.parametrize(
    ("change", "fresh"),
    [
        (("", ""), True),  # a starred list of listed constructors, a constructor alias
        # one branch binds the alias to a transformation of the program
        (("        opt_class = optax.sgd\n", "        opt_class = keep\n"), False),
        # the list takes a transformation of the program too
        (
            (
                "        transf.append(optax.add",
                "        transf.append(keep(1))\n        transf.append(optax.add",
            ),
            False,
        ),
        # the list is handed on before the chain: code may change it
        (("    opt = optax.chain", "    record(transf)\n    opt = optax.chain"), False),
        # the list bound a second time, to a value not written in place
        (("    opt = optax.chain", "    transf = more\n    opt = optax.chain"), False),
        # given a keyword, the combinator is not read
        (("opt_class(lr))", "opt_class(lr), extra=1)"), False),
    ],
)
def test_a_combinator_of_a_starred_list_and_an_alias(change: tuple[str, str], fresh: bool) -> None:
    old, new = change
    assert old in _OPTIMIZER
    code = _OPTIMIZER.replace(old, new, 1) if old else _OPTIMIZER
    ctx = context(code, IMPORTS)
    at = stmt(ctx, "return opt.init(jnp.ones(3))")
    call = at.node.value  # type: ignore[attr-defined]  # a Return statement
    assert fresh_result(ctx, at, call) is fresh
