"""Stores in `self.a` of new buffers (`fresh_store`): a fresh call, a part of one, or a
part of a local bound once to one, unpacked into attributes with paths of their own."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.fresh_stores import fresh_store
from autoopt.analysis.facts.self_attrs import is_store, uses

from ..helpers import context

_HEADER = "import flax.linen as nn\nimport jax\nimport jax.numpy as jnp\n"
_CLASS = """
class Trainer:
    def __init__(self, exmp):
        self.model = nn.Dense(3)
        self.init_model(exmp)

    def init_model(self, exmp):
        BODY


def main(exmp):
    return Trainer(exmp).init_params
"""
_SPLIT = """variables = self.model.init(jax.random.PRNGKey(0), exmp)
        self.init_params, self.init_stats = variables["params"], variables["batch_stats"]"""


def _fresh(body: str, attr: str = "init_params") -> bool:
    ctx = context(_CLASS.replace("BODY", body), _HEADER)
    (store,) = [u for u in uses(ctx, "Trainer", attr) if is_store(u)]
    return fresh_store(ctx, store)


def test_a_fresh_call_or_a_part_of_one() -> None:
    assert _fresh("self.init_params = self.model.init(jax.random.PRNGKey(0), exmp)")
    assert _fresh('self.init_params = self.model.init(jax.random.PRNGKey(0), exmp)["params"]')
    assert not _fresh("self.init_params = exmp")
    assert not _fresh("self.init_params = make(exmp)")


@pytest.mark.parametrize("attr", ["init_params", "init_stats"])
def test_parts_of_a_local_bound_to_a_fresh_call(attr: str) -> None:
    assert _fresh(_SPLIT, attr)


def test_each_element_on_its_own() -> None:
    other = _SPLIT.replace('variables["batch_stats"]', "exmp")
    assert _fresh(other, "init_params")
    assert not _fresh(other, "init_stats")
    direct = 'self.init_params, self.init_stats = self.model.init(KEY, exmp)["params"], exmp'
    assert _fresh(direct, "init_params")
    assert not _fresh(direct, "init_stats")


@pytest.mark.parametrize(
    "body",
    [
        # the local is read again: it holds the buffers too
        _SPLIT + "\n        self.first = variables",
        _SPLIT + "\n        print(variables)",
        # one item in two attributes, or one inside another
        _SPLIT.replace('variables["batch_stats"]', 'variables["params"]'),
        _SPLIT.replace('variables["batch_stats"]', "variables"),
        _SPLIT.replace('variables["batch_stats"]', 'variables["params"]["w"]'),
        # a part by a computed index, or the local handed to a call
        _SPLIT.replace('variables["batch_stats"]', "variables[KEY]"),
        _SPLIT.replace('variables["batch_stats"]', "pick(variables)"),
        # bound twice, or to what autoopt does not know to be new buffers
        "variables = {}\n        " + _SPLIT,
        _SPLIT.replace("self.model.init(jax.random.PRNGKey(0), exmp)", "load(exmp)"),
        _SPLIT.replace("self.model.init(jax.random.PRNGKey(0), exmp)", "exmp"),
        # a starred target
        _SPLIT.replace("self.init_params, self.init_stats", "self.init_params, *self.rest"),
    ],
)
def test_not_proven(body: str) -> None:
    assert not _fresh(body)


def test_a_parameter_or_a_global_is_not_a_local() -> None:
    body = 'self.init_params, self.init_stats = exmp["params"], exmp["batch_stats"]'
    assert not _fresh(body)
    glob = "global variables\n        " + _SPLIT
    assert not _fresh(glob)
