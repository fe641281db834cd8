"""The value model's containers of arrays: a tuple, list or dict (string keys) whose every
element is a JAX array (`Value.container`), where they come from, what reading them gives,
and where the model must not claim one (`analysis/values/mutable.py` for lists and dicts)."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.values.lattice import Kind, Value
from autoopt.analysis.values.model import model
from autoopt.analysis.values.mutable import changed_names

HEADER = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"
ARRAYS = "a = jnp.ones(3)\nb = jnp.zeros(3)\n"

TUPLE = Value(Kind.PYTREE, detail="tuple")
LIST = Value(Kind.PYTREE, detail="list")
DICT = Value(Kind.PYTREE, detail="dict")
PYTREE = Value(Kind.PYTREE)
ARRAY = Value(Kind.ARRAY)
STRING = Value(Kind.STRING)
SCALAR = Value(Kind.SCALAR)
UNKNOWN = Value(Kind.UNKNOWN)
CONTAINER = Value(Kind.CONTAINER)


def _context(body: str) -> ModuleContext:
    code = HEADER + ARRAYS + body
    return ModuleContext("<t>", code, cst.parse_module(code))


def value_read(body: str, name: str) -> Value:
    """The value `name` holds when a final `print(name)` reads it (print keeps nothing, so
    the read itself does not hand a list or dict to code that could change it)."""
    ctx = _context(body + f"\nprint({name})\n")
    last = ctx.graph.scope_stmts("<module>")[-1]
    return model(ctx).name(last, name)


def strip(value: Value) -> Value:
    """The value without shape and dtype (the tables ask about kinds and containers)."""
    return Value(value.kind, value.constant, value.detail)


@pytest.mark.parametrize(
    ("body", "name", "expected"),
    [
        # literals
        ("t = (a, b)", "t", TUPLE),
        ("t = [a, b]", "t", LIST),
        ("t = {'w': a, 'b': b}", "t", DICT),
        ("t = {'w': a, 'nested': (a, b)}", "t", PYTREE),  # a pytree, not a dict of arrays
        ("t = {0: a, 1: b}", "t", PYTREE),  # keys that are not strings
        # comprehensions and rebuilt containers
        ("ps = load()\nt = tuple(jnp.asarray(p, jnp.float32) for p in ps)", "t", TUPLE),
        ("ps = load()\nt = list(jnp.asarray(p) for p in ps)", "t", LIST),
        ("ps = load()\nt = [jnp.asarray(p) for p in ps]", "t", LIST),
        ("d = {'u': a, 'v': b}\ne = {k: d[k] * 2.0 for k in d}", "e", DICT),
        ("l = [a, b]\nt = tuple(l)", "t", TUPLE),
        ("t = (a, b)\nl = list(t)", "l", LIST),
        ("d = {'u': a}\ne = dict(d)", "e", DICT),
        ("d = dict(u=a, v=b)", "d", DICT),
        ("d = {'u': a}\ne = dict((k, v + 1.0) for k, v in d.items())", "e", DICT),
        ("d = {'u': a}\ne = dict(zip(d.keys(), d.values()))", "e", DICT),
        ("d = {'u': a}\nt = tuple(d.values())", "t", TUPLE),
        # an update over `zip` of two tuples of arrays is a tuple of arrays
        (
            "p = (a, b)\ng = (b, a)\np = tuple(x - 0.1 * y for x, y in zip(p, g, strict=True))",
            "p",
            TUPLE,
        ),
        # the gradient has the structure of what it differentiates
        ("def f(p):\n    return jnp.sum(p[0])\np = (a, b)\ng = jax.grad(f)(p)", "g", TUPLE),
        ("def f(p):\n    return jnp.sum(p['u'])\np = {'u': a}\ng = jax.grad(f)(p)", "g", DICT),
        # what reading them gives
        ("d = {'u': a, 'v': b}\nx = d['u']", "x", ARRAY),
        ("t = (a, b)\nx = t[0]", "x", ARRAY),
        ("t = (a, b)\nx = t[1:]", "x", TUPLE),
        ("t = (a, b)\nx, y = t", "y", ARRAY),
        ("d = {'u': a}\nk, = d", "k", STRING),  # unpacking a dict gives its keys
        ("t = (a, b)\nfor x in t:\n    pass", "x", ARRAY),
        ("d = {'u': a}\nfor k in d:\n    pass", "k", STRING),  # keys, not arrays
        ("d = {'u': a}\nfor v in d.values():\n    pass", "v", ARRAY),
        ("d = {'u': a}\nfor k in d.keys():\n    pass", "k", STRING),
        ("d = {'u': a}\nfor k, v in d.items():\n    pass", "k", STRING),
        ("d = {'u': a}\nfor k, v in d.items():\n    pass", "v", ARRAY),
        ("t = (a, b)\nfor i, x in enumerate(t):\n    pass", "i", SCALAR),
        ("t = (a, b)\nfor i, x in enumerate(t):\n    pass", "x", ARRAY),
        ("t = (a, b)\ng = [b, a]\nfor x, y in zip(t, g):\n    pass", "y", ARRAY),
        # a list or dict only read, or handed to a module function that only reads it
        ("def total(xs):\n    return xs[0] + xs[1]\nl = [a, b]\ns = total(l)", "l", LIST),
        ("def first(d):\n    return d['u']\nd = {'u': a}\nx = first(d)", "x", ARRAY),
        ("def make():\n    d = {'u': a}\n    return d\nd = make()", "d", DICT),
    ],
)
def test_containers_of_arrays(body: str, name: str, expected: Value) -> None:
    assert strip(value_read(body, name)) == expected


@pytest.mark.parametrize(
    ("body", "name", "expected"),
    [
        # a host value next to the arrays: not a pytree of arrays at all
        ("d = {'w': a, 'name': 'tanh'}", "d", CONTAINER),
        ("d = {'w': a, 'steps': 3}", "d", CONTAINER),
        ("t = (a, len)", "t", CONTAINER),
        ("t = (a, lambda v: v)", "t", CONTAINER),
        ("ps = load()\nt = tuple(str(p) for p in ps)", "t", UNKNOWN),
        # changed in place with a host value (or a value autoopt cannot see)
        ("l = [a, b]\nl.append(1.0)", "l", UNKNOWN),
        ("l = [a, b]\nl.append(a)", "l", UNKNOWN),  # changed in place: never claimed
        ("l = [a, b]\nl += [1.0]\nm = l", "m", UNKNOWN),
        ("d = {'u': a}\nd['n'] = 3", "d", UNKNOWN),
        ("d = {'u': a}\nd.update(n=3)", "d", UNKNOWN),
        ("l = [a, b]\nm = l\nm.append(1.0)", "l", UNKNOWN),  # through an alias
        ("l = [a, b]\nm = l\nl.append(1.0)", "m", UNKNOWN),
        ("def add(xs):\n    xs.append(1.0)\nl = [a, b]\nadd(l)", "l", UNKNOWN),
        (
            "def make():\n    l = [a]\n    return l\nm = make()\nm.append(1.0)\nn = make()",
            "n",
            UNKNOWN,
        ),
        # handed to code autoopt cannot see: a pytree of arrays, no container claimed
        ("l = [a, b]\nregister(l)", "l", PYTREE),
        ("d = {'u': a}\nholder = [d]", "d", PYTREE),
        ("d = {'u': a}\nobj.state = d", "d", PYTREE),
        # zip with an iterable that is not arrays
        ("t = (a, b)\nnames = ['w', 'b']\nfor x, s in zip(t, names):\n    pass", "s", UNKNOWN),
        ("t = (a, b)\nn = load()\nu = tuple(s for x, s in zip(t, n))", "u", UNKNOWN),
        # keys autoopt cannot see: a pytree of arrays (as before), not a dict of arrays
        ("t = (a, b)\nn = load()\nu = {s: x for x, s in zip(t, n)}", "u", PYTREE),
        # a nested target is not followed
        ("t = (a, b)\nu = [x for i, (x, y) in enumerate(zip(t, t))]", "u", UNKNOWN),
        ("t = (a, b)\nfor i, (x, y) in enumerate(zip(t, t)):\n    pass", "x", UNKNOWN),
        # iterating a dict gives strings: a tuple of them is not a pytree of arrays
        ("d = {'u': a}\nu = tuple(k for k in d)", "u", UNKNOWN),
        ("d = {'u': a}\nu = list(d)", "u", UNKNOWN),
        ("d = {'u': a}\nfor k in d:\n    pass", "k", STRING),
        # a pytree of unknown container: its parts are pytrees, its items unknown
        ("p = jax.device_put((a, b))\nx = p[0]", "x", PYTREE),
        ("p = jax.device_put((a, b))\nfor x in p:\n    pass", "x", UNKNOWN),
        # the gradient with respect to another argument, or with an auxiliary output
        (
            "def f(p, q):\n    return jnp.sum(q[0])\np = (a, b)\ng = jax.grad(f, argnums=1)(p, p)",
            "g",
            PYTREE,
        ),
        (
            "def f(p):\n    return jnp.sum(p[0]), 1\np = (a, b)\ng = jax.grad(f, has_aux=True)(p)",
            "g",
            PYTREE,
        ),
    ],
)
def test_what_is_not_a_container_of_arrays(body: str, name: str, expected: Value) -> None:
    assert strip(value_read(body, name)) == expected


def test_a_joined_container_keeps_only_what_both_sides_agree_on() -> None:
    body = "t = (a, b)\nif flag:\n    t = [a, b]"
    assert strip(value_read(body, "t")) == PYTREE
    assert strip(value_read("t = (a, b)\nif flag:\n    t = (b, a)", "t")) == TUPLE
    assert strip(value_read("t = (a, b)\nif flag:\n    t = a", "t")) == PYTREE


def test_a_loop_carried_dict_of_arrays_through_helpers() -> None:
    """The shape of fhn_ring_rk4: a dict comprehension over the state, through helpers."""
    body = """
def rhs(state):
    u, v = state["u"], state["v"]
    return {"u": u - v, "v": 0.5 * u}


def axpy(s, x, y):
    return {k: y[k] + s * x[k] for k in y}


def step(state, dt):
    k1 = rhs(state)
    k2 = rhs(axpy(dt / 2, k1, state))
    return {k: state[k] + dt * (k1[k] + k2[k]) for k in state}


state = {"u": a, "v": b}
for _ in range(3):
    state = step(state, 0.1)
"""
    ctx = _context(body + "\nprint(state)\n")
    values = model(ctx)
    for name in ("rhs", "axpy", "step"):
        assert strip(values.returns(ctx.graph.functions[name])) == DICT, name
    assert strip(values.parameter(ctx.graph.functions["axpy"], "x")) == DICT


@pytest.mark.parametrize(
    ("body", "mutated", "escaping"),
    [
        ("l = [a]\nl.append(b)", {"l"}, {"l"}),
        ("l = [a]\nm = l\nm.append(b)", {"l", "m"}, {"l", "m"}),
        ("l = [a]\nstore(l)", set(), {"l"}),
        ("l = [a]\nx = l[0]\nfor y in l:\n    pass\nn = len(l)", set(), set()),
        ("def f(xs):\n    xs[0] = 1.0\nl = [a]\nf(l)", {"xs", "l"}, {"xs", "l"}),
        ("def f(xs):\n    return xs[0]\nl = [a]\nf(l)", set(), set()),
        ("d = {'u': a}\nx = jnp.stack(list(d.values()))", set(), set()),
        ("d = {'u': a}\npair = (d, 1)", set(), {"d"}),
        ("l = [a]\ndef f(xs=l):\n    return xs", set(), {"l", "xs"}),
    ],
)
def test_names_changed_or_handed_out(body: str, mutated: set[str], escaping: set[str]) -> None:
    changed = changed_names(_context(body))
    names = {"l", "m", "xs", "d"}
    assert changed.mutated & names == mutated
    assert changed.escaping & names == escaping
