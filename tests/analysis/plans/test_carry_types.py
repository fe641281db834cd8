"""Computed carry types: a carried name keeps its type when one iteration gives it the
shape and dtype it starts with (matrix products, reductions, fields of NamedTuples,
arrays built on the host), and never where a shape or dtype may change."""

from __future__ import annotations

import pytest

from autoopt.analysis.plans.carry import entry_value, unstable_carry
from autoopt.analysis.plans.carry_types import ArrayType, CarryTypes, PytreeInstance

from ..helpers import HEADER, context

CLASSES = """
from typing import NamedTuple

class State(NamedTuple):
    s: jnp.ndarray
    i: jnp.ndarray

def infect(state, mixing):
    lam = 0.3 * (mixing @ state.i) / (mixing @ jnp.ones(4, jnp.float32))
    new = lam * state.s * 0.1
    return State(s=state.s - new, i=state.i + new - 0.1 * state.i), new

def pair_sum(pos):
    delta = pos[:, None, :] - pos[None, :, :]
    return jnp.sum(delta**2 * delta, axis=1)

"""


def loop_of(setup: str, body: str):
    lines = "".join(f"        {line}\n" for line in body.split("\n"))
    code = CLASSES + "def run(xs):\n" + setup + "    for _ in range(4):\n" + lines
    ctx = context(code, HEADER)
    loop = ctx.graph.loops[0]
    return ctx, ctx.graph.loop_stmts(loop.id)


def doubts(setup: str, body: str, carry: tuple[str, ...]) -> list[str]:
    ctx, stmts = loop_of(setup, body)
    return unstable_carry(ctx, stmts, carry)


def unproven(name: str, change: str = "") -> str:
    why = f": {change}" if change else ""
    return f"cannot prove `{name}` keeps its shape and dtype across iterations{why}"


X64 = " (float64 under JAX_ENABLE_X64, so a Python loop promotes it and `lax.scan` raises)"
MIXING = (
    "    rng = np.random.default_rng(0)\n"
    "    mixing = jnp.asarray(np.eye(4) + 0.1 * rng.random((4, 4)), dtype=jnp.float32)\n"
)
SEEDED = "    seeded = np.zeros(4, np.float32)\n    seeded[0] = 1.0\n"


@pytest.mark.parametrize(
    ("setup", "body", "carry"),
    [
        # a NamedTuple through a helper: square float32 matrix products of its fields
        (
            MIXING + SEEDED + "    state = State(s=jnp.ones(4, jnp.float32) - jnp.asarray(seeded),"
            " i=jnp.asarray(seeded))\n",
            "state, new = infect(state, mixing)\nxs.append(new)",
            ("state",),
        ),
        # `_replace` of one field with a value of its type
        (
            "    state = State(jnp.zeros(3), jnp.ones(3))\n",
            "state = state._replace(i=jnp.tanh(state.i) + state.s)\nxs.append(state.i)",
            ("state",),
        ),
        # a reduction with keepdims broadcast back
        (
            "    x = jnp.ones((4, 3), jnp.float32)\n",
            "x = x - x.mean(axis=1, keepdims=True)\nx = x * 0.5",
            ("x",),
        ),
        # a reduction along axis 0 broadcasts against the trailing axes
        ("    x = jnp.ones((4, 3))\n", "x = x - jnp.mean(x, axis=0)\nx = x + 1.0", ("x",)),
        # pairwise differences summed back to the positions' shape
        (
            "    pos = jnp.zeros((5, 3), jnp.float32)\n",
            "force = pair_sum(pos)\npos = pos + 0.01 * force",
            ("pos",),
        ),
        # a matrix drawn on the host, shape from a module constant
        (
            "    rng = np.random.default_rng(1)\n"
            "    w = jnp.asarray(rng.normal(size=(4, 4)), jnp.float32)\n"
            "    h = jnp.zeros(4, jnp.float32)\n",
            "h = jnp.tanh(w @ h + 1.0)\nxs.append(h)",
            ("h",),
        ),
        # Python numbers folded: `round` away from a half, a float32 NumPy array scaled
        (
            "    x = jnp.zeros((round(7 / 3), 3))\n    w = np.ones(3, np.float32) * 2.0\n",
            "x = x - x.mean(axis=1, keepdims=True)\nx = x * jnp.asarray(w)",
            ("x",),
        ),
        # two carries read by each other, of one known type
        (
            "    a = jnp.zeros((2, 3))\n    b = jnp.ones((2, 3))\n",
            "a = a + b.T.T\nb = b * a",
            ("a", "b"),
        ),
    ],
)
def test_proven(setup: str, body: str, carry: tuple[str, ...]) -> None:
    assert doubts(setup, body, carry) == []


@pytest.mark.parametrize(
    ("setup", "body", "carry", "found"),
    [
        # a non-square matrix: the carry's length changes
        (
            "    m = jnp.ones((3, 4), jnp.float32)\n    h = jnp.ones(4, jnp.float32)\n",
            "h = jnp.tanh(m @ h)\nxs.append(h)",
            ("h",),
            [
                unproven(
                    "h",
                    "`h` is float32[4] when the loop starts and one iteration makes it float32[3]",
                )
            ],
        ),
        # the matrix changes in the loop: no type is known for it
        (
            "    m = jnp.eye(4)\n    h = jnp.ones(4)\n",
            "h = m @ h\nm = jnp.kron(m, m)",
            ("h", "m"),
            [unproven("m")],
        ),
        # a matrix of unknown shape (a parameter)
        ("    h = jnp.ones(4)\n", "h = xs @ h\nh = h * 2.0", ("h",), [unproven("h")]),
        # a broadcast that grows the carry
        (
            "    x = jnp.zeros(3, jnp.float32)\n    table = jnp.ones((2, 3), jnp.float32)\n",
            "x = x + table\nx = x * 0.5",
            ("x",),
            [
                unproven(
                    "x",
                    "`x` is float32[3] when the loop starts and one iteration makes it "
                    "float32[2,3]",
                )
            ],
        ),
        # a float32 carry times a float64 NumPy array: float64 under x64
        (
            "    x = jnp.ones(3, jnp.float32)\n    w = np.ones(3)\n",
            "x = x * w\nx = x + 1.0",
            ("x",),
            [
                unproven(
                    "x",
                    "`x` is float32[3] when the loop starts and one iteration makes it "
                    "default-float[3]" + X64,
                )
            ],
        ),
        # a float32 field fed by a default-float one (the SEIR corpus program)
        (
            MIXING + SEEDED + "    state = State(s=jnp.zeros(4), i=jnp.asarray(seeded))\n",
            "state, new = infect(state, mixing)\nxs.append(new)",
            ("state",),
            [
                unproven(
                    "state",
                    "`state.i` is float32[4] when the loop starts and one iteration "
                    "makes it default-float[4]" + X64,
                )
            ],
        ),
        # an integer carry plus a float array
        (
            "    n = jnp.zeros(3, jnp.int32)\n    f = jnp.ones(3, jnp.float32)\n",
            "n = n + f\nxs.append(n)",
            ("n",),
            [unproven("n")],
        ),
        # an integer NamedTuple field stepped by a Python number: not computed
        (
            "    state = State(jnp.zeros(3, jnp.int32), jnp.ones(3))\n",
            "state = State(state.s + 1, state.i * 0.5)\nxs.append(state.i)",
            ("state",),
            [unproven("state")],
        ),
        # a host array handed to unseen code, which may resize it
        (
            "    w = np.ones(3, np.float32)\n    prepare(w)\n    x = jnp.ones(3, jnp.float32)\n",
            "x = x * jnp.asarray(w)\nx = x + 1.0",
            ("x",),
            [unproven("x")],
        ),
        # a host array aliased by `np.asarray` (the same object), then resized
        (
            "    w = np.ones(3, np.float32)\n    v = np.asarray(w)\n    v.resize(6)\n"
            "    x = jnp.ones(3, jnp.float32)\n",
            "x = x * jnp.asarray(w)\nx = x + 1.0",
            ("x",),
            [unproven("x")],
        ),
        (
            "    w = np.ones(3, np.float32)\n    v = w.astype(np.float32, copy=False)\n"
            "    x = jnp.ones(3, jnp.float32)\n",
            "x = x * jnp.asarray(w)\nx = x + 1.0",
            ("x",),
            [unproven("x")],
        ),
        # `round` of a number at a half: the last bit of a platform's arithmetic decides
        (
            "    x = jnp.zeros((round(5 / 2), 3))\n",
            "x = x - x.mean(axis=1, keepdims=True)\nx = x * 0.5",
            ("x",),
            [unproven("x")],
        ),
        # a float32 NumPy array times a number beyond float32 (NumPy 1 widens it)
        (
            "    w = np.ones(3, np.float32) * 1e39\n    x = jnp.ones(3, jnp.float32)\n",
            "x = x * jnp.asarray(w)\nx = x + 1.0",
            ("x",),
            [unproven("x")],
        ),
        # a power too large to compute is not folded
        (
            "    x = jnp.zeros((10 ** 10 ** 9, 3))\n",
            "x = x - x.mean(axis=1, keepdims=True)\nx = x * 0.5",
            ("x",),
            [unproven("x")],
        ),
        # a host array resized in place
        (
            "    w = np.ones(3, np.float32)\n    w.resize(6, refcheck=False)\n"
            "    x = jnp.ones(3, jnp.float32)\n",
            "x = x * jnp.asarray(w)\nx = x + 1.0",
            ("x",),
            [unproven("x")],
        ),
    ],
)
def test_not_proven(setup: str, body: str, carry: tuple[str, ...], found: list[str]) -> None:
    assert doubts(setup, body, carry) == found


LATTICE = """
N_ATOMS = 27

def forces(pos):
    delta = pos[:, None, :] - pos[None, :, :]
    r2 = jnp.sum(delta**2, axis=-1) + jnp.eye(pos.shape[0], dtype=jnp.float32)
    return jnp.sum((1.0 / r2**3)[:, :, None] * delta, axis=1)

def run():
    rng = np.random.default_rng(0)
    side = round(N_ATOMS ** (1 / 3))
    grid = np.stack(np.meshgrid(*[np.arange(side)] * 3, indexing="ij"), -1).reshape(-1, 3)
    pos = jnp.asarray((grid + 0.5) * 1.5 + 0.05 * rng.normal(size=grid.shape), jnp.float32)
    vel = jnp.asarray(rng.normal(scale=np.sqrt(0.05), size=(N_ATOMS, 3)), jnp.float32)
    vel = vel - vel.mean(axis=0)
    force = forces(pos)
    for _ in range(5):
        vel = vel + 0.002 * force
        pos = pos + 0.004 * vel
        force = forces(pos)
"""


def test_positions_built_on_the_host_and_pairwise_forces() -> None:
    """`round(27 ** (1 / 3))` is folded as Python computes it, the grid's shape follows
    `meshgrid`, `stack` and `reshape(-1, 3)`, and the pairwise differences summed over
    one axis have the positions' shape."""
    ctx = context(LATTICE, HEADER)
    stmts = ctx.graph.loop_stmts(ctx.graph.loops[0].id)
    types = CarryTypes(ctx, stmts, ("vel", "pos", "force"))
    assert types.entry == {name: ArrayType((27, 3), "float32") for name in ("vel", "pos", "force")}
    assert unstable_carry(ctx, stmts, ("vel", "pos", "force")) == []


def test_pairwise_forces_with_a_default_float_identity() -> None:
    """The thermostat corpus program: `jnp.eye(n)` is the default float, so the forces
    are float64 under x64 and promote the float32 velocities."""
    source = LATTICE.replace(", dtype=jnp.float32)", ")")
    ctx = context(source, HEADER)
    stmts = ctx.graph.loop_stmts(ctx.graph.loops[0].id)
    assert unstable_carry(ctx, stmts, ("vel", "pos", "force"))[0] == unproven(
        "vel",
        "`vel` is float32[27,3] when the loop starts and one iteration makes it "
        "default-float[27,3]" + X64,
    )


def test_a_carry_that_may_still_be_the_argument() -> None:
    """`x` is bound before the loop on one path only: on the other it is the argument,
    of a type nothing shows."""
    code = """
def run(x, flag):
    if flag:
        x = jnp.zeros(3)
    m = jnp.ones((3, 3))
    for _ in range(4):
        x = m @ x
        x = x * 0.5
"""
    ctx = context(code, HEADER)
    stmts = ctx.graph.loop_stmts(ctx.graph.loops[0].id)
    assert unstable_carry(ctx, stmts, ("x",)) == [unproven("x")]
    bound = context(code.replace("    if flag:\n        x", "    x"), HEADER)
    assert unstable_carry(bound, bound.graph.loop_stmts(bound.graph.loops[0].id), ("x",)) == []


def test_a_matrix_a_nested_function_rebinds() -> None:
    code = """
def run():
    m = jnp.ones((3, 3))
    x = jnp.zeros(3)

    def grow():
        nonlocal m
        m = jnp.ones((4, 3))

    for _ in range(4):
        x = m @ x
        x = x * 0.5
    grow()
"""
    ctx = context(code, HEADER)
    stmts = ctx.graph.loop_stmts(ctx.graph.loops[0].id)
    assert unstable_carry(ctx, stmts, ("x",)) == [unproven("x")]


def test_a_module_with_assignment_expressions_gets_no_proof() -> None:
    """The dataflow graph does not see what `:=` binds: `x` looks rebound only by
    `x * 0.5`, while the walrus broadcasts it to (2, 3)."""
    code = """
def run():
    x = jnp.zeros(3)
    for _ in range(3):
        y = jnp.sum(x := x + jnp.ones((2, 3)))
        x = x * 0.5
"""
    ctx = context(code, HEADER)
    assert unstable_carry(ctx, ctx.graph.loop_stmts(ctx.graph.loops[0].id), ("x",)) == [
        "cannot prove `x` keeps its shape and dtype: the module binds names with `:=`, "
        "which the analysis does not follow"
    ]


def test_types_at_the_loop_start() -> None:
    ctx, stmts = loop_of(
        MIXING + SEEDED + "    state = State(s=jnp.zeros(4), i=jnp.asarray(seeded))\n",
        "state, new = infect(state, mixing)\nxs.append(new)",
    )
    types = CarryTypes(ctx, stmts, ("state",))
    assert types.entry["state"] == PytreeInstance(
        "State", (("s", ArrayType((4,), "float")), ("i", ArrayType((4,), "float32")))
    )
    assert not types.proven("state")


@pytest.mark.parametrize(
    ("scale", "dtype"),
    [("np.sqrt(4)", "float64"), ("np.sqrt(4.0)", "float64"), ("np.abs(4)", None)],
)
def test_a_numpy_function_of_a_python_int(scale: str, dtype: str | None) -> None:
    """`np.sqrt(4)` is a NumPy float64 scalar (the int becomes an int64, sqrt a float64):
    a float32 draw divided by it is float64; `np.abs(4)` stays an int, not followed."""
    ctx, stmts = loop_of(
        f"    w = np.random.default_rng(0).normal(size=(3, 2)) / {scale}\n",
        "v = w + 1.0",
    )
    found = CarryTypes(ctx, stmts, ("w",), iterate=False).entry["w"]
    assert found == (ArrayType((3, 2), dtype, True) if dtype else None)


def test_entry_value_gives_a_namedtuple_its_leaves_dtype() -> None:
    """AO103's scan form asks that a carry be floating: a NamedTuple whose every leaf has
    one known floating dtype is."""
    ctx, stmts = loop_of(
        "    state = State(jnp.zeros(3, jnp.float32), jnp.ones(3, jnp.float32))\n",
        "state = State(state.s + 1.0, state.i * 0.5)\nxs.append(state.i)",
    )
    assert entry_value(ctx, stmts, "state").dtype == "float32"
    assert unstable_carry(ctx, stmts, ("state",)) == []
