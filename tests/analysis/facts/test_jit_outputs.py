"""The positions of a framework jit's returned tuple that hold new buffers only."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.aliases import scope_sharing
from autoopt.analysis.facts.jit_outputs import fresh_output, fresh_positions

from ..helpers import HEADER, context, stmt

IMPORTS = HEADER + "import equinox as eqx\n"
PROGRAM = """
@eqx.filter_jit
def make_step(model, x, n):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x)
    model = eqx.apply_updates(model, grads)
    return loss, model, n, jnp.sum(x)

@eqx.filter_jit
def two_returns(model, x):
    if x.shape[0] > 2:
        return jnp.sum(x), model
    return model, jnp.sum(x)

@eqx.filter_jit
def not_a_tuple(model, x):
    out = (jnp.sum(x), model)
    return out

@jax.jit
def plain(model, x):
    return jnp.sum(x), model

def eager(model, x):
    return jnp.sum(x), model

def main(model, x):
    a, b, c, d = make_step(model, x, 3)
    e, f = two_returns(model, x)
    g, h = not_a_tuple(model, x)
    i, j = plain(model, x)
    k, m = eager(model, x)
    return a, b, c, d, e, f, g, h, i, j, k, m
"""


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("a, b, c, d = make_step(model, x, 3)", {0, 3}),
        ("e, f = two_returns(model, x)", set()),
        ("g, h = not_a_tuple(model, x)", set()),
        ("i, j = plain(model, x)", set()),  # jax.jit: every output is new (aliases.py)
        ("k, m = eager(model, x)", set()),
    ],
)
def test_fresh_positions(line: str, expected: set[int]) -> None:
    ctx = context(PROGRAM, IMPORTS)
    node = stmt(ctx, line).node
    assert type(node) is cst.Assign and type(node.value) is cst.Call
    count = len(node.targets[0].target.elements)  # type: ignore[attr-defined]
    assert fresh_positions(ctx, node.value, count) == expected


def test_wrong_count_is_none() -> None:
    ctx = context(PROGRAM, IMPORTS)
    node = stmt(ctx, "a, b, c, d = make_step(model, x, 3)").node
    assert fresh_positions(ctx, node.value, 3) == frozenset()  # type: ignore[attr-defined]


def test_sharing_unlinks_fresh_targets_only() -> None:
    """`a` (the loss) and `d` share nothing; `b`, `c` may hold the arguments' objects."""
    ctx = context(PROGRAM, IMPORTS)
    sharing = scope_sharing(ctx, "main")
    assert not sharing.may_share("a", "model") and not sharing.may_share("d", "x")
    assert sharing.may_share("b", "model")
    assert sharing.may_share("e", "model") and sharing.may_share("f", "model")


WHOLE = """
@eqx.filter_jit
def accuracy(model, x, y):
    pred = jax.vmap(model)(x)
    return jnp.mean(y == jnp.argmax(pred, axis=1))

@eqx.filter_jit
def weight_of(model):
    return jnp.asarray(model.weight)

@eqx.filter_jit
def carry(model, box):
    return box

@eqx.filter_jit
def either(model, x):
    if x.shape[0] > 2:
        return jnp.sum(x)
    return model

@eqx.filter_jit
def nothing(model):
    return

@jax.jit
def plain(model):
    return model

def eager(x):
    return jnp.sum(x)

def main(model, x, y, box, seen):
    acc = accuracy(model, x, y)
    w = weight_of(model)
    kept = carry(model, box)
    e = either(model, x)
    n = nothing(model)
    p = plain(model)
    s = eager(x)
    seen.append(weight_of(model))
    return acc, w, kept, e, n, p, s
"""


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("acc = accuracy(model, x, y)", True),
        ("w = weight_of(model)", True),  # the jit returns `model.weight` in a new buffer
        ("kept = carry(model, box)", False),  # a static leaf comes back as the very object
        ("e = either(model, x)", False),  # one `return` of a value not proven an array
        ("n = nothing(model)", False),
        ("p = plain(model)", False),  # jax.jit: every output is new (aliases.py)
        ("s = eager(x)", False),  # not compiled
    ],
)
def test_fresh_output(line: str, expected: bool) -> None:
    ctx = context(WHOLE, IMPORTS)
    node = stmt(ctx, line).node
    assert type(node) is cst.Assign and type(node.value) is cst.Call
    assert fresh_output(ctx, node.value) is expected


def test_sharing_unlinks_fresh_outputs_only() -> None:
    """`acc`, `w` and the list given `weight_of(model)` hold no object of the model's;
    `kept` and `e` may."""
    ctx = context(WHOLE, IMPORTS)
    sharing = scope_sharing(ctx, "main")
    assert not sharing.may_share("acc", "model") and not sharing.may_share("w", "model")
    assert not sharing.may_share("seen", "model")
    assert sharing.may_share("kept", "model") and sharing.may_share("e", "model")


NNX = """
def loss_fn(model, x):
    return jnp.mean(model(x) ** 2)

def aux_fn(model, x):
    out = model(x)
    return jnp.mean(out ** 2), out

@nnx.jit
def step(model, optimizer, x):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x)
    optimizer.update(grads)
    return loss

@nnx.jit
def with_aux(model, x):
    (loss, out), grads = nnx.value_and_grad(aux_fn, has_aux=True)(model, x)
    return loss

@nnx.jit
def gradients(model, x):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x)
    return grads

@nnx.jit
def same(model, x):
    return model

def main(model, optimizer, x):
    a = step(model, optimizer, x)
    b = with_aux(model, x)
    c = gradients(model, x)
    d = same(model, x)
    return a, b, c, d
"""


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("a = step(model, optimizer, x)", True),  # the value of a plain value_and_grad
        ("b = with_aux(model, x)", False),  # a part of a pytree, not proven one array
        ("c = gradients(model, x)", False),  # a pytree: it may hold a graph object
        ("d = same(model, x)", False),  # a module given comes back as the very object
    ],
)
def test_fresh_output_of_nnx_jit_is_one_array_only(line: str, expected: bool) -> None:
    ctx = context(NNX, HEADER + "from flax import nnx\n")
    node = stmt(ctx, line).node
    assert type(node) is cst.Assign and type(node.value) is cst.Call
    assert fresh_output(ctx, node.value) is expected
