"""The donation verdict: which inputs of a jitted function may be donated, and why not."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.donation import safe_donations, targets, verdicts, weakest
from autoopt.model import Applicability

from ..helpers import HEADER, context

SAFE, UNSAFE, NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE

STEP = """
@jax.jit
def step(s, x):
    return s + x
"""


@pytest.mark.parametrize(
    ("caller", "donate", "blocked"),
    [
        (  # the call's result replaces the input, in a program
            "def main():\n    s = jnp.zeros(3)\n    for _ in range(3):\n"
            "        s = step(s, 1.0)\n    print(s)\n",
            [("s", SAFE, "")],
            [],
        ),
        (  # an alias of the input is read after the call
            "def main():\n    s = jnp.zeros(3)\n    best = s\n    s = step(s, 1.0)\n"
            "    print(best)\n",
            [],
            ["`best` may hold the buffers of `s` and is read at line 11"],
        ),
        (  # the same buffer passed twice
            "def main():\n    s = jnp.zeros(3)\n    s = step(s, s)\n    print(s)\n",
            [],
            ["`s` is passed twice in one call at line 9"] * 2,
        ),
        (  # not replaced by the result: no verdict
            "def main():\n    s = jnp.zeros(3)\n    t = step(s, 1.0)\n    print(s, t)\n",
            [],
            [],
        ),
        (  # the caller's own parameter
            "def run(s):\n    s = step(s, 1.0)\n    return s\n",
            [
                (
                    "s",
                    UNSAFE,
                    "the first call donates `s`, the caller's array, which the caller "
                    "may still read: `run` is in a module that may be imported: its callers "
                    "are not all known",
                )
            ],
            [],
        ),
    ],
)
def test_verdicts(caller: str, donate: list, blocked: list[str]) -> None:
    ctx = context(STEP + caller, HEADER)
    (target,) = targets(ctx)
    assert (target.name, target.plan) == ("step", None)
    assert verdicts(ctx, target) == (donate, blocked)


def test_a_function_ao101_jits_is_a_target() -> None:
    code = """
    def step(s, x):
        return s * x

    def main():
        s = jnp.zeros(3)
        for _ in range(3):
            s = step(s, 2.0)
        print(s)
    """
    ctx = context(code, HEADER)
    (target,) = targets(ctx)
    assert target.plan is not None and target.fix is SAFE and target.is_decorated
    assert safe_donations(ctx, "step") == ["s"]
    assert safe_donations(ctx, "main") == []


def test_safe_donations_need_a_proven_donation() -> None:
    ctx = context(STEP + "def run(s):\n    s = step(s, 1.0)\n    return s\n", HEADER)
    assert safe_donations(ctx, "step") == []  # the donation is only unsafe


def test_weakest() -> None:
    assert weakest([SAFE, UNSAFE, SAFE]) is UNSAFE
    assert weakest([UNSAFE, NONE]) is NONE
    assert weakest([SAFE]) is SAFE


KEEPERS = """
import functools
import mylib

START = None

class Run:
    start = None

def remember(p):
    Run.start = p
    return p

def remember_global(p):
    global START
    START = p
    return p

def scaled(p):
    kept = [p]
    return p * 1.0

def make():
    return jnp.zeros(3)

@functools.lru_cache
def initial():
    return jnp.zeros(3)

def stream(p):
    while True:
        yield p

def closing(p):
    def report():
        return p
    return report
"""


@pytest.mark.parametrize(
    ("body", "fix", "why"),
    [
        # proven: nothing else holds the buffer
        ("s = make()", SAFE, ""),
        ("s = scaled(jnp.zeros(3))", SAFE, ""),  # kept only in its own local, returns anew
        ("s = jnp.zeros(3).at[1].set(2.0)", SAFE, ""),  # JAX's methods keep nothing
        # a place that keeps a reference
        ("s = remember(jnp.zeros(3))", UNSAFE, "`s` is stored in `Run.start`, which keeps"),
        ("s = remember_global(jnp.zeros(3))", UNSAFE, "`START` lives outside `main`"),
        ("Run.start = jnp.zeros(3)\n    s = Run.start", UNSAFE, "`s` is read from `Run.start`"),
        ("s = initial()", UNSAFE, "`s` comes from `initial`, which may keep a reference"),
        ("s = mylib.load()", UNSAFE, "cannot prove the leaves of `s` are distinct buffers"),
        ("s = jnp.zeros(3)\n    g = stream(s)", NONE, "`g` may hold the buffers of `s`"),
        ("s = jnp.zeros(3)\n    r = closing(s)", NONE, "`r` may hold the buffers of `s`"),
    ],
)
def test_a_buffer_something_may_keep_is_not_donated(body: str, fix, why: str) -> None:
    caller = f"def main():\n    {body}\n    s = step(s, 1.0)\n    return s, g, r\n"
    ctx = context(KEEPERS + STEP + caller, HEADER)
    (target,) = targets(ctx)
    donate, blocked = verdicts(ctx, target)
    found = donate[0][1:] if donate else (NONE, blocked[0])
    assert found[0] is fix and found[1].startswith(why), found


NNX_STEP = """
@nnx.jit
def step(model, x):
    model.bias.value = model.bias.value + x.sum()


def main():
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))
    {rng}
    nnx.display(model, rng)
    for _ in range(3):
        step(model, jnp.ones(2))
    return rng.normal()
"""


@pytest.mark.parametrize(
    ("rng", "why"),
    [
        # a NumPy Generator holds no device buffer: the keeper is what fails
        ("rng = np.random.default_rng(0)", "`model` is handed to `nnx.display`, which may keep it"),
        # an object of unknown kind may
        ("rng = make_rng()", "`rng` may hold the buffers of `model` and is read at line 16"),
        # a NumPy array may share a CPU array's memory (`np.asarray`)
        ("rng = np.asarray(jnp.ones(2))", "`rng` may hold the buffers of `model` and is read"),
        # a Generator on one path only
        (
            "rng = np.random.default_rng(0)\n    if model.bias.value.sum() > 5:\n"
            "        rng = make_rng()",
            "`rng` may hold the buffers of `model` and is read",
        ),
    ],
)
def test_a_numpy_generator_holds_no_buffer_of_the_module(rng: str, why: str) -> None:
    ctx = context(NNX_STEP.format(rng=rng), HEADER + "from flax import nnx\n")
    (target,) = targets(ctx, "step")
    donate, _ = verdicts(ctx, target)
    assert donate[0][0] == "model" and donate[0][1] is UNSAFE and why in donate[0][2]


_KEEPER = """
@eqx.filter_jit
def pair(s, x):
    return s, x

def main():
    x = load()
    s = jnp.zeros(3)
    for _ in range(3):
        both = pair(s, x)
        print(both)
        KEEP
        s = step(s, x)
    print(s)
"""


_X_PASSED = "`x` may hold the buffers of `s` and is passed in the same call"
_KEPT_TWO_AWAY = (
    "`history`, which may hold the buffers of `s`, is handed to `record`, which may keep it"
)
_KEEPER_HEADER = HEADER + "import equinox as eqx\nfrom data import load, record\n"


@pytest.mark.parametrize(
    ("keep", "verdict"),
    [
        # `x`, from unseen code, is only held with the model by a third (`both`, a framework
        # jit's result, read as one that may hold its arguments): no alias of it
        ("x.sum()", ("s", SAFE, "")),
        # the third handed to code that may keep it and put one of its values into another
        ("record(both)", ("s", UNSAFE, _X_PASSED)),
        # the same two joins away (`[both] + [0]` may hold `both`)
        ("record([[both] + [0]] + [0])", ("s", UNSAFE, _X_PASSED)),
        # the model alone kept, two joins away, the batch not with it
        (
            "views = [s] + [0]\n        history = [views] + [0]\n        record(history)",
            ("s", UNSAFE, _KEPT_TWO_AWAY),
        ),
    ],
)
def test_a_keeper_counts_where_it_may_share_the_donated_value(keep: str, verdict: tuple) -> None:
    ctx = context(STEP + _KEEPER.replace("KEEP", keep), _KEEPER_HEADER)
    target = next(t for t in targets(ctx) if t.name == "step")
    assert verdicts(ctx, target) == ([verdict], [])
