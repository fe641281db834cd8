"""Module layers: framework module classes, and what recomputing a layer would repeat."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.module_layers import element_class, layer_problems, module_classes

from ..helpers import HEADER, context

IMPORTS = HEADER + "import flax.linen as nn\nimport equinox as eqx\nimport typing\n"
MODULE = """
class Dense(nn.Module):
    @nn.compact
    def __call__(self, x, train=True):
        z = nn.BatchNorm(use_running_average=not train)(x)
        return nn.relu(nn.Dense(4)(z)) + self.param("b", jnp.zeros, (4,))

class Outer(nn.Module):
    @nn.compact
    def __call__(self, x):
        return Dense()(x)

class Activated(nn.Module):
    act_fn: typing.Callable

    @nn.compact
    def __call__(self, x):
        return self.act_fn(nn.Dense(4)(x))

class Sown(nn.Module):
    @nn.compact
    def __call__(self, x):
        self.sow("intermediates", "x", x)
        return x

class Counted(nn.Module):
    @nn.compact
    def __call__(self, x):
        count = self.variable("counter", "n", jnp.zeros, ())
        count.value += 1
        return x

class Shown(nn.Module):
    @nn.compact
    def __call__(self, x):
        return self.show(nn.Dense(4)(x))

    def show(self, h):
        jax.debug.print("{}", h)
        return h

class Unknown(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.SelfAttention(2)(x)

class Leaf(eqx.Module):
    weight: jax.Array

    def __call__(self, x):
        print("leaf")
        return self.weight * x

class Block(eqx.Module):
    linear: eqx.nn.Linear
    inner: Leaf

    def __call__(self, x):
        return self.inner(self.linear(x))

class Block2(eqx.Module):
    later: "Leaf"

    def __call__(self, x):
        return self.later(x)

class Net(eqx.Module):
    layers: list[Block]
    others: tuple[int, ...]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

class NotModule:
    def __call__(self, x):
        return x
"""


def ctx():
    return context(MODULE, IMPORTS)


def test_module_classes_by_framework() -> None:
    found = module_classes(ctx())
    assert found["Dense"] == "linen" and found["Net"] == "equinox"
    assert "NotModule" not in found


@pytest.mark.parametrize("cls", ["Dense", "Outer"])
def test_library_layers_and_param_reads_are_pure_under_recompute(cls: str) -> None:
    assert layer_problems(ctx(), cls) == ([], [])


def test_a_callable_field_is_unproven() -> None:
    assert layer_problems(ctx(), "Activated") == (
        [],
        ["calls `self.act_fn`, whose layer autoopt cannot see"],
    )


@pytest.mark.parametrize("cls", ["Sown", "Counted"])
def test_a_collection_write_is_refuted(cls: str) -> None:
    refuted, _ = layer_problems(ctx(), cls)
    assert refuted and refuted[0].startswith("writes a variable collection (`self.")


def test_an_effect_in_a_method_is_refuted() -> None:
    refuted, _ = layer_problems(ctx(), "Shown")
    effect = "prints from the trace (`jax.debug.print`)"
    assert refuted == [f"{effect}, which recomputation would repeat"]


def test_a_library_layer_not_listed_is_unproven() -> None:
    assert layer_problems(ctx(), "Unknown")[1] == [
        "calls the result of `nn.SelfAttention(...)`, code autoopt cannot see",
        "calls `flax.linen.SelfAttention`, code autoopt cannot see",
    ]


def test_equinox_fields_are_followed_to_their_class() -> None:
    refuted, _ = layer_problems(ctx(), "Block")
    assert refuted[0].startswith("prints (`print` runs once")
    unproven = ["calls `self.later`, whose layer autoopt cannot see"]
    assert layer_problems(ctx(), "Block2") == ([], unproven)


def test_element_class_of_an_annotated_field() -> None:
    assert element_class(ctx(), "Net", "layers") == "Block"
    assert element_class(ctx(), "Net", "others") is None
