"""AO103's nnx whole-loop form: a counted loop of an `nnx.jit` step read at an interval
runs the steps between the reads as one `nnx.fori_loop` under `@nnx.jit`, the block kept
eager at the same iterations; it computes what the loop did, the modules' state (Adam's
moments, `nnx.Rngs` counts, BatchNorm statistics) included. Each failing premise keeps it
from a safe fix, named."""

from __future__ import annotations

import contextlib
import io

import pytest

from autoopt.api import check_source, optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability

from .helpers import assert_same, run_snippet

_HEAD = """
import jax
import jax.numpy as jnp
import optax
from flax import nnx


@nnx.jit
def train_step(model, optimizer, x, y):
    scale = jnp.mean(x) - jnp.mean(y)
    grads = jax.tree.map(lambda p: p * scale + 0.01, nnx.state(model, nnx.Param))
    optimizer.update(model, grads)
"""

_MAIN = """

def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(0.01), wrt=nnx.Param)
    x = jnp.linspace(-1.0, 2.0, 24).reshape(8, 3)
    y = jnp.ones((8, 1))
    sums = []
    for i in range(23):
        train_step(model, optimizer, x, y)
        if i % 5 == 0:
            sums.append(float(jnp.sum(model.kernel[...])))
    return sums, model.kernel[...], model.bias[...], i


result = main()
"""

_PROGRAM = _HEAD + _MAIN

_COMPILED = """

@nnx.jit
def _main_loop(model, optimizer, x, y, steps):
    def body(_, carry):
        model, optimizer = carry
        train_step(model, optimizer, x, y)
        return model, optimizer

    nnx.fori_loop(0, steps, body, (model, optimizer))
"""

_LOOP = """    for i in range(23):
        train_step(model, optimizer, x, y)
        if i % 5 == 0:
            sums.append(float(jnp.sum(model.kernel[...])))
"""

_REWRITTEN_LOOP = """    _main_pending = 0
    for i in range(23):
        _main_pending += 1
        if i % 5 == 0:
            _main_loop(model, optimizer, x, y, _main_pending)
            _main_pending = 0
            sums.append(float(jnp.sum(model.kernel[...])))
    if _main_pending:
        _main_loop(model, optimizer, x, y, _main_pending)
"""


def _ao103(code: str) -> list:
    _, findings = check_source(code, settings=Settings(select=("AO103",)))
    return findings


def _rewritten(code: str, unsafe: bool = False) -> str:
    settings = Settings(select=("AO103",), unsafe_fixes=unsafe)
    return optimize_source(code, settings=settings).new_source


def _run(code: str) -> tuple[object, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = run_snippet(code)
    return result, out.getvalue()


def test_the_steps_between_the_reads_run_as_one_compiled_loop() -> None:
    (finding,) = _ao103(_PROGRAM)
    assert finding.fix is Applicability.SAFE
    assert finding.message == (
        "this loop's body runs eagerly, one dispatch per operation: run the `nnx.jit` "
        "steps between the reads of `if i % 5 == 0:` as one compiled loop, `_main_loop` "
        "(`nnx.fori_loop` under `@nnx.jit`, which writes the nnx modules back), the block "
        "kept eager at the same iterations"
    )
    expected = (_HEAD + _COMPILED + _MAIN).replace(_LOOP, _REWRITTEN_LOOP)
    assert _rewritten(_PROGRAM) == expected
    assert _rewritten(expected) == expected  # idempotent


def test_the_compiled_loop_computes_what_the_loop_did() -> None:
    before = _run(_PROGRAM)
    after = _run(_rewritten(_PROGRAM))
    assert_same(before[0], after[0], rtol=1e-6)
    assert before[0][0] == after[0][0] and after[0][3] == 22  # the reads, the last index


_STATEFUL = """
import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Net(nnx.Module):
    def __init__(self, rngs):
        self.dense = nnx.Linear(4, 8, rngs=rngs)
        self.norm = nnx.BatchNorm(8, rngs=rngs)
        self.drop = nnx.Dropout(0.3, rngs=rngs)
        self.out = nnx.Linear(8, 1, rngs=rngs)

    def __call__(self, x):
        return self.out(self.drop(self.norm(nnx.relu(self.dense(x)))))


def loss_fn(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


@nnx.jit
def train_step(model, optimizer, x, y):
    grads = nnx.grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)


model = Net(nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.adam(0.01), wrt=nnx.Param)
x = jnp.linspace(-1.0, 1.0, 64).reshape(16, 4)
y = jnp.sin(x[:, :1])
losses = []
for i in range(31):
    train_step(model, optimizer, x, y)
    if i % 10 == 0:
        losses.append(float(loss_fn(model, x, y)))
        print(i, losses[-1])


def plain(v):
    return jax.random.key_data(v) if jax.dtypes.issubdtype(v.dtype, jax.dtypes.prng_key) else v


result = (losses, jax.tree.map(plain, nnx.state(model)), i)
"""


def test_module_state_is_carried_exactly() -> None:
    """A model with BatchNorm statistics and Dropout's `nnx.Rngs` counts: the step calls
    the model, whose `__call__` autoopt follows (`facts/nnx_instances.py`) up to the
    Dropout layer, which the overlay does not list (unsafe, that call named: the message
    named only `model(x)` before autoopt followed the model); the unsafe rewrite carries
    every state variable, so every read and the final state are bitwise the same."""
    (finding,) = _ao103(_STATEFUL)
    assert finding.fix is Applicability.UNSAFE
    assert finding.message.endswith(
        "unsafe: `train_step` runs again when the compiled loop is traced, and it is not "
        "proven pure but for its module updates: it calls `loss_fn`, which calls its "
        "argument `model`, whose `Net.__call__` calls `self.drop`, code autoopt cannot see"
    )
    assert _rewritten(_STATEFUL) == _STATEFUL  # not by default
    rewritten = _rewritten(_STATEFUL, unsafe=True)
    assert "nnx.fori_loop(0, steps, body, (model, optimizer))" in rewritten
    before, after = _run(_STATEFUL), _run(rewritten)
    assert before[1] == after[1]
    assert_same(before[0], after[0], rtol=0.0)


_MUST_NOT = {
    "module rebound": (
        _LOOP,
        _LOOP.replace(
            "            sums.append(",
            "            model = nnx.Linear(3, 1, rngs=nnx.Rngs(i))\n            sums.append(",
        ),
        "",
    ),
    "input rebound": (
        "            sums.append(",
        "            x = x * 0.5\n            sums.append(",
        "`x`, given to the step, is rebound in the loop",
    ),
    "result used": (
        "        train_step(model, optimizer, x, y)\n",
        "        done = train_step(model, optimizer, x, y)\n",
        "the step's result is used, and the compiled loop returns none",
    ),
    "not counted": (
        "    for i in range(23):\n",
        "    for i in [0, 5, 1, 2, 3, 4, 5, 6, 7]:\n",
        "",
    ),
    "module not proven": (
        "    optimizer = nnx.Optimizer(model, optax.adam(0.01), wrt=nnx.Param)\n",
        "    optimizer = make_optimizer(model)\n",
        "`optimizer`, given to the step, is not proven an nnx object or an array",
    ),
    "step prints": (
        "    optimizer.update(model, grads)\n",
        "    optimizer.update(model, grads)\n    print('traced')\n",
        "`train_step` runs again when the compiled loop is traced",
    ),
    "step reads a rebound global": (
        "            sums.append(",
        "            bump()\n            sums.append(",
        "`train_step` is traced again inside the compiled loop, and it reads `RATE`",
    ),
    "interval changes a module": (
        "            sums.append(",
        "            nnx.update(model, jax.tree.map(lambda p: p * 0.5, nnx.state(model)))\n"
        "            sums.append(",
        "in the interval block changes an nnx module in place too, outside the step",
    ),
    "condition reads the module": (
        "        if i % 5 == 0:\n",
        "        if jnp.sum(model.kernel[...]) > 0.0:\n",
        "is not proven a function of `i` alone",
    ),
    "jit with options": (
        "@nnx.jit\ndef train_step(",
        "@nnx.jit(donate_argnums=(2,))\ndef train_step(",
        "is not a function of this module under a bare `@nnx.jit`",
    ),
    "block on the if line": (
        "        if i % 5 == 0:\n            sums.append(float(jnp.sum(model.kernel[...])))\n",
        "        if i % 5 == 0: sums.append(float(jnp.sum(model.kernel[...])))\n",
        "its body is not the step then one `if` block",
    ),
    "more in the body": (
        "        if i % 5 == 0:\n",
        "        y = y + 0.0\n        if i % 5 == 0:\n",
        "",
    ),
}

_HELPERS = """
RATE = 1.0


def make_optimizer(model):
    return nnx.Optimizer(model, optax.adam(0.01), wrt=nnx.Param)


def bump():
    global RATE
    RATE = RATE * 0.5
"""


@pytest.mark.parametrize("case", sorted(_MUST_NOT))
def test_no_safe_fix_where_a_premise_fails(case: str) -> None:
    old, new, premise = _MUST_NOT[case]
    code = (_HEAD + _HELPERS + _MAIN).replace(old, new)
    if case == "step reads a rebound global":
        code = code.replace("jnp.mean(y)\n", "jnp.mean(y) * RATE\n")
    assert code != _HEAD + _HELPERS + _MAIN
    findings = _ao103(code)
    assert all(f.fix is not Applicability.SAFE for f in findings), findings
    if premise:
        assert any(premise in f.message for f in findings), [f.message for f in findings]
    assert _rewritten(code) == code
