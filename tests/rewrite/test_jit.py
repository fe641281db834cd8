"""jit decorators and wrappers: spelled the module's way, added once, options merged."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.api import optimize_source
from autoopt.model import Replace, RequireImport
from autoopt.rewrite.apply import apply_edits
from autoopt.rewrite.jit import (
    add_decorator,
    can_add_donation,
    claim_name,
    fresh_name,
    is_jit_decorator,
    is_spelling,
    jit_call,
    jit_decorator,
    literal_names,
    option_text,
    with_donation,
)

from ..analysis.helpers import context, expr

FUNCTOOLS, JAX = RequireImport("functools"), RequireImport("jax")


def code(node: cst.CSTNode) -> str:
    return cst.Module([]).code_for_node(node)


@pytest.mark.parametrize(
    ("static", "donate", "text"),
    [
        ((), (), ""),
        (("n",), (), 'static_argnames=("n",)'),
        (("n", "m"), ("s",), 'static_argnames=("n", "m"), donate_argnames=("s",)'),
        ((), ("s", "t"), 'donate_argnames=("s", "t")'),
    ],
)
def test_option_text(static, donate, text: str) -> None:
    assert option_text(static, donate) == text


OPTIONS = 'static_argnames=("n",), donate_argnames=("s",)'


@pytest.mark.parametrize(
    ("header", "bare", "decorator", "call"),
    [
        (
            "import jax\n",
            ("jax.jit", ()),
            (f"functools.partial(jax.jit, {OPTIONS})", (FUNCTOOLS,)),
            ("jax.jit(f)", ()),
        ),
        (
            "import jax as J\nimport functools as ft\n",
            ("J.jit", ()),
            (f"ft.partial(J.jit, {OPTIONS})", ()),
            ("J.jit(f)", ()),
        ),
        (
            "from jax import jit\nfrom functools import partial\n",
            ("jit", ()),
            (f"partial(jit, {OPTIONS})", ()),
            ("jit(f)", ()),
        ),
        (
            "import numpy as np\n",
            ("jax.jit", (JAX,)),
            (f"functools.partial(jax.jit, {OPTIONS})", (JAX, FUNCTOOLS)),
            ("jax.jit(f)", (JAX,)),
        ),
    ],
)
def test_jit_spellings_follow_the_module_imports(header, bare, decorator, call) -> None:
    ctx = context("x = 1\n", header)
    assert jit_decorator(ctx) == bare
    assert jit_decorator(ctx, ["n"], ["s"]) == decorator
    assert jit_call(ctx, "f") == call
    assert jit_call(ctx, "f", ["n"], ["s"]) == (f"{call[0][:-1]}, {OPTIONS})", call[1])


@pytest.mark.parametrize(
    ("text", "is_jit"),
    [
        ("jax.jit", True),
        ("jax.jit(f)", True),
        ("jax.jit(static_argnums=0)", True),
        ("partial(jax.jit, static_argnames=('n',))", True),
        ("functools.partial(jax.jit)", False),  # `functools` is not imported here
        ("jax.vmap", False),
        ("partial(jax.vmap)", False),
        ("partial()", False),
    ],
)
def test_is_jit_decorator(text: str, is_jit: bool) -> None:
    ctx = context("", "from functools import partial\nimport jax\n")
    assert is_jit_decorator(ctx, expr(text)) is is_jit


def test_is_spelling_accepts_the_spelling_a_fix_of_the_same_run_writes() -> None:
    ctx = context("", "import numpy as np\n")  # no jax import yet: a fix writes `jax.jit`
    assert is_spelling(ctx, expr("jax.jit"), "jax.jit")
    assert not is_spelling(ctx, expr("jit"), "jax.jit")
    assert is_jit_decorator(ctx, expr("functools.partial(jax.jit, donate_argnames=('s',))"))


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            "jax.jit(f, static_argnums=0)",
            'jax.jit(f, static_argnums=0, donate_argnames=("b", "c"))',
        ),
        ("jax.jit(f,static_argnums=0)", 'jax.jit(f,static_argnums=0, donate_argnames=("b", "c"))'),
        ("jax.jit(f, donate_argnames=('a',))", 'jax.jit(f, donate_argnames=("a", "b", "c"))'),
        ("jax.jit(f, donate_argnames=('b',))", 'jax.jit(f, donate_argnames=("b", "c"))'),
        (
            "partial(jax.jit, donate_argnames=['a', 'b'])",
            'partial(jax.jit, donate_argnames=("a", "b", "c"))',
        ),
        ("jax.jit", 'partial(jax.jit, donate_argnames=("b", "c"))'),
        ("jax.jit(f, donate_argnames='a')", 'jax.jit(f, donate_argnames=("a", "b", "c"))'),
        ("jax.jit(f, donate_argnames='b')", 'jax.jit(f, donate_argnames=("b", "c"))'),
        ("jax.jit(f, donate_argnames=())", 'jax.jit(f, donate_argnames=("b", "c"))'),
    ],
)
def test_with_donation_merges_donate_argnames(before: str, after: str) -> None:
    ctx = context("", "from functools import partial\nimport jax\n")
    merged, imports = with_donation(ctx, expr(before), ["b", "c"])
    assert (code(merged), imports) == (after, ())


@pytest.mark.parametrize(
    "before",
    [
        "jax.jit(f, donate_argnames=NAMES)",  # a variable: its names are unknown
        "jax.jit(f, donate_argnames=('a', name))",
        "jax.jit(f, donate_argnames=f'{a}')",
        "jax.jit(f, **options)",  # may hold `donate_argnames` already
        "partial(jax.jit, donate_argnames=names)",
    ],
)
def test_with_donation_leaves_a_donation_it_cannot_read_unchanged(before: str) -> None:
    ctx = context("", "from functools import partial\nimport jax\n")
    given = expr(before)
    assert not can_add_donation(given)
    merged, imports = with_donation(ctx, given, ["b"])
    assert (merged, imports) == (given, ())


@pytest.mark.parametrize(
    ("value", "names"),
    [
        ("'a'", ["a"]),
        ("('a', 'b')", ["a", "b"]),
        ("['a']", ["a"]),
        ("()", []),
        ("NAMES", None),
        ("('a', b)", None),
        ("('a', *rest)", None),
        ("f'{a}'", None),
    ],
)
def test_literal_names(value: str, names: list[str] | None) -> None:
    assert literal_names(expr(value)) == names


def test_with_donation_of_a_bare_jit_imports_functools_when_needed() -> None:
    merged, imports = with_donation(context("", "import jax\n"), expr("jax.jit"), ["b"])
    assert (code(merged), imports) == (
        'functools.partial(jax.jit, donate_argnames=("b",))',
        (FUNCTOOLS,),
    )
    merged, imports = with_donation(
        context("", "import jax\nimport functools\n"), expr("jax.jit"), ["b"]
    )
    assert (code(merged), imports) == ('functools.partial(jax.jit, donate_argnames=("b",))', ())


STEP = "import jax\n\n\n# the update\ndef step(state, batch):\n    return state + batch\n"


def test_two_fixes_adding_jit_to_one_function_add_it_once() -> None:
    ctx = context(STEP)
    fn = ctx.graph.functions["step"].node
    edits = [Replace(fn, add_decorator(ctx, "jax.jit")), Replace(fn, add_decorator(ctx, "jax.jit"))]
    assert apply_edits(ctx.module, edits).code == STEP.replace("def step", "@jax.jit\ndef step")


def test_a_function_already_jitted_keeps_its_decorator() -> None:
    source = STEP.replace("def step", "@partial(jax.jit, static_argnums=1)\ndef step")
    ctx = context(source, "from functools import partial\n")
    fn = ctx.graph.functions["step"].node
    assert apply_edits(ctx.module, [Replace(fn, add_decorator(ctx, "jax.jit"))]).code == ctx.source


def test_donation_merges_into_the_decorator_another_fix_added() -> None:
    """AO101 adds `@jax.jit`; AO201's transform on the same `def` donates `state`."""
    ctx = context(STEP)
    fn = ctx.graph.functions["step"].node

    def donate(node: cst.CSTNode) -> cst.CSTNode:
        assert isinstance(node, cst.FunctionDef)
        first = node.decorators[0]
        merged, _ = with_donation(ctx, first.decorator, ["state"])
        return node.with_changes(decorators=[first.with_changes(decorator=merged)])

    edits = [
        Replace(fn, add_decorator(ctx, "jax.jit")),
        Replace(fn, donate),
        RequireImport("functools"),
    ]
    assert apply_edits(ctx.module, edits).code == (
        "import functools\n\nimport jax\n\n\n# the update\n"
        '@functools.partial(jax.jit, donate_argnames=("state",))\n'
        "def step(state, batch):\n    return state + batch\n"
    )


def test_fresh_and_claimed_names() -> None:
    ctx = context("import jax\nstep = 1\nstep_2 = 2\n\ndef f(body):\n    return body\n")
    assert fresh_name(ctx, "step") == "step_3"
    assert fresh_name(ctx, "body") == "body_2"  # a parameter that is read
    assert fresh_name(ctx, "jax") == "jax_2"  # an import
    assert fresh_name(ctx, "new") == "new"
    assert fresh_name(ctx, "new", ["new"]) == "new_2"
    taken: set[str] = set()
    assert [claim_name(ctx, "step", taken), claim_name(ctx, "step", taken)] == ["step_3", "step_4"]
    assert taken == {"step_3", "step_4"}


PARTIAL_IN_A_FUNCTION = """import jax
import jax.numpy as jnp


def helper():
    from functools import partial
    return partial


def step(x, n):
    return x * n


def main():
    x = jnp.zeros(3)
    for _ in range(10):
        x = step(x, 3)
    return x
"""


def test_a_partial_imported_in_a_function_is_not_used_at_module_level() -> None:
    ctx = context(PARTIAL_IN_A_FUNCTION)
    assert jit_decorator(ctx, donate=["x"]) == (
        'functools.partial(jax.jit, donate_argnames=("x",))',
        (FUNCTOOLS,),
    )
    # AO101 jits `step`, AO201 donates, AO103 runs the loop of one call as one scan
    new = optimize_source(PARTIAL_IN_A_FUNCTION).new_source
    scan = (
        '@functools.partial(jax.jit, donate_argnames=("x",))\n'
        "def _main_loop(x):\n"
        "    def body(x, _):\n"
        "        x = step(x, 3)\n"
        "        return x, None\n\n"
        "    return jax.lax.scan(body, x, length=10)[0]\n\n\n"
        "def main():\n"
    )
    assert new == PARTIAL_IN_A_FUNCTION.replace(
        "import jax\n", "import functools\n\nimport jax\n"
    ).replace("def step", '@functools.partial(jax.jit, donate_argnames=("x",))\ndef step').replace(
        "def main():\n", scan
    ).replace("    for _ in range(10):\n        x = step(x, 3)\n", "    x = _main_loop(x)\n")
