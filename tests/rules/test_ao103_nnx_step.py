"""AO103's nnx step: a loop step that changes nnx modules in place, through an `nnx.jit`
function or the optimizer, compiled with `@nnx.jit` and the modules passed as its
arguments, computes what the loop did and leaves the modules as it did; a module or
function whose Python code would run a different number of times, a module not proven,
or an `nnx.jit` with options keeps it from a safe fix."""

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
def decay(model, optimizer, scale):
    grads = jax.tree.map(lambda p: p * scale, nnx.state(model, nnx.Param))
    optimizer.update(model, grads)
    return jnp.sum(model.kernel[...])
"""

_MAIN = """

def main():
    model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.sgd(0.1), wrt=nnx.Param)
    x = jnp.ones(3)
    for i in range(10):
        scale = jnp.cos(x[0]) * 0.5 + 0.5
        total = decay(model, optimizer, scale)
        x = jnp.sin(x) * total
{rest}    return x, model.kernel[...], model.bias[...], i


result = main()
"""


def _program(rest: str = "", head: str = _HEAD) -> str:
    return head + _MAIN.format(rest=rest)


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


@pytest.mark.parametrize(
    "rest",
    [
        "",
        "        print(i, float(jnp.sum(model.kernel[...])))\n",  # a host read kept
        "        if jnp.sum(model.kernel[...]) < -1.0:\n            break\n",  # early stop
    ],
)
def test_the_nnx_step_computes_what_the_loop_did(rest: str) -> None:
    code = _program(rest)
    (finding,) = _ao103(code)
    assert finding.fix is Applicability.SAFE, finding.message
    new = _rewritten(code)
    assert "@nnx.jit\ndef _main_step(x, model, optimizer):" in new
    assert "scale, x = _main_step(x, model, optimizer)" in new
    assert rest in new
    (before, printed), (after, printed_after) = _run(code), _run(new)
    assert_same(before, after, rtol=1e-5)
    assert printed.splitlines()[:1] == printed_after.splitlines()[:1]
    assert len(printed.splitlines()) == len(printed_after.splitlines())


_PRINTING_MODULE = _HEAD.replace(
    "grads = jax.tree.map(lambda p: p * scale, nnx.state(model, nnx.Param))",
    "grads = nnx.grad(lambda m: jnp.sum(m(jnp.ones(3))) * scale)(model)",
)


@pytest.mark.parametrize(
    ("head", "premise"),
    [
        (_PRINTING_MODULE, "it calls `m`, code autoopt cannot see"),
        (
            _HEAD.replace("    optimizer.update", '    print("traced")\n    optimizer.update'),
            "`decay` runs again when the step is traced",
        ),
        (
            _HEAD.replace("@nnx.jit\n", "@nnx.jit(donate_argnums=(0,))\n"),
            "`decay(model, optimizer, scale)` is an `nnx.jit` step",
        ),
    ],
)
def test_python_code_run_at_trace_time_keeps_the_loop(head: str, premise: str) -> None:
    (finding,) = _ao103(_program(head=head))
    assert finding.fix is Applicability.NONE
    assert premise in finding.message
    assert _rewritten(_program(head=head)) == _program(head=head)


def test_a_module_class_that_prints_in_call_keeps_the_loop() -> None:
    head = _HEAD.replace(
        "@nnx.jit\ndef decay",
        "class Noisy(nnx.Module):\n"
        "    def __init__(self, rngs):\n"
        "        self.kernel = nnx.Param(jnp.ones((3, 1)))\n"
        "        self.bias = nnx.Param(jnp.zeros(1))\n\n"
        "    def __call__(self, x):\n"
        '        print("called")\n'
        "        return x @ self.kernel[...] + self.bias[...]\n\n\n"
        "@nnx.jit\ndef decay",
    ).replace("nnx.state(model, nnx.Param))", "nnx.state(model, nnx.Param))\n    model(scale)")
    code = _program(head=head).replace("nnx.Linear(3, 1, rngs=nnx.Rngs(0))", "Noisy(None)")
    (finding,) = _ao103(code)
    assert finding.fix is Applicability.NONE
    assert "`decay` runs again when the step is traced" in finding.message


def test_a_module_autoopt_cannot_see_built_keeps_the_loop() -> None:
    code = (
        _program()
        .replace("model = nnx.Linear(3, 1, rngs=nnx.Rngs(0))", "model = make_model()")
        .replace("from flax import nnx\n", "from flax import nnx\nfrom helpers import make_model\n")
    )
    findings = _ao103(code)
    assert [f.fix for f in findings] == [Applicability.NONE]
    assert "@nnx.jit\ndef _main_step" not in _rewritten(code)


def test_an_optimizer_class_of_the_program_keeps_its_update_unproven() -> None:
    """A subclass of `nnx.Optimizer` may override `update` (here: it prints), so its
    call is no update the overlay lists."""
    head = _HEAD.replace(
        "@nnx.jit\ndef decay",
        "class Loud(nnx.Optimizer):\n"
        "    def update(self, model, grads):\n"
        '        print("update")\n'
        "        super().update(model, grads)\n\n\n"
        "@nnx.jit\ndef decay",
    )
    code = _program(head=head).replace(
        "optimizer = nnx.Optimizer(model,", "optimizer = Loud(model,"
    )
    inline = code.replace(
        "        total = decay(model, optimizer, scale)\n",
        "        zero = jax.tree.map(jnp.zeros_like, nnx.state(model, nnx.Param))\n"
        "        optimizer.update(model, zero)\n"
        "        total = decay(model, optimizer, scale)\n",
    )
    for program in (code, inline):
        findings = _ao103(program)
        assert [f.fix for f in findings] == [Applicability.NONE], findings
        assert "def _main_step" not in _rewritten(program)
