"""overlays/jax_signatures against the installed jax."""

from __future__ import annotations

import importlib
import inspect

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from autoopt.analysis.overlays import jax_signatures as table
from tests.analysis.overlays.jax_signature_table import annotated, derive


def _function(qual: str):
    module, _, name = qual.rpartition(".")
    return getattr(importlib.import_module(module), name)


def test_the_table_is_what_the_installed_signatures_say() -> None:
    assert derive() == table.SIGNATURES


@pytest.mark.parametrize("entry", sorted(table.TRACED_UNANNOTATED))
def test_listed_parameters_are_ones_jax_leaves_unannotated(entry: str) -> None:
    qual, _, name = entry.partition(":")
    assert not annotated(inspect.signature(_function(qual)).parameters[name])


def _traced(f, *args):
    return jax.jit(f)(*args)


def test_listed_parameters_take_traced_values() -> None:
    x = jnp.arange(4.0)
    assert _traced(lambda a, b: jnp.einsum("i,i->", a, b), x, x) == 14.0
    assert _traced(lambda c, a: jnp.where(c, a, 0.0), x > 1, x).sum() == 5.0
    assert _traced(lambda a: jnp.asarray(a) + 1, x).sum() == 10.0
    assert _traced(lambda n: jax.lax.fori_loop(0, n, lambda i, s: s + i, 0), 4) == 6
    assert _traced(lambda i: jax.nn.one_hot(i, 3), jnp.array([0, 2])).sum() == 2.0


@pytest.mark.parametrize(
    ("call", "qual", "name"),
    [
        (lambda k: jax.lax.top_k(jnp.arange(5.0), k), "jax.lax.top_k", "k"),
        (lambda n: jnp.linalg.matrix_power(jnp.eye(2), n), "jax.numpy.linalg.matrix_power", "n"),
        (lambda d: jnp.polyfit(jnp.arange(4.0), jnp.arange(4.0), d), "jax.numpy.polyfit", "deg"),
        (
            lambda m: jax.lax.reduce_precision(1.0, 8, m),
            "jax.lax.reduce_precision",
            "mantissa_bits",
        ),
        (lambda k: jnp.diag(jnp.arange(3.0), k), "jax.numpy.diag", "k"),
        (lambda n: jax.random.permutation(jax.random.key(0), n), "jax.random.permutation", "x"),
    ],
)
def test_unlisted_parameters_refuse_traced_values(call, qual: str, name: str) -> None:
    spelled = table.SIGNATURES[qual].split()
    assert name in spelled  # listed, without `~`
    call(2)  # a Python value works
    with pytest.raises(Exception):  # noqa: B017 - each raises its own kind
        jax.jit(call)(2)


@pytest.mark.parametrize("qual", sorted(table.INTEGER_EXPONENTS))
def test_whole_number_exponents_round_otherwise_traced(qual: str) -> None:
    power = _function(qual)
    x = jnp.linspace(0.9, 1.1, 64, dtype=jnp.float32)
    eager, traced = power(x, 37), jax.jit(power)(x, 37)
    assert np.any(np.asarray(eager) != np.asarray(traced))
    assert np.array_equal(np.asarray(x**37), np.asarray(eager))  # `**` is the same call
    assert table.INTEGER_EXPONENTS[qual] in inspect.signature(power).parameters
