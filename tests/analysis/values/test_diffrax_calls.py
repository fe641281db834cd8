"""diffrax's solve and helpers on the value lattice, and `jax.vmap` of what returns them."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.values.lattice import Kind, Value
from autoopt.analysis.values.model import model

from .test_model import HEADER, value_at_end

SOLVE = """
import diffrax
y0 = INITIAL
sol = diffrax.diffeqsolve(diffrax.ODETerm(f), diffrax.Tsit5(), 0.0, 1.0, 0.1, y0SAVE)
ys = sol.ys
"""


@pytest.mark.parametrize(
    ("initial", "save", "kind"),
    [
        ("jnp.ones(3)", "", Kind.ARRAY),
        ("jnp.ones(3)", ", saveat=diffrax.SaveAt(ts=jnp.linspace(0, 1, 4))", Kind.ARRAY),
        ("jnp.ones(3)", ", saveat=diffrax.SaveAt(t0=True, t1=True)", Kind.ARRAY),
        ("jnp.ones(3)", ", saveat=diffrax.SaveAt(t1=False)", Kind.UNKNOWN),  # saves no state
        ("jnp.ones(3)", ", saveat=diffrax.SaveAt(ts=ts, fn=g)", Kind.UNKNOWN),  # `fn`'s output
        ("jnp.ones(3)", ", saveat=given", Kind.UNKNOWN),
        ("jnp.ones(3)", ", **options", Kind.UNKNOWN),
        ("(jnp.ones(3), jnp.ones(2))", "", Kind.UNKNOWN),  # the states have `y0`'s structure
        ("load()", "", Kind.UNKNOWN),
    ],
)
def test_the_saved_states_of_a_solve(initial: str, save: str, kind: Kind) -> None:
    body = SOLVE.replace("INITIAL", initial).replace("SAVE", save)
    assert value_at_end(body, "ys").kind is kind


def test_a_save_option_bound_to_a_name_is_followed() -> None:
    body = SOLVE.replace("INITIAL", "jnp.ones(3)").replace("SAVE", ", saveat=saveat")
    body = "saveat = diffrax.SaveAt(ts=jnp.linspace(0, 1, 4))\n" + body
    assert value_at_end(body, "ys").kind is Kind.ARRAY


@pytest.mark.parametrize(
    ("body", "value"),
    [
        # a function of the module returning an array: stacked, an array
        (
            "def f(k):\n    return jnp.ones(3) * k\nys = jax.vmap(f)(jnp.arange(4))",
            Value(Kind.ARRAY),
        ),
        (
            "def f(k):\n    return jnp.ones(3)\nys = jax.vmap(lambda k: f(k))(jnp.arange(4))",
            Value(Kind.ARRAY),
        ),
        (
            "import diffrax\nts = jnp.ones((2, 5))\n"
            "ys = jax.vmap(diffrax.backward_hermite_coefficients)(ts, ts)",
            Value(Kind.PYTREE, detail="tuple"),
        ),
        # anything else: a pytree of arrays
        ("def f(k):\n    return {'a': k}\nys = jax.vmap(f)(jnp.arange(4))", Value(Kind.PYTREE)),
        ("ys = jax.vmap(lambda k: k + 1)(jnp.arange(4))", Value(Kind.PYTREE)),
        ("ys = jax.vmap(g)(jnp.arange(4))", Value(Kind.PYTREE)),
        (  # the lambda's `f` is its parameter, not the module's function
            "def f(k):\n    return jnp.ones(3)\nys = jax.vmap(lambda f: f(1))(fs)",
            Value(Kind.PYTREE),
        ),
    ],
)
def test_vmap_keeps_the_structure_of_what_its_function_returns(body: str, value: Value) -> None:
    assert value_at_end(body, "ys") == value


def test_hermite_coefficients_of_arrays_are_a_tuple_of_arrays() -> None:
    body = "import diffrax\nts = jnp.ones(5)\nc = diffrax.backward_hermite_coefficients(ts, ts)"
    assert value_at_end(body, "c") == Value(Kind.PYTREE, detail="tuple")
    body = body.replace("(ts, ts)", "(ts, load())")
    assert value_at_end(body, "c").kind is Kind.UNKNOWN


def test_a_function_vmap_calls_takes_its_arguments_kinds_not_their_shapes() -> None:
    body = "def _f(y):\n    probe(y)\n    return y\nys = jax.vmap(_f)(jnp.ones((4, 3)))"
    code = HEADER + body + "\n"
    ctx = ModuleContext("<t>", code, cst.parse_module(code))
    probe = ctx.graph.scope_stmts("_f")[0]
    assert model(ctx).name(probe, "y") == Value(Kind.ARRAY)  # a row: no (4, 3) shape
