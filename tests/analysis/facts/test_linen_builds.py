"""One building of a linen module class: whether the values it gives can become
variables (`facts/linen_builds.py`)."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.linen_builds import AS_BUILT, LISTED, built_fields
from tests.analysis.helpers import context

_HEADER = "import jax\nimport jax.numpy as jnp\nimport numpy as np\nimport flax.linen as nn\n"


_ACTIVATED = """
KERNEL = nn.initializers.kaiming_normal()


class Layer(nn.Module):
    width: int
    act_fn: object

    @nn.compact
    def __call__(self, x):
        return self.act_fn(nn.Dense(self.width, kernel_init=KERNEL)(x))


class Model(nn.Module):
    width: int
    act_fn: object = nn.relu
    sizes: tuple = (2, 3)

    @nn.compact
    def __call__(self, x):
        for size in self.sizes:
            x = Layer(size, act_fn=self.act_fn)(x)
        return self.act_fn(nn.Dense(self.width)(x))
"""


def _built(code: str, call: str) -> str | None:
    ctx = context(code, _HEADER)
    built = cst.parse_expression(call)
    assert type(built) is cst.Call and type(built.func) is cst.Name
    return built_fields(ctx, built.func.value, built)


@pytest.mark.parametrize(
    ("call", "built"),
    [
        # JAX's own functions, called there and in a submodule: no variables of their own
        ("Model(8, nn.relu)", AS_BUILT),
        ("Model(width=8, act_fn=jax.nn.gelu, sizes=(4,))", AS_BUILT),
        ("Model(8)", AS_BUILT),  # the rest keep their defaults, the class's own code
        # a list of sizes to a field not inert: flax keeps that very list
        ("Model(8, nn.relu, [4, 4])", LISTED),
        # a module (a layer's variables are its own code's), or any other function
        ("Model(8, nn.Dense(8))", None),
        ("Model(8, act)", None),
        ("Model(8, lambda x: x)", None),
        ("Model(8, jnp.sin)", None),  # not among flax's JAX functions (`JAX_FUNCTIONS`)
        ("Model(8, sizes=lambda: 3)", None),
        # behind `**`, or a keyword no field has
        ("Model(8, **{'act_fn': nn.relu})", None),
        ("Model(8, activation=nn.relu)", None),
    ],
)
def test_a_building_s_fields(call: str, built: str | None) -> None:
    assert _built(_ACTIVATED, call) == built


_MISUSED = {
    # the function handed to a layer as its initializer, not called
    "initializer": (
        "nn.Dense(self.width)(x))",
        "nn.Dense(self.width, kernel_init=self.act_fn)(x))",
    ),
    # kept, then returned: it may reach anything
    "returned": ("return self.act_fn(nn.Dense", "return self.act_fn, (nn.Dense"),
    # handed to a class whose field does not only call it
    "submodule": (
        "return self.act_fn(nn.Dense(self.width, kernel_init=KERNEL)(x))",
        "return nn.Dense(self.width, kernel_init=self.act_fn)(x)",
    ),
    # `nn` the module's own name as well: `nn.relu` is not flax's
    "shadowed": ("KERNEL = nn", "def reset(nn):\n    return nn\n\n\nKERNEL = nn"),
    "rebound": ("KERNEL = nn", "nn = make_namespace()\nKERNEL = nn"),
    "comprehension": ("KERNEL = nn", "NAMES = [nn for nn in range(3)]\nKERNEL = nn"),
}


@pytest.mark.parametrize("misuse", sorted(_MISUSED))
def test_a_function_field_read_other_than_called(misuse: str) -> None:
    old, new = _MISUSED[misuse]
    assert old in _ACTIVATED
    assert _built(_ACTIVATED.replace(old, new, 1), "Model(8, nn.relu)") is None


_BLOCKS = """
TABLE = jnp.ones((2, 2))


class Block(nn.Module):
    act_fn: object
    width: int

    @nn.compact
    def __call__(self, x):
        return self.act_fn(nn.Dense(self.width)(x))


class PreBlock(Block):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.width)(self.act_fn(x))


class Leaky(nn.Module):
    act_fn: object
    width: int

    @nn.compact
    def __call__(self, x):
        return nn.Dense(self.width, kernel_init=lambda *_: TABLE)(x)


class Net(nn.Module):
    act_fn: object
    block_class: object
    widths: tuple = (2, 3)

    @nn.compact
    def __call__(self, x):
        if self.block_class == Block:
            x = self.act_fn(x)
        for w in self.widths:
            x = self.block_class(act_fn=self.act_fn, width=w)(x)
        return x
"""


@pytest.mark.parametrize(
    ("call", "built"),
    [
        # a class of the module, sealed, built by keywords its fields declare
        ("Net(nn.relu, Block)", AS_BUILT),
        # through a subclass whose base is one: the fields and code of the whole chain
        ("Net(act_fn=nn.gelu, block_class=PreBlock, widths=(4,))", AS_BUILT),
        # a flax layer is no class of the module; one whose code is not sealed
        ("Net(nn.relu, nn.Dense)", None),
        ("Net(nn.relu, Leaky)", None),
        # a class given, but the function handed to it is no JAX function
        ("Net(act, Block)", None),
    ],
)
def test_a_field_given_a_class_of_the_module(call: str, built: str | None) -> None:
    assert _built(_BLOCKS, call) == built


_BLOCK_MISUSES = {
    # built by position: which field each binds is not read
    "positional": (
        "self.block_class(act_fn=self.act_fn, width=w)",
        "self.block_class(self.act_fn, w)",
    ),
    # a keyword no field of the class declares
    "keyword": (
        "self.block_class(act_fn=self.act_fn, width=w)",
        "self.block_class(act_fn=self.act_fn, width=w, depth=2)",
    ),
    # the class handed on, not built
    "handed": ("        return x\n", "        return x, self.block_class\n"),
    # the class's field handed to a layer as its initializer there
    "initializer": (
        "        return self.act_fn(nn.Dense(self.width)(x))",
        "        return nn.Dense(self.width, kernel_init=self.act_fn)(x)",
    ),
    # so in the subclass's override, run instead of its base's
    "override": (
        "        return nn.Dense(self.width)(self.act_fn(x))",
        "        return nn.Dense(self.width, kernel_init=self.act_fn)(x)",
    ),
    # the class's name bound again: `Block` may be any object
    "rebound": ("class Net(nn.Module):", "Block = make_block()\n\n\nclass Net(nn.Module):"),
}


@pytest.mark.parametrize("misuse", sorted(_BLOCK_MISUSES))
def test_a_class_field_built_other_than_by_its_fields(misuse: str) -> None:
    old, new = _BLOCK_MISUSES[misuse]
    assert old in _BLOCKS
    call = "Net(nn.relu, PreBlock)" if misuse == "override" else "Net(nn.relu, Block)"
    assert _built(_BLOCKS.replace(old, new, 1), call) is None
