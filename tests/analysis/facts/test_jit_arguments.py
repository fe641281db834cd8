"""The arguments of a call of a compiled function whose objects its body sees as the
caller's: `jax.jit`'s static ones, every argument of `eqx.filter_jit` but data."""

from __future__ import annotations

import pytest

from autoopt.analysis.core.jitted import jitted_callables
from autoopt.analysis.core.jitted_methods import jitted_methods
from autoopt.analysis.facts.aliases import Sharing
from autoopt.analysis.facts.jit_arguments import as_is

from ..helpers import HEADER, context, stmt

IMPORTS = HEADER + (
    "import functools\nimport equinox as eqx\nfrom flax import nnx\nfrom flax import struct\n"
)
PROGRAM = """
STATIC = (0,)

@jax.jit
def plain(a, b):
    return a + b

@functools.partial(jax.jit, static_argnums=(0, 2))
def by_position(a, b, c, d=1):
    return b

@functools.partial(jax.jit, static_argnames=("c",))
def by_name(a, b, c):
    return b

@functools.partial(jax.jit, static_argnums=STATIC)
def unread(a, b):
    return b

@eqx.filter_jit
def filtered(a, b, c, d):
    return b

@nnx.jit
def written_back(a, b):
    return b

def main(holder, box, n):
    x = jnp.ones(3)
    CALL
"""


def seen(call: str) -> list[str] | None:
    ctx = context(PROGRAM.replace("CALL", call), IMPORTS)
    at = stmt(ctx, call)
    node = at.node.value  # type: ignore[attr-defined]  # an expression statement
    name = node.func.value
    jitted = next(j for j in jitted_callables(ctx, frameworks=True) if j.name == name)
    found = as_is(ctx, at, node, jitted, bound=False)
    return None if found is None else [ctx.code(e) for e in found]


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        # every leaf an array or the call raises, but a pytree's aux data (a
        # `flax.struct` field with `pytree_node=False`) is the caller's object in the body
        ("plain(holder, box)", ["holder", "box"]),
        ("plain(x, 3)", []),  # an array, a number: no aux data
        ("plain((x, x), {'w': x})", []),  # a tuple, a dict of arrays: no object in aux data
        ("plain([x, holder], x)", ["[x, holder]"]),  # a list holding what may be a pytree
        ("plain(n, x)", ["n"]),  # of a kind not proven
        ("by_position(holder, x, box)", ["holder", "box"]),
        ("by_position(holder, box, x)", ["holder", "box", "x"]),  # `box` not static: aux data
        ("by_position(holder, x, c=box)", ["holder", "box"]),  # a static position by name
        ("by_position(holder, *[x, box])", ["holder", "[x, box]"]),  # starred: every one
        ("by_name(x, x, box)", ["box"]),  # a static name by position
        ("by_name(x, x, c=box)", ["box"]),
        ("unread(holder, box)", ["holder", "box"]),  # an option autoopt cannot read
        ("filtered(holder, x, 3, 'a')", ["holder"]),  # arrays, numbers, strings: data
        ("filtered(holder, box, n, None)", ["holder", "box", "n"]),  # `n` of unknown kind
        ("written_back(holder, box)", None),  # `nnx.jit`: not read here
    ],
)
def test_the_arguments_a_compiled_body_sees_as_they_are(call: str, expected: list | None) -> None:
    assert seen(call) == expected


GAN = """
class GAN:
    def __init__(self, n):
        self.n = n

    @functools.partial(jax.jit, static_argnums=0)
    def update(self, state, batch):
        return state

gan = GAN(3)

def main(state, batch):
    gan.update(state, batch)
"""


def test_a_jitted_method_sees_its_instance_as_it_is() -> None:
    ctx = context(GAN, IMPORTS)
    at = stmt(ctx, "gan.update(state, batch)")
    node = at.node.value  # type: ignore[attr-defined]  # an expression statement
    (jitted,) = jitted_methods(ctx)
    found = [ctx.code(e) for e in as_is(ctx, at, node, jitted, bound=True) or []]
    # and `state`, `batch`, of kinds not proven, whose pytrees' aux data the body sees too
    assert found == ["gan", "state", "batch"]


LINKS = """
class Holder:
    pass

@eqx.filter_jit
def probe(holder, box, x):
    box.kept = holder.w
    return x

@eqx.filter_jit
def total(a, b):
    return jnp.sum(a * b)

@struct.dataclass
class Record:
    x: jax.Array
    obj: object = struct.field(pytree_node=False)

@jax.jit
def moves(source, target):
    target.obj.kept = source.obj.w
    return source.x

@jax.jit
def adds(a, b):
    return a[0] + b["w"]

def main(params, box, other):
    holder = Holder()
    holder.w = params
    CALL
"""


@pytest.mark.parametrize(
    ("call", "joined"),
    [
        # the body may store what `holder` holds outside its array leaves on `box`
        ("probe(holder, box, 1.0)", True),
        # given arrays only, the body sees tracers: nothing to join
        ("probe(jnp.ones(3), jnp.zeros(3), 1.0)", False),
        # a body proven to keep nothing and store nothing, given data and `box`
        ("total(jnp.ones(3), box)", False),
        # `jax.jit`: a record's `pytree_node=False` field is its aux data, the caller's
        # object in the body, which may store what one holds on another
        ("moves(Record(jnp.ones(3), holder), Record(jnp.ones(3), box))", True),
        ("moves(holder, box)", True),  # of kinds not proven: pytrees, maybe
        # a tuple and a dict of arrays carry no object in their aux data
        ("adds((jnp.ones(3), params), {'w': jnp.ones(3)})", False),
    ],
)
def test_a_compiled_call_joins_only_what_its_body_sees_as_it_is(call: str, joined: bool) -> None:
    sharing = Sharing(context(LINKS.replace("CALL", call), IMPORTS), "main")
    assert sharing.may_share("box", "params") is joined
