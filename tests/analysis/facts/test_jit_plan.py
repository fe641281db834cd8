"""AO101's plan: each premise, and the problem or doubt it gives when it fails."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.jit_plan import plans
from autoopt.model import Applicability

from ..helpers import HEADER, context

LOOP = "\nfor _ in range(3):\n    y = f({args})\n"


def plan_of(code: str, args: str):
    ctx = context(code + LOOP.format(args=args), HEADER)
    (plan,) = plans(ctx)
    return plan


@pytest.mark.parametrize(
    ("code", "args", "fix", "static", "text"),
    [
        ("def f(x):\n    return jnp.sin(x)\n", "jnp.ones(3)", Applicability.SAFE, {}, ""),
        (
            "def f(x, n):\n    return jnp.zeros(n) + x\n",
            "jnp.ones(3), 3",
            Applicability.SAFE,
            {"n": "the shape in `jnp.zeros`"},
            "",
        ),
        (
            "def f(x, kind):\n    return jnp.sin(x)\n",
            "jnp.ones(3), 'a'",
            Applicability.SAFE,
            {"kind": "it receives a string"},
            "",
        ),
        (
            "def f(x):\n    return jnp.sin(x)\n",
            "np.ones(3)",
            Applicability.UNSAFE,
            {},
            "`x` receives a NumPy array",
        ),
        (
            "def f(x):\n    return jnp.sin(x)\n",
            "np.ones((4, 3)).astype(np.float32)[1:]",
            Applicability.SAFE,
            {},
            "",
        ),
        (
            "def f(x):\n    return jnp.sin(x)\n",
            "np.ones(3).astype(np.float64)",
            Applicability.UNSAFE,
            {},
            "`x` receives a NumPy array",
        ),
        (
            "def f(x):\n    return jnp.sin(x)\n",
            "np.ones(3).astype(dt)",
            Applicability.UNSAFE,
            {},
            "`x` receives a NumPy array",
        ),
        (
            "def f(x):\n    return jnp.sin(x)\n",
            "np.ones(3).astype(np.float32) * 2.0",
            Applicability.UNSAFE,
            {},
            "`x` receives a NumPy array",
        ),
        # in place, a NumPy argument is the caller's array; traced, `x *= 2.0` rebinds `x`
        (
            "def f(x):\n    x *= 2.0\n    return jnp.sin(x)\n",
            "np.ones((4, 3)).astype(np.float32)[1:]",
            Applicability.UNSAFE,
            {},
            "`x` receives a NumPy array, which `f` may change in place",
        ),
        (
            "def f(x):\n    x[0] = 0.0\n    return jnp.sin(x)\n",
            "np.ones((4, 3)).astype(np.float32)[1:]",
            Applicability.NONE,
            {},
            "it is not pure: it mutates its argument `x`",
        ),
        (
            "def f(x):\n    return jnp.sin(x) if isinstance(x, np.ndarray) else x\n",
            "np.ones((4, 3)).astype(np.float32)[1:]",
            Applicability.NONE,
            {},
            "it tests `isinstance` on the traced `x`",
        ),
        ("def f(x):\n    return jnp.sin(x)\n", "data", Applicability.UNSAFE, {}, "cannot prove"),
        (
            "def f(x, cfg):\n    return x * cfg['a']\n",
            "jnp.ones(3), {'a': 1.0}",
            Applicability.NONE,
            {},
            "`cfg` receives a Python container",
        ),
        (
            "def f(x):\n    print(x)\n    return jnp.sin(x)\n",
            "jnp.ones(3)",
            Applicability.NONE,
            {},
            "it is not pure: it prints",
        ),
        (
            "def f(x):\n    return int(jnp.sum(x))\n",
            "jnp.ones(3)",
            Applicability.NONE,
            {},
            "`int()` depends on the array argument `x`",
        ),
        (
            "def f(x, n):\n    return jnp.zeros(n) + x\n",
            "jnp.ones(3), _",
            Applicability.NONE,
            {"n": "the shape in `jnp.zeros`"},
            "`n` must be static and changes on every iteration",
        ),
    ],
)
def test_premises(code: str, args: str, fix: Applicability, static: dict, text: str) -> None:
    plan = plan_of(code, args)
    assert plan.fix is fix and plan.static == static
    said = plan.problem or (plan.doubts[0] if plan.doubts else "")
    assert text in said and bool(text) == bool(said)


def test_only_eager_loops_count() -> None:
    code = "@jax.jit\ndef g(x):\n    for _ in range(3):\n        x = f(x)\n    return x\n"
    ctx = context("def f(x):\n    return jnp.sin(x)\n" + code, HEADER)
    assert plans(ctx) == []


HAIKU = HEADER + "import haiku as hk\nimport optax\n"
NET = "def net_fn(x):\n    return hk.Linear(3)(x)\n\n\n"
STEP = (
    "opt = optax.sgd(0.1)\n\n\n"
    "def loss(params, x):\n"
    "    return jnp.sum((x @ params['linear']['w']) ** 2)\n\n\n"
    "def update(params, state, x):\n"
    "    grads = jax.grad(loss)(params, x)\n"
    "    updates, state = opt.update(grads, state)\n"
    "    return optax.apply_updates(params, updates), state\n\n\n"
    "def main():\n"
    "    params = {init}\n"
    "    state = opt.init(params)\n"
    "    for _ in range(3):\n"
    "        params, state = update(params, state, jnp.ones((2, 3)))\n"
    "{extra}"
    "    return params\n"
)


def haiku_plan(net: str, init: str = "net.init(jax.random.key(0), jnp.ones((1, 3)))", extra=""):
    ctx = context(NET + net + STEP.format(init=init, extra=extra), HAIKU)
    (plan,) = plans(ctx)
    return plan


@pytest.mark.parametrize(
    "net",
    [
        "net = hk.transform(net_fn)\n",
        "net = hk.without_apply_rng(hk.transform(net_fn))\n",
    ],
)
def test_params_from_the_init_of_a_sealed_transform_are_arrays(net: str) -> None:
    plan = haiku_plan(net)
    assert plan.fix is Applicability.SAFE and plan.doubts == []


@pytest.mark.parametrize(
    ("net", "init", "extra"),
    [
        # an initializer of the user's may return a NumPy array: not sealed
        (
            "W = np.ones(3)\n\n\ndef tied(x):\n"
            "    return x + hk.get_parameter('w', [3], init=lambda *_: W)\n\n\n"
            "net = hk.transform(tied)\n",
            "net.init(jax.random.key(0), jnp.ones((1, 3)))",
            "",
        ),
        # `net` rebound to an object autoopt cannot see
        (
            "net = hk.transform(net_fn)\nnet = make_net()\n",
            "net.init(jax.random.key(0), jnp.ones((1, 3)))",
            "",
        ),
        # a wrapper the overlay does not list
        (
            "net = wrap(hk.transform(net_fn))\n",
            "net.init(jax.random.key(0), jnp.ones((1, 3)))",
            "",
        ),
        # params loaded from the host
        ("net = hk.transform(net_fn)\n", "load_params()", ""),
    ],
)
def test_params_not_proven_arrays_leave_the_jit_unsafe(net: str, init: str, extra: str) -> None:
    plan = haiku_plan(net, init, extra)
    assert plan.fix is Applicability.UNSAFE
    assert plan.doubts[0] == "cannot prove what `params` receives"


def test_params_rebound_to_a_host_value_in_the_loop_leave_the_jit_unsafe() -> None:
    loop = STEP.replace(
        "        params, state = update(params, state, jnp.ones((2, 3)))\n",
        "        params, state = update(params, state, jnp.ones((2, 3)))\n"
        "        params = jax.device_get(params)\n",
    )
    ctx = context(
        NET
        + "net = hk.transform(net_fn)\n"
        + loop.format(init="net.init(jax.random.key(0), jnp.ones((1, 3)))", extra=""),
        HAIKU,
    )
    (plan,) = plans(ctx)
    assert plan.fix is Applicability.UNSAFE
    assert "`params`" in plan.doubts[0]


_EMA = "def f(e, d):\n    return d * e + (1 - d) * e\n"


def test_a_float_a_python_sum_cancels_is_static_where_every_call_passes_a_constant() -> None:
    plan = plan_of(_EMA, "jnp.ones(3), 0.99999")
    assert plan.fix is Applicability.SAFE
    assert plan.static == {"d": "`(1 - d)` is computed in float64 eagerly, float32 traced"}


def test_a_float_a_python_sum_cancels_is_unproven_where_a_call_varies() -> None:
    plan = plan_of(_EMA, "jnp.ones(3), 0.99 + 0.001 * _")
    assert plan.fix is Applicability.UNSAFE and plan.static == {}
    assert plan.doubts == [
        "`d` is a Python float and `(1 - d)` is computed in float64 eagerly, float32 traced, "
        "where cancellation may lose its digits"
    ]


def test_a_float_multiplied_by_an_array_stays_traced() -> None:
    plan = plan_of("def f(w, lr):\n    return w - lr * w\n", "jnp.ones(3), 0.1 * _")
    assert plan.fix is Applicability.SAFE and plan.static == {} and plan.doubts == []
