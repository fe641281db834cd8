"""Closures a factory of the module returns, followed from the name that holds one."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.closures import factory_closure

from ..helpers import HEADER, context

_FACTORY = """
def make_loss(xs, ys):
    def loss(w):
        return jnp.mean((xs @ w - ys) ** 2)

    return {returned}

"""


@pytest.mark.parametrize(
    ("returned", "binding", "name"),
    [
        ("loss", "f = make_loss(X, Y)", "f"),
        ("jax.jit(loss)", "f = make_loss(X, Y)", "f"),
        ("jax.jit(loss)", "f = jax.value_and_grad(make_loss(X, Y))", "f"),
        ("loss", "g = make_loss(X, Y)\nf = jax.jit(jax.grad(g))", "f"),
    ],
)
def test_the_closure_a_factory_returns_is_followed(returned: str, binding: str, name: str) -> None:
    ctx = context(_FACTORY.format(returned=returned) + binding + "\n", HEADER)
    found = factory_closure(ctx, name)
    assert found is not None and found.qualname == "make_loss.loss"


_NOT_FOLLOWED = [
    # bound twice
    (_FACTORY.format(returned="loss") + "f = make_loss(X, Y)\nf = make_loss(Y, X)\n"),
    # bound in a loop
    (_FACTORY.format(returned="loss") + "for i in range(3):\n    f = make_loss(X, i)\n"),
    # a lambda returned
    ("def make_loss(xs):\n    return lambda w: xs @ w\nf = make_loss(X)\n"),
    # two returns
    (
        "def make_loss(xs, sq):\n    def a(w):\n        return xs @ w\n"
        "    def b(w):\n        return -(xs @ w)\n    if sq:\n        return a\n    return b\n"
        "f = make_loss(X, True)\n"
    ),
    # the returned name rebound after its definition
    (
        "def make_loss(xs):\n    def loss(w):\n        return xs @ w\n"
        "    loss = jax.vmap(loss)\n    return loss\nf = make_loss(X)\n"
    ),
    # a decorated factory
    (
        "import functools\n@functools.cache\ndef make_loss(xs):\n    def loss(w):\n"
        "        return xs @ w\n    return loss\nf = make_loss(X)\n"
    ),
    # the returned function rebound by a nested function with `nonlocal`
    (
        "def make_loss(xs):\n    def loss(w):\n        return xs @ w\n"
        "    def swap():\n        nonlocal loss\n        loss = None\n    return loss\n"
        "f = make_loss(X)\n"
    ),
    # a method's result
    ("f = model.make_loss(X)\n"),
]


@pytest.mark.parametrize("code", _NOT_FOLLOWED)
def test_other_factories_are_not_followed(code: str) -> None:
    assert factory_closure(context(code, HEADER), "f") is None


def test_a_cycle_of_names_ends() -> None:
    ctx = context("f = jax.jit(g)\ng = jax.jit(f)\n", HEADER)
    assert factory_closure(ctx, "f") is None
