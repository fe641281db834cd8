"""The arguments of a call of a compiled function whose objects its body sees as the
caller's: `jax.jit`'s static ones, every argument of `eqx.filter_jit` but data."""

from __future__ import annotations

import pytest

from autoopt.analysis.core.jitted import jitted_callables
from autoopt.analysis.core.jitted_methods import jitted_methods
from autoopt.analysis.facts.aliases import Sharing
from autoopt.analysis.facts.jit_arguments import as_is

from ..helpers import HEADER, context, stmt

IMPORTS = HEADER + "import functools\nimport equinox as eqx\nfrom flax import nnx\n"
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
        ("plain(holder, box)", []),  # every leaf an array or the call raises
        ("by_position(holder, x, box)", ["holder", "box"]),
        ("by_position(holder, x, c=box)", ["holder", "box"]),  # a static position by name
        ("by_position(holder, *[x, box])", ["holder", "[x, box]"]),  # starred: every one
        ("by_name(holder, x, box)", ["box"]),  # a static name by position
        ("by_name(holder, x, c=box)", ["box"]),
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
    assert [ctx.code(e) for e in as_is(ctx, at, node, jitted, bound=True) or []] == ["gan"]


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
    ],
)
def test_a_compiled_call_joins_only_what_its_body_sees_as_it_is(call: str, joined: bool) -> None:
    sharing = Sharing(context(LINKS.replace("CALL", call), IMPORTS), "main")
    assert sharing.may_share("box", "params") is joined


MODULES = """
class Model(eqx.Module):
    w: jax.Array
    n: int

    def __init__(self, n, key):
        self.w = jax.random.normal(key, (n,))
        self.n = n

class Boxed(eqx.Module):
    w: jax.Array
    box: list

    def __init__(self, key):
        self.w = jax.random.normal(key, (3,))
        self.box = []

@eqx.filter_jit
def filtered(a, b):
    return a.w

@functools.partial(jax.jit, static_argnums=(0, 1))
def static(a, b):
    return a.w

def main(key):
    model = Model(3, key)
    boxed = Boxed(key)
    CALL
"""


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        # tracers of `w`, and `n`, a number: the body sees nothing of the caller's
        ("filtered(model, boxed)", ["boxed"]),
        ("filtered(a=model, b=boxed)", ["boxed"]),
        # `jax.jit` hands a static argument on as it is, the object itself
        ("static(model, boxed)", ["model", "boxed"]),
    ],
)
def test_an_inert_module_is_no_object_the_body_sees(call: str, expected: list[str]) -> None:
    ctx = context(MODULES.replace("CALL", call), IMPORTS)
    at = stmt(ctx, call)
    node = at.node.value  # type: ignore[attr-defined]  # an expression statement
    name = node.func.value
    jitted = next(j for j in jitted_callables(ctx, frameworks=True) if j.name == name)
    assert [ctx.code(e) for e in as_is(ctx, at, node, jitted, bound=False) or []] == expected
