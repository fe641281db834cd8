"""Names proven to hold no array leaf (what `eqx.filter_jit` never donates)."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.no_arrays import holds_no_array

from ..helpers import context, expr, stmt

HEADER = "import functools\nimport jax.numpy as jnp\nimport optax\n\n"


def proven(binding: str, name: str = "f") -> bool:
    code = HEADER + binding + "\nuse(" + name + ")\n"
    ctx = context(code)
    return holds_no_array(ctx, stmt(ctx, f"use({name})"), expr(name))


@pytest.mark.parametrize(
    "binding",
    [
        "def f(v):\n    return v * 2\n",
        "f = lambda v: v * 2\n",
        "f = optax.adam(0.1)\n",
        "f = optax.chain(optax.clip_by_global_norm(1.0), optax.sgd(0.1))\n",
        "if flag:\n    f = optax.sgd(0.1)\nelse:\n    f = lambda v: v\n",
    ],
)
def test_functions_and_optimizers_hold_no_array(binding: str) -> None:
    assert proven(binding)


@pytest.mark.parametrize(
    "binding",
    [
        "f = jnp.ones(3)\n",
        "f = model.__call__\n",  # an equinox module's method is a pytree of its arrays
        "f = functools.partial(g, jnp.ones(3))\n",
        "@functools.cache\ndef f(v):\n    return v\n",
        "def f(v):\n    return v\nf = jnp.ones(3)\n",
        "if flag:\n    f = optax.sgd(0.1)\nelse:\n    f = jnp.ones(3)\n",
        "f = make_optimizer()\n",
    ],
)
def test_anything_else_is_unknown(binding: str) -> None:
    assert not proven(binding)


def test_a_module_function_read_in_a_function() -> None:
    code = HEADER + "def f(v):\n    return v\n\ndef main():\n    use(f)\n"
    ctx = context(code)
    assert holds_no_array(ctx, stmt(ctx, "use(f)"), expr("f"))


def test_a_module_function_rebound_elsewhere_is_unknown() -> None:
    code = HEADER + "def f(v):\n    return v\n\ndef main():\n    use(f)\n\nf = jnp.ones(3)\n"
    ctx = context(code)
    assert not holds_no_array(ctx, stmt(ctx, "use(f)"), expr("f"))


@pytest.mark.parametrize(
    ("binding", "attribute", "none"),
    [
        ("opt = optax.adabelief(1e-3)\n", "opt.update", True),  # a field of the optimizer
        ("opt = optax.chain(optax.sgd(0.1))\n", "opt.init", True),
        ("opt = make_optimizer()\n", "opt.update", False),  # an object autoopt cannot see
        ("opt = jnp.ones(3)\n", "opt.T", False),
        ("opt = lambda v: v\n", "opt.update", False),  # a function's attribute may be set
        ("if flag:\n    opt = optax.sgd(0.1)\nelse:\n    opt = model\n", "opt.update", False),
    ],
)
def test_an_attribute_of_an_optimizer_holds_no_array(
    binding: str, attribute: str, none: bool
) -> None:
    ctx = context(HEADER + binding + "\nuse(" + attribute + ")\n")
    assert holds_no_array(ctx, stmt(ctx, f"use({attribute})"), expr(attribute)) is none
