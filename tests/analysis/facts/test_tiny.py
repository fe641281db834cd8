"""Values proven tiny: every array leaf 0-d or a PRNG key (`facts/tiny.py`)."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.tiny import all_tiny

from ..helpers import context, function

HEADER = (
    "import equinox as eqx\nimport jax\nimport jax.numpy as jnp\nimport optax\n\n"
    "@jax.jit\ndef step(x):\n    return STEP\n\n"
)


def tiny(init: str, step: str = "x", loop: str = "x = step(x)") -> bool:
    code = HEADER.replace("STEP", step) + init + f"\nfor _ in range(3):\n    {loop}\n"
    ctx = context(code)
    return all_tiny(ctx, function(ctx, "step"), ["x"])


@pytest.mark.parametrize(
    ("init", "step"),
    [
        ("x = jnp.array(0.0)", "x"),
        ("x = jnp.float32(-1)", "x * 0.5 + 1"),
        ("x = 3", "x"),
        ("x = jax.random.PRNGKey(0)", "jax.random.split(x)[0]"),
        ("x = jax.random.PRNGKey(0)", "x"),
        ("x, _ = jax.random.split(jax.random.key(0), 2)", "x"),
        ("x = (jnp.array(1.0), jnp.int32(2))", "x"),
    ],
)
def test_proven_tiny(init: str, step: str) -> None:
    assert tiny(init, step)


@pytest.mark.parametrize(
    ("init", "step"),
    [
        ("x = jnp.zeros(1000)", "x"),  # a big array
        ("x = jnp.array([1.0, 2.0])", "x"),  # not 0-d
        ("x = jnp.array(0.0, ndmin=3)", "x"),
        ("x = jnp.array(0.0)", "x + jnp.zeros(1000)"),  # the step's output grows
        ("x = jnp.array(0.0)", "jnp.stack([x, x])"),  # unknown output
        ("x = jax.random.split(jax.random.PRNGKey(0), 100000)", "x"),  # many keys
        ("x = jax.random.PRNGKey(0)", "x * 2"),  # arithmetic of a key: not proven 0-d
        ("x = load()", "x"),  # unseen code
        ("x = jnp.array(0.0)\ndef reset():\n    global x\n    x = jnp.zeros(9)\n", "x"),
    ],
)
def test_not_proven_tiny(init: str, step: str) -> None:
    assert not tiny(init, step)


def test_a_definition_reaching_on_some_path_counts() -> None:
    assert not tiny("x = jnp.array(0.0)\nif flag:\n    x = jnp.ones(50)", "x")


def test_a_value_not_replaced_by_the_step_is_judged_as_it_is() -> None:
    assert not tiny("x = jnp.array(0.0)", "x", "x = other(x); step(x)")


_MODULE = """
class Decay(eqx.Module):
    rate: float
BODY

x = Decay(ARG)
"""


@pytest.mark.parametrize(
    ("body", "arg", "proven"),
    [
        ("", "jnp.array(0.0)", True),
        ("", "jnp.ones(9)", False),
        ("", "rate=jnp.array(0.0)", False),  # by keyword: not followed
        ("    scale: float", "jnp.array(0.0)", False),  # a field left unset
        ("    scale: float = 1.0", "jnp.array(0.0)", False),  # a default
        ("    def __init__(self, r):\n        self.rate = jnp.full(9, r)", "0.0", False),
        ("    def __post_init__(self):\n        pass", "jnp.array(0.0)", False),
    ],
)
def test_equinox_module_of_tiny_fields(body: str, arg: str, proven: bool) -> None:
    init = _MODULE.replace("BODY", body).replace("ARG", arg)
    assert tiny(init, "x") is proven


_OPTAX = """
class Decay(eqx.Module):
    rate: float

model = Decay(jnp.array(0.0))
optim = OPTIM
opt_state = optim.init(model)

@eqx.filter_jit
def make_step(model, opt_state):
    grads = eqx.filter_grad(lambda m: m.rate**2)(model)
    updates, opt_state = optim.update(grads, opt_state)
    model = eqx.apply_updates(model, updates)
    return model, opt_state

for _ in range(3):
    model, opt_state = make_step(model, opt_state)
"""


@pytest.mark.parametrize(
    ("optim", "proven"),
    [
        ("optax.sgd(1e-2, momentum=0.7)", True),
        ("optax.chain(optax.clip(1.0), optax.adam(0.1))", True),
        ("make_optimizer()", False),  # an optimizer autoopt cannot see
    ],
)
def test_optax_state_of_tiny_params(optim: str, proven: bool) -> None:
    ctx = context(
        _OPTAX.replace("OPTIM", optim),
        "import equinox as eqx\nimport jax.numpy as jnp\nimport optax\n",
    )
    assert all_tiny(ctx, function(ctx, "make_step"), ["model", "opt_state"]) is proven
