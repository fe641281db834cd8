"""Values made before an nnx module was built cannot hold its buffers: each premise."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.donation import targets, verdicts
from autoopt.analysis.facts.module_provenance import made_before
from autoopt.model import Applicability

from ..helpers import HEADER, context, stmt

IMPORTS = HEADER + "import optax\nfrom flax import nnx\n"
NET = """
class Net(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(2, 2, rngs=rngs)

class Leaky(nnx.Module):
    def __init__(self, rngs):
        self.linear = nnx.Linear(2, 2, rngs=rngs)
        self.linear.kernel.value = DATA

@nnx.jit
def step(model, x):
    model.linear.bias.value += x.sum()

"""


def _made_before(body: str) -> bool:
    ctx = context(NET + body + "step(model, x)\n", IMPORTS)
    return made_before(ctx, stmt(ctx, "step(model, x)"), "x", "model")


@pytest.mark.parametrize(
    "body",
    [
        "x = load()\nmodel = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n",
        "x = load()\nmodel = Net(nnx.Rngs(0))\n",  # a class of the module, sealed code
        "x = load()\nmodel = Net(rngs=nnx.Rngs(0, noise=1))\n",
        "x = load()\nnet = Net(nnx.Rngs(0))\nmodel = nnx.Optimizer(net, optax.adam(1e-3))\n",
        # each batch is drawn before the iteration's module is built
        "for x in data():\n    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n    ",
    ],
)
def test_a_value_bound_before_the_module_was_built_is_proven(body: str) -> None:
    assert _made_before(body)


@pytest.mark.parametrize(
    "body",
    [
        "model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\nx = load()\n",  # made after it
        "x = load()\nmodel = Net(nnx.Rngs(0))\nx = model.linear.kernel.value\n",  # its leaf
        "x = load()\nmodel = Net(x)\n",  # the constructor is handed `x`
        "x = load()\nmodel = nnx.Linear(2, 2, rngs=nnx.Rngs(0), kernel_init=init)\n",
        "x = load()\nmodel = Leaky(nnx.Rngs(0))\n",  # its code reads a global array
        "x = load()\nmodel = make()\n",  # not a module constructor
        "model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\nfor x in data():\n    ",  # each after it
        "if c:\n    x = load()\nmodel = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n",  # not always
    ],
)
def test_anything_else_is_unproven(body: str) -> None:
    assert not _made_before(body)


def _verdict(body: str):
    code = NET.replace("DATA", "jnp.ones((2, 2))") + "def main(loader):\n" + body
    ctx = context(code, IMPORTS)
    (target,) = targets(ctx, "step")
    donate, blocked = verdicts(ctx, target)
    return (donate[0][1], donate[0][2]) if donate else (Applicability.NONE, blocked[0])


def test_a_batch_that_is_a_leaf_of_the_model_is_never_donated_with_it() -> None:
    body = (
        "    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n"
        "    batch = model.kernel.value\n"
        "    step(model, batch)\n"
        "    return model\n"
    )
    fix, why = _verdict(body.replace("model.linear", "model"))
    assert fix is not Applicability.SAFE, why


def test_data_from_an_unknown_object_made_after_the_model_stays_a_doubt() -> None:
    body = (
        "    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n"
        "    show(model)\n"
        "    batch = fetch()\n"
        "    keep(batch)\n"  # unseen code holds both: it may have put one in the other
        "    step(model, batch)\n"
        "    return model\n"
    )
    fix, why = _verdict(body)
    assert fix is Applicability.UNSAFE
    assert why == (
        "`batch` may hold the buffers of `model` and is passed in the same call: "
        "`show(model)` at line 21 runs code that may keep `model`, and `batch` may hold "
        "what such code keeps"
    )


def test_data_made_before_the_model_leaves_the_premise_that_fails() -> None:
    body = (
        "    batch = loader.next()\n"
        "    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))\n"
        "    show(model)\n"
        "    step(model, batch)\n"
        "    return model\n"
    )
    assert _verdict(body) == (
        Applicability.UNSAFE,
        "`model` is handed to `show`, which may keep it",
    )
