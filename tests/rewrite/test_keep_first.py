"""The keep-first rewrite: kept parameters moved (or packed) first, each position keeping
its separator, and every call passing them first."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.plans.keep_first import KeepFirst
from autoopt.rewrite.keep_first import keep_first_call, keep_first_def


def _def(code: str, kept: tuple[str, ...], pack: str = "") -> str:
    module = cst.parse_module(code)
    ctx = ModuleContext("<test>", code, module)
    node = module.body[0]
    assert type(node) is cst.FunctionDef
    new = keep_first_def(ctx, node, KeepFirst(kept, pack, ()))
    return module.code_for_node(new)


def _call(code: str, positional: list[str], kept: tuple[str, ...], pack: str = "") -> str:
    call = cst.parse_expression(code)
    assert type(call) is cst.Call
    new = keep_first_call(call, positional, KeepFirst(kept, pack, ()))
    return cst.Module([]).code_for_node(new)


def test_one_parameter_moves_with_its_annotation() -> None:
    code = "@eqx.filter_jit\ndef step(w: Array, xs: Array, *, lr=0.1):\n    return w\n"
    assert _def(code, ("xs",)) == (
        '@eqx.filter_jit(donate="all-except-first")\n'
        "def step(xs: Array, w: Array, *, lr=0.1):\n    return w\n"
    )


def test_packed_parameters_keep_the_layout_and_unpack_after_the_docstring() -> None:
    code = (
        "@eqx.filter_jit()\ndef step(\n    w,\n    xs,\n    ys,\n):\n"
        '    """Doc."""\n    # the update\n    return w\n'
    )
    assert _def(code, ("xs", "ys"), "undonated") == (
        '@eqx.filter_jit(donate="all-except-first")\ndef step(\n    undonated,\n    w,\n):\n'
        '    """Doc."""\n    xs, ys = undonated\n    # the update\n    return w\n'
    )


@pytest.mark.parametrize(
    ("call", "kept", "pack", "new"),
    [
        ("step(w, xs, ys)", ("ys",), "", "step(ys, w, xs)"),
        ("step(w, xs, ys)", ("xs", "ys"), "p", "step((xs, ys), w)"),
        ("step(w, ys=ys, xs=xs)", ("xs", "ys"), "p", "step((xs, ys), w)"),
        ("step(w, xs=xs, ys=ys)", ("xs",), "", "step(xs, w, ys=ys)"),
        (
            "step(\n    w,\n    xs,\n    ys,\n)",
            ("xs", "ys"),
            "p",
            "step(\n    (xs, ys),\n    w,\n)",
        ),
        ("step(\n    w,\n    xs\n)", ("xs",), "", "step(\n    xs,\n    w\n)"),
    ],
)
def test_calls_pass_the_kept_arguments_first(
    call: str, kept: tuple[str, ...], pack: str, new: str
) -> None:
    assert _call(call, ["w", "xs", "ys"], kept, pack) == new
