"""What calling an nnx module object runs, and purity following it through the trace."""

from __future__ import annotations

import pytest

from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.facts.nnx_instances import (
    called_instance,
    field_instance,
    instance_methods,
    method_problem,
)
from autoopt.analysis.facts.purity import impurities_except

from ..helpers import context

_MODULE = """
import jax.numpy as jnp
from flax import nnx


def hook(*args, **kwargs):
    return None


class Block(nnx.Module):
    def __init__(self, rngs):
        self.dense = nnx.Linear(4, 4, rngs=rngs)

    def __call__(self, x):
        return nnx.relu(self.dense(x))


class Net(nnx.Module):
    def __init__(self, rngs):
        self.block = Block(rngs)
        self.out = nnx.Linear(4, 1, rngs=rngs)
        self.hooked = nnx.Linear(4, 4, dot_general=hook, rngs=rngs)
        self.drop = nnx.Dropout(0.1, rngs=rngs)

    def __call__(self, x):
        return self.out(self.block(x))

    def encode(self, x):
        return self.block(x)


class Sub(Net):
    pass


net = Net(nnx.Rngs(0))
linear = nnx.Linear(4, 1, rngs=nnx.Rngs(0))
hooked = nnx.Linear(4, 1, dot_general=hook, rngs=nnx.Rngs(0))
sub = Sub(nnx.Rngs(0))
use = (net, linear, hooked, sub)
"""


def _reader():
    ctx = context(_MODULE)
    return ctx, next(s for s in ctx.graph.scope_stmts(MODULE) if "use" in s.defs)


@pytest.mark.parametrize(
    ("name", "instance"),
    [("net", "Net"), ("linear", "flax.nnx.Linear"), ("hooked", None), ("sub", None)],
)
def test_a_name_holds_the_instance_its_one_binding_builds(name: str, instance: str | None) -> None:
    """A class of the module deriving from `nnx.Module` alone, or a listed layer given
    no option run at call time; a subclass of a class of the module is not read."""
    ctx, reader = _reader()
    assert called_instance(ctx, reader, name) == instance


@pytest.mark.parametrize(
    ("field", "instance"),
    [("block", "Block"), ("out", "flax.nnx.Linear"), ("hooked", None), ("drop", None),
     ("missing", None)],
)  # fmt: skip
def test_a_field_holds_what_init_alone_stores(field: str, instance: str | None) -> None:
    assert field_instance(context(_MODULE), "Net", field) == instance


def test_a_field_set_outside_the_class_is_not_read() -> None:
    ctx = context(_MODULE + "net.out = Block(nnx.Rngs(1))\n")
    assert field_instance(ctx, "Net", "out") is None


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ("", ""),
        ("Net.__call__ = Block.__call__\n", "may be replaced by an attribute the program sets"),
        ("setattr(net, 'x', 1)\n", "may be replaced by an attribute the program sets"),
        ("net.__class__ = Block\n", "may be replaced by an attribute the program sets"),
    ],
)
def test_a_method_is_the_class_body_s_one_def(extra: str, problem: str) -> None:
    assert method_problem(context(_MODULE + extra), "Net", "__call__") == problem


def test_a_decorated_or_hooked_method_is_not_read() -> None:
    code = _MODULE.replace("    def encode(", "    @staticmethod\n    def encode(")
    assert method_problem(context(code), "Net", "encode") == (
        "is not one undecorated `def` of the class"
    )
    code = _MODULE.replace("    def encode(", "    def __getattr__(self, n):\n        return n\n\n"
                           "    def encode(")  # fmt: skip
    assert method_problem(context(code), "Net", "__call__") == (
        "may be reached through an attribute hook of the class"
    )


def test_the_methods_a_call_may_run_include_the_fields_classes() -> None:
    ctx = context(_MODULE)
    names = sorted(fn.qualname for fn in instance_methods(ctx, "Net"))
    assert names == ["Block.__call__", "Net.__call__", "Net.encode"]
    assert instance_methods(ctx, "flax.nnx.Linear") == []


_STEP = """
def loss(model, x):
    return jnp.sum(model(x))


def step(model, x):
    return nnx.grad(loss)(model, x)
"""


@pytest.mark.parametrize(
    ("instance", "reasons"),
    [
        ("Net", []),
        ("flax.nnx.Linear", []),
        ("", ["calls `loss`, which calls its argument `model`, code autoopt cannot see"]),
    ],
)  # fmt: skip
def test_purity_follows_an_instance_through_nnx_grad(instance: str, reasons: list[str]) -> None:
    ctx = context(_MODULE + _STEP)
    step = ctx.graph.functions["step"]
    given = (("model", instance),) if instance else ()
    found = impurities_except(ctx, step, frozenset(), frozenset(), given)
    assert found == reasons


def test_purity_names_what_the_followed_call_does() -> None:
    code = _MODULE.replace("        return nnx.relu(self.dense(x))", "        print(x)\n"
                           "        return nnx.relu(self.dense(x))")  # fmt: skip
    ctx = context(code + _STEP)
    found = impurities_except(ctx, ctx.graph.functions["loss"], frozenset(), frozenset(),
                              (("model", "Net"),))  # fmt: skip
    assert found == [
        "calls its argument `model`, whose `Net.__call__` calls `self.block`, whose "
        "`Block.__call__` prints (`print` runs once, at trace time; use jax.debug.print)"
    ]
