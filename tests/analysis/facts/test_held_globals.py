"""Held globals: a rebound module global holding one listed linen layer while a loop at
module level runs, and what a step extracted from that loop may then prove."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.held_globals import held_layers, layer_at, why_not_held
from autoopt.analysis.facts.library_arrays import arrays_at_calls
from autoopt.analysis.facts.purity import impurities, reads_module_state

from ..helpers import HEADER, context, function, stmt

IMPORTS = HEADER + "from flax import linen as nn\n"
PROGRAM = """
xs = jnp.ones((8, 2))
model = nn.Dense(features=5)

def loss_fn(params):
    return jnp.mean(model.apply(params, xs) ** 2)

BEFORE
model = nn.Dense(features=1)
params = model.init(jax.random.key(0), xs)
for epoch in range(20):
    loss = loss_fn(params)
INSIDE
AFTER
"""


def _ctx(before: str = "", inside: str = "", after: str = ""):
    code = PROGRAM.replace("BEFORE", before).replace("INSIDE", inside).replace("AFTER", after)
    return context(code, IMPORTS)


def _held(ctx) -> dict[str, str]:
    (loop,) = ctx.graph.loops.values()
    return held_layers(ctx, loop)


def test_the_binding_reaching_the_loop_is_held():
    assert _held(_ctx()) == {"model": "flax.linen.Dense"}


def test_a_held_layer_makes_its_apply_pure_and_its_read_unfrozen():
    ctx = _ctx()
    fn = function(ctx, "loss_fn")
    assert impurities(ctx, fn) == ["calls `model.apply`, code autoopt cannot see"]
    assert reads_module_state(ctx, fn) == ["model"]
    held = ctx.derived(cst.parse_module(ctx.source), _held(ctx))  # new nodes: judged afresh
    assert impurities(held, function(held, "loss_fn")) == []
    assert reads_module_state(held, function(held, "loss_fn")) == []


def test_init_of_the_reaching_layer_gives_arrays():
    ctx = _ctx()
    init = stmt(ctx, "params = model.init(jax.random.key(0), xs)")
    assert layer_at(ctx, init, init.node.value.func.value) == "flax.linen.Dense"
    site = ctx.graph.call_sites(function(ctx, "loss_fn"))
    assert arrays_at_calls(ctx, site, 0, "params")


@pytest.mark.parametrize(
    ("before", "inside", "after"),
    [
        ("", "    model = nn.Dense(2)", ""),  # rebound in the loop
        ("", "    model.features = 2", ""),  # changed in the loop
        ("", "", "alias = model"),  # an alias that may be changed
        ("def grow():\n    global model\n    model = nn.Dense(3)\n", "", ""),  # `global`
        ("def widen():\n    model.features = 3\n", "", ""),  # a function changes it
        ("", "", "def keep(m=model):\n    return m\n"),  # a default holds it
    ],
)
def test_changed_or_aliased_layers_are_not_held(before: str, inside: str, after: str):
    assert _held(_ctx(before, inside, after)) == {}


def test_a_binding_in_a_branch_or_a_loop_in_a_function_is_not_held():
    branch = PROGRAM.replace(
        "params = model.init", "if xs.size:\n    model = nn.Dense(2)\nparams = model.init"
    )
    assert (
        _held(
            context(
                branch.replace("BEFORE", "").replace("INSIDE", "").replace("AFTER", ""), IMPORTS
            )
        )
        == {}
    )
    in_function = """
    model = nn.Dense(features=1)

    def loss_fn(params, x):
        return jnp.mean(model.apply(params, x))

    def train(params, x):
        for _ in range(3):
            loss = loss_fn(params, x)
        return loss
    """
    ctx = context(in_function, IMPORTS)
    (loop,) = ctx.graph.loops.values()
    assert held_layers(ctx, loop) == {}


@pytest.mark.parametrize(
    "binding",
    [
        "model = MyLayer()",  # a class autoopt does not list
        "model = nn.Dense(features=1, dot_general=my_dot)",  # runs a function it is given
        "model = nn.Dense(*sizes)",  # arguments not seen
    ],
)
def test_only_listed_layers_of_plain_arguments_are_held(binding: str):
    code = PROGRAM.replace("model = nn.Dense(features=1)", binding)
    code = "my_dot = jax.lax.dot_general\nsizes = [1]\nMyLayer = nn.Dense\n" + code
    ctx = context(code.replace("BEFORE", "").replace("INSIDE", "").replace("AFTER", ""), IMPORTS)
    assert _held(ctx) == {}


def test_a_method_given_to_apply_is_code_not_seen():
    code = PROGRAM.replace("model.apply(params, xs)", "model.apply(params, xs, method=fn)")
    ctx = context(
        code.replace("BEFORE", "fn = jnp.sum").replace("INSIDE", "").replace("AFTER", ""), IMPORTS
    )
    assert _held(ctx) == {}


@pytest.mark.parametrize(
    ("before", "inside", "after", "why"),
    [
        ("", "", "", ""),
        ("", "    model = nn.Dense(2)", "", "the loop rebinds or changes `model`"),
        ("", "", "alias = model", "line 17 reads `model` other than to call its `init` or "
         "`apply`, so the layer may be kept or changed"),
        ("def grow():\n    global model\n    model = nn.Dense(3)\n", "", "",
         "a function rebinds `model` through `global`"),
        ("globals()['model'] = None", "", "",
         "`model` may be rebound through `globals()`"),
    ],
)  # fmt: skip
def test_why_not_held_names_the_premise(before: str, inside: str, after: str, why: str):
    ctx = _ctx(before, inside, after)
    (loop,) = ctx.graph.loops.values()
    assert why_not_held(ctx, loop, "model") == why
    assert why_not_held(ctx, loop, "xs") is None
