"""Fields of an object of a plain class of the module passed beside a donated module, and
the object read after the call (`analysis/facts/wrapper_fields.py`), as the donation
verdicts of an `nnx.jit` step word them."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.donation import targets, verdicts
from autoopt.analysis.facts.escape import sharing_at
from autoopt.analysis.facts.wrapper_fields import field_clear
from autoopt.model import Applicability

from ..helpers import context, stmt

SAFE, UNSAFE, NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE

HEADER = "import jax.numpy as jnp\nimport optax\nfrom flax import nnx\n"

PROGRAM = """
class MLP(nnx.Module):
    def __init__(self, *, rngs: nnx.Rngs):
        self.out = nnx.Linear(3, 3, rngs=rngs)

    def __call__(self, x):
        return self.out(x)


class Schedule:
    def __init__(self, model, steps):
        self.model = model
        self.steps = steps
        self.beta = self._betas(steps)
        self.rates = jnp.sqrt(jnp.cumprod(1 - self.beta))

    def _betas(self, steps):
        betas = jnp.linspace(0.01, 0.5, steps)
        return jnp.concatenate([betas[0:1], betas])

    def noisy(self, x):
        return self.rates[1] * x + self.model(x)


@nnx.jit
def step(model, optimizer, data, rates):
    grads = nnx.grad(lambda m: jnp.mean(m(data) * rates[1]))(model)
    optimizer.update(grads)


def main():
    data = jnp.ones((4, 3))
    model = MLP(rngs=nnx.Rngs(0))
    schedule = Schedule(model, 10)
    optimizer = nnx.ModelAndOptimizer(model, optax.sgd(0.1))
    for _ in range(4):
        step(model, optimizer, data, schedule.rates)
    return schedule.noisy(data)
"""

_DONATED = [("model", SAFE, ""), ("optimizer", SAFE, "")]


def _variant(*pairs: tuple[str, str]) -> str:
    code = PROGRAM
    for old, new in pairs:
        assert old in code
        code = code.replace(old, new)
    return code


def _verdicts(code: str) -> tuple[list, list]:
    ctx = context(code, HEADER)
    (target,) = [t for t in targets(ctx) if t.name == "step"]
    return verdicts(ctx, target)


def _passed(why: str, line: int = 36) -> list[str]:
    """The notes on `model` and `optimizer` where `schedule.rates` is not proven clear."""
    part = (
        "and is passed in the same call (as `schedule.rates`, not proven to hold none of "
        f"them: {why})"
    )
    bound = f": `schedule` is bound at line {line} to the result of `Schedule`, given `model`"
    return [
        f"`schedule` may hold the buffers of `model` {part}{bound}",
        f"`schedule` may hold the buffers of `optimizer` {part}",
    ]


#: Where `schedule.rates` is not proven data, `nnx.jit` is given an object its body may
#: see as the caller's own and move between its arguments (`facts/jit_arguments.py`,
#: h1584): the call links all three, and the optimizer is no longer proven to share no
#: array with the model but the model itself; the field's premise is `field_clear`'s.
_LINKED = [
    "`optimizer` may hold the buffers of `model` and is passed in the same call: "
    "`optimizer` is bound at line LINE to the result of `nnx.ModelAndOptimizer`, given `model`",
    "`model` may hold the buffers of `optimizer` and is passed in the same call",
]


def _linked(code: str, why: str, line: int) -> None:
    """The call is not donated, for the link above; `field_clear` names `why`."""
    reasons = [r.replace("LINE", str(line + 1)) for r in _LINKED]
    assert _verdicts(code) == ([], reasons)
    ctx = context(code, HEADER)
    at = stmt(ctx, "step(model, optimizer, data, schedule.rates)")
    rates = at.node.value.args[3].value  # type: ignore[attr-defined]  # an expression statement
    assert field_clear(ctx, sharing_at(ctx, at, "model"), at, rates, "model") == why


def test_a_field_of_new_buffers_beside_the_model_is_donated() -> None:
    """`rates` is `jnp.sqrt` of arrays made from the schedule; the object holds the model
    itself, which `nnx.jit` writes back, so reading it after the call is sound."""
    assert _verdicts(PROGRAM) == (_DONATED, [])


def test_a_field_of_an_argument_given_new_buffers_is_donated() -> None:
    code = _variant(
        ("def __init__(self, model, steps):", "def __init__(self, model, steps, rates):"),
        ("self.rates = jnp.sqrt(jnp.cumprod(1 - self.beta))", "self.rates = jnp.asarray(rates)"),
        ("Schedule(model, 10)", "Schedule(model, 10, jnp.linspace(0.0, 1.0, 3))"),
    )
    assert _verdicts(code) == (_DONATED, [])


@pytest.mark.parametrize(
    ("pairs", "why", "line"),
    [
        pytest.param(
            [("self.rates = jnp.sqrt(", "self.rates = model.out.bias[...] + jnp.sqrt(")],
            "`self.rates` (line 17): `model.out.bias` is not proven an array or a number",
            36,
            id="the-model's-weight",
        ),
        pytest.param(
            [
                ("def __init__(self, model, steps):", "def __init__(self, model, steps, w):"),
                (
                    "self.rates = jnp.sqrt(jnp.cumprod(1 - self.beta))",
                    "self.rates = jnp.asarray(w)",
                ),
                ("Schedule(model, 10)", "Schedule(model, 10, model.out.bias[...])"),
            ],
            "`self.rates` (line 17): `w` is given `model.out.bias[...]`, not proven an array "
            "or a number",
            36,
            id="asarray-of-the-weight",
        ),
        pytest.param(
            [
                (
                    "    def noisy(self, x):",
                    "    def pin(self, w):\n        self.rates = w\n\n    def noisy(self, x):",
                )
            ],
            "a method of `Schedule` other than `__init__` writes through `self`",
            39,
            id="another-method-rebinds",
        ),
        pytest.param(
            [
                (
                    "    for _ in range(4):",
                    "    schedule.rates = model.out.bias[...]\n    for _ in range(4):",
                )
            ],
            "`schedule` is written through at line 38",
            36,
            id="set-from-outside",
        ),
        pytest.param(
            [
                (
                    "    for _ in range(4):",
                    "    schedule.model.extra = nnx.Param(model.out.bias[...])\n"
                    "    for _ in range(4):",
                )
            ],
            "`schedule` is written through at line 38",
            36,
            id="written-through",
        ),
        pytest.param(
            [
                (
                    "    for _ in range(4):",
                    '    setattr(schedule, "rates", data)\n    for _ in range(4):',
                )
            ],
            "`setattr` at line 38 may reach `self.rates`",
            36,
            id="setattr",
        ),
        pytest.param(
            [
                ("\n\n@nnx.jit", "\n\nclass Pinned(Schedule):\n    pass\n\n\n@nnx.jit"),
            ],
            "`Schedule` shares a family with `Pinned`, whose methods may rebind its fields",
            40,
            id="a-subclass",
        ),
        pytest.param(
            [("    for _ in range(4):", "    keep(schedule)\n    for _ in range(4):")],
            "`schedule` is used other than by reading its fields at line 38",
            36,
            id="handed-to-unseen-code",
        ),
        pytest.param(
            [("    for _ in range(4):", "    other = schedule\n    for _ in range(4):")],
            "`schedule` is used other than by reading its fields at line 38",
            36,
            id="aliased",
        ),
        pytest.param(
            [("    for _ in range(4):", "    bound = schedule.noisy\n    for _ in range(4):")],
            "`schedule` is used other than by reading its fields at line 38: "
            "`schedule.noisy` hands on a method bound to it",
            36,
            id="a-bound-method-handed-on",
        ),
        pytest.param(
            [("class Schedule:", "@register\nclass Schedule:")],
            "`Schedule` is decorated with `register`, whose methods may keep `self.rates`",
            37,
            id="decorated",
        ),
        pytest.param(
            [
                (
                    "    def noisy(self, x):",
                    "    def __setattr__(self, k, v):\n        pass\n\n    def noisy(self, x):",
                )
            ],
            "`Schedule` defines `__setattr__`, which runs on attribute access",
            39,
            id="a-hook",
        ),
    ],
)
def test_a_field_not_proven_new_buffers_keeps_the_call_undonated(
    pairs: list[tuple[str, str]], why: str, line: int, request: pytest.FixtureRequest
) -> None:
    if request.node.callspec.id in _LINKING:
        _linked(_variant(*pairs), why, line)
    else:
        assert _verdicts(_variant(*pairs)) == ([], _passed(why, line))


#: The variants where `schedule.rates` is not proven data either (`jit_arguments`'s
#: `_data_field`), so the `nnx.jit` call links every argument (`_LINKED`).
_LINKING = frozenset(
    {"another-method-rebinds", "set-from-outside", "written-through", "setattr", "decorated",
     "a-hook"}
)  # fmt: skip


def test_an_object_bound_twice_is_read_as_the_binding_reaching_the_call() -> None:
    code = _variant(
        ("    for _ in range(4):", "    schedule = Schedule(model, 5)\n    for _ in range(4):")
    )
    assert _verdicts(code) == (_DONATED, [])
    code = _variant(
        (
            "    for _ in range(4):",
            "    if data.sum() > 0:\n        schedule = Schedule(model, 5)\n    for _ in range(4):",
        )
    )
    why = "`schedule` is not bound to one constructor call where it is read"
    _linked(code, why, 36)


def test_an_object_read_after_the_call_holding_a_weight_is_not_donated() -> None:
    """The field is never passed, but `schedule.noisy(data)` reads it after the call."""
    code = _variant(
        ("self.steps = steps", "self.steps = steps\n        self.start = model.out.bias[...]"),
        ("self.model(x)", "self.model(x) + self.start"),
    )
    why = (
        "is read at line 40: `self.start` (line 16): `model.out.bias` is not proven an array "
        "or a number"
    )
    assert _verdicts(code) == (
        [],
        [f"`schedule` may hold the buffers of `{n}` and {why}" for n in ("model", "optimizer")],
    )
