"""AO101, AO103 and AO201 on programs whose state is a tuple or dict of arrays, built and
updated by comprehensions (the value model's containers of arrays, written outside the
team: corpus/inline_grad_tanh_fit.py, corpus/fhn_ring_rk4.py)."""

from __future__ import annotations

from autoopt.api import check_source

from .helpers import assert_same, rewrite, run_snippet

DICT_STATE = """
import jax.numpy as jnp


def rhs(state):
    u, v = state["u"], state["v"]
    return {"u": jnp.roll(u, 1) - u - v, "v": 0.1 * (u - 0.5 * v)}


def axpy(a, x, y):
    return {k: y[k] + a * x[k] for k in y}


def rk4_step(state, dt):
    k1 = rhs(state)
    k2 = rhs(axpy(dt / 2, k1, state))
    return {k: state[k] + dt * (k1[k] + k2[k]) / 2 for k in state}


def run(steps):
    state = {"u": jnp.linspace(-1.0, 1.0, 8), "v": jnp.zeros(8)}
    activity = []
    for step in range(steps):
        state = rk4_step(state, 0.05)
        activity.append(jnp.mean(state["u"] > 0.0))
        if step % 2 == 0:
            print(step)
    return state["u"], state["v"], jnp.stack(activity)


result = run(6)
"""

TUPLE_PARAMS = """
import jax
import jax.numpy as jnp
import numpy as np


def init_params():
    rng = np.random.default_rng(0)
    return tuple(jnp.asarray(p, jnp.float32) for p in (rng.normal(size=(2, 4)), np.zeros(4)))


def loss_fn(params, x, y):
    w, b = params
    return jnp.mean((jnp.tanh(x @ w + b).sum(axis=1) - y) ** 2)


def fit(x, y):
    params = init_params()
    history = []
    for step in range(20):
        grads = jax.grad(loss_fn)(params, x, y)
        params = tuple(p - 0.1 * g for p, g in zip(params, grads, strict=True))
        if step % 5 == 0:
            history.append(loss_fn(params, x, y))
    return params, jnp.stack(history)


result = fit(jnp.ones((16, 2)), jnp.linspace(0.0, 1.0, 16))
"""


def findings(source: str) -> list[tuple[str, int, str, str]]:
    _, found = check_source(source)
    return [(f.rule, f.span.line, f.message, f.fix.value) for f in found]


#: With a Python number in the state, `state[k] + dt * ...` may be Python arithmetic: the
#: float `dt` stays static (float64 eagerly, float32 traced), and the result unproven.
STATIC_DT_UNPROVEN = (
    "`rk4_step` is called in a loop without `jax.jit`: add "
    '`@functools.partial(jax.jit, static_argnames=("dt",))` (`dt` is needed as a Python '
    "value (`state[k] + dt * (k1[k] + k2[k]) / 2` is computed in float64 eagerly, float32 "
    "traced)); unsafe: cannot prove it returns arrays"
)


def test_a_dict_of_arrays_from_comprehensions_is_proven_and_compiled() -> None:
    assert findings(DICT_STATE) == [
        ("AO101", 14, "`rk4_step` is called in a loop without `jax.jit`: add `@jax.jit`", "safe"),
        (
            "AO201",
            14,
            "`state` is dead after every call of `rk4_step` and replaced by its output: "
            "donate it (`donate_argnames`) so XLA reuses the buffer",
            "safe",
        ),
        (
            "AO103",
            23,
            "this loop's body runs eagerly, one dispatch per operation: compile it as one "
            "jitted step, `_run_step`, donating `state`",
            "safe",
        ),
    ]
    result = rewrite(DICT_STATE, ("AO101", "AO103", "AO201"))
    assert "def _run_step(state):" in result.new_source
    assert_same(run_snippet(DICT_STATE), run_snippet(result.new_source))


def test_a_python_int_in_the_dict_keeps_it_unproven() -> None:
    source = DICT_STATE.replace('"v": jnp.zeros(8)}', '"v": jnp.zeros(8), "t": 0}')
    assert findings(source) == [
        (
            "AO101",
            14,
            STATIC_DT_UNPROVEN,
            "unsafe",
        ),
        (
            "AO201",
            14,
            "`state` is dead after every call of `rk4_step` and replaced by its output: "
            "donate it (`donate_argnames`) so XLA reuses the buffer",
            "unsafe",
        ),
        (
            "AO103",
            23,
            "this loop's body runs eagerly, one dispatch per operation; not compiled as one "
            "step: cannot prove it returns arrays",
            "none",
        ),
    ]


def test_a_dict_changed_in_place_with_a_host_value_keeps_it_unproven() -> None:
    source = DICT_STATE.replace(
        "        state = rk4_step(state, 0.05)\n",
        '        state = rk4_step(state, 0.05)\n        state["seen"] = step\n',
    )
    messages = {rule: (message, fix) for rule, _, message, fix in findings(source)}
    assert messages["AO101"] == (
        STATIC_DT_UNPROVEN,
        "unsafe",
    )
    assert "AO103" not in messages


def test_a_tuple_of_arrays_updated_over_zip_and_an_inline_grad() -> None:
    assert findings(TUPLE_PARAMS) == [
        ("AO101", 12, "`loss_fn` is called in a loop without `jax.jit`: add `@jax.jit`", "safe"),
        (
            "AO103",
            20,
            "this loop's body runs eagerly, one dispatch per operation: run the whole loop "
            "as one jitted `lax.scan` when the carry keeps its types (checked when the loop "
            "starts: `_fit_loop` runs `_fit_scan`, else `_fit_step` once per iteration); "
            "statically, cannot prove `params` keeps its shape and dtype across iterations",
            "safe",
        ),
    ]
    result = rewrite(TUPLE_PARAMS, ("AO101", "AO103"))
    assert "def _fit_step(params, x, y):" in result.new_source
    assert "enumerate(range(20)) if step % 5 == 0\n    )" in result.new_source  # the kept rows
    assert_same(run_snippet(TUPLE_PARAMS), run_snippet(result.new_source))


def test_a_python_number_among_the_params_keeps_them_unproven() -> None:
    source = TUPLE_PARAMS.replace("np.zeros(4)))", "np.zeros(4))) + (0.5,)").replace(
        "    w, b = params", "    w, b, _ = params"
    )
    assert findings(source) == [
        (
            "AO101",
            12,
            "`loss_fn` is called in a loop without `jax.jit`: add `@jax.jit`; "
            "unsafe: cannot prove what `params` receives",
            "unsafe",
        ),
        (
            "AO103",
            20,
            "this loop's body runs eagerly, one dispatch per operation; not compiled as one "
            "step: cannot prove it returns arrays",
            "none",
        ),
    ]
