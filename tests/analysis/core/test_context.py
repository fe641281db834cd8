"""ModuleContext: imports, names spelled the module's way, memo, positions."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Function
from autoopt.analysis.core.positions import (
    _group_offsets,
    _offsets_from_code,
    _parse_groups,
    _positions_in,
    _statement_lines,
)
from autoopt.analysis.core.walk import walk
from autoopt.model import RequireImport, Span

from ..helpers import context, stmt

SOURCE = '''
"""Doc."""
import jax as J
from functools import partial


# a comment
def f(x):
    y = J.numpy.sin(x)
    return y
'''


@pytest.mark.parametrize(
    ("qualname", "spelled", "imports"),
    [
        ("jax.jit", "J.jit", ()),
        ("jax.numpy.zeros", "J.numpy.zeros", ()),
        ("functools.partial", "partial", ()),  # bound by name
        ("jax", "J", ()),
        ("numpy.asarray", "numpy.asarray", (RequireImport("numpy"),)),
    ],
)
def test_ref_spells_a_name_with_the_module_imports(qualname, spelled, imports) -> None:
    assert context(SOURCE).ref(qualname) == (spelled, imports)


def test_ref_uses_only_module_level_imports() -> None:
    ctx = context("import jax\n\ndef helper():\n    from functools import partial\n")
    assert ctx.ref("functools.partial") == ("functools.partial", (RequireImport("functools"),))
    partial = stmt(ctx, "from functools").node.names[0].name
    assert ctx.qualify(partial) == "functools.partial"  # analysis still knows what it is
    ctx = context("def helper():\n    import jax as J\n")
    assert ctx.ref("jax.jit") == ("jax.jit", (RequireImport("jax"),))


def test_qualify_is_jax_and_code() -> None:
    ctx = context(SOURCE)
    call = stmt(ctx, "y = ").node.value
    assert ctx.qualify(call.func) == "jax.numpy.sin"
    assert ctx.is_jax(call.func, "jax.numpy.cos", "jax.numpy.sin")
    assert not ctx.is_jax(call.func, "jax.numpy.cos")
    assert ctx.code(call) == "J.numpy.sin(x)"
    assert ctx.imports.bindings == {"J": "jax", "partial": "functools.partial"}
    assert ctx.graph is ctx.graph  # built once


def test_per_module_is_keyed_by_the_analysis_and_its_arguments() -> None:
    ctx = fresh(SOURCE)
    calls: list[tuple] = []

    def count(c: ModuleContext, *args: object) -> int:
        calls.append(args)
        return len(calls)

    def other(c: ModuleContext) -> str:
        return "other"

    assert [ctx.per_module(count), ctx.per_module(count), ctx.per_module(count, "a")] == [1, 1, 2]
    assert ctx.per_module(other) == "other"
    assert calls == [(), ("a",)]
    assert fresh(SOURCE).per_module(count) == 3  # another module: computed again


def test_per_function_is_keyed_by_the_function() -> None:
    ctx = fresh("def f(x):\n    return x\n\ndef g(y):\n    return y\n")
    seen: list[str] = []

    def name(c: ModuleContext, fn: Function) -> str:
        seen.append(fn.qualname)
        return fn.name

    f, g = ctx.graph.functions["f"], ctx.graph.functions["g"]
    assert [ctx.per_function(name, f), ctx.per_function(name, g), ctx.per_function(name, f)] == [
        "f",
        "g",
        "f",
    ]
    assert seen == ["f", "g"]


def test_statement_facts_carry_to_a_module_that_keeps_the_statement() -> None:
    ctx = fresh(SOURCE)
    calls: list[cst.BaseStatement] = []

    def code(stmt: cst.BaseStatement, layout: cst.Module) -> str:
        calls.append(stmt)
        return layout.code_for_node(stmt)

    kept, changed = ctx.module.body[-1], ctx.module.body[0]
    assert ctx.per_statement(code, kept).startswith("\n\n# a comment\ndef f(x):")
    ctx.per_statement(code, changed)
    edited = ctx.module.with_changes(body=[cst.parse_statement("x = 1\n"), *ctx.module.body[1:]])
    assert ctx.statements is not None
    carried = ctx.statements.carried_to(edited)
    assert list(carried.results) == [(code, kept, ())]
    after = ModuleContext("<test>", edited.code, edited, statements=carried)
    after.per_statement(code, kept)
    assert calls == [kept, changed]  # not computed again
    assert after.statements is not None
    again = after.statements.carried_to(edited)
    assert list(again.results) == [(code, kept, ())]
    assert again.carried_to(edited).results == {}  # a version that did not ask drops it
    tabs = cst.parse_module(edited.code.replace("    ", "\t"))
    assert ctx.statements.carried_to(tabs).results == {}  # another indent: nothing carries


def test_span_from_given_line_offsets_and_carried_positions() -> None:
    ctx = fresh(SOURCE)
    assign = stmt(ctx, "y = ").node
    assert ctx.span(assign) == Span(9, 5, 9, 23)  # `SOURCE` starts with a blank line
    moved = ModuleContext(
        "<test>", "\n" + SOURCE, ctx.module, [n + 1 for n in _offsets_from_code(ctx.module)],
        ctx.statements,
    )  # fmt: skip
    assert moved.span(assign) == Span(10, 5, 10, 23)


def test_span_is_one_based_and_counts_the_lines_above() -> None:
    ctx = context(SOURCE)
    assign = stmt(ctx, "y = ").node
    assert ctx.span(assign) == Span(8, 5, 8, 23)
    assert ctx.span(assign.value) == Span(8, 9, 8, 23)
    assert ctx.span(stmt(ctx, "def f").node) == Span(7, 1, 9, 13)  # from `def`, not the comment


def fresh(source: str) -> ModuleContext:
    """A context of its own (helpers.context shares one per snippet)."""
    return ModuleContext("<test>", source, cst.parse_module(source))


TRICKY = """# header comment

a = 1; b = 2
x = (
    1,
)

# above
@dec
# between
@dec2
def f():
    pass
class C:
    z = 1
"""


def test_span_of_statements_after_multi_line_ones_and_decorators() -> None:
    ctx = context(TRICKY)
    assert ctx.span(stmt(ctx, "b = 2").node) == Span(3, 8, 3, 13)
    assert ctx.span(stmt(ctx, "z = 1").node) == Span(15, 5, 15, 10)
    assert ctx.span(stmt(ctx, "def f").node) == Span(12, 1, 13, 9)


def test_line_offsets_agree_whether_computed_from_ast_or_from_code() -> None:
    ctx = context(TRICKY)
    groups = _parse_groups(ctx.module, ctx.source)
    assert groups is not None
    assert _group_offsets(groups) == [2, 3, 6, 13]
    assert _offsets_from_code(ctx.module) == [2, 3, 6, 13]


def test_statement_lines_from_the_module_parse_equal_those_of_each_statement() -> None:
    for source in (TRICKY, *(p.read_text() for p in sorted(CORPUS.glob("*.py")))):
        ctx = context(source)
        for index, top in enumerate(ctx.module.body):
            start = ctx.positions.offsets[index]
            end = (
                ctx.positions.offsets[index + 1] if index + 1 < len(ctx.positions.offsets) else None
            )
            text = "".join(ctx.positions.lines[start:end])
            from_statement = _statement_lines(top, ctx.layout, text)
            assert from_statement is not None
            assert ctx.positions.anchors(index) == from_statement


CORPUS = Path(__file__).resolve().parents[3] / "corpus"
HAZARDS = Path(__file__).resolve().parents[2] / "hazards" / "programs"
#: Tabs, continuation lines, strings over several lines, non-ASCII text, CRLF; nested
#: functions, decorators and comments before statements, every kind of compound
#: statement and clause, one-line suites, semicolons, no trailing newline.
LAYOUTS = [
    "if x:\n\ty = (1 +\n\t     2)\n\tz = f(a,\n  b)  # é\n",
    "s = '''é\nü'''; t = \\\n    s\nclass C:\n    def m(self):  # ß\n        return '日本' + s\n",
    "def f(x):\r\n    # a comment\r\n\r\n    return [x,\r\n        x]\r\ny = f(1)\r\n",
    "@dec(\n  1)\nasync def g():\n    async with a as b:\n        await b  # éé\n",
    "# lead\n\n@dec\n# between\n@dec2(\n    1)\ndef f(a,\n      b):  # c\n    # above\n"
    "    def g():\n        '''doc\n        é'''\n        return a; b = 1\n    return g\n",
    "if a:\n    x = 1\n# mid\nelif b:  # t\n    y = 2\n  # odd\nelif (c and\n      d):\n"
    "    pass\nelse:\n    z = 3\n",
    "try:\n    a()\nexcept (E,\n        F) as e:\n    b()\nexcept G:\n    pass\nelse:\n"
    "    c()\nfinally:\n    d()\n",
    "with open(p) as f, \\\n     g() as h:\n    for i in r:\n        if i: continue\n"
    "        else: break\n    else:\n        while x: x -= 1\n",
    "class C(B):\n    @property\n    def p(self): return 1\n    x = [\n        1,\n    ]\n"
    "    if t: y = 2; z = 3\n",
    "match v:\n    case [a, b]:\n        f(a)\n    case {'k': c} if c:\n        g()\n"
    "    case _:\n        pass\n",
    "def f():\n\tif x:\n\t\treturn '''a\nb'''  # ü\n\telse:\n\t\tpass\nx = 1",
    "async def f():\n    async for a in b:\n        async with c:\n            await d\n"
    "    try:\n        pass\n    except* E:\n        pass\n",
    "x = 1\r\nif x:\r\n    y = (1,\r\n         2)\r\nelse:\r\n    z = 'é'\r\n",
    "x = 1\rif x:\r    y = 2\r",
    "def f():\n    if a:\n        pass\n    # in the block\n\n\n# top\ndef g():\n    pass\n"
    "    # footer\n",
    "while a:\n    b\nelse:\n    c\nfor i in j: k\nelse: m\n",
    "s = '日本'; t = '''\n'''; u = 1\nif s: v = '日' ; w = 2\n",
    "def f(\n    a: int = 1,\n    *,\n    b: str = 'é',\n) -> (\n    int\n):\n    return (\n"
    "        a\n    )\n",
    UNPARSED := "def f():\n    return 1  # \x00\nx = 1\n",  # Python's parser refuses NUL
]


SOURCES = (
    {f"layout{i}": code for i, code in enumerate(LAYOUTS)}
    | {p.name: p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.py"))}
    | {f"hazard {p.name}": p.read_text(encoding="utf-8") for p in sorted(HAZARDS.glob("*.py"))}
)


@pytest.mark.parametrize("name", SOURCES)
def test_span_of_every_node_is_where_position_provider_puts_it(name: str) -> None:
    ctx = fresh(SOURCES[name])
    for node, want in provider_spans(ctx):
        assert ctx.span(node) == want, ctx.code(node)


def test_span_where_the_graph_and_names_point_at_another_statement() -> None:
    ctx = fresh(
        "def f():\n    a = g(1)\n\nclass C:\n    def m(self):\n        return 2\n\n"
        "def f():\n    b = 3\nif x:\n    def f():\n        c = 4\n"
    )
    assert ctx.graph.stmts  # built: its statements' scopes are looked at first
    for node, want in provider_spans(ctx):
        assert ctx.span(node) == want, ctx.code(node)
        assert ctx.ancestors(node)[:2] == expected_top(ctx, node)


def provider_spans(ctx: ModuleContext) -> list[tuple[cst.CSTNode, Span]]:
    """Every node of the module but the module, with its span as PositionProvider has it."""
    expected = MetadataWrapper(ctx.module, unsafe_skip_copy=True).resolve(PositionProvider)
    return [
        (node, Span(p.start.line, p.start.column + 1, p.end.line, p.end.column + 1))
        for node in walk(ctx.module)
        if node is not ctx.module
        for p in [expected[node]]
    ]


def expected_top(ctx: ModuleContext, node: cst.CSTNode) -> list[cst.CSTNode]:
    """The module and the top-level statement that holds `node`."""
    tops = [stmt for stmt in ctx.module.body if any(n is node for n in walk(stmt))]
    return [ctx.module, *tops]


@pytest.mark.parametrize("name", SOURCES)
def test_span_generates_only_the_statement_holding_the_node(name: str) -> None:
    ctx = fresh(SOURCES[name])
    for node in walk(ctx.module):
        if node is not ctx.module:
            ctx.span(node)
    assert ctx.statements is not None
    whole = [key[1] for key in ctx.statements.results if key[0] is _positions_in]
    assert whole == ([ctx.module.body[0]] if SOURCES[name] == UNPARSED else [])


@pytest.mark.parametrize("name", [*SOURCES, "no trailing newline"])
def test_a_derived_context_has_the_code_and_offsets_of_its_module(name: str) -> None:
    ctx = fresh(SOURCES.get(name, "x = 1"))
    body = list(ctx.module.body)
    for index in {0, len(body) // 2, len(body) - 1}:  # an insertion and an edit
        added = cst.parse_statement("def _added(a):\n    return a\n")
        edited = [*body[:index], added, body[index].with_changes(), *body[index + 1 :]]
        module = ctx.module.with_changes(body=edited)
        derived = ctx.derived(module)
        assert derived.source == module.code
        assert derived.positions.offsets == _offsets_from_code(module)
        assert derived.statements is ctx.statements


def test_a_derived_context_makes_its_text_only_when_asked() -> None:
    ctx = fresh(SOURCE)
    module = ctx.module.with_changes(body=[*ctx.module.body, cst.parse_statement("z = 2\n")])
    derived = ctx.derived(module)
    assert "source" not in vars(derived)
    assert derived.graph.scope_stmts("<module>")[-1].defs == {"z"}  # analyses need no text
    assert "source" not in vars(derived)
    assert derived.source == module.code
    assert derived.positions.offsets == _offsets_from_code(module)
    with pytest.raises(AttributeError):
        _ = derived.no_such_attribute


ORIGIN = """
import jax.numpy as jnp

def helper(x):
    return jnp.sin(x)

def main(x):
    for _ in range(3):
        x = helper(x)
    return x
"""


def test_a_derived_context_takes_unedited_functions_from_its_origin() -> None:
    from autoopt.analysis.facts import tracing
    from autoopt.analysis.values.model import model

    ctx = fresh(ORIGIN)
    helper, main = ctx.module.body[1], ctx.module.body[2]
    step = cst.parse_statement("def _step(x):\n    return helper(x)\n")
    module = ctx.module.with_changes(body=[ctx.module.body[0], helper, step, main.deep_clone()])
    derived = ctx.derived(module)
    functions = derived.graph.functions
    assert derived.origin_of(functions["helper"]) == (ctx, ctx.graph.functions["helper"])
    assert derived.origin_of(functions["main"]) is None  # a new node: analysed here
    assert derived.origin_of(functions["_step"]) is None
    assert ctx.origin_of(ctx.graph.functions["helper"]) is None  # not derived
    facts = tracing.analyse(derived, functions["helper"])
    assert facts is tracing.analyse(ctx, ctx.graph.functions["helper"])
    assert model(derived).returns(functions["helper"]) == model(ctx).returns(
        ctx.graph.functions["helper"]
    )
    assert tracing.analyse(derived, functions["main"]) is not tracing.analyse(
        ctx, ctx.graph.functions["main"]
    )


def test_check_source_leaves_no_context_for_the_garbage_collector() -> None:
    # analyses refer back to their context; released, every context (the derived ones
    # of extracted programs too) is freed by reference counting alone
    import gc
    import weakref

    from autoopt.api import check_source

    made: list[weakref.ref] = []
    original = ModuleContext.__post_init__

    def remember(self: ModuleContext) -> None:
        made.append(weakref.ref(self))
        original(self)

    code = (CORPUS / "fhn_ring_rk4.py").read_text()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(ModuleContext, "__post_init__", remember)
            check_source(code, path="fhn_ring_rk4.py")
        assert len(made) > 1  # the module's context and a derived one at least
        assert [ref() for ref in made] == [None] * len(made)
    finally:
        if was_enabled:
            gc.enable()
