"""The dataflow graph: statement facts, loops, functions, calls and def-use queries."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.graph import MODULE, ModuleGraph

from ..helpers import context, stmt


def ids(stmts) -> list[int]:
    return sorted(s.id for s in stmts)


@pytest.mark.parametrize(
    ("code", "defs", "uses", "mutates"),
    [
        ("a, (b, *c) = f(x)", "a b c", "f x", ""),
        ("a[i] = v", "", "a i v", "a"),
        ("a.b = v", "", "a v", "a"),
        ("p = q = init()", "p q", "init", ""),
        ("x += 1", "x", "x", ""),
        ("d[k] += 1", "", "d k", "d"),
        ("y: int = z", "y", "z", ""),
        ("y: int", "", "", ""),  # a bare annotation only declares
        ("self.y: int", "", "self", ""),  # it evaluates `self`, sets nothing
        ("del a[0], b", "", "", "a"),
        ("lst.append(v)", "", "lst v", "lst"),
        ("obj.data.fill(0)", "", "obj", "obj"),
        ("x.at[i].set(v)", "", "i v x", ""),
        ("import os.path", "os", "", ""),
        ("import jax.numpy as jnp", "jnp", "", ""),
        ("from m import a as b, c", "b c", "", ""),
        ("from m import *", "", "", ""),
        ("with open(p) as fh, lock:\n    pass", "fh", "lock open p", ""),
        ("for i, (j, k) in enumerate(zip(xs, ys)):\n    pass", "i j k", "enumerate xs ys zip", ""),
        ("while n > 0:\n    pass", "", "n", ""),
        ("if flag:\n    pass", "", "flag", ""),
        ("if (t := load(k)) is not None:\n    pass", "t", "None k load t", ""),
        ("ys = [y for x in xs if (y := f(x))]", "y ys", "f xs y", ""),
        (
            "match msg:\n    case ('set', t) if t > lo:\n        pass\n"
            "    case [Mode.A, *rest] | {'k': _, **rest}:\n        pass",
            "rest t",
            "Mode lo msg t",
            "",
        ),
        ("match cmd:\n    case 1:\n        pass", "", "cmd", ""),
        ("print([f(i) for i in r if i > t])", "", "f print r t", ""),
        ("x = lambda u, w=d: u + w + z", "x", "d z", ""),
        ("@dec(k)\ndef g(p, q=d):\n    pass", "g", "dec k", ""),
        ("class K(Base):\n    pass", "K", "", ""),
        ("assert x, msg", "", "msg x", ""),
    ],
)
def test_statement_facts(code: str, defs: str, uses: str, mutates: str) -> None:
    first = context(code).graph.stmts[0]
    assert sorted(first.defs) == defs.split()
    assert sorted(first.uses) == uses.split()
    assert sorted(first.mutates) == mutates.split()


@pytest.mark.parametrize(
    ("code", "mutates"),
    [
        ("np.copyto(a, b)", ["a"]),  # NumPy writing into its first argument
        ("np.multiply(b, 2, out=c['o'])", ["c"]),  # and into `out=`
        ("np.sum(a)", []),
        ("np.multiply(b, 2, frame)", ["frame"]),  # a ufunc's positional output
        ("np.divmod(x, 1.0, whole, frac)", ["frac", "whole"]),
        ("np.clip(x, 0, 1, frame)", ["frame"]),  # a function's positional `out`
        ("np.ndarray.fill(a, 0.0)", ["a"]),  # an array method through its class, not `np`
        ("np.add.at(a, [0], 1)", ["a"]),
    ],
)
def test_numpy_writes_are_mutations(code: str, mutates: list[str]) -> None:
    ctx = context(code, "import numpy as np\n")
    assert sorted(ctx.graph.stmts[-1].mutates) == mutates


@pytest.mark.parametrize(
    ("code", "mutates"),
    [
        ("jnp.add(x, 1)", []),  # a function of a module, not `add` on a set
        ("np.add(x, 1)", []),
        ("jax.lax.add(x, 1)", []),
        ("jax.numpy.insert(x, 0, 1)", []),
        ("lax.sort(x)", []),  # `from jax import lax`
        ("random.shuffle(x)", ["x"]),  # `from numpy import random`: writes `x`, not `random`
        ("np.put(a, 0, 1)", ["a"]),  # NumPy writing into its argument, not into `np`
        ("os.environ.update(v)", ["os"]),  # an object the module holds does change
        ("CACHE.append(x)", ["CACHE"]),  # `from m import CACHE`: not a module
        ("mod.CACHE.append(x)", ["mod"]),
        ("mod.add(x)", ["mod"]),  # a module autoopt does not know may keep state
        ("sparse.add(x)", []),  # `import jax.experimental.sparse as sparse`
    ],
)
def test_calls_on_modules_mutate_nothing(code: str, mutates: list[str]) -> None:
    header = (
        "import os\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\nimport mod\n"
        "from jax import lax\nfrom numpy import random\nfrom m import CACHE\n"
        "import jax.experimental.sparse as sparse\n"
    )
    ctx = context(code, header)
    assert sorted(ctx.graph.stmts[-1].mutates) == mutates


def test_calls_and_comprehensions_are_recorded_outermost_first() -> None:
    ctx = context("y = f(g(x), lambda: h(1), [k(i) for i in r])\nz = f(x)\n")
    first, second = ctx.graph.stmts
    assert [ctx.code(c) for c in first.calls] == [
        "f(g(x), lambda: h(1), [k(i) for i in r])",
        "g(x)",
        "k(i)",
    ]
    assert first.comprehension and not second.comprehension


FLOW = """
def f(x, n):
    y = x
    if n:
        y = x + 1
    else:
        z = 2
    for i in range(n):
        w = y * i
        y = w
    return y
"""


def test_statements_are_numbered_with_scope_loops_and_blocks() -> None:
    ctx = context(FLOW)
    rows = [(s.id, s.scope, s.loops, s.block) for s in ctx.graph.stmts]
    assert rows == [
        (0, MODULE, (), ()),  # def f
        (1, "f", (), ()),  # y = x
        (2, "f", (), ()),  # if n:
        (3, "f", (), (1,)),  # y = x + 1
        (4, "f", (), (2,)),  # z = 2
        (5, "f", (), ()),  # for i in range(n): the header is outside its loop
        (6, "f", (0,), (3,)),  # w = y * i
        (7, "f", (0,), (3,)),  # y = w
        (8, "f", (), ()),  # return y
    ]


def test_reaching_definitions_include_both_branches_and_the_loop_carried_one() -> None:
    ctx = context(FLOW)
    graph = ctx.graph
    assert ids(graph.reaching_defs(stmt(ctx, "w = y * i"), "y")) == [1, 3, 7]
    assert ids(graph.reaching_defs(stmt(ctx, "return y"), "y")) == [1, 3, 7]
    assert ids(graph.reaching_defs(stmt(ctx, "w = y * i"), "i")) == [5]
    assert ids(graph.uses_of(stmt(ctx, "y = x"), "y")) == [6, 8]
    assert ids(graph.uses_of(stmt(ctx, "y = w"), "y")) == [6, 8]
    assert graph.reaching_defs(stmt(ctx, "y = x"), "x") == []  # a parameter: no statement


def test_a_definition_that_dominates_the_use_kills_the_earlier_ones() -> None:
    ctx = context("a = 1\nb = a\na = 2\nc = a\n")
    assert ids(ctx.graph.reaching_defs(stmt(ctx, "c = a"), "a")) == [2]
    assert ids(ctx.graph.reaching_defs(stmt(ctx, "b = a"), "a")) == [0]


def test_dominance_follows_the_block_path() -> None:
    ctx = context(FLOW)
    dominates = ctx.graph.dominates
    assert dominates(stmt(ctx, "y = x"), stmt(ctx, "return y"))
    assert not dominates(stmt(ctx, "y = x + 1"), stmt(ctx, "return y"))
    assert dominates(stmt(ctx, "w = y * i"), stmt(ctx, "y = w"))
    assert not dominates(stmt(ctx, "y = w"), stmt(ctx, "w = y * i"))  # later in the block
    assert not dominates(stmt(ctx, "y = w"), stmt(ctx, "return y"))  # the loop may not run


@pytest.mark.parametrize(
    ("code", "at", "var", "readers"),
    [
        ("p = init()\nx = step(p)\nprint(p)\n", "x = step(p)", "p", ["print(p)"]),
        ("p = init()\nx = step(p)\np = x\nprint(p)\n", "x = step(p)", "p", []),
        # the next iteration reads `p` again, unless the loop rebinds it on every path
        ("for t in r:\n    x = step(p)\n", "x = step(p)", "p", ["x = step(p)"]),
        ("for t in r:\n    x = step(p)\n    p = x\n", "x = step(p)", "p", []),
        (
            "for t in r:\n    x = step(p)\n    if t:\n        p = x\n",
            "x = step(p)",
            "p",
            ["x = step(p)"],
        ),
        (
            "for t in r:\n    y = p + 1\n    x = step(p)\n",
            "x = step(p)",
            "p",
            ["x = step(p)", "y = p + 1"],
        ),
        # the `for` header binds its targets again before every iteration's body
        ("for p in r:\n    x = step(p)\n", "x = step(p)", "p", []),
        ("for p, q in r:\n    x = step(p, q)\n", "x = step(p, q)", "q", []),
        ("for p in r:\n    x = step(p)\nprint(p)\n", "x = step(p)", "p", ["print(p)"]),
        (
            "for p in r:\n    for t in s:\n        x = step(p)\n",
            "x = step(p)",
            "p",
            ["x = step(p)"],  # the inner loop's next iteration reads the same `p`
        ),
        ("while c:\n    x = step(p)\n", "x = step(p)", "p", ["x = step(p)"]),
        ("p = step(p)\nprint(p)\n", "p = step(p)", "p", []),  # rebinds: old value is gone
        ("x = step(p)\nif c:\n    p = 0\nprint(p)\n", "x = step(p)", "p", ["print(p)"]),
    ],
)
def test_read_after(code: str, at: str, var: str, readers: list[str]) -> None:
    ctx = context(code)
    found = ctx.graph.read_after(stmt(ctx, at), var)
    assert sorted(ctx.code(s.node) for s in found) == sorted(readers)


def test_loops_hold_their_body_and_what_it_writes() -> None:
    ctx = context(
        "for i in range(n):\n    a = f(i)\n    b.append(a)\n"
        "    while a:\n        a -= 1\nelse:\n    c = 0\n"
    )
    graph = ctx.graph
    outer, inner = graph.loops[0], graph.loops[1]
    assert (outer.scope, outer.loops, outer.header) == (MODULE, (), 0)
    assert (inner.loops, inner.header) == ((0,), 3)
    assert ids(graph.loop_stmts(0)) == [1, 2, 3, 4]  # not the `for` header, not `else`
    assert ids(graph.loop_stmts(1)) == [3, 4]  # a `while` test runs every iteration
    assert graph.written_in_loop(0) == {"i", "a", "b"}
    assert graph.written_in_loop(1) == {"a"}
    assert stmt(ctx, "c = 0").loops == ()


FUNCTIONS = """
counter = 0

def outer(a):
    def inner(b):
        nonlocal a
        return a + b + scale
    return inner

def bump():
    global counter
    counter += 1

class Model:
    def apply(self, x):
        return x

def gen(n):
    def nested():
        yield 1
    return nested

def stream(n):
    yield n

def run(xs):
    for x in xs:
        bump(); y = outer(x)
    if xs: bump()
    return [outer(v) for v in xs]
"""


@pytest.mark.parametrize(
    ("qualname", "scope", "params", "method", "globals_", "nonlocals", "captured", "generator"),
    [
        ("outer", MODULE, ["a"], False, set(), set(), {"a", "scale"}, False),
        ("outer.inner", "outer", ["b"], False, set(), {"a"}, set(), False),
        ("bump", MODULE, [], False, {"counter"}, set(), set(), False),
        ("Model.apply", "Model", ["self", "x"], True, set(), set(), set(), False),
        ("gen", MODULE, ["n"], False, set(), set(), set(), False),  # only `nested` yields
        ("gen.nested", "gen", [], False, set(), set(), set(), True),
        ("stream", MODULE, ["n"], False, set(), set(), set(), True),
    ],
)
def test_functions(
    qualname, scope, params, method, globals_, nonlocals, captured, generator
) -> None:
    fn = context(FUNCTIONS).graph.functions[qualname]
    assert (fn.scope, fn.params, fn.is_method) == (scope, params, method)
    assert (fn.globals, fn.nonlocals, fn.captured) == (globals_, nonlocals, captured)
    assert fn.is_generator is generator
    assert fn.name == qualname.rsplit(".", 1)[-1]


def test_classes_and_name_resolution_from_inner_scopes() -> None:
    graph = context(FUNCTIONS).graph
    assert graph.classes == {"Model"}
    assert graph.resolve_function("inner", "outer.inner").qualname == "outer.inner"
    assert graph.resolve_function("outer", "outer.inner").qualname == "outer"
    assert graph.resolve_function("inner", "run") is None
    assert graph.resolve_function("apply", MODULE) is None


def test_call_sites_know_their_loop_and_line() -> None:
    ctx = context(FUNCTIONS)
    graph = ctx.graph
    bump = [
        (ctx.code(s.call), s.in_loop, s.stmt.alone)
        for s in graph.call_sites(graph.functions["bump"])
    ]
    assert bump == [("bump()", True, False), ("bump()", False, False)]
    outer = graph.call_sites(graph.functions["outer"])
    assert [(ctx.code(s.stmt.node), s.in_loop) for s in outer] == [
        ("y = outer(x)", True),
        ("return [outer(v) for v in xs]", True),  # once per element of the comprehension
    ]
    assert outer[0].stmt.call_assigned is None  # `bump(); y = outer(x)` shares its line
    assert [s.id for s in graph.references("outer")] == [s.stmt.id for s in outer]


def test_a_bare_annotation_defines_nothing() -> None:
    ctx = context("y = 1\ny: int\nprint(y)\n")
    assert [s.id for s in ctx.graph.reaching_defs(stmt(ctx, "print(y)"), "y")] == [0]
    ctx = context("x = step(p)\np: int\nprint(p)\n")
    readers = ctx.graph.read_after(stmt(ctx, "x = step(p)"), "p")
    assert [ctx.code(s.node) for s in readers] == ["print(p)"]


KINDS = "def f(a, /, b, *rest, scale=None, **kw):\n    return scale\n\n"


@pytest.mark.parametrize(
    ("call", "name", "found"),
    [
        ("f(x, y)", "scale", None),  # keyword-only: never the second positional
        ("f(x, y, z, w)", "scale", None),
        ("f(x, y, scale=s)", "scale", "s"),
        ("f(x, y)", "b", "y"),
        ("f(x, b=y)", "b", "y"),
        ("f(x, y)", "a", "x"),
        ("f(a=x, b=y)", "a", None),  # positional-only: `a=` goes to `**kw`
        ("f(x, y, z)", "rest", None),  # `*rest` binds no single expression
        ("f(x, y, kw=z)", "kw", None),
        ("f(*xs, scale=s)", "b", None),  # a starred argument hides the position
    ],
)
def test_call_site_argument_by_kind_of_parameter(call: str, name: str, found: str | None) -> None:
    ctx = context(KINDS + call + "\n")
    fn = ctx.graph.functions["f"]
    assert fn.params == ["a", "b", "rest", "scale", "kw"]
    assert fn.positional == ["a", "b"]
    site = ctx.graph.call_sites(fn)[0]
    assert site.function is fn
    argument = site.argument(fn.params.index(name), name)
    assert (None if argument is None else ctx.code(argument)) == found


def test_call_assigned_is_a_lone_name_bound_to_a_call() -> None:
    ctx = context("a = f(x)\nb, c = f(x)\nd = e = f(x)\ng = x\nh[0] = f(x)\n")
    assigned = [s.call_assigned for s in ctx.graph.stmts]
    assert assigned[0] is not None and assigned[0][0] == "a"
    assert ctx.code(assigned[0][1]) == "f(x)"
    assert assigned[1:] == [None, None, None, None]
    assert context("if c: a = f(x)\n").graph.stmts[1].alone is False


def test_a_fact_store_keeps_small_statement_facts_for_statements_kept() -> None:
    source = "import jax.numpy as jnp\n\ndef f(x):\n    y = jnp.sin(x)\n    return y\n\nz = f(1)\n"
    module = cst.parse_module(source)
    stores: dict[cst.BaseStatement, dict] = {}
    first = ModuleGraph(module, store=lambda stmt: stores.setdefault(stmt, {}))
    edited = module.with_changes(body=[*module.body[:2], cst.parse_statement("z = f(2)\n")])
    second = ModuleGraph(edited, store=lambda stmt: stores.setdefault(stmt, {}))
    fresh = ModuleGraph(edited)
    assert [(s.scope, s.defs, s.uses, len(s.calls)) for s in second.stmts] == [
        (s.scope, s.defs, s.uses, len(s.calls)) for s in fresh.stmts
    ]
    assert second.stmts[2].calls is first.stmts[2].calls  # `y = jnp.sin(x)`: from the store
    assert second.stmts[4].calls is not first.stmts[4].calls  # the edited statement


def test_enclosing_functions_skip_class_bodies() -> None:
    graph = ModuleGraph(
        cst.parse_module(
            "class Recorder:\n    def total(self):\n        def inner():\n            pass\n\n"
            "def f():\n    class C:\n        def m(self):\n            pass\n"
        )
    )
    assert [f.qualname for f in graph.enclosing_functions("Recorder.total.inner")] == [
        "Recorder.total.inner",
        "Recorder.total",
    ]
    assert [f.qualname for f in graph.enclosing_functions("f.C.m")] == ["f.C.m", "f"]
    assert graph.enclosing_functions("Recorder") == []
