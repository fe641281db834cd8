"""May-share: which names may hold the same buffers, strongly (syntax) or weakly."""

from __future__ import annotations

import pytest

from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.facts.aliases import RETAINED, Shares, Sharing, repeated_leaf

from ..helpers import HEADER, context, expr, stmt


def links(table: dict[str, set[str]], name: str) -> list[str]:
    return sorted(table.get(name, ()))


@pytest.mark.parametrize(
    ("code", "name", "strong", "weak"),
    [
        # strong: follows from the syntax
        ("b = a", "b", ["a"], []),
        ("s = (p, q)", "s", ["p", "q"], []),
        ("d = {'w': w}", "d", ["w"], []),
        ("s = State(p, p)", "s", ["p"], []),  # a constructor holds what it is given
        ("s2 = s._replace(w=w)", "s2", ["s", "w"], []),
        ("p = avg = init()", "p", ["avg"], []),  # chained assignment: one object
        ("hist.append(x['w'])", "hist", ["x"], []),  # a mutating method stores its argument
        ("d[k] = v", "d", ["v"], []),
        ("o.f = v", "o", ["v"], []),
        ("x, y = a, b", "x", ["a"], []),  # element by element
        ("x, y = a, b", "y", ["b"], []),
        ("y = a if c else b", "y", ["a", "b"], []),
        ("y = a or b", "y", ["a", "b"], []),
        ("y = a[0]", "y", ["a"], []),
        ("y = a.w", "y", ["a"], []),
        ("y = [*a]", "y", ["a"], []),
        ("f = lambda: a", "f", ["a"], []),
        ("y += a", "y", ["a"], []),
        ("for x in xs:\n    pass", "x", ["xs"], []),
        ("y = jax.tree_util.tree_map(lambda t: t, a)", "y", ["a"], []),
        # weak: autoopt cannot rule it out
        ("y = mystery(a)", "y", [], ["a"]),
        ("y = a.view()", "y", [], ["a"]),
        ("c = [a] + b", "c", [], ["a", "b"]),  # list concatenation
        ("y = np.array(a, copy=False)", "y", [], ["a"]),
        ("y = jax.tree.map(lambda t: t * 2, a)", "y", [], ["a"]),
        ("y = jax.tree.map(f, a)", "y", [], ["a", "f"]),
        ("with ctx(a) as y:\n    pass", "y", [], ["a"]),
        # fresh: the value holds no buffer of its inputs
        ("y = jnp.exp(a)", "y", [], []),
        ("y = np.array(a)", "y", [], []),
        ("y = float(a)", "y", [], []),
        ("y = a.item()", "y", [], []),
        ("y = jax.device_get(a)", "y", [], []),
        ("y = jax.random.normal(a, (3,))", "y", [], []),
        ("y = jax.tree.map(jnp.zeros_like, a)", "y", [], []),
        ("y = a > b", "y", [], []),
        ("y = a - b", "y", [], []),
        ("N = 3\ny = N", "y", [], []),  # a module constant is never a buffer
        # copies to the device
        ("a = np.zeros(3)\ny = jnp.asarray(a)", "y", [], []),  # a new device buffer
        ("a = jnp.zeros(3)\ny = jnp.asarray(a)", "y", [], ["a"]),  # may be `a` itself
    ],
)
def test_sharing_routes(code: str, name: str, strong: list[str], weak: list[str]) -> None:
    sharing = Sharing(context(code, HEADER), MODULE)
    assert links(sharing.strong, name) == strong
    assert links(sharing.weak, name) == weak


CALLS = """
G = init()

def ident(v):
    return v

def fresh(v):
    return jnp.zeros(3)

def pair(v, w):
    out = (v, w)
    return out

def glob():
    return G

def local():
    t = make()
    return t

def maybe(v):
    return helper(v)

@jax.jit
def step(s):
    return s

step2 = jax.jit(ident)

a1 = ident(a)
a2 = fresh(a)
a3 = pair(a, w=b)
a4 = glob()
a5 = local()
a6 = maybe(a)
a7 = step(a)
a8 = step2(a)
a9 = pair(*xs)
"""


@pytest.mark.parametrize(
    ("name", "strong", "weak"),
    [
        ("a1", ["a"], []),  # returns its argument
        ("a2", [], []),
        ("a3", ["a", "b"], []),  # through a local tuple, keyword argument included
        ("a4", ["G"], []),  # returns a global
        ("a5", [], []),  # returns a value of its own
        ("a6", [], [RETAINED, "a"]),  # what unknown code made of (and may keep from) it
        ("a7", [], []),  # jitted: new buffers
        ("a8", [], []),
        ("a9", ["xs"], []),  # a starred argument may fill any parameter
    ],
)
def test_module_functions_share_what_they_return(name, strong, weak) -> None:
    sharing = Sharing(context(CALLS, HEADER), MODULE)
    assert links(sharing.strong, name) == strong
    assert links(sharing.weak, name) == weak


def test_components_follow_weak_links_only_when_asked() -> None:
    sharing = Sharing(context(CALLS, HEADER), MODULE)
    assert sharing.component({"a"}, weak=False) == {"a", "a1", "a3", "b"}
    assert sharing.component({"a"}, weak=True) == {"a", "a1", "a3", "a6", "b", RETAINED}


def test_shares_of_an_expression_and_a_skipped_statement() -> None:
    ctx = context(CALLS, HEADER)
    sharing = Sharing(ctx, MODULE)
    assert sharing.shares(expr("(a, b.x, c[0], f(d))")) == Shares(
        strong={"a", "b", "c"}, weak={"d"}
    )
    assert sharing.shares(expr("(ident, G, True, jnp)")) == Shares(strong={"G"})
    skipped = Sharing(ctx, MODULE, skip=stmt(ctx, "a1 = ident(a)"))
    assert "a1" not in skipped.strong


def test_sharing_is_per_scope() -> None:
    ctx = context("def f(p):\n    q = p\n    return q\n\nr = s\n")
    assert Sharing(ctx, "f").strong == {"p": {"q"}, "q": {"p"}}
    assert Sharing(ctx, MODULE).strong == {"r": {"s"}, "s": {"r"}}


def test_shares_add_moves_everything_to_weak_when_asked() -> None:
    out = Shares(strong={"a"})
    out.add(Shares(strong={"b"}, weak={"c"}))
    out.add(Shares(strong={"d"}, weak={"e"}), weak=True)
    assert out == Shares(strong={"a", "b"}, weak={"c", "d", "e"})
    assert out.names() == {"a", "b", "c", "d", "e"}


@pytest.mark.parametrize(
    ("code", "weak", "retainer"),
    [
        ("monitor.observe(w)", {"monitor": {"w"}, "w": {"monitor"}}, None),  # the receiver
        ("keep(w)", {RETAINED: {"w"}, "w": {RETAINED}}, "keep"),  # anywhere
        ("print(w)", {}, None),
        ("jnp.sum(w)", {}, None),
        ("len(w)", {}, None),
    ],
)
def test_code_that_may_keep_its_arguments(code: str, weak: dict, retainer: str | None) -> None:
    sharing = Sharing(context(code, HEADER), MODULE)
    assert (sharing.strong, sharing.weak) == ({}, weak)
    assert sharing.retained_by({"w"}) == retainer
    assert sharing.retained_by({"other"}) is None


def test_a_star_parameter_shares_every_positional_argument() -> None:
    sharing = Sharing(context("def pack(*vs):\n    return vs\n\nh = pack(a, b)\n"), MODULE)
    assert sharing.component({"h"}, weak=False) == {"h", "a", "b"}


LEAVES = """
class State(NamedTuple):
    params: object
    ema: object

def init(p):
    return State(params=p, ema=p)

def init_copy(p):
    return State(params=p, ema=p * 1.0)

w = jnp.zeros(3)
"""


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("State(w, w)", ("`w` fills two leaves of `s`: one buffer would be donated twice", True)),
        ("init(w)", ("`p` fills two leaves of `s`: one buffer would be donated twice", True)),
        ("init_copy(w)", None),
        ("{'a': jnp.zeros(3), 'b': jnp.ones(3)}", None),
        ("w", None),  # one array, one buffer
        (
            "make_state(w)",
            ("cannot prove the leaves of `s` are distinct buffers (`make_state(w)`)", False),
        ),
    ],
)
def test_repeated_leaf(value: str, why: tuple[str, bool] | None) -> None:
    code = "from typing import NamedTuple\n" + LEAVES + f"s = {value}\nprint(s)\n"
    ctx = context(code, HEADER)
    last = ctx.graph.scope_stmts(MODULE)[-1]
    assert repeated_leaf(ctx, last, "s") == why
