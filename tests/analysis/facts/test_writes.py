"""What a function may change: its parameters' objects, outer names, what it rebinds."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.writes import Writes, writes

from ..helpers import HEADER, context, function

HELPERS = """
BUF = np.zeros(3)
H = []

def fills(buf):
    buf[:] = 0.0

def reads(buf):
    return buf.sum()
"""


def summary(body: str, params: str = "a, b") -> Writes | None:
    """`writes` of `def f(<params>): <body>`, after HELPERS."""
    lines = "".join(f"    {line}\n" for line in body.split("\n"))
    ctx = context(HELPERS + f"\ndef f({params}):\n" + lines, HEADER)
    return writes(ctx, function(ctx, "f"))


@pytest.mark.parametrize(
    ("body", "params"),
    [
        ("a[0] = 1", {"a"}),
        ("a.flat[0] = 1", {"a"}),
        ("a.fill(0.0)", {"a"}),
        ("a.sort()", {"a"}),
        ("a += [b]", {"a", "b"}),  # in place; `b`, now held by `a`, counts too (sharing)
        ("np.multiply(b, 2.0, a)", {"a"}),  # a ufunc's positional output
        ("np.clip(b, 0.0, 1.0, a)", {"a"}),
        ("np.divmod(b, 1.0, a, b)", {"a", "b"}),
        ("np.add(b, 1.0, out=(a,))", {"a"}),
        ("np.ndarray.fill(a, 0.0)", {"a"}),
        ("np.subtract.at(a, [0], 1.0)", {"a"}),
        ("np.nan_to_num(a, copy=False)", {"a"}),
        ("b.sum(0, None, a)", {"a", "b"}),  # an unknown receiver's method: both
        ("operator.iadd(a, [1])", {"a"}),
        ("setattr(a, 'x', 1)", {"a"}),
        ("fills(a)", {"a"}),  # through a helper
        ("c = a\nc[len(c):] = [1.0]", {"a"}),  # through an alias inside the function
        ("for row in a:\n    row[:] = 0.0", {"a"}),  # through the rows it iterates
        ("v = a.reshape(-1)\nv[0] = 1", {"a"}),  # through a view
        ("r = a.fill\nr(0.0)", {"a"}),  # through a bound method taken as a value
        ("mystery(a)", {"a"}),  # code autoopt cannot see
        ("reads(a)\nnp.sum(a)\njnp.asarray(a)", set()),
        ("np.multiply(a, 2.0)\nnp.clip(a, 0, 1)\na.mean()", set()),
        ("b = [b]", set()),  # rebinding a parameter changes no caller's object
        # a special method Python calls on a value of unknown type (`a.__len__`,
        # `a.__str__`, `a.__add__`) is code autoopt does not follow (blind round 6)
        ("len(a)", {"a"}),
        ("print(a)", {"a"}),
        ("a = a + 1", {"a"}),
    ],
)
def test_parameters_changed_in_place(body: str, params: set[str]) -> None:
    found = summary(body)
    assert found is not None
    assert set(found.params) == params


def test_outer_names_rebinds_and_calls() -> None:
    found = summary("global G\nG = 1\nBUF[0] = 1\nH.append(a)\nb()", "a, b")
    assert found is not None
    assert (found.outer, found.rebinds, found.called) == ({"BUF", "H"}, {"G"}, {"b"})
    assert found.unseen == "b"


def test_jitted_callees_change_no_argument() -> None:
    """A jitted function receives tracers: it cannot change the caller's objects."""
    code = "@jax.jit\ndef step(x):\n    x[0] = 1\n    return x\n\ndef f(a):\n    step(a)\n"
    ctx = context(code, HEADER)
    assert writes(ctx, function(ctx, "f")) == Writes()


def test_a_cycle_of_callees_counts_as_unseen_code() -> None:
    code = "def f(a):\n    g(a)\n\ndef g(b):\n    f(b)\n"
    ctx = context(code, HEADER)
    found = writes(ctx, function(ctx, "f"))
    assert found is not None and found.params == {"a"} and found.unseen


def test_a_class_with_an_init_that_changes_its_argument() -> None:
    code = (
        "class Loader:\n    def __init__(self, buf):\n        buf[:] = 1.0\n"
        "        self.buf = buf\n"
        "\ndef f(a):\n    Loader(a)\n"
    )
    ctx = context(code, HEADER)
    found = writes(ctx, function(ctx, "f"))
    assert found is not None and found.params == {"a"}


def test_an_unknown_decorator_wraps_the_function_in_unseen_code() -> None:
    code = (
        "@lru\ndef cached(buf):\n    return buf.sum()\n\n"
        "@functools.lru_cache\ndef plain(n):\n    return n\n\n"
        "def f(a, n):\n    cached(a)\n    plain(n)\n"
    )
    ctx = context(code, HEADER + "import functools\n")
    found = writes(ctx, function(ctx, "f"))
    # `lru_cache` keeps `n` as a key (facts/aliases.py: code that keeps references), and
    # what is kept is within reach of the unseen `cached`: `n` may change too
    assert found is not None and found.params == {"a", "n"} and found.unseen == "cached"


def test_a_transparent_decorator_is_no_unseen_code() -> None:
    code = "@functools.wraps(print)\ndef plain(n):\n    return n\n\ndef f(a, n):\n    plain(n)\n"
    ctx = context(code, HEADER + "import functools\n")
    found = writes(ctx, function(ctx, "f"))
    assert found is not None and found.params == set() and found.unseen == ""


def test_iterating_a_parameter_calls_it() -> None:
    found = summary("for v in a:\n    pass\nlist(b)")
    assert found is not None and found.called == {"a", "b"}


def test_exec_may_change_any_variable_by_name() -> None:
    found = summary("exec('a[:] = 0')")
    assert found is not None and "a" in found.params


def test_a_default_changed_in_place_is_an_outer_object() -> None:
    code = "BUF = np.zeros(3)\n\ndef refill(t, buf=BUF):\n    buf[:] = 1.0\n"
    ctx = context(code, HEADER)
    found = writes(ctx, function(ctx, "refill"))
    assert found is not None and found.params == {"buf"} and found.outer == {"BUF"}
