"""AO103's nnx step where the model is a parameter of the step it extracts: the loop
hands `train_step` the module-level `model`, so the step's `model` holds an object of the
module's class at its one call (`facts/nnx_instances.py`, `called_instance` through
known callers), followed through `nnx.value_and_grad` into its `__call__`, the methods,
listed layers (sizes given by keyword) and factory closures it calls (the jax-ai-stack
notebook `digits_diffusion_model.ipynb` is the form); every premise that fails keeps the
fix from being safe, named."""

from __future__ import annotations

import contextlib
import io
import textwrap

import pytest

from autoopt.api import check_source, optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability

from .helpers import assert_same, run_snippet

_PROGRAM = """import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Net(nnx.Module):
    def __init__(self, features: int, *, rngs: nnx.Rngs):
        self.features = features
        self.time_mlp = nnx.Linear(in_features=8, out_features=features, rngs=rngs)
        self.block = self._block(features, rngs)
        self.head = nnx.Linear(features, 4, rngs=rngs)

    def _block(self, channels: int, rngs: nnx.Rngs):
        proj = nnx.Linear(in_features=channels, out_features=channels, rngs=rngs)

        def forward(x):
            h = proj(x)
            h = h.reshape(x.shape)
            return x + nnx.gelu(h)

        return forward

    def _encode(self, t):
        return jnp.sin(t[:, None] * jnp.arange(8.0))

    def __call__(self, x, t):
        h = self.time_mlp(self._encode(t)) + x
        h = self.block(h)
        return self.head(h)


def loss_fn(model, x, t, y):
    pred = model(x, t)
    grad = jax.grad(lambda v: model(v, t).mean())(x)
    return jnp.mean((pred - y) ** 2) + 0.01 * jnp.mean(grad**2)


@nnx.jit
def train_step(model, optimizer, x, t, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, t, y)
    optimizer.update(model, grads)
    return loss


key = jax.random.key(0)
model = Net(16, rngs=nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
x = jax.random.normal(jax.random.key(1), (32, 16))
y = jax.random.normal(jax.random.key(2), (32, 4))
for epoch in range(21):
    key, sub = jax.random.split(key)
    t = jax.random.uniform(sub, (32,))
    loss = train_step(model, optimizer, x, t, y)
    if epoch % 10 == 0:
        print(f"Epoch {epoch}, Loss: {loss:.4f}")

result = (loss, nnx.state(model), epoch)
"""

_LOOP = """for epoch in range(21):
    key, sub = jax.random.split(key)
    t = jax.random.uniform(sub, (32,))
    loss = train_step(model, optimizer, x, t, y)
    if epoch % 10 == 0:
        print(f"Epoch {epoch}, Loss: {loss:.4f}")

"""

_REWRITTEN_LOOP = """

@nnx.jit
def _step(key, model, optimizer):
    key, sub = jax.random.split(key)
    t = jax.random.uniform(sub, (32,))
    loss = train_step(model, optimizer, x, t, y)
    return key, sub, t, loss


for epoch in range(21):
    key, sub, t, loss = _step(key, model, optimizer)
    if epoch % 10 == 0:
        print(f"Epoch {epoch}, Loss: {loss:.4f}")

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


def test_the_model_s_call_is_followed_from_the_step_s_parameter() -> None:
    (finding,) = _ao103(_PROGRAM)
    assert finding.fix is Applicability.SAFE
    assert finding.message == (
        "this loop's body runs eagerly, one dispatch per operation: compile it as one "
        "`nnx.jit` step, `_step`, which writes the nnx modules it changes back into them"
    )
    expected = _PROGRAM.replace(_LOOP, _REWRITTEN_LOOP)
    assert _rewritten(_PROGRAM) == expected
    assert _rewritten(expected) == expected  # idempotent


def test_the_step_computes_what_the_loop_did() -> None:
    before = _run(_PROGRAM)
    after = _run(_rewritten(_PROGRAM))
    assert before[1] == after[1]  # the printed losses, at the same epochs
    assert_same(before[0], after[0], rtol=1e-5)


_CALL = "        h = self.time_mlp(self._encode(t)) + x\n"
_INIT = "        self.features = features\n"
_VIA = (
    "this loop's body runs eagerly, one dispatch per operation; not compiled as one "
    "`nnx.jit` step (`_step`), which would write back the nnx modules it changes: "
    "`train_step` runs again when the step is traced, and it is not proven pure but for "
    "its module updates: it calls `loss_fn`, which calls its argument `model`, "
)
_FIT = textwrap.indent(_LOOP, "    ")

#: case -> (replacements, the premise that fails, at the end of the message).
_MUST_NOT = {
    "a global list appended": (
        [
            (_CALL, "        CALLS.append(1)\n" + _CALL),
            ("\n\nclass Net", "\n\nCALLS = []\n\n\nclass Net"),
        ],
        "whose `Net.__call__` mutates `CALLS`, which lives outside the function",
    ),
    "a Python counter": (
        [(_CALL, "        self.count += 1\n" + _CALL), (_INIT, _INIT + "        self.count = 0\n")],
        "whose `Net.__call__` changes attributes of `self`, Python state a trace changes once",
    ),
    "a print": (
        [(_CALL, "        print('call')\n" + _CALL)],
        "whose `Net.__call__` prints (`print` runs once, at trace time; use jax.debug.print)",
    ),
    "a field holding an unknown object": (
        [
            (_INIT, _INIT + "        self.extra = make_extra()\n"),
            (_CALL, _CALL + "        h = self.extra(h)\n"),
            ("\n\nclass Net", "\n\ndef make_extra():\n    return jnp.tanh\n\n\nclass Net"),
        ],
        "whose `Net.__call__` calls `self.extra`, code autoopt cannot see",
    ),
    "a metaclass": (
        [("class Net(nnx.Module):", "class Net(nnx.Module, metaclass=type(nnx.Module)):")],
        "code autoopt cannot see",
    ),
    "a class decorator": (
        [("\n\nclass Net", "\n\ndef keep(cls):\n    return cls\n\n\n@keep\nclass Net")],
        "code autoopt cannot see",
    ),
    "a layer attribute set after it is built": (
        [
            (
                "x = jax.random.normal(jax.random.key(1)",
                "model.features = 16\nx = jax.random.normal(jax.random.key(1)",
            )
        ],
        "whose `Net.__call__` calls `self.time_mlp`, code autoopt cannot see",
    ),
    "a layer attribute set by a method": (
        [
            (
                "    def _encode(self, t):\n",
                "    def resize(self, n):\n        self.features = n\n\n"
                "    def _encode(self, t):\n",
            )
        ],
        "whose `Net.__call__` calls `self.time_mlp`, code autoopt cannot see",
    ),
}


@pytest.mark.parametrize("case", sorted(_MUST_NOT))
def test_a_model_call_not_proven_pure_keeps_the_fix_off(case: str) -> None:
    replacements, premise = _MUST_NOT[case]
    code = _PROGRAM
    for old, new in replacements:
        assert old in code
        code = code.replace(old, new)
    (finding,) = _ao103(code)
    assert finding.fix is Applicability.NONE
    assert finding.message == _VIA + premise


def test_a_model_from_a_caller_out_of_sight_is_not_followed() -> None:
    """`fit` escapes (`RUNNERS`): its `model` may be anything, and the loop in it is no
    `nnx.jit` step (no finding)."""
    code = _PROGRAM.replace(_LOOP, "def fit(model, optimizer, key):\n" + _FIT[:-1]
                            + "    return loss, epoch\n\n\nRUNNERS = {'fit': fit}\n"
                            "loss, epoch = RUNNERS['fit'](model, optimizer, key)\n\n")  # fmt: skip
    assert _ao103(code) == []


def test_a_value_of_the_model_s_call_not_proven_an_array_is_named() -> None:
    code = _PROGRAM.replace(
        "        return self.head(h)\n", "        out = self.head(h)\n        return out\n"
    )
    (finding,) = _ao103(code)
    assert finding.fix is Applicability.NONE
    assert finding.message.endswith(
        "it calls `loss_fn`, which calls `.mean` on the result of `model(...)`, code autoopt "
        "cannot see"
    )
