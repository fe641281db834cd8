"""AO103's nnx whole-loop form where the step calls its model (`model(x)`): the model is
proven an object of a class of the module (`facts/nnx_instances.py`), so its `__call__`
is judged like any function, through `nnx.grad` and the layers it calls; every premise
that fails keeps the fix from being safe, named (the notebook jax-ai-stack
`neural_net_basics.ipynb` is the form)."""

from __future__ import annotations

import contextlib
import io

import pytest

from autoopt.api import check_source, optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability

from .helpers import assert_same, run_snippet

_NOTEBOOK = """
import jax
import jax.numpy as jnp
import optax
from flax import nnx


class SimpleNN(nnx.Module):
    def __init__(self, n_features: int = 16, n_hidden: int = 12, n_targets: int = 4, *, rngs):
        self.n_features = n_features
        self.layer1 = nnx.Linear(n_features, n_hidden, rngs=rngs)
        self.layer2 = nnx.Linear(n_hidden, n_hidden, rngs=rngs)
        self.layer3 = nnx.Linear(n_hidden, n_targets, rngs=rngs)

    def __call__(self, x):
        x = x.reshape(x.shape[0], self.n_features)
        x = nnx.selu(self.layer1(x))
        x = nnx.selu(self.layer2(x))
        x = self.layer3(x)
        return x


model = SimpleNN(rngs=nnx.Rngs(0))
optimizer = nnx.ModelAndOptimizer(model, optax.sgd(learning_rate=0.05))


def loss_fun(model, data, labels):
    logits = model(data)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits=logits, labels=labels).mean()
    return loss, logits


@nnx.jit
def train_step(model, optimizer, data, labels):
    loss_gradient = nnx.grad(loss_fun, has_aux=True)
    grads, logits = loss_gradient(model, data, labels)
    optimizer.update(grads)


images_train = jax.random.normal(jax.random.key(0), (32, 4, 4))
label_train = jax.random.randint(jax.random.key(1), (32,), 0, 4)
images_test = jax.random.normal(jax.random.key(2), (16, 4, 4))
label_test = jax.random.randint(jax.random.key(3), (16,), 0, 4)
losses = []
for i in range(31):
    train_step(model, optimizer, images_train, label_train)
    if i % 10 == 0:
        loss, _ = loss_fun(model, images_test, label_test)
        losses.append(float(loss))
        print(f"epoch {i}: loss={loss:.4f}")

result = (losses, jax.tree.map(lambda v: v, nnx.state(model)), i)
"""

_LOOP = """losses = []
for i in range(31):
    train_step(model, optimizer, images_train, label_train)
    if i % 10 == 0:
"""

_REWRITTEN_LOOP = """losses = []


@nnx.jit
def _loop(model, optimizer, images_train, label_train, steps):
    def body(_, carry):
        model, optimizer = carry
        train_step(model, optimizer, images_train, label_train)
        return model, optimizer

    nnx.fori_loop(0, steps, body, (model, optimizer))


_pending = 0
for i in range(31):
    _pending += 1
    if i % 10 == 0:
        _loop(model, optimizer, images_train, label_train, _pending)
        _pending = 0
"""

_TAIL = """        print(f"epoch {i}: loss={loss:.4f}")
"""


def _ao103(code: str) -> list:
    _, findings = check_source(code, settings=Settings(select=("AO103",)))
    return findings


def _rewritten(code: str) -> str:
    return optimize_source(code, settings=Settings(select=("AO103",))).new_source


def _run(code: str) -> tuple[object, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = run_snippet(code)
    return result, out.getvalue()


def test_the_model_s_call_is_followed_and_the_fix_is_safe() -> None:
    """`loss_fun` calls its argument `model`, an object of `SimpleNN` wherever the step's
    trace runs it (through `nnx.grad`): its `__call__` calls listed layers and
    `nnx.selu`, and changes nothing but the variables `nnx.jit` writes back."""
    (finding,) = _ao103(_NOTEBOOK)
    assert finding.fix is Applicability.SAFE
    assert finding.message == (
        "this loop's body runs eagerly, one dispatch per operation: run the `nnx.jit` "
        "steps between the reads of `if i % 10 == 0:` as one compiled loop, `_loop` "
        "(`nnx.fori_loop` under `@nnx.jit`, which writes the nnx modules back), the block "
        "kept eager at the same iterations"
    )
    expected = _NOTEBOOK.replace(_LOOP, _REWRITTEN_LOOP).replace(
        _TAIL,
        _TAIL + "if _pending:\n    _loop(model, optimizer, images_train, label_train, _pending)\n",
    )
    assert _rewritten(_NOTEBOOK) == expected
    assert _rewritten(expected) == expected  # idempotent


def test_the_compiled_loop_computes_what_the_notebook_did() -> None:
    before = _run(_NOTEBOOK)
    after = _run(_rewritten(_NOTEBOOK))
    assert before[1] == after[1]  # the printed losses, at the same epochs
    assert_same(before[0], after[0], rtol=1e-5)
    assert after[0][2] == 30


_LOUD = """

class Loud(nnx.Module):
    def __init__(self, rngs):
        self.lin = nnx.Linear(12, 12, rngs=rngs)

    def __call__(self, x):
        print("loud")
        return self.lin(x)
"""

_INIT = "        self.n_features = n_features\n"
_CALL = "        x = x.reshape(x.shape[0], self.n_features)\n"
_LAYER3 = "        self.layer3 = nnx.Linear(n_hidden, n_targets, rngs=rngs)\n"
_TRACED = "`train_step` runs again when the compiled loop is traced, and it is not proven "
_VIA = _TRACED + "pure but for its module updates: it calls `loss_gradient`, which calls "
_VIA += "`loss_fun`, which calls its argument `model`, "

#: case -> (replacements, the fix, the end of the premise that fails).
_MUST_NOT = {
    "a Python counter": (
        [(_INIT, _INIT + "        self.calls = 0\n"), (_CALL, "        self.calls += 1\n" + _CALL)],
        Applicability.NONE,
        "whose `SimpleNN.__call__` changes attributes of `self`, Python state a trace changes once",
    ),
    "a list appended": (
        [
            (_INIT, _INIT + "        self.seen = []\n"),
            (_CALL, "        self.seen.append(1)\n" + _CALL),
        ],
        Applicability.NONE,
        "whose `SimpleNN.__call__` changes attributes of `self`, Python state a trace changes once",
    ),
    "a list appended through a local": (
        [
            (_INIT, _INIT + "        self.seen = []\n"),
            (_CALL, "        seen = self.seen\n        seen.append(1)\n" + _CALL),
        ],
        Applicability.NONE,
        "whose `SimpleNN.__call__` changes `seen` in place, which may hold Python state "
        "of a module",
    ),
    "a counter in a method it calls": (
        [
            (_INIT, _INIT + "        self.calls = 0\n"),
            (_CALL, "        self.count()\n" + _CALL),
            (
                "    def __call__(self, x):\n",
                "    def count(self):\n        self.calls += 1\n\n    def __call__(self, x):\n",
            ),
        ],
        Applicability.NONE,
        "whose `SimpleNN.__call__` calls `self.count`, whose `SimpleNN.count` changes "
        "attributes of `self`, Python state a trace changes once",
    ),
    "a print": (
        [(_CALL, "        print('call')\n" + _CALL)],
        Applicability.NONE,
        "whose `SimpleNN.__call__` prints (`print` runs once, at trace time; use jax.debug.print)",
    ),
    "a field of a class that prints": (
        [
            ("\n\nclass SimpleNN", _LOUD + "\n\nclass SimpleNN"),
            (_LAYER3, _LAYER3 + "        self.loud = Loud(rngs)\n"),
            ("        x = self.layer3(x)\n", "        x = self.layer3(self.loud(x))\n"),
        ],
        Applicability.NONE,
        "whose `SimpleNN.__call__` calls `self.loud`, whose `Loud.__call__` prints "
        "(`print` runs once, at trace time; use jax.debug.print)",
    ),
    "a layer the overlay does not list": (
        [
            (_LAYER3, _LAYER3 + "        self.drop = nnx.Dropout(0.1, rngs=rngs)\n"),
            ("        x = self.layer3(x)\n", "        x = self.layer3(self.drop(x))\n"),
        ],
        Applicability.UNSAFE,
        "whose `SimpleNN.__call__` calls `self.drop`, code autoopt cannot see",
    ),
    "a layer with a hook run at every call": (
        [
            (
                "layer2 = nnx.Linear(n_hidden, n_hidden, rngs=rngs)",
                "layer2 = nnx.Linear(n_hidden, n_hidden, rngs=rngs, dot_general=dot)",
            ),
            (
                "\n\nclass SimpleNN",
                "\n\ndef dot(*args, **kwargs):\n    print('dot')\n"
                "    return jax.lax.dot_general(*args, **kwargs)\n\n\nclass SimpleNN",
            ),
        ],
        Applicability.UNSAFE,
        "whose `SimpleNN.__call__` calls `self.layer2`, code autoopt cannot see",
    ),
    "a field set again outside the class": (
        [
            (
                "optimizer = nnx.ModelAndOptimizer(",
                "model.layer2 = Loud(nnx.Rngs(1))\noptimizer = nnx.ModelAndOptimizer(",
            ),
            ("\n\nclass SimpleNN", _LOUD + "\n\nclass SimpleNN"),
        ],
        Applicability.UNSAFE,
        "whose `SimpleNN.__call__` calls `self.layer2`, code autoopt cannot see",
    ),
    "a layer's hook set after it is built": (
        [
            (
                "optimizer = nnx.ModelAndOptimizer(",
                "model.layer2.dot_general = jax.lax.dot_general\n"
                "optimizer = nnx.ModelAndOptimizer(",
            )
        ],
        Applicability.UNSAFE,
        "whose `SimpleNN.__call__` calls `self.layer1`, code autoopt cannot see",
    ),
    "a layer's attributes set by name": (
        [
            (
                "optimizer = nnx.ModelAndOptimizer(",
                "model.set_attributes(precision=None)\noptimizer = nnx.ModelAndOptimizer(",
            )
        ],
        Applicability.UNSAFE,
        "whose `SimpleNN.__call__` calls `self.layer1`, code autoopt cannot see",
    ),
    "the class's `__call__` replaced": (
        [("\n\ndef loss_fun(", "\n\nSimpleNN.__call__ = lambda self, x: x\n\n\ndef loss_fun(")],
        Applicability.UNSAFE,
        "whose `SimpleNN.__call__` may be replaced by an attribute the program sets, "
        "code autoopt cannot see",
    ),
    "an attribute set by name": (
        [(_CALL, "        setattr(self, 'last', 1)\n" + _CALL)],
        Applicability.UNSAFE,
        "whose `SimpleNN.__call__` may be replaced by an attribute the program sets, "
        "code autoopt cannot see",
    ),
    "the parameter bound again": (
        [
            ("    logits = model(data)\n", "    model = OTHER\n    logits = model(data)\n"),
            ("\n\ndef loss_fun(", "\n\nOTHER = SimpleNN(rngs=nnx.Rngs(3))\n\n\ndef loss_fun("),
        ],
        Applicability.UNSAFE,
        "which calls its argument `model`, code autoopt cannot see",
    ),
    "a lambda's own `model`": (
        [("    logits = model(data)\n", "    logits = (lambda model: model(data))(print)\n")],
        Applicability.UNSAFE,
        "which calls its argument `model`, code autoopt cannot see",
    ),
    "a comprehension's own `model`": (
        [("    logits = model(data)\n", "    logits = [model(data) for model in [print]][0]\n")],
        Applicability.UNSAFE,
        "which calls its argument `model`, code autoopt cannot see",
    ),
    "the gradient function bound twice": (
        [
            (
                "    optimizer.update(grads)\n",
                "    loss_gradient = nnx.grad(loud_loss, has_aux=True)\n"
                "    grads, logits = loss_gradient(model, data, labels)\n"
                "    optimizer.update(grads)\n",
            ),
            (
                "\n\n@nnx.jit",
                "\n\ndef loud_loss(model, data, labels):\n    print('l')\n"
                "    return loss_fun(model, data, labels)\n\n\n@nnx.jit",
            ),
        ],
        Applicability.UNSAFE,
        "it calls `loss_gradient`, bound more than once, code autoopt cannot see",
    ),
    "the model of a subclass": (
        [
            ("model = SimpleNN(rngs=nnx.Rngs(0))\n", "model = Sub(rngs=nnx.Rngs(0))\n"),
            (
                "\n\nmodel = ",
                "\n\nclass Sub(SimpleNN):\n    def __call__(self, x):\n"
                "        print('sub')\n        return super().__call__(x)\n\n\nmodel = ",
            ),
        ],
        Applicability.NONE,
        "`model`, given to the step, is not proven an nnx object or an array",
    ),
    "a global the interval block changes": (
        [
            ("        x = self.layer3(x)\n", "        x = self.layer3(x) * SCALE\n"),
            ("\n\nclass SimpleNN", "\n\nSCALE = 1.0\n\n\nclass SimpleNN"),
            (_TAIL, _TAIL + "        SCALE = SCALE * 0.5\n"),
        ],
        Applicability.NONE,
        "`train_step` is traced again inside the compiled loop, and it calls "
        "`SimpleNN.__call__`, which reads `SCALE`, which the module changes (jit would "
        "freeze it)",
    ),
}


@pytest.mark.parametrize("case", sorted(_MUST_NOT))
def test_no_safe_fix_where_a_premise_fails(case: str) -> None:
    replacements, fix, premise = _MUST_NOT[case]
    code = _NOTEBOOK
    for old, new in replacements:
        assert old in code, old
        code = code.replace(old, new)
    (finding,) = _ao103(code)
    assert finding.fix is fix
    assert finding.message.endswith(premise) or finding.message.endswith(
        premise + " [fix: none]"
    ), finding.message
    if premise.startswith("whose") or premise.startswith("which calls its argument"):
        assert _VIA in finding.message
    assert _rewritten(code) == code
