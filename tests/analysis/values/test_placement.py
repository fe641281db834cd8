"""Where a value lives: host (NumPy), device (JAX) or other."""

from __future__ import annotations

import pytest

from autoopt.analysis.values.placement import Place, Placement

from ..helpers import HEADER, context, expr, stmt

HOST, DEVICE, OTHER = Place.HOST, Place.DEVICE, Place.OTHER

SOURCE = """
@jax.jit
def step(v):
    return v

def host_pair():
    return np.zeros(2), jnp.ones(2)

def dev():
    return jnp.ones(2)

def mixed(flag):
    if flag:
        return np.ones(2)
    return jnp.ones(2)

def both(p):
    return p

def device_only(q):
    return q

def inside():
    return a

a = np.zeros(3)
b = jnp.zeros(3)
rng = np.random.default_rng(0)
r = rng.normal(size=3)
h, d = host_pair()
h2, d2 = np.ones(1), jnp.ones(1)
g = jax.device_get(b)
pu = jax.device_put(a)
s = step(a)
c = dev()
m = mixed(True)
it = b.item()
u = both(a)
u2 = both(b)
v = device_only(b)
k = jax.random.PRNGKey(0)
if flag:
    z = a
else:
    z = b
probe(a, b, r, h, d, h2, d2, g, pu, s, c, m, it, z, k, x, rng)
"""


@pytest.mark.parametrize(
    ("code", "place"),
    [
        # host: NumPy, and what NumPy objects give
        ("a", HOST),
        ("rng", OTHER),  # a NumPy Generator: a host object, not an array to transfer
        ("r", HOST),  # a method of a NumPy Generator
        ("h", HOST),  # unpacking a module function's returned tuple
        ("h2", HOST),
        ("g", HOST),  # jax.device_get
        ("np.asarray(b)", HOST),
        ("a.T", HOST),
        ("a[0]", HOST),
        ("-a", HOST),
        ("a + 1", HOST),
        ("a * 2.0", HOST),
        ("a.sum()", HOST),
        # device: jax.numpy, jax.random, jax.device_put, jitted callables
        ("b", DEVICE),
        ("d", DEVICE),
        ("d2", DEVICE),
        ("pu", DEVICE),
        ("s", DEVICE),  # a jitted function's output, even of a host input
        ("c", DEVICE),
        ("k", DEVICE),
        ("a + b", DEVICE),  # the device operand wins
        ("b.mean()", DEVICE),
        ("jax.nn.relu(a)", DEVICE),
        ("jax.lax.stop_gradient(a)", DEVICE),
        ("dev()", DEVICE),
        ("device_only(b)", DEVICE),  # a parameter follows its call sites
        # other: Python values, unknowns, and disagreements
        ("m", OTHER),  # returns host on one path, device on the other
        ("z", OTHER),  # host on one branch, device on the other
        ("both(a)", OTHER),  # called with host and device arguments
        ("host_pair()", OTHER),  # a tuple
        ("it", OTHER),  # .item()
        ("b.tolist()", OTHER),
        ("b.shape", OTHER),
        ("a + x", OTHER),
        ("x", OTHER),
        ("3", OTHER),
    ],
)
def test_place_of(code: str, place: Place) -> None:
    ctx = context(SOURCE, HEADER)
    assert Placement(ctx).place_of(stmt(ctx, "probe("), expr(code)) is place


def test_parameters_and_globals_inside_functions() -> None:
    ctx = context(SOURCE, HEADER)
    places = Placement(ctx)
    assert places.place_of(stmt(ctx, "return p"), expr("p")) is OTHER
    assert places.place_of(stmt(ctx, "return q"), expr("q")) is DEVICE
    assert places.place_of(stmt(ctx, "return a"), expr("a")) is HOST  # the module's `a`


def test_defined() -> None:
    ctx = context(SOURCE, HEADER)
    places = Placement(ctx)
    unpack = stmt(ctx, "h, d = ")
    assert (places.defined(unpack, "h"), places.defined(unpack, "d")) == (HOST, DEVICE)
    assert places.defined(stmt(ctx, "a = "), "a") is HOST
    assert places.defined(stmt(ctx, "def step"), "step") is OTHER  # not an assignment


def test_a_keyword_only_parameter_is_not_read_by_position() -> None:
    code = "def f(a, *rest, scale=None):\n    return scale\n\nr = f(np.zeros(3), jnp.zeros(3))\n"
    ctx = context(code, HEADER)
    assert Placement(ctx).place_of(stmt(ctx, "return scale"), expr("scale")) is OTHER
    ctx = context(code.replace("jnp.zeros(3))", "scale=jnp.zeros(3))"), HEADER)
    assert Placement(ctx).place_of(stmt(ctx, "return scale"), expr("scale")) is DEVICE


def test_a_loop_carried_name_settles_on_its_definitions() -> None:
    code = "x = jnp.zeros(3)\nfor i in range(3):\n    probe(x)\n    x = jnp.sin(x)\n"
    ctx = context(code, HEADER)
    assert Placement(ctx).place_of(stmt(ctx, "probe("), expr("x")) is DEVICE
