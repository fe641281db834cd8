"""Whether an `eqx.filter_jit` step's kept arguments can be passed first: every premise
`plans/keep_first.py` names, one failing at a time."""

from __future__ import annotations

import pytest

from autoopt.analysis.plans.keep_first import KeepFirst, keep_first

from ..helpers import context

HEADER = "import equinox as eqx\nimport jax.numpy as jnp\n"
STEP = """
@eqx.filter_jit
def step(w, xs, ys):
    return w - (xs * ys).sum(0)

def main():
    xs, ys = jnp.ones((4, 3)), jnp.ones((4, 3))
    w = jnp.zeros(3)
    for _ in range(3):
        w = step(w, xs, ys)
    return w
"""


def _plan(code: str, kept: tuple[str, ...] = ("xs", "ys")) -> KeepFirst | str:
    ctx = context(code, HEADER)
    return keep_first(ctx, ctx.graph.functions["step"], list(kept))


def test_every_call_in_sight_gives_the_plan() -> None:
    plan = _plan(STEP)
    assert type(plan) is KeepFirst
    assert (plan.kept, plan.pack, len(plan.calls)) == (("xs", "ys"), "undonated", 1)


def test_one_kept_argument_is_not_packed() -> None:
    plan = _plan(STEP, ("xs",))
    assert type(plan) is KeepFirst and plan.pack == ""


def test_the_packed_name_is_one_the_module_does_not_use() -> None:
    plan = _plan(STEP.replace("w = jnp.zeros(3)", "undonated = w = jnp.zeros(3)"))
    assert type(plan) is KeepFirst and plan.pack == "undonated_1"


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        ("    return w\n", "    return w, step\n", "`step` is used other than called"),
        ("    return w\n", "    return step.lower(w, xs, ys)\n", "used other than called"),
        ("= step(w, xs, ys)", "= step(w, *(xs, ys))", "passes `*args`, `**kwargs`"),
        ("= step(w, xs, ys)", "= step(w, xs, ys, 1)", "too many arguments"),
        ("= step(w, xs, ys)", "= step(w, xs, zs=ys)", "passes a keyword `step` does not take"),
        ("def step(w, xs, ys)", "def step(w, xs, ys=1)", "`ys` is keyword-only or has a"),
        ("def step(w, xs, ys)", "def step(w, xs, *, ys)", "`ys` is keyword-only or has a"),
        ("def step(w, xs, ys)", "def step(w, xs, ys, *rest)", "`*args` or `**kwargs`"),
        ("def step(w, xs, ys)", "def step(w, /, xs, ys)", "positional-only"),
        ("    return w - (xs", "    return ys, w - (xs", "`step` returns `ys`, which it keeps"),
        ("@eqx.filter_jit\n", "@eqx.filter_jit\n@other\n", "other decorators than its jit"),
        ("def step(w, xs, ys)", "def step(w, xs, ys  # data\n)", "a comment sits between"),
        ("def main():", "def main(step):", "is used other than called"),
        ("    return w\n", "    return w\n\nstep = 1\n", "bound more than once"),
    ],
)
def test_a_failing_premise_is_named(old: str, new: str, why: str) -> None:
    code = STEP.replace(old, new)
    assert code != STEP
    plan = _plan(code)
    assert type(plan) is str and why in plan


def test_a_call_inside_the_step_itself_is_refused() -> None:
    code = STEP.replace("    return w - (xs * ys).sum(0)", "    return step(w, xs, ys)")
    assert _plan(code) == "`step` calls itself at line 5"


@pytest.mark.parametrize(
    ("call", "moves"),
    [
        ("step(w, xs, ys)", True),  # names: reading them has no effect
        ("step(w.T, xs, ys)", True),  # a local name after an expression without `:=`
        ("step(w, xs[0:4], ys)", True),  # the expression moves before a local name
        ("step(f(w), next(it), ys)", False),  # two calls swap
        ("step((w := w), xs, ys)", False),  # `:=` may rebind what moves past it
    ],
)
def test_only_orders_that_commute_are_changed(call: str, moves: bool) -> None:
    code = STEP.replace("= step(w, xs, ys)", "= " + call).replace(
        "    w = jnp.zeros(3)\n", "    w = jnp.zeros(3)\n    it = iter([xs])\n    f = abs\n"
    )
    assert (type(_plan(code)) is KeepFirst) is moves


def test_a_name_another_function_rebinds_as_nonlocal_does_not_move() -> None:
    code = STEP.replace("= step(w, xs, ys)", "= step(bump(), xs, ys)").replace(
        "    w = jnp.zeros(3)\n",
        "    w = jnp.zeros(3)\n    def bump():\n        nonlocal xs\n        xs = xs + 1\n"
        "        return w\n",
    )
    plan = _plan(code)
    assert type(plan) is str and "evaluates `bump()` before `xs`" in plan


def test_a_module_imported_elsewhere_is_refused(tmp_path) -> None:
    import libcst as cst

    from autoopt.analysis.core.context import ModuleContext

    (tmp_path / "main.py").write_text(HEADER + STEP)
    (tmp_path / "other.py").write_text("from main import step\n")
    source = HEADER + STEP.lstrip("\n")
    ctx = ModuleContext(str(tmp_path / "main.py"), source, cst.parse_module(source))
    plan = keep_first(ctx, ctx.graph.functions["step"], ["xs", "ys"])
    assert type(plan) is str and "may import this module and call `step`" in plan
