"""Functions held by module-level values, and custom-derivative rules, read by a step."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.facts.held_functions import held_by, registered_rules
from autoopt.analysis.facts.jit_plan import JitPlan, jit_plan
from autoopt.analysis.facts.summaries import Summary, summary

HEADER = "import functools\nimport jax\nimport jax.numpy as jnp\nimport optax\n"
#: A module global the module changes.
_CHANGED = "LR = 0.1\ndef cut():\n    global LR\n    LR = LR * 0.5\n"
_STEP = "def f(g, s):\n    return tx.update(g, s)\n"


def context(code: str) -> ModuleContext:
    code = HEADER + code
    return ModuleContext("<t>", code, cst.parse_module(code))


def summarise(code: str, name: str = "f") -> Summary:
    ctx = context(code)
    return summary(ctx, ctx.graph.functions[name])


def test_held_by_lists_lambdas_functions_and_nested_holders() -> None:
    ctx = context(
        "def sched(c):\n    return c\nlr = lambda c: 0.1\n"
        "tx = optax.chain(optax.clip(1.0), optax.sgd(functools.partial(sched)), optax.adam(lr))\n"
    )
    assert [h.what for h in held_by(ctx, "tx")] == [
        "the function `sched`",
        "the lambda `lambda c: 0.1`",
    ]


def test_a_value_built_without_functions_holds_none() -> None:
    ctx = context("LR = 0.1\ntx = optax.sgd(learning_rate=optax.exponential_decay(LR, 10, 0.9))\n")
    assert held_by(ctx, "tx") == []


@pytest.mark.parametrize(
    ("binding", "impurity"),
    [
        (
            "tx = optax.sgd(learning_rate=lambda count: LR * 0.9**count)\n",
            "reads `tx`, which holds the lambda `lambda count: LR * 0.9**count`, which reads "
            "`LR`, which the module changes (jit would freeze it)",
        ),
        (
            "def rate(count):\n    return LR\ntx = optax.adam(learning_rate=rate)\n",
            "reads `tx`, which holds the function `rate`, which reads `LR`, which the module "
            "changes (jit would freeze it)",
        ),
        (
            "def rate(count, base):\n    return base * LR\n"
            "tx = optax.chain(optax.clip(1.0), optax.sgd(functools.partial(rate, base=2.0)))\n",
            "reads `tx`, which holds the function `rate`, which reads `LR`, which the module "
            "changes (jit would freeze it)",
        ),
        (
            "sched = lambda c: LR\ntx = optax.sgd(sched)\n",
            "reads `tx`, which holds the lambda `lambda c: LR`, which reads `LR`, which the "
            "module changes (jit would freeze it)",
        ),
    ],
)
def test_a_function_the_optimizer_holds_is_read_by_the_step(binding: str, impurity: str) -> None:
    assert summarise(_CHANGED + binding + _STEP).impurities == [impurity]


def test_a_held_lambda_called_directly_is_read() -> None:
    code = _CHANGED + "scale = lambda c: LR * c\ndef f(w):\n    return w * scale(2.0)\n"
    assert summarise(code).impurities == [
        "calls `scale`, code autoopt cannot see",  # purity's
        "reads `scale`, which holds the lambda `lambda c: LR * c`, which reads `LR`, which the "
        "module changes (jit would freeze it)",
    ]


_PLATEAU = (
    "class Plateau:\n    def __init__(self, base):\n        self.base = base\n"
    "    def rate(self, count):\n        return self.base\n{more}"
    "sched = Plateau(0.1)\ntx = optax.adam(learning_rate=sched.rate)\n"
)


def test_a_bound_method_reading_state_another_method_changes_is_read() -> None:
    more = "    def on_plateau(self):\n        self.base = self.base * 0.5\n"
    assert summarise(_PLATEAU.format(more=more) + _STEP).impurities == [
        "reads `tx`, which holds the bound method `sched.rate`, which reads the state of "
        "`sched`, which `Plateau.on_plateau` changes (jit would freeze it)"
    ]


def test_a_bound_method_reading_state_the_program_changes_is_read() -> None:
    code = _PLATEAU.format(more="") + _STEP + "def main():\n    sched.base = 0.5\n"
    assert summarise(code).impurities == [
        "reads `tx`, which holds the bound method `sched.rate`, which reads the state of "
        "`sched`, which `main` changes (jit would freeze it)"
    ]


def test_a_bound_method_of_unchanged_state_reads_nothing_that_changes() -> None:
    info = summarise(_PLATEAU.format(more="") + _STEP)
    assert (info.impurities, info.doubts) == ([], [])


def test_an_attribute_autoopt_cannot_resolve_is_a_doubt() -> None:
    code = "from mylib import trainer\ntx = optax.sgd(trainer.schedule)\n" + _STEP
    info = summarise(code.replace("from mylib import trainer\n", "trainer = object()\n"))
    assert info.impurities == []
    assert info.doubts == [
        "reads `tx`, which holds `trainer.schedule`, which may be a function autoopt cannot "
        "see (jit would freeze what it reads)"
    ]


@pytest.mark.parametrize(
    "binding",
    [
        "tx = optax.sgd(learning_rate=0.1)\n",
        "tx = optax.sgd(learning_rate=LR)\n",  # read once, when `tx` is built
        "tx = optax.sgd(learning_rate=optax.exponential_decay(0.1, 100, 0.9))\n",
        "tx = optax.sgd(learning_rate=lambda count: 0.1 * 0.9**count)\n",
        "BASE = 0.2\ntx = optax.sgd(learning_rate=lambda count: BASE * 0.9**count)\n",
        "tx = optax.chain(optax.clip_by_global_norm(1.0), optax.adam(3e-4))\n",
        "def rate(count):\n    return 0.1 / (1 + count)\ntx = optax.adam(rate)\n",
    ],
)
def test_an_optimizer_holding_nothing_that_changes_reads_nothing(binding: str) -> None:
    info = summarise(_CHANGED + binding + _STEP)
    assert (info.impurities, info.doubts) == ([], [])


_CUSTOM_VJP = (
    "CLIP = 1.0\n@jax.custom_vjp\ndef clip_grad(x):\n    return x\n"
    "def _fwd(x):\n    return x, None\ndef _bwd(_, g):\n    return (jnp.clip(g, -{c}, {c}),)\n"
    "clip_grad.defvjp(_fwd, _bwd)\n"
    "def loss(w):\n    return jnp.sum(clip_grad(w))\ndef f(w):\n    return jax.grad(loss)(w)\n"
)
_CUSTOM_JVP = (
    "SLOPE = 1.0\n@jax.custom_jvp\ndef q(x):\n    return jnp.round(x)\n"
    "@q.defjvp\ndef _q_jvp(primals, tangents):\n    return q(primals[0]), {s} * tangents[0]\n"
    "def f(w):\n    return jax.grad(lambda v: jnp.sum(q(v)))(w)\n"
)
_TIGHTEN = (
    "def tighten():\n    global CLIP, SLOPE\n    CLIP = CLIP * 0.5\n    SLOPE = SLOPE * 0.5\n"
)


def test_registered_rules_are_found_by_call_and_decorator() -> None:
    ctx = context(_CUSTOM_VJP.format(c="CLIP") + _CUSTOM_JVP.format(s="SLOPE"))
    functions = ctx.graph.functions
    assert [h.what for h in registered_rules(ctx, functions["clip_grad"])] == [
        "the `defvjp` rule `_fwd`",
        "the `defvjp` rule `_bwd`",
    ]
    assert [h.what for h in registered_rules(ctx, functions["q"])] == ["the `defjvp` rule `_q_jvp`"]


def test_a_custom_vjp_rule_reading_a_changed_global_is_read() -> None:
    assert summarise(_CUSTOM_VJP.format(c="CLIP") + _TIGHTEN).impurities == [
        "uses the function `loss`, which calls `clip_grad`, which has the `defvjp` rule `_bwd`, "
        "which reads `CLIP`, which the module changes (jit would freeze it)"
    ]


def test_a_custom_jvp_rule_reading_a_changed_global_is_read() -> None:
    assert summarise(_CUSTOM_JVP.format(s="SLOPE") + _TIGHTEN).impurities == [
        "uses the function `q`, which has the `defjvp` rule `_q_jvp`, which reads `SLOPE`, "
        "which the module changes (jit would freeze it)"
    ]


def test_a_rule_autoopt_cannot_see_is_a_doubt() -> None:
    code = _CUSTOM_VJP.format(c="1.0").replace("(_fwd, _bwd)", "(_fwd, RULES[0])")
    assert summarise("RULES = [None]\n" + code).doubts == [
        "`loss` `clip_grad` has the `defvjp` rule `RULES[0]`, which may be a function autoopt "
        "cannot see (jit would freeze what it reads)"
    ]


@pytest.mark.parametrize("code", [_CUSTOM_VJP.format(c="CLIP"), _CUSTOM_JVP.format(s="SLOPE")])
def test_rules_reading_unchanged_globals_read_nothing_that_changes(code: str) -> None:
    info = summarise(code)
    assert (info.impurities, info.doubts) == ([], [])


_WRAPPED = (
    "SHIFT = 0.0\ndef predict(w, x):\n    return jnp.tanh(x @ w + SHIFT)\n"
    "batched = jax.vmap(predict, in_axes=(None, 0))\n"
)


@pytest.mark.parametrize(
    "body",
    [
        "    return jax.grad(lambda v: jnp.sum(batched(v, xs)))(w)\n",
        "    def loss(v):\n        return jnp.sum(batched(v, xs))\n    return jax.grad(loss)(w)\n",
        "    return jax.grad(batched)(w, xs)\n",
    ],
)
def test_a_module_wrapper_is_followed_from_a_lambda_a_def_or_handed_on(body: str) -> None:
    changed = _WRAPPED + "def bump():\n    global SHIFT\n    SHIFT = SHIFT + 1.0\n"
    info = summarise(changed + "def f(w, xs):\n" + body)
    assert len(info.impurities) == 1
    assert info.impurities[0].endswith(
        "`predict`, which reads `SHIFT`, which the module changes (jit would freeze it)"
    )
    kept = summarise(_WRAPPED + "def f(w, xs):\n" + body)
    assert (kept.impurities, kept.doubts) == ([], [])


_PASSED = (
    "BASE = 0.2\n{binding}"
    "def f(w, s, g, opt):\n    u, s = opt.update(g, s, w)\n"
    "    return optax.apply_updates(w, u), s\n"
    "def main(w, s, g):\n{local}    for i in range(3):\n        w, s = f(w, s, g, tx)\n"
    "        cut()\n    return w\n"
)
_CUT = "def cut():\n    global BASE\n    BASE = BASE * 0.5\n"


def _about_opt(plan: JitPlan) -> list[str]:
    """The plan's doubts about the optimizer (the arrays' are unproven here)."""
    return [d for d in plan.doubts if "`opt`" in d]


def plan_of(code: str) -> JitPlan:
    ctx = context(code)
    fn = ctx.graph.functions["f"]
    return jit_plan(ctx, fn, ctx.graph.call_sites(fn))


def test_a_static_optimizer_holding_a_schedule_that_reads_a_changed_global_is_refused() -> None:
    binding = "tx = optax.sgd(lambda c: BASE)\n"
    plan = plan_of(_CUT + _PASSED.format(binding=binding, local=""))
    assert plan.problem == (
        "`opt` is kept static and it reads `tx`, which holds the lambda `lambda c: BASE`, "
        "which reads `BASE`, which the module changes (jit would freeze it)"
    )


@pytest.mark.parametrize(
    "binding", ["tx = optax.sgd(0.1)\n", "tx = optax.sgd(lambda c: 0.1 * 0.9**c)\n"]
)
def test_a_static_optimizer_holding_nothing_that_changes_is_static(binding: str) -> None:
    plan = plan_of(_CUT + _PASSED.format(binding=binding, local=""))
    assert (plan.problem, _about_opt(plan), list(plan.static)) == ("", [], ["opt"])


def test_a_local_optimizer_holding_a_function_is_unproven() -> None:
    local = "    tx = optax.sgd(lambda c: BASE)\n"
    plan = plan_of(_CUT + _PASSED.format(binding="", local=local))
    assert plan.problem == ""
    assert _about_opt(plan) == [
        "`opt` receives `tx`, which holds the lambda `lambda c: BASE`; jit keeps it static, "
        "so it would freeze what that reads"
    ]
    kept = plan_of(_CUT + _PASSED.format(binding="", local="    tx = optax.adam(1e-3)\n"))
    assert (kept.problem, _about_opt(kept)) == ("", [])
