"""What objects of a class of the module hold, and containers filled in place (issue 26)."""

from __future__ import annotations

import pytest

from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.facts.aliases import repeated_leaf, scope_sharing
from autoopt.analysis.facts.constructors import (
    fresh_filled,
    init_bufferless_names,
    init_fields,
    param_fields,
    plain_record,
)

from ..helpers import HEADER, context

IMPORTS = (
    HEADER
    + "import functools\nimport dataclasses\nimport equinox as eqx\nimport somelib\n"
    + "from flax import nnx\n"
    + "from typing import NamedTuple\n"
)
CLASSES = """
class Derived(somelib.Base):  # no __init__ here: somelib's runs
    w: object

@dataclasses.dataclass
class Record:
    a: object
    b: object

TABLE = jnp.ones(3)

class Block(eqx.Module):
    lin: eqx.nn.Linear
    scale: jax.Array

    def __init__(self, size, *, key, **kwargs):
        super().__init__(**kwargs)
        self.lin = eqx.nn.Linear(size, size, key=key)
        self.scale = jnp.ones(size)

class Sized(eqx.Module):
    size: object

    def __init__(self, size):
        self.size = size

class Stack(eqx.Module):
    blocks: list

    def __init__(self, size, depth, key):
        keys = jax.random.split(key, depth)
        blocks = []
        for k in keys:
            blocks.append(Block(size, key=k))
        self.blocks = blocks

class Many(eqx.Module):
    blocks: list

    def __init__(self, size, keys):
        self.blocks = [Block(size, key=k) for k in keys]

class Tied(eqx.Module):
    a: jax.Array
    b: jax.Array

    def __init__(self, w):
        self.a = w
        self.b = w

class Reused(eqx.Module):
    a: eqx.nn.Linear
    b: eqx.nn.Linear

    def __init__(self, key):
        self.a = eqx.nn.Linear(2, 2, key=key)
        self.b = self.a

class Twice(eqx.Module):
    a: jax.Array

    def __init__(self, n):
        self.a = jnp.zeros(n)
        self.a = jnp.ones(n)

class Defaulted(eqx.Module):
    a: jax.Array = TABLE

    def __init__(self, n):
        self.b = jnp.zeros(n)

class Posted(eqx.Module):
    a: jax.Array

    def __init__(self, n):
        self.a = jnp.zeros(n)

    def __post_init__(self):
        pass

class Closing(eqx.Module):
    a: jax.Array

    def __init__(self, n):
        def make():
            return TABLE
        self.a = make()

class Embedded(eqx.Module):
    emb: eqx.nn.Embedding

    def __init__(self, table):
        self.emb = eqx.nn.Embedding(weight=table)

class Global(eqx.Module):
    a: jax.Array

    def __init__(self):
        self.a = TABLE

class Net(nnx.Module):
    def __init__(self, n_in=4, n_out=2, *, rngs):
        self.n_in = n_in
        size = n_in * 2 if n_out else (n_in, n_out)[0]
        self.l1 = nnx.Linear(n_in, size, rngs=rngs)
        self.l2 = nnx.Linear(size, n_out, use_bias=False, rngs=rngs)
        self.head = nnx.Linear(n_out, self.n_in, rngs=rngs)

class NetTied(nnx.Module):
    def __init__(self, *, rngs):
        self.enc = nnx.Linear(2, 2, rngs=rngs)
        self.dec = nnx.Linear(2, 2, rngs=rngs)
        self.dec.kernel = self.enc.kernel

class NetTiedLater(nnx.Module):
    def __init__(self, *, rngs):
        self.enc = nnx.Linear(2, 2, rngs=rngs)

    def tie(self):
        self.dec = self.enc

class NetAppends(nnx.Module):
    def __init__(self, *, rngs):
        self.layers = [nnx.Linear(2, 2, rngs=rngs)]

    def grow(self):
        self.layers.append(self.layers[0])

class NetHolds(nnx.Module):
    def __init__(self, w):
        self.w = nnx.Param(w)

class NetInit(nnx.Module):
    def __init__(self, *, rngs):
        self.lin = nnx.Linear(2, 2, kernel_init=lambda *_: TABLE, rngs=rngs)

class Pair(NamedTuple):
    a: object
    b: object

class Plain:
    def __init__(self, a):
        self.a = a

k = jax.random.PRNGKey(0)
ks = jax.random.split(k, 3)
w = jnp.zeros(3)
"""


@pytest.mark.parametrize(
    ("cls", "fields"),
    [
        ("Block", ["lin", "scale"]),
        ("Sized", ["size"]),
        ("Stack", ["blocks"]),
        ("Tied", ["a", "b"]),
        ("Reused", None),  # `self.b = self.a` reads `self`
        ("Twice", ["a", "a"]),  # a field written twice: either value, both counted
        ("Net", ["n_in", "l1", "l2", "head"]),  # `self.n_in` read: stored from a parameter
        ("NetTied", None),  # `self.dec.kernel = ...` reads `self`
        ("NetTiedLater", None),  # another method writes through `self`
        ("NetAppends", None),  # so does a mutating method
        ("NetHolds", ["w"]),
        ("Defaulted", None),  # a class attribute holds an array
        ("Posted", None),  # `__post_init__` runs after `__init__`
        ("Closing", None),  # a nested function
        ("Pair", None),  # not an equinox module with its own `__init__`
        ("Plain", None),  # not an equinox module
    ],
)
def test_init_fields(cls: str, fields: list[str] | None) -> None:
    ctx = context(CLASSES, IMPORTS)
    found = init_fields(ctx, cls)
    stored = None if found is None else [s.node.targets[0].target.attr.value for s in found[1]]
    assert stored == fields


def test_plain_records_hold_each_argument_once() -> None:
    ctx = context(CLASSES, IMPORTS)
    assert plain_record(ctx, "Pair")
    assert not plain_record(ctx, "Plain") and not plain_record(ctx, "Block")


def test_fresh_filled_reads_the_stored_values() -> None:
    ctx = context(CLASSES, IMPORTS)
    stored = fresh_filled(ctx, "Stack.__init__", "blocks")
    assert [ctx.code(v) for _, v in stored or []] == ["Block(size, key=k)"]
    assert fresh_filled(ctx, "Stack.__init__", "keys") is None  # not an empty container


UNPROVEN = "cannot prove the leaves of `s` are distinct buffers"
TWICE = "fills two leaves of `s`: one buffer would be donated twice"
TIED_WEIGHTS = (
    f"{UNPROVEN}: a module class of this file may hold one array in two variables (tied "
    "weights), or one of the caller's"
)


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("Block(3, key=k)", None),
        ("Stack(3, 2, k)", None),  # blocks appended in a loop, each new
        ("Many(3, ks)", None),  # a comprehension of new blocks
        ("[Block(3, key=j) for j in ks]", None),
        ("Tied(w)", ("`Tied.w` fills two leaves of `s`: one buffer would be donated twice", True)),
        (
            "Tied(jnp.zeros(3))",
            ("`Tied.w` fills two leaves of `s`: one buffer would be donated twice", True),
        ),
        ("Reused(k)", (f"{TIED_WEIGHTS} (`Reused`)", False)),
        ("Sized(w)", None),  # `w` once
        ("[Sized(w) for j in ks]", (f"{UNPROVEN} (`[Sized(w) for j in ks]`)", False)),
        (
            "[Embedded(w), Embedded(w)]",
            ("`w` fills two leaves of `s`: one buffer would be donated twice", True),
        ),
        ("[w for _ in ks]", (f"{UNPROVEN} (`[w for _ in ks]`)", False)),
        ("Pair(w, w)", ("`w` fills two leaves of `s`: one buffer would be donated twice", True)),
        ("Record(w, k)", None),  # a dataclass holds each argument once, as given
        # a library class autoopt cannot see may build tied arrays, or keep a global one
        ("somelib.Model(k)", (f"{UNPROVEN} (`somelib.Model(k)`)", False)),
        ("Derived(k)", (f"{TIED_WEIGHTS} (`Derived`)", False)),
        ("Net(rngs=nnx.Rngs(0))", None),  # sizes are literals, layers new from `rngs`
        ("Net(8, 3, rngs=nnx.Rngs(0))", None),
        # a size given as an array is kept by each layer given it
        ("Net(w, rngs=nnx.Rngs(0))", (f"`Net.n_in` {TWICE}", True)),
        ("NetTied(rngs=nnx.Rngs(0))", (f"{TIED_WEIGHTS} (`NetTied`)", False)),
        ("NetTiedLater(rngs=nnx.Rngs(0))", (f"{TIED_WEIGHTS} (`NetTiedLater`)", False)),
        ("NetHolds(w)", None),  # `w` once (whether it is read later is aliasing's)
        (
            "[NetHolds(w), NetHolds(w)]",
            ("`w` fills two leaves of `s`: one buffer would be donated twice", True),
        ),
        ("NetInit(rngs=nnx.Rngs(0))", (f"{TIED_WEIGHTS} (`NetInit`)", False)),
    ],
)
def test_leaves_of_constructed_objects(value: str, why: tuple[str, bool] | None) -> None:
    ctx = context(CLASSES + f"s = {value}\nprint(s)\n", IMPORTS)
    last = ctx.graph.scope_stmts(MODULE)[-1]
    assert repeated_leaf(ctx, last, "s") == why


def test_an_equinox_object_holds_only_what_its_fields_keep() -> None:
    """`Block(n, key=k)` holds neither `n` nor the key its layer is drawn from; an
    object storing an argument holds it."""
    code = CLASSES + "def main(n, key):\n    b = Block(n, key=key)\n    t = Tied(key)\n"
    sharing = scope_sharing(context(code, IMPORTS), "main")
    assert sharing.component({"b"}, weak=True) == {"b"}
    assert sharing.component({"t"}, weak=True) == {"t", "key"}


def test_an_object_storing_a_global_holds_it() -> None:
    """`self.a = TABLE`: the object holds the module's array (donated, it is deleted)."""
    code = CLASSES + "def main():\n    g = Global()\n"
    sharing = scope_sharing(context(code, IMPORTS), "main")
    assert sharing.component({"g"}, weak=False) == {"g", "TABLE"}


def test_literal_locals_of_init_hold_no_buffer() -> None:
    ctx = context(CLASSES, IMPORTS)
    init = ctx.graph.functions["Net.__init__"]
    assert init_bufferless_names(ctx, init, {"n_in", "n_out"}) == {"n_in", "n_out", "size"}
    assert init_bufferless_names(ctx, init, {"n_out"}) == {"n_out"}  # `size` needs `n_in`
    assert param_fields(init, init_fields(ctx, "Net")[1]) == {"n_in": "n_in"}  # type: ignore[index]
