"""Names an expression reads, binds or mutates."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.exprs import (
    base_name,
    bound_names,
    calls_in,
    has_comprehension,
    is_at_update,
    is_constant,
    is_literal,
    method_written,
    mutated_names,
    mutating_call_target,
    numpy_written,
    param_names,
    positional_names,
    read_names,
    written_roots,
)

E = cst.parse_expression


@pytest.mark.parametrize(
    ("code", "names"),
    [
        ("f(a, k=b).attr", ["f", "a", "b"]),  # not the keyword, not the attribute
        ("lambda x, y=d: x + y + z", ["d", "z"]),  # the default is read, params are bound
        ("[x * w for x in xs if x > t]", ["xs", "t", "w"]),
        ("{k: v for k, v in items}", ["items"]),
        ("[a for a in b for c in a if c]", ["b"]),
        ("a[i:j, ::s]", ["a", "i", "j", "s"]),
        ("f(*args, **kw)", ["f", "args", "kw"]),
        ("x if c else y", ["c", "x", "y"]),
    ],
)
def test_read_names(code: str, names: list[str]) -> None:
    assert [n.value for n in read_names(E(code))] == names


@pytest.mark.parametrize(
    ("target", "bound", "mutated"),
    [
        ("a", ["a"], []),
        ("a, (b, *c)", ["a", "b", "c"], []),
        ("[d, e]", ["d", "e"], []),
        ("a[i]", [], ["a"]),
        ("a.b.c", [], ["a"]),
        ("(a[0], b.x, c)", ["c"], ["a", "b"]),
        ("f().x", [], []),
    ],
)
def test_bound_and_mutated_names(target: str, bound: list[str], mutated: list[str]) -> None:
    assert list(bound_names(E(target))) == bound
    assert list(mutated_names(E(target))) == mutated


@pytest.mark.parametrize(("code", "base"), [("a.b[c].d", "a"), ("f().b", None), ("a", "a")])
def test_base_name(code: str, base: str | None) -> None:
    assert base_name(E(code)) == base


@pytest.mark.parametrize(
    ("call", "target"),
    [
        ("lst.append(x)", "lst"),
        ("a.b.sort()", "a"),
        ("obj.data.fill(0)", "obj"),
        ("d.setdefault(k, [])", "d"),
        ("x.at[i].set(v)", None),  # JAX's functional update
        ("x.at[i].add(v)", None),
        ("d.get(k)", None),
        ("f(x)", None),
        ("f().append(1)", None),
    ],
)
def test_mutating_call_target(call: str, target: str | None) -> None:
    assert mutating_call_target(E(call)) == target


def _codes(exprs: list[cst.BaseExpression] | None) -> list[str] | None:
    return None if exprs is None else [cst.Module([]).code_for_node(e) for e in exprs]


@pytest.mark.parametrize(
    ("qual", "call", "written"),
    [
        ("numpy.multiply", "f(a, b, out)", ["out"]),  # a ufunc's argument after its inputs
        ("numpy.multiply", "f(a, b)", []),
        ("numpy.sqrt", "f(a, out)", ["out"]),
        ("numpy.divmod", "f(a, b, q, r)", ["q", "r"]),  # two outputs
        ("numpy.add", "f(a, 1, out=(q,))", ["(q,)"]),
        ("numpy.clip", "f(a, 0, 1, frame)", ["frame"]),  # `out` after the options
        ("numpy.clip", "f(a, 0, 1)", []),
        ("numpy.sum", "f(a, 0, None, buf)", ["buf"]),
        ("numpy.sum", "f(a, 0)", []),
        ("numpy.fft.fft", "f(a, None, -1, None, buf)", ["buf"]),
        ("numpy.copyto", "f(dst, src)", ["dst"]),
        ("numpy.subtract.at", "f(a, [0], 1)", ["a"]),  # any ufunc's `at`
        ("numpy.add.reduce", "f(a, 0, None, buf)", ["buf"]),
        ("numpy.add.reduce", "f(a)", []),
        ("numpy.ndarray.fill", "f(a, 0.0)", ["a"]),  # the method through its class
        ("numpy.ndarray.sum", "f(a, 0, None, buf)", ["buf"]),
        ("numpy.nan_to_num", "f(x, copy=False)", ["x"]),
        ("numpy.nan_to_num", "f(x, flag)", ["x"]),  # `copy` by position, maybe false
        ("numpy.nan_to_num", "f(x, True)", []),
        ("numpy.nan_to_num", "f(x)", []),
        ("numpy.linalg.solve", "f(a, b)", []),
        ("numpy.lib.stride_tricks.as_strided", "f(a)", None),  # beyond the tables: any
        ("numpy.ma.sum", "f(a, 0, None, buf)", None),
        ("numpy.ndarray.frobnicate", "f(a)", None),
    ],
)
def test_numpy_written(qual: str, call: str, written: list[str] | None) -> None:
    assert _codes(numpy_written(qual, E(call))) == written


@pytest.mark.parametrize(
    ("method", "call", "written"),
    [
        ("sum", "a.sum(0, None, buf)", ["buf"]),
        ("clip", "a.clip(0, 1, buf)", ["buf"]),
        ("dot", "a.dot(b, buf)", ["buf"]),
        ("mean", "a.mean(out=buf)", ["buf"]),
        ("reshape", "a.reshape(2, 2)", []),
        ("fill", "a.fill(v)", []),  # it writes the array itself, not its arguments
        ("refill", "a.refill(v)", None),  # not an array method
    ],
)
def test_method_written(method: str, call: str, written: list[str] | None) -> None:
    assert _codes(method_written(method, E(call).args)) == written


@pytest.mark.parametrize(
    ("target", "roots"),
    [("buf", ["buf"]), ("bufs['obs']", ["bufs"]), ("(q, r[0])", ["q", "r"]), ("f()", [])],
)
def test_written_roots(target: str, roots: list[str]) -> None:
    assert list(written_roots(E(target))) == roots


@pytest.mark.parametrize(
    ("func", "at"), [("x.at[i].set", True), ("x.at.set", False), ("x[i].set", False)]
)
def test_is_at_update(func: str, at: bool) -> None:
    assert is_at_update(E(func)) is at


def test_calls_in_stops_at_nested_scopes() -> None:
    module = cst.Module([])
    calls = calls_in(cst.parse_statement("y = f(g(x), lambda: h(1), [k(i) for i in r])\n"))
    assert [module.code_for_node(c) for c in calls] == [
        "f(g(x), lambda: h(1), [k(i) for i in r])",
        "g(x)",
        "k(i)",
    ]


@pytest.mark.parametrize(
    ("code", "has"),
    [("[f(i) for i in r]", True), ("f(lambda: [i for i in r])", False), ("f(x)", False)],
)
def test_has_comprehension(code: str, has: bool) -> None:
    assert has_comprehension(E(code)) is has


@pytest.mark.parametrize(
    ("code", "names", "positional"),
    [
        ("def f(a, /, b, *, c, d=1, **kw):", ["a", "b", "c", "d", "kw"], ["a", "b"]),
        ("def f(a, /, b, *args, c, d=1, **kw):", ["a", "b", "args", "c", "d", "kw"], ["a", "b"]),
        ("def f(a, *rest, scale=None):", ["a", "rest", "scale"], ["a"]),  # `*rest` first
        ("def f(*, k):", ["k"], []),
    ],
)
def test_param_names_list_every_kind_in_order(code: str, names, positional) -> None:
    fn = cst.parse_statement(code + "\n    pass\n")
    assert param_names(fn.params) == names
    assert positional_names(fn.params) == positional


@pytest.mark.parametrize(
    ("code", "literal", "constant"),
    [
        ("3", True, True),
        ("-1.5e-3", True, True),
        ("'a' 'b'", True, True),
        ("None", True, True),
        ("(1, (2, 'x'), -3)", True, True),
        ("2 ** 10 * 3", True, True),
        ("[64, 32]", True, False),  # holds no array, but a name bound to it may get one
        ("(1, [2])", True, False),
        ("f'{i}'", True, False),  # a string, but what it reads may change
        ("x", False, False),
        ("(1, x)", False, False),
        ("-x", False, False),
        ("(*xs,)", False, False),
        ("jnp.ones(3)", False, False),
        ("{'a': 1}", False, False),
    ],
)
def test_literals_and_constants(code: str, literal: bool, constant: bool) -> None:
    assert (is_literal(E(code)), is_constant(E(code))) == (literal, constant)
