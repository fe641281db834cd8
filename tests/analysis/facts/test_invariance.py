"""Whether names keep their values across the iterations of a loop."""

from __future__ import annotations

import pytest

from autoopt.analysis.facts.invariance import variant_reason

from ..helpers import HEADER, context

FUNCTIONS = """
def fill(buf):
    buf[0] = 1

def pure(buf):
    return buf * 2

@jax.jit
def step(v):
    return v

"""


def reason(setup: str, body: str, name: str = "x") -> str | None:
    """`variant_reason` for the loop `for i in range(3): <body>` after `setup`."""
    lines = "".join(f"    {line}\n" for line in body.split("\n"))
    ctx = context(FUNCTIONS + setup + "for i in range(3):\n" + lines, HEADER)
    return variant_reason(ctx, ctx.graph.loops[0], {name})


@pytest.mark.parametrize(
    ("body", "why"),
    [
        # invariant
        ("y = x.mean()", None),
        ("print(x)", None),
        ("z = len(x)", None),
        ("z = np.sum(x)", None),
        ("z = jnp.sum(x)", None),
        ("z = pure(x)", None),  # a module function that does not mutate its argument
        ("z = step(x)", None),  # jitted
        ("y = x + 1", None),
        # written in the loop
        ("x = x + 1", "`x` changes inside the loop"),
        ("x += 1", "`x` changes inside the loop"),
        ("x[i] = 0", "`x` changes inside the loop"),
        ("alias[0] = 1", "`alias` changes inside the loop"),  # shares x's buffer
        ("h = x\nh.sort()", "`h` changes inside the loop"),
        # method calls that may write into it
        ("x.update_stats()", "`x.update_stats()` may change `x` in place"),
        ("alias.update_stats()", "`alias.update_stats()` may change `alias` in place"),
        # calls it is passed to
        ("rng.shuffle(x)", "`rng.shuffle(x)` may change `rng` in place"),  # rng may keep x
        # in-place NumPy writes: the graph records them as mutations of `x`
        ("np.random.shuffle(x)", "`x` changes inside the loop"),
        ("np.copyto(x, y)", "`x` changes inside the loop"),
        ("np.add(y, 1, out=x)", "`x` changes inside the loop"),
        ("fill(x)", "the loop passes `x` to `fill`, which may change it"),
        ("z = mystery(x)", "the loop passes `x` to `mystery`, which may change it"),
    ],
)
def test_variant_reason(body: str, why: str | None) -> None:
    assert reason("x = np.zeros(3)\nalias = x\n", body) == why


GLOBAL_WRITER = """
x = np.zeros(3)

WRITER

def run():
    for i in range(3):
        y = jnp.asarray(x)
"""


@pytest.mark.parametrize(
    ("writer", "why"),
    [
        ("def reset():\n    global x\n    x = np.zeros(3)", "`reset` changes `x`"),
        ("def touch():\n    x[0] = 1", "`touch` changes `x`"),
        ("def grow():\n    x.resize(4)", "`grow` changes `x`"),
        ("def local():\n    x = np.ones(3)", None),  # its own `x`
        ("def read():\n    return x.sum()", None),
    ],
)
def test_a_function_that_changes_the_global(writer: str, why: str | None) -> None:
    """Any function of the module may run during the loop (the loop calls none here)."""
    ctx = context(GLOBAL_WRITER.replace("WRITER", writer), HEADER)
    assert variant_reason(ctx, ctx.graph.loops[0], {"x"}) == why


def test_globals_nothing_writes_are_invariant_in_a_function_loop() -> None:
    ctx = context(
        "x = np.zeros(3)\n\ndef run():\n    for i in range(3):\n        y = jnp.asarray(x)\n",
        HEADER,
    )
    assert variant_reason(ctx, ctx.graph.loops[0], {"x"}) is None


def test_an_unknown_value_s_index_may_change_a_global() -> None:
    """`range(n)` calls `n.__index__`: of a parameter of unknown type, code autoopt cannot
    see (a class of the program's, which may write the global)."""
    ctx = context(
        "x = np.zeros(3)\n\ndef run(n):\n    for i in range(n):\n        y = jnp.asarray(x)\n",
        HEADER,
    )
    assert variant_reason(ctx, ctx.graph.loops[0], {"x"}) == (
        "the loop calls `n.__index__`, code autoopt cannot see, which may change `x`"
    )


def test_a_parameter_or_local_is_not_a_global_another_function_writes() -> None:
    writer = "def reset():\n    global x\n    x = np.zeros(3)"
    code = GLOBAL_WRITER.replace("def run():", "def run(x):").replace("WRITER", writer)
    ctx = context(code, HEADER)
    assert variant_reason(ctx, ctx.graph.loops[0], {"x"}) is None


def test_an_alias_made_at_module_level_is_followed_into_a_function_loop() -> None:
    code = (
        "x = np.zeros(3)\nalias = x\n\ndef run():\n    for i in range(3):\n"
        "        alias[0] = i\n        y = jnp.asarray(x)\n"
    )
    ctx = context(code, HEADER)
    assert variant_reason(ctx, ctx.graph.loops[0], {"x"}) == "`alias` changes inside the loop"


@pytest.mark.parametrize(
    ("spelling", "why"),
    [
        ('globals()["TABLE"] = np.zeros(3)', "`TABLE` may be rebound through `globals()`"),
        ("globals()[name] = np.zeros(3)", "`TABLE` may be rebound through `globals()`"),
        ("setattr(sys.modules[__name__], name, 1)", "`TABLE` may be rebound through `sys.modules"),
    ],
)
def test_a_global_rebound_by_reflection_is_variant(spelling: str, why: str) -> None:
    code = (
        f"import sys\nTABLE = np.ones(3)\ndef refresh(name):\n    {spelling}\n"
        "def main():\n    for i in range(3):\n        refresh('TABLE')\n        y = TABLE * 2\n"
    )
    ctx = context(code, HEADER)
    assert why in (variant_reason(ctx, ctx.graph.loops[0], {"TABLE"}) or "")


IMPLICIT = """
class Loader:
    def __init__(self):
        self.buf = np.zeros(3)

    def refill(self):
        self.buf[:] = 1.0

    __iter__ = __next__ = __bool__ = __len__ = __getitem__ = __contains__ = refill

    @property
    def fresh(self):
        self.refill()
        return self.buf

    def __format__(self, spec):
        self.refill()
        return "loader"


def main(items):
    loader = Loader()
    buf = loader.buf
    table = np.ones(3)
    for i in range(3):
        BODY
        y = jnp.asarray(buf)
"""


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("for _ in loader:\n            pass", "`loader.__iter__`"),
        ("z = list(enumerate(loader))", "`loader.__iter__`"),
        ("z = 1 if loader else 0", "`loader.__bool__`"),
        ("z = not loader", "`loader.__bool__`"),
        ("z = len(loader)", "`loader.__len__`"),
        ("z = loader[i]", "`loader.__getitem__`"),
        ("z = i in loader", "`loader.__contains__`"),
        ("z = loader.fresh", "`loader.__getattr__`"),
        ('print(f"{loader}")', "`loader.__format__`"),
        ("z = loader + 1", "`loader.__add__`"),
        ("z = loader == 1", "`loader.__eq__`"),
        ("a, b = loader", "`loader.__iter__`"),
        ("with loader:\n            pass", "`loader.__enter__`"),
    ],
)
def test_a_special_method_python_calls_may_change_the_object(body: str, why: str) -> None:
    """Each implicit call runs the type's code (here the program's own, refilling `buf`)."""
    ctx = context(IMPLICIT.replace("BODY", body), HEADER)
    loop = next(lp for lp in ctx.graph.loops.values() if lp.scope == "main" and not lp.loops)
    assert variant_reason(ctx, loop, {"buf"}) == (
        f"Python calls {why} implicitly, which may change `loader`"
    )


@pytest.mark.parametrize(
    "body",
    [
        "for v in table:\n            pass",
        "for v in range(3):\n            pass",
        "z = table[i] + len(table) + (1 if table.any() else 0)",
        "z = [1, 2][i] + sum([1.0, 2.0]) + (i in (1, 2))",
        'print(f"{table} {i}")',
    ],
)
def test_builtin_and_array_special_methods_only_read(body: str) -> None:
    ctx = context(IMPLICIT.replace("BODY", body), HEADER)
    loop = next(lp for lp in ctx.graph.loops.values() if lp.scope == "main" and not lp.loops)
    assert variant_reason(ctx, loop, {"table"}) is None


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("z = loader.refill()", "`loader.refill()` may change `loader` in place"),
        (
            "f = loader.refill",
            "Python calls `loader.__getattr__` implicitly, which may change `loader`",
        ),
    ],
)
def test_a_method_call_is_judged_as_the_call_its_lookup_makes(body: str, why: str) -> None:
    """`obj.m(...)`: the lookup of `m` is judged with the call (an unseen method may change
    its receiver); a lookup alone is an implicit `__getattr__`."""
    ctx = context(IMPLICIT.replace("BODY", body), HEADER)
    loop = next(lp for lp in ctx.graph.loops.values() if lp.scope == "main" and not lp.loops)
    assert variant_reason(ctx, loop, {"buf"}) == why


def test_an_optax_optimizer_read_changes_nothing() -> None:
    """An optax optimizer is a named tuple of functions nothing changes
    (`overlays.STATIC_CLASSES`): reading its fields runs no code of the program."""
    body = "f = opt.update\n        g = opt.init if opt else None"
    code = IMPLICIT.replace(
        "    table = np.ones(3)\n", "    table = np.ones(3)\n    opt = optax.sgd(0.1)\n"
    )
    ctx = context("import optax\n" + code.replace("BODY", body), HEADER)
    loop = next(lp for lp in ctx.graph.loops.values() if lp.scope == "main" and not lp.loops)
    assert variant_reason(ctx, loop, {"opt"}) is None
    assert variant_reason(ctx, loop, {"buf"}) is None
