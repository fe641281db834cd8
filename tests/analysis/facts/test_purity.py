"""Purity: what tracing a function once would freeze or skip, one reason each."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.purity import (
    changed_module_names,
    impurities,
    reads_module_state,
    unseen,
)

from ..helpers import HEADER, context

IMPORTS = HEADER + (
    "import time\nimport random\nimport logging\nimport os\nimport functools\n"
    "import equinox as eqx\nimport optax\n"
    "logger = logging.getLogger()\n"
)
MODULE = """
CACHE = []
COUNT = 0

class State:
    pass

class Pure:
    def __init__(self, w):
        self.w = w

    def __call__(self, v):
        return self.scale(v * self.w)

    def scale(self, v):
        return v * 2

class Loud:
    def __init__(self, w):
        self.w = w

    def __call__(self, v):
        print(v)
        return v * self.w

    def forward(self, v):
        return self(v)

class Noisy:
    def __init__(self, w):
        print(w)
        self.w = w

def pure(v):
    return v * 2

def dirty(v):
    print(v)
    return v

def rec(v):
    return rec(v)

def f(x, cb):
    BODY
"""
UNSEEN = "code autoopt cannot see"
AT_TRACE = "runs once, at trace time; use jax.debug.print"


@pytest.mark.parametrize(
    ("body", "reasons"),
    [
        # pure
        ("return jnp.sin(x)", []),
        ("return x.at[0].set(1)", []),  # functional update
        ("y = jnp.ones(3)\n    return y.sum() + x", []),  # a method of a JAX array
        ("jax.debug.print('{}', x)\n    return x", []),
        ("return pure(x)", []),  # a pure module function
        ("return rec(x)", []),  # recursion is not a reason
        ("g = jax.grad(pure)\n    return g(x)", []),
        ("g = lambda v: v\n    return g(x)", []),
        ("def inner(v):\n        return v * 2\n    return inner(x)", []),
        ("return State(x)", []),  # a class of the module
        ("return len(x) + abs(x)", []),
        ("return functools.partial(pure, x)", []),
        ("return jnp.add(x, 1)", []),  # a function of `jnp`, not a method changing it
        ("return jax.lax.add(x, 1) + np.add(1, 2)", []),
        # an optax loss returns an array: its `.mean()` is an array's method
        ("return optax.softmax_cross_entropy_with_integer_labels(x, cb).mean()", []),
        ("return optax.losses.l2_loss(x).sum()", []),
        (
            "return optax.tree_utils.tree_zeros_like(x).mean()",
            [
                "calls `.mean` on the result of `optax.tree_utils.tree_zeros_like(...)`, " + UNSEEN,
                "calls `optax.tree_utils.tree_zeros_like`, " + UNSEEN,
            ],
        ),
        # side effects
        ("print(x)\n    return x", [f"prints (`print` {AT_TRACE})"]),
        ("open('f')\n    return x", [f"opens a file (`open` {AT_TRACE})"]),
        ("input()\n    return x", [f"reads input (`input` {AT_TRACE})"]),
        ("logging.info('x')\n    return x", ["logs (`logging.info`)"]),
        ("logger.info('x')\n    return x", ["logs (`logger.info`)"]),
        ("time.time()\n    return x", ["reads the clock (`time.time`)"]),
        ("os.getcwd()\n    return x", ["calls the operating system (`os.getcwd`)"]),
        ("return jax.device_get(x)", ["copies to the host (`jax.device_get`)"]),
        ("jax.debug.breakpoint()\n    return x", ["stops (`jax.debug.breakpoint`)"]),
        (
            "np.copyto(x, 0)\n    return x",
            ["mutates its argument `x`", "writes into an array in place (`numpy.copyto`)"],
        ),  # the name once
        # host randomness
        (
            "return np.random.normal(size=3)",
            ["draws host random numbers with numpy.random (`numpy.random.normal`)"],
        ),
        (
            "return random.random()",
            ["draws host random numbers with the random module (`random.random`)"],
        ),
        # writes
        ("x[0] = 1\n    return x", ["mutates its argument `x`"]),
        ("global COUNT\n    COUNT = COUNT + 1\n    return x", ["writes the global `COUNT`"]),
        ("global COUNT\n    COUNT += 1\n    return x", ["writes the global `COUNT`"]),
        # code autoopt cannot see
        ("return helper(x)", ["calls `helper`, code autoopt cannot see"]),
        ("return cb(x)", ["calls its argument `cb`, code autoopt cannot see"]),
        ("return other.method(x)", ["calls `other.method`, code autoopt cannot see"]),
        ("return jax._src.core.foo(x)", ["calls `jax._src.core.foo`, code autoopt cannot see"]),
        # the callee is what another call returns: followed where it is seen
        ("return Pure(x)(x)", []),  # the `__call__` of a class of the module
        ("return Pure(x).scale(x)", []),
        ("return jax.jit(pure)(x)", []),
        ("return jax.tree_util.Partial(pure, x)(x)", []),
        ("g = jax.jit(jax.grad(pure))\n    return g(x)", []),
        ("return jnp.dot(x, x).sum()", []),  # a method of a JAX array
        ("return x.reshape(3).sum()", []),
        (
            "return Loud(x)(x)",
            [f"calls `Loud(...)`, whose `__call__` prints (`print` {AT_TRACE})"],
        ),
        (
            "return Loud(x).forward(x)",
            ["calls `Loud(...)`, whose `forward` calls its argument `self`, " + UNSEEN],
        ),
        ("return Noisy(x)", [f"constructs `Noisy`, whose `__init__` prints (`print` {AT_TRACE})"]),
        ("return Pure(x).other(x)", ["calls `Pure(...).other`, " + UNSEEN]),
        ("return f(x)(x)", ["calls the result of `f(...)`, " + UNSEEN]),
        ("return eqx.combine(x, cb)(x)", ["calls the result of `eqx.combine(...)`, " + UNSEEN]),
        (
            "layer = eqx.combine(x, cb)\n    return layer.forward(x)",
            ["calls `layer.forward` on the result of `eqx.combine(...)`, " + UNSEEN],
        ),
        ("y = jnp.sin(x)\n    return y.sum()", []),  # an array's method
        ("return x.reshape(-1).sum()", []),  # an argument's array reads: its own premises
        (
            "return x.forward(x)",
            ["calls `x.forward`, a method of its argument `x` of a kind not proven, " + UNSEEN],
        ),
        (
            "return jax.tree.map(jnp.sin, x).apply(x)",
            ["calls `.apply` on the result of `jax.tree.map(...)`, " + UNSEEN],
        ),
        (
            "layer = jax.tree.map(jnp.sin, x)\n    return layer(x)",
            ["calls `layer`, the result of `jax.tree.map(...)`, " + UNSEEN],
        ),
        (
            "return functools.partial(dirty, x)(x)",
            [f"calls `dirty`, which prints (`print` {AT_TRACE})"],
        ),
        (
            "g = jax.grad(dirty)\n    return g(x)",
            [
                f"hands `dirty` to `jax.grad`, which runs it: it prints (`print` {AT_TRACE})",
                f"calls `g`, which calls `dirty`, which prints (`print` {AT_TRACE})",
            ],
        ),
        ("return cb[0](x)", ["calls `cb[0]`, " + UNSEEN]),
        (
            "g = lambda v: print(v)\n    return g(x)",
            [f"prints (`print` {AT_TRACE})"],
        ),  # a lambda's body is the function's own code
        # through module functions
        ("return dirty(x)", [f"calls `dirty`, which prints (`print` {AT_TRACE})"]),
        # handed to a transform or tree map, which runs it on every eager call
        (
            "return jax.grad(dirty)(x)",
            [
                f"calls `dirty`, which prints (`print` {AT_TRACE})",
                f"hands `dirty` to `jax.grad`, which runs it: it prints (`print` {AT_TRACE})",
            ],
        ),
        (
            "return jax.tree.map(dirty, x)",
            [f"hands `dirty` to `jax.tree.map`, which runs it: it prints (`print` {AT_TRACE})"],
        ),
        # a jit built at each call traces again each time (AO102), eagerly; once when traced
        ("return jax.jit(dirty)(x)", [f"calls `dirty`, which prints (`print` {AT_TRACE})"]),
        ("return jax.grad(pure)(x)", []),
        (
            "def inner(v):\n        print(v)\n    return inner(x)",
            [f"calls `inner`, which prints (`print` {AT_TRACE})"],
        ),
    ],
)
def test_impurities(body: str, reasons: list[str]) -> None:
    ctx = context(MODULE.replace("BODY", body), IMPORTS)
    assert impurities(ctx, ctx.graph.functions["f"]) == reasons


DIRTY = f"calls `dirty`, which prints (`print` {AT_TRACE})"


@pytest.mark.parametrize(
    ("body", "reasons"),
    [
        # every binding of a local reaching the call is judged, each must be pure
        (
            "g = jax.jit(pure)\n    if x:\n        g = jax.jit(dirty)\n    return g(x)",
            [f"calls `g`, which {DIRTY}"],
        ),
        (
            "g = jax.jit(pure)\n    g = jax.jit(dirty)\n    return g(x)",
            [f"calls `g`, which {DIRTY}"],
        ),
        (
            "g = jax.jit(pure)\n    for i in range(3):\n        y = g(x)\n"
            "        g = jax.jit(dirty)\n    return y",
            [f"calls `g`, which {DIRTY}"],
        ),  # bound again after the call, in a loop: reaches its next iteration
        (
            "g = jax.jit(pure)\n    if x:\n        g = jax.jit(dirty)\n    return jax.grad(g)(x)",
            [f"calls `g`, which {DIRTY}"],
        ),  # a transform of it, too
        ("g = jax.jit(pure)\n    if x:\n        g = jax.jit(jax.grad(pure))\n    return g(x)", []),
        (
            "g = lambda v: v\n    if x:\n        g = dirty\n    return g(x)",
            [f"calls `g`, {UNSEEN}"],
        ),
        ("g = jax.jit(pure)\n    g, h = dirty, dirty\n    return g(x)", [f"calls `g`, {UNSEEN}"]),
        (
            "def g(v):\n        return v\n    if x:\n        g = dirty\n    return g(x)",
            [f"calls `g`, {UNSEEN}"],
        ),
        (
            "def g(v):\n        return v\n    def g(v):\n        print(v)\n    return g(x)",
            [f"calls `g`, bound more than once, {UNSEEN}"],
        ),
        # a local, a loop's target, a lambda's parameter or a comprehension's target
        # named like a module function is not that function
        ("pure = dirty\n    return pure(x)", [f"calls `pure`, {UNSEEN}"]),
        (
            "if x:\n        pure = jax.jit(dirty)\n    return pure(x)",
            [f"calls `pure`, which {DIRTY}"],
        ),
        ("for pure in (dirty,):\n        x = pure(x)\n    return x", [f"calls `pure`, {UNSEEN}"]),
        ("return (lambda pure: pure(x))(dirty)", [f"calls `pure`, {UNSEEN}"]),
        ("return [pure(x) for pure in (dirty,)]", [f"calls `pure`, {UNSEEN}"]),
    ],
)
def test_a_callee_bound_several_times_is_judged_by_every_binding(
    body: str, reasons: list[str]
) -> None:
    ctx = context(MODULE.replace("BODY", body), IMPORTS)
    assert impurities(ctx, ctx.graph.functions["f"]) == reasons


SHADOWED = """
def pure(v):
    return v * 2

def dirty(v):
    print(v)
    return v

def by_parameter(x, pure):
    def inner(v):
        return pure(v)
    return inner(x)

def by_outer_local(x):
    pure = dirty
    def inner(v):
        return pure(v)
    return inner(x)

def by_outer_rebinding(x):
    def g(v):
        return v
    if x:
        g = dirty
    def inner(v):
        return g(v)
    return inner(x)

def by_outer_def(x):
    def g(v):
        return v
    def inner(v):
        return g(v)
    return inner(x)
"""


@pytest.mark.parametrize(
    ("function", "reasons"),
    [
        ("by_parameter.inner", [f"calls `pure`, {UNSEEN}"]),
        ("by_outer_local.inner", [f"calls `pure`, {UNSEEN}"]),
        ("by_outer_rebinding.inner", [f"calls `g`, {UNSEEN}"]),
        ("by_outer_def.inner", []),  # a `def` bound once in the enclosing function
    ],
)
def test_an_enclosing_binding_shadows_a_module_function(function: str, reasons: list[str]) -> None:
    ctx = context(SHADOWED, IMPORTS)
    assert impurities(ctx, ctx.graph.functions[function]) == reasons


@pytest.mark.parametrize(
    "rebinding", ["pure = dirty", "if COUNT:\n    pure = dirty", "for pure in (dirty,):\n    pass"]
)
def test_a_module_function_bound_again_is_not_its_def(rebinding: str) -> None:
    ctx = context(MODULE.replace("BODY", "return pure(x)") + rebinding + "\n", IMPORTS)
    assert impurities(ctx, ctx.graph.functions["f"]) == ["calls `pure`, which the module changes"]


def test_a_mutated_outer_container_is_a_reason() -> None:
    ctx = context(MODULE.replace("BODY", "CACHE.append(x)\n    return x"), IMPORTS)
    reasons = impurities(ctx, ctx.graph.functions["f"])
    assert reasons[0] == "mutates `CACHE`, which lives outside the function"


@pytest.mark.parametrize(
    ("body", "reasons"),
    [
        # changed through a local name: the argument's object (h1583), a global's
        (
            'p = x\n    p["w"] = 0\n    return p',
            ["changes `p` in place, which may hold an object from outside the function"],
        ),
        (
            "seen = CACHE\n    seen.append(1)\n    return x",
            ["changes `seen` in place, which may hold an object from outside the function"],
        ),
        (
            "rows = x if cb else []\n    rows.append(1)\n    return x",
            ["changes `rows` in place, which may hold an object from outside the function"],
        ),
        # a new object of its own
        ("out = []\n    out.append(x)\n    return out", []),
        ("out = dict(a=x)\n    out['b'] = x\n    return out", []),
        ("buf = np.zeros(3)\n    buf[0] = 1.0\n    return x + buf", []),
    ],
)
def test_a_local_changed_in_place(body: str, reasons: list[str]) -> None:
    ctx = context(MODULE.replace("BODY", body), IMPORTS)
    assert impurities(ctx, ctx.graph.functions["f"]) == reasons


def test_methods_reading_self_are_impure() -> None:
    code = (
        "class M:\n    def apply(self, x):\n        return x * self.w\n\n"
        "    def same(self, x):\n        return x\n"
    )
    ctx = context(code, IMPORTS)
    assert impurities(ctx, ctx.graph.functions["M.apply"]) == [
        "reads `self` state, which jit would freeze at trace time"
    ]
    assert impurities(ctx, ctx.graph.functions["M.same"]) == []


STATE = """
A = jnp.ones(3)
B = jnp.ones(3)
B = B * 2
C = []
C.append(1)
D = np.zeros(3)
np.copyto(D, A)
E = np.zeros(3)
np.multiply(A, 2, out=E)
F = 1
G = 2
H = np.zeros(3)
H[0] = 1

def setg():
    global G
    G = 3

def f(x):
    y = x * A + B + F + G
    z = C[0] + D + E + H
    return y, z

def g(x):
    return x * A
"""


def test_changed_module_names_and_the_functions_reading_them() -> None:
    ctx = context(STATE, HEADER)
    # bound twice, mutated, written by np.copyto / out=, rebound through `global`
    assert changed_module_names(ctx) == {"B", "C", "D", "E", "G", "H"}
    assert reads_module_state(ctx, ctx.graph.functions["f"]) == ["B", "C", "D", "E", "G", "H"]
    assert reads_module_state(ctx, ctx.graph.functions["g"]) == []


def test_a_name_a_module_level_loop_binds_is_changed() -> None:
    """Every iteration binds it again: the body's names and the loop variable (a
    function reading them under jit would see the first value it traced)."""
    source = """
u = jnp.ones(3)
for lr in (0.1, 0.01):
    lap = u * 2
    u = u - lr * lap
done = u
"""
    ctx = context(source, HEADER)
    assert changed_module_names(ctx) == {"lap", "lr", "u"}


def test_a_parameter_or_local_is_not_module_state() -> None:
    ctx = context(STATE + "\ndef h(B):\n    C = 1\n    return B + C\n", HEADER)
    assert reads_module_state(ctx, ctx.graph.functions["h"]) == []


@pytest.mark.parametrize(
    ("code", "reason", "unproven"),
    [
        (
            "def f(x, rng):\n    return x + rng.normal()\n"
            "for _ in range(3):\n    y = f(jnp.ones(3), np.random.default_rng(0))\n",
            "calls `rng.normal`, a method of `rng` (a host object), which runs once, at trace time",
            False,
        ),
        (
            "def f(x, opt):\n    opt.update(x)\n    return x\n",
            "calls `opt.update`, which may change its argument `opt`: code autoopt cannot see",
            True,
        ),
        ("def f(x):\n    x[0] = 1\n    return x\n", "mutates its argument `x`", False),
        ("def f(x):\n    return helper(x)\n", "calls `helper`, code autoopt cannot see", True),
    ],
)
def test_a_reason_is_unproven_only_for_code_autoopt_cannot_see(
    code: str, reason: str, unproven: bool
) -> None:
    ctx = context(code, IMPORTS)
    (found,) = impurities(ctx, ctx.graph.functions["f"])
    assert found == reason
    assert unseen(found) is unproven


def test_a_name_an_enclosing_function_binds_is_not_the_modules_function() -> None:
    """`loss` in `step` is `train`'s own, not the module's `jax.grad` of a pure function."""
    code = (
        "def pure_loss(w):\n    return jnp.sum(w)\nloss = jax.grad(pure_loss)\n"
        "def train(make):\n    loss = make()\n    def step(w):\n        return loss(w)\n"
        "    return step\n"
    )
    ctx = context(code, IMPORTS)
    assert impurities(ctx, ctx.graph.functions["train.step"]) == [
        "calls `loss`, code autoopt cannot see"
    ]


def test_the_closure_a_factory_returns_is_followed() -> None:
    code = (
        "def make(xs):\n    def loss(w):\n        print(w)\n        return xs @ w\n"
        "    return jax.jit(loss)\n"
        "grad_fn = jax.grad(make(jnp.ones((2, 3))))\n"
        "def f(w):\n    return grad_fn(w)\n"
    )
    ctx = context(code, IMPORTS)
    assert impurities(ctx, ctx.graph.functions["f"]) == [
        f"calls `grad_fn`, which prints (`print` {AT_TRACE})"
    ]


EQX_HELPER = """
import equinox as eqx

PLOTTED = []


class Model(eqx.Module):
    w: jax.Array

    def __init__(self, key):
        self.w = jax.random.normal(key, (2,))

    def predict(self, xs):
        PLOTTED.append(self.w)
        return xs @ self.w


def evaluate(model, grid):
    return jnp.mean(model.predict(grid))


@eqx.filter_jit
def make_step(model, x):
    return eqx.apply_updates(model, jax.tree.map(jnp.zeros_like, model)), x


def main(x):
    model = Model(jax.random.PRNGKey(0))
    for _ in range(3):
        model, _ = make_step(model, x)
        evaluate(model, x)
"""


def test_a_method_a_class_of_the_file_defines_on_a_pytree_is_unseen_code() -> None:
    """The value model calls an equinox module a pytree of arrays; a method of a name a
    class of the file defines is that class's code (h1913)."""
    ctx = context(EQX_HELPER, HEADER)
    reasons = impurities(ctx, ctx.graph.functions["evaluate"])
    assert reasons == [
        "calls `model.predict`, a method a class of this file defines, code autoopt cannot see"
    ]
