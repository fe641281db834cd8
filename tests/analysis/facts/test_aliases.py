"""May-share: which names may hold the same buffers, strongly (syntax) or weakly."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.facts.aliases import RETAINED, Shares, Sharing, repeated_leaf

from ..helpers import HEADER, context, expr, stmt


def links(table: dict[str, set[str]], name: str) -> list[str]:
    return sorted(table.get(name, ()))


def kept(code: str) -> str:
    """The pseudo-name for what the call of code autoopt cannot see returns."""
    return f"<kept>comes from `{code}`, which may keep a reference to it"


@pytest.mark.parametrize(
    ("code", "name", "strong", "weak"),
    [
        # strong: follows from the syntax
        ("b = a", "b", ["a"], []),
        ("s = (p, q)", "s", ["p", "q"], []),
        ("d = {'w': w}", "d", ["w"], []),
        ("s = State(p, p)", "s", ["p"], [kept("State")]),  # a constructor holds its arguments
        ("s2 = s._replace(w=w)", "s2", ["s", "w"], []),
        ("p = avg = init()", "p", ["avg"], [kept("init")]),  # chained assignment: one object
        ("hist.append(x['w'])", "hist", ["x"], []),  # a mutating method stores its argument
        ("d[k] = v", "d", ["v"], []),
        ("o.f = v", "o", ["v"], []),
        ("x, y = a, b", "x", ["a"], []),  # element by element
        ("x, y = a, b", "y", ["b"], []),
        ("y = a if c else b", "y", ["a", "b"], []),
        ("y = a or b", "y", ["a", "b"], []),
        ("y = a[0]", "y", ["a"], []),
        ("y = a.w", "y", ["a"], []),
        ("y = [*a]", "y", ["a"], []),
        ("f = lambda: a", "f", ["a"], []),
        ("y += a", "y", ["a"], []),
        ("for x in xs:\n    pass", "x", ["xs"], []),
        ("y = jax.tree_util.tree_map(lambda t: t, a)", "y", ["a"], []),
        # weak: autoopt cannot rule it out
        ("y = mystery(a)", "y", [], [kept("mystery"), "a"]),
        ("y = a.view()", "y", [], ["a"]),  # a method of a variable: linked to it
        ("c = [a] + b", "c", [], ["a", "b"]),  # list concatenation
        ("y = np.array(a, copy=False)", "y", [], ["a"]),
        ("y = jax.tree.map(lambda t: t * 2, a)", "y", [], ["a"]),
        ("y = jax.tree.map(f, a)", "y", [], ["a", "f"]),
        ("with ctx(a) as y:\n    pass", "y", [], [kept("ctx"), "a"]),
        # fresh: the value holds no buffer of its inputs
        ("y = jnp.exp(a)", "y", [], []),
        ("a = jnp.zeros(3)\ny = np.array(a)", "y", [], []),
        ("y = float(a)", "y", [], []),
        ("y = a.item()", "y", [], []),
        ("a = jnp.zeros(3)\ny = jax.device_get(a)", "y", [], []),
        ("a = {'w': jnp.zeros(3)}\ny = jax.device_get(a)", "y", [], []),  # a pytree of arrays
        # a host copy of a value not proven an array may hold its objects
        ("y = np.array(a)", "y", [], ["a"]),  # `np.asarray(d)`: an object array holding `d`
        ("a = {'w': jnp.zeros(3)}\ny = np.asarray(a)", "y", [], ["a"]),
        ("y = jax.device_get(a)", "y", [], ["a"]),  # a leaf that is no array, as it is
        ("y = jax.random.normal(a, (3,))", "y", [], []),
        ("y = jax.tree.map(jnp.zeros_like, a)", "y", [], []),
        ("y = a > b", "y", [], []),
        ("y = a - b", "y", [], []),
        ("N = 3\ny = N", "y", [], []),  # a module constant is never a buffer
        # copies to the device
        ("a = np.zeros(3)\ny = jnp.asarray(a)", "y", [], []),  # a new device buffer
        ("a = jnp.zeros(3)\ny = jnp.asarray(a)", "y", [], ["a"]),  # may be `a` itself
    ],
)
def test_sharing_routes(code: str, name: str, strong: list[str], weak: list[str]) -> None:
    sharing = Sharing(context(code, HEADER), MODULE)
    assert links(sharing.strong, name) == strong
    assert links(sharing.weak, name) == weak


CALLS = """
G = init()

def ident(v):
    return v

def fresh(v):
    return jnp.zeros(3)

def pair(v, w):
    out = (v, w)
    return out

def glob():
    return G

def local():
    t = make()
    return t

def maybe(v):
    return helper(v)

@jax.jit
def step(s):
    return s

step2 = jax.jit(ident)

a1 = ident(a)
a2 = fresh(a)
a3 = pair(a, w=b)
a4 = glob()
a5 = local()
a6 = maybe(a)
a7 = step(a)
a8 = step2(a)
a9 = pair(*xs)
"""


@pytest.mark.parametrize(
    ("name", "strong", "weak"),
    [
        ("a1", ["a"], []),  # returns its argument
        ("a2", [], []),
        ("a3", ["a", "b"], []),  # through a local tuple, keyword argument included
        ("a4", ["G"], []),  # returns a global
        ("a5", [], [kept("make")]),  # returns what code autoopt cannot see made
        ("a6", [], [kept("helper"), RETAINED, "a"]),  # what unknown code made of (and keeps)
        ("a7", [], []),  # jitted: new buffers
        ("a8", [], []),
        ("a9", ["xs"], []),  # a starred argument may fill any parameter
    ],
)
def test_module_functions_share_what_they_return(name, strong, weak) -> None:
    sharing = Sharing(context(CALLS, HEADER), MODULE)
    assert links(sharing.strong, name) == strong
    assert links(sharing.weak, name) == weak


def test_components_follow_weak_links_only_when_asked() -> None:
    sharing = Sharing(context(CALLS, HEADER), MODULE)
    assert sharing.component({"a"}, weak=False) == {"a", "a1", "a3", "b"}
    assert sharing.component({"a"}, weak=True) == {
        "a", "a1", "a3", "a6", "b", RETAINED, kept("helper")
    }  # fmt: skip


def test_shares_of_an_expression_and_a_skipped_statement() -> None:
    ctx = context(CALLS, HEADER)
    sharing = Sharing(ctx, MODULE)
    assert sharing.shares(expr("(a, b.x, c[0], f(d))")) == Shares(
        strong={"a", "b", "c"}, weak={"d", kept("f")}
    )
    assert sharing.shares(expr("(ident, G, True, jnp)")) == Shares(strong={"G"})
    skipped = Sharing(ctx, MODULE, skip=stmt(ctx, "a1 = ident(a)"))
    assert "a1" not in skipped.strong


def test_sharing_is_per_scope() -> None:
    ctx = context("def f(p):\n    q = p\n    return q\n\nr = s\n")
    assert Sharing(ctx, "f").strong == {"p": {"q"}, "q": {"p"}}
    assert Sharing(ctx, MODULE).strong == {"r": {"s"}, "s": {"r"}}


def test_shares_add_moves_everything_to_weak_when_asked() -> None:
    out = Shares(strong={"a"})
    out.add(Shares(strong={"b"}, weak={"c"}))
    out.add(Shares(strong={"d"}, weak={"e"}), weak=True)
    assert out == Shares(strong={"a", "b"}, weak={"c", "d", "e"})
    assert out.names() == {"a", "b", "c", "d", "e"}


@pytest.mark.parametrize(
    ("code", "weak", "retainer"),
    [
        ("monitor.observe(w)", {"monitor": {"w"}, "w": {"monitor"}}, None),  # the receiver
        ("keep(w)", {RETAINED: {"w"}, "w": {RETAINED}}, "is handed to `keep`, which may keep it"),
        ("print(w)", {}, None),
        ("jnp.sum(w)", {}, None),
        ("len(w)", {}, None),
    ],
)
def test_code_that_may_keep_its_arguments(code: str, weak: dict, retainer: str | None) -> None:
    sharing = Sharing(context(code, HEADER), MODULE)
    assert (sharing.strong, sharing.weak) == ({}, weak)
    assert sharing.retained_by({"w"}) == retainer
    assert sharing.retained_by({"other"}) is None


TRANSFORMED = """
import equinox as eqx

def loss(w, x):
    return jnp.sum(w * x)

def noisy(w, x):
    print(w)
    return jnp.sum(w * x)

CALL
"""


@pytest.mark.parametrize(
    ("call", "kept"),
    [
        ("jax.grad(loss)(w, x)", False),  # a transform of a pure function, written in place
        ("eqx.filter_value_and_grad(loss)(w, x)", False),
        ("jax.vmap(loss, in_axes=(None, 0))(w, x)", False),
        ("jax.grad(noisy)(w, x)", True),  # the function is not pure
        ("jax.grad(helper)(w, x)", True),  # a function autoopt cannot see
        ("eqx.filter_jit(loss)(w, x)", True),  # a jit's cache may keep what it is given
    ],
)
def test_a_transformed_call_keeps_no_argument(call: str, kept: bool) -> None:
    sharing = Sharing(context(TRANSFORMED.replace("CALL", call), HEADER), MODULE)
    assert (sharing.retained_by({"w"}) is not None) is kept


def test_a_star_parameter_shares_every_positional_argument() -> None:
    sharing = Sharing(context("def pack(*vs):\n    return vs\n\nh = pack(a, b)\n"), MODULE)
    assert sharing.component({"h"}, weak=False) == {"h", "a", "b"}


LEAVES = """
class State(NamedTuple):
    params: object
    ema: object

def init(p):
    return State(params=p, ema=p)

def init_copy(p):
    return State(params=p, ema=p * 1.0)

w = jnp.zeros(3)
"""


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("State(w, w)", ("`w` fills two leaves of `s`: one buffer would be donated twice", True)),
        ("init(w)", ("`p` fills two leaves of `s`: one buffer would be donated twice", True)),
        ("init_copy(w)", None),
        ("{'a': jnp.zeros(3), 'b': jnp.ones(3)}", None),
        ("w", None),  # one array, one buffer
        (
            "make_state(w)",
            ("cannot prove the leaves of `s` are distinct buffers (`make_state(w)`)", False),
        ),
    ],
)
def test_repeated_leaf(value: str, why: tuple[str, bool] | None) -> None:
    code = "from typing import NamedTuple\n" + LEAVES + f"s = {value}\nprint(s)\n"
    ctx = context(code, HEADER)
    last = ctx.graph.scope_stmts(MODULE)[-1]
    assert repeated_leaf(ctx, last, "s") == why


FILLED = """
def init_mlp(sizes, key, scale=0.01):
    params = []
    for n in sizes:
        params.append([scale * jax.random.normal(key, (n,)), jnp.zeros(n) + 1.0])
    return params

def init_shared(sizes):
    params = []
    w = jnp.zeros(3)
    for n in sizes:
        params.append(w)
    return params

def init_pair(n):
    z = jnp.zeros(n)
    return [z, z]

@functools.cache
def init_cached(n):
    return [jnp.zeros(n), jnp.ones(n)]

w = jnp.zeros(3)
"""
UNPROVEN = "cannot prove the leaves of `s` are distinct buffers"


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ("s = init_mlp([2, 3], k)", None),  # every appended leaf a new array
        ("s = init_shared([2, 3])", (f"{UNPROVEN} (`init_shared([2, 3])`)", False)),
        (
            "s = init_pair(3)",
            ("`init_pair.z` fills two leaves of `s`: one buffer would be donated twice", True),
        ),
        ("s = init_cached(3)", (f"{UNPROVEN} (`init_cached(3)`)", False)),
        ("s = []\ns.append(w)\ns.append(w)", (f"{UNPROVEN} (filled in place)", False)),
        ("s = {}\ns['a'] = w\ns['b'] = w", (f"{UNPROVEN} (filled in place)", False)),
        ("s = [jnp.zeros(3)]\ns.append(s[0])", (f"{UNPROVEN} (filled in place)", False)),
        ("s = []\ns.append(jnp.zeros(3))\ns.append(2.0 * w)", None),
    ],
)
def test_leaves_of_a_filled_container(body: str, why: tuple[str, bool] | None) -> None:
    """Leaves appended in place are distinct only when each is a new array (issue 26)."""
    code = "import functools\nk = jax.random.PRNGKey(0)\n" + FILLED + body + "\nprint(s)\n"
    ctx = context(code, HEADER)
    last = ctx.graph.scope_stmts(MODULE)[-1]
    assert repeated_leaf(ctx, last, "s") == why


KEEPING = """
import functools

class Run:
    start = None

def remember(p):
    Run.start = p
    return p

@functools.lru_cache
def cached(p):
    return p

def stream(p):
    yield p

def closing(p):
    def report():
        return p
    return report

def main(a):
    BODY
"""
STORED = "<kept>is stored in `Run.start`, which keeps a reference to it"


@pytest.mark.parametrize(
    ("body", "name", "held"),
    [
        ("Run.start = a", "a", {STORED}),
        ("Run.log.append(a)", "a", {"<kept>is stored in `Run.log`, which keeps a reference to it"}),
        ("b = Run.start", "b", {"<kept>is read from `Run.start`, which holds it too"}),
        (
            "registry()['x'] = a",
            "a",
            {"<kept>is stored in `registry()['x']`, which keeps a reference to it"},
        ),
        (
            "pool().append(a)",
            "a",
            {"<kept>is stored in `pool()`, which keeps a reference to it"},
        ),
        ("b = remember(a)", "b", {"a", STORED, RETAINED}),  # returned, stored by the callee
        ("b = cached(a)", "b", {"a", kept("cached"), RETAINED}),  # decorated: unseen code
        (
            "g = stream(a)",
            "g",
            {"a", "<kept>is yielded at line 18, where the caller may keep it"},
        ),  # a generator holds its arguments, and hands them out
        ("r = closing(a)", "r", {"a"}),  # so does a closure returned
        ("def inner():\n        return a\n    r = inner", "r", {"a"}),
        ("b = jnp.pi", "b", set()),  # a name of JAX holds no buffer
        ("b = jnp.zeros(3).at[0].set(1.0)", "b", set()),  # JAX's functional update
        ("b = jnp.zeros(3).reshape(3)", "b", set()),  # a method of an array
    ],
)
def test_places_that_keep_a_reference(body: str, name: str, held: set[str]) -> None:
    ctx = context(KEEPING.replace("BODY", body), HEADER)
    sharing = Sharing(ctx, "main")
    assert sharing.component({name}, weak=True) - {name} == held
    if any(n.startswith("<kept>") for n in held):
        assert sharing.retained_by({name} | held)


DEFINED = """
def defaults(p):
    def report(v, ref=p):
        return v - ref
    return report

def main(a):
    BODY
"""


def _held_by(kind: str, name: str) -> set[str]:
    return {f"<kept>is held by {kind} `{name}` (line 10), made once"}


@pytest.mark.parametrize(
    ("body", "name", "held"),
    [
        (
            "def drift(v, v0=a):\n        return v - v0",
            "a",
            _held_by("a default argument of", "drift"),
        ),
        (
            "def drift(v, *, v0=a):\n        return v - v0",
            "a",
            _held_by("a default argument of", "drift"),
        ),
        ("class Probe:\n        start = a", "a", _held_by("the body of", "Probe")),
        (
            "class Probe:\n        def f(self, v0=a):\n            return v0",
            "a",
            _held_by("the body of", "Probe"),
        ),  # a method's default, made with the class
        (
            "r = defaults(a)",
            "r",
            {"a", "<kept>is held by a default argument of `report` (line 5), made once"},
        ),  # a nested function returned holds its defaults
        ("def drift(v, scale=2.0):\n        return v * scale", "a", set()),  # a number
        ("def drift(v):\n        return v - a", "a", set()),  # reads `a` when called
        ("class Probe:\n        label = 'start'", "a", set()),
    ],
)
def test_definitions_keep_what_they_evaluate_once(body: str, name: str, held: set[str]) -> None:
    """A function's defaults and a class body's values are made when the definition runs
    and kept: read later, however the names were rebound since (blind round 6)."""
    ctx = context(DEFINED.replace("BODY", body), HEADER)
    sharing = Sharing(ctx, "main")
    assert sharing.component({name}, weak=True) - {name} == held


OTHER_FILE = """\
import jax.numpy as jnp

_SEEN = {}


def checkpoint(name, value):
    _SEEN[name] = value
    return jnp.asarray(value)


def fresh(value):
    return value * 2.0
"""


def test_a_function_of_another_file_is_read_there(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "registry.py").write_text(OTHER_FILE)
    source = (
        "import jax.numpy as jnp\nimport registry\n\n"
        "a = registry.checkpoint('init', jnp.zeros(3))\nb = registry.fresh(jnp.zeros(3))\n"
    )
    (tmp_path / "main.py").write_text(source)
    ctx = ModuleContext(str(tmp_path / "main.py"), source, cst.parse_module(source))
    sharing = Sharing(ctx, MODULE)
    assert sharing.component({"a"}, weak=True) == {"a", "<kept>is held by `registry._SEEN` too"}
    assert sharing.component({"b"}, weak=True) == {"b"}
    assert sharing.retained_by({"a", "<kept>is held by `registry._SEEN` too"}) == (
        "is held by `registry._SEEN` too"
    )


@pytest.mark.parametrize(
    ("body", "name", "held"),
    [
        ("n, m = x.shape", "n", set()),  # numbers: no buffer of `x`
        ("y = x * 2.0", "y", set()),  # arithmetic on an array: a new buffer
        ("ys = [x for _ in keys]", "ys", {"x"}),
        # a loop variable stands for its iterable, and holds what it holds (a call on
        # it, `[seen.append(k) for k in keys]`, may put that anywhere)
        ("ys = [k for k in keys]", "ys", {"keys", "k"}),
        ("ys = [jnp.zeros(3) for k in keys]", "ys", set()),
    ],
)
def test_what_numbers_arithmetic_and_comprehensions_hold(body: str, name: str, held: set) -> None:
    code = f"def main(x, keys):\n    x = jnp.asarray(x) + 1.0\n    {body}\n"
    sharing = Sharing(context(code, HEADER), "main")
    assert sharing.component({name}, weak=True) - {name} == held


VMAPPED = """
def scaled(p, x):
    return jax.nn.relu(p * x)

def passed(p, x):
    return p

def logged(p, x):
    LOG.append(p)
    return p * x

LOG = []
fast = jax.vmap(scaled, in_axes=(None, 0))
same = jax.vmap(passed, in_axes=(None, 0))
slow = jax.vmap(logged, in_axes=(None, 0))
p = jnp.ones(3)
x = jnp.ones((2, 3))
"""


@pytest.mark.parametrize(
    ("call", "held"),
    [
        ("fast(p, x)", set()),  # a pure function's new result: keeps nothing
        ("same(p, x)", {"p"}),  # vmap hands back an argument its function returns
        ("slow(p, x)", {"p", "x", RETAINED}),  # an impure function may keep them
    ],
)
def test_a_vmapped_function_of_the_module(call: str, held: set) -> None:
    sharing = Sharing(context(VMAPPED + f"y = {call}\n", HEADER), MODULE)
    assert sharing.component({"y"}, weak=True) - {"y"} >= held
    assert RETAINED in sharing.component({"p"}, weak=True) or RETAINED not in held
    if not held:
        assert sharing.component({"y"}, weak=True) == {"y"}
        assert RETAINED not in sharing.component({"p"}, weak=True)


@pytest.mark.parametrize(
    ("code", "share"),
    [
        ("pair = (a, b)\n", False),  # a third value holds both
        ("pair = [a, b]\nn = len(pair)\n", False),
        ("out = {'a': a, 'b': b}\n", False),
        ("b = a\n", True),
        ("b = (a, 1)\n", True),  # `b` holds `a`
        ("c = (a, 1)\nb = c\n", True),
        ("b = a[0]\n", True),  # a part of `a`
        ("b = ident(a)\n\ndef ident(v):\n    return v\n", True),  # returns its argument
        ("b = eqx.tree_at(lambda m: m[0], a, jnp.ones(3))\n", True),  # keeps `a`'s other leaves
        ("b = []\nb.append(a)\n", True),
        ("pair = [a, b]\npair[1].append(a)\n", True),  # a store through the list into `b`
        ("pair = [a, b]\npair[1]['w'] = a\n", True),
        ("c = b\nc += [a]\n", True),  # `c` is `b`, extended in place
        ("keep(a)\nfill(b)\n", True),  # unseen code may put `a` into `b`
        ("pair = (a, b)\nfill(pair)\n", True),  # and into what `pair` holds
        ("monitor.observe(a, b)\n", True),  # an unknown method given both
    ],
)
def test_may_share_follows_what_each_value_holds(code: str, share: bool) -> None:
    ctx = context(HEADER + "import equinox as eqx\na = [jnp.ones(3)]\nb = [jnp.zeros(3)]\n" + code)
    sharing = Sharing(ctx, MODULE)
    assert sharing.may_share("a", "b") is share
    assert sharing.may_share("b", "a") is share


@pytest.mark.parametrize("line", ["yield p", "yield from [p]", "got = yield p"])
def test_a_yielded_value_is_kept_by_the_caller(line: str) -> None:
    """A generator hands what it yields to its caller, which may keep it (`list(gen)`)."""
    code = f"def gen(p):\n    {line}\n    p = p * 2\n"
    sharing = Sharing(context(code, HEADER), "gen")
    kept = sharing.component({"p"}, weak=False)
    assert sharing.retained_by(kept) == "is yielded at line 5, where the caller may keep it"
    assert sharing.retained_by({"other"}) is None


HOLDERS = """
import functools

def make_loader(xs, prior):
    def loader():
        for x in xs:
            yield x, prior
    return loader

def main():
    params = jnp.zeros(2)
    BIND
    for batch in CALL:
        pass
"""


@pytest.mark.parametrize(
    ("bind", "call", "holds"),
    [
        # a variable named like the nested function of `make_loader` is a variable
        ("loader = make_loader(jnp.ones((4, 2)), params)", "loader()", "loader"),
        ("batches = functools.partial(make_loader, prior=params)", "batches(1)()", "batches"),
        ("f = lambda: (1, params)", "f()", "f"),
        ("g = Holder(params).get", "g()", "g"),  # a bound method holds its receiver
    ],
)
def test_the_call_of_a_value_built_from_the_model_may_return_the_model(
    bind: str, call: str, holds: str
) -> None:
    ctx = context(HOLDERS.replace("BIND", bind).replace("CALL", call), HEADER)
    sharing = Sharing(ctx, "main")
    assert holds in sharing.holds["batch"]
    assert sharing.may_share("batch", "params")


def test_the_call_of_a_builtin_holds_nothing_of_its_name() -> None:
    sharing = Sharing(context("y = iter(a)", HEADER), MODULE)
    assert "iter" not in sharing.holds["y"]


FRESH_LOADER = """
def loader(arrays, size):
    perm = np.random.permutation(arrays[0].shape[0])
    for start in range(0, 8, size):
        part = perm[start : start + size]
        yield tuple(array[part] for array in arrays)

def again(arrays):
    while True:
        yield arrays[0]

@jax.jit
def step(model, x):
    return model + x.sum(0)

def main():
    xs, ys = jnp.ones((8, 4)), jnp.ones((8, 4))
    model = jnp.zeros(4)
    show(xs)
    show(model)
    for i, (x, y) in zip(range(4), GEN((xs, ys), 2)):
        model = step(model, x)
"""


def test_a_new_batch_of_a_proven_generator_holds_nothing() -> None:
    """The items of `tuple(a[perm] for a in arrays)` are gathers, new buffers: `x` holds
    neither `xs` nor what unseen code that saw `xs` and `model` may have kept."""
    sharing = Sharing(context(FRESH_LOADER.replace("GEN", "loader"), HEADER), "main")
    assert "x" not in sharing.holds
    assert not sharing.may_share("x", "model")
    assert sharing.may_share("xs", "model")  # both handed to `show`, which may keep them


def test_a_generator_yielding_its_array_holds_it() -> None:
    code = FRESH_LOADER.replace("GEN((xs, ys), 2)", "again((xs, ys))")
    sharing = Sharing(context(code, HEADER), "main")
    assert sharing.may_share("x", "xs")
    assert sharing.may_share("x", "model")


def test_a_proven_generator_keeps_its_arguments() -> None:
    """The batch is new, but the generator reads `model` again on every iteration."""
    code = FRESH_LOADER.replace("GEN((xs, ys), 2)", "loader((model, ys), 2)")
    sharing = Sharing(context(code, HEADER), "main")
    assert "x" not in sharing.holds
    iterator = "<kept>is held by the iterator of the loop at line 23, which reads it again"
    assert "model" in sharing.holds[iterator]
    assert sharing.may_share(iterator, "model")


_NNX_NET = """
from flax import nnx

SEEN = []


class Net(nnx.Module):
    def __init__(self, *, rngs):
        self.out = nnx.Linear(2, 2, rngs=rngs)

    def __call__(self, x):
        return self.out(x)

    def keep(self):
        SEEN.append(self.out.bias.value)


model = Net(rngs=nnx.Rngs(0))
"""


@pytest.mark.parametrize(
    ("call", "kept"),
    [
        ("model.keep()", {"model"}),  # the class's own method stores the object's bias
        ("model(1.0)", set()),  # `__call__` proven to keep nothing
        ("model.eval()", set()),  # flax's method: the class defines none
        ("model.summary()", {"model"}),  # a base's method autoopt does not know
    ],
)
def test_an_object_of_a_class_of_the_module_is_handed_to_its_code(call: str, kept: set) -> None:
    ctx = context(_NNX_NET + call + "\n")
    sharing = Sharing(ctx, MODULE)
    assert sharing.retainers.get(call.split("(")[0], set()) == kept


APART = """
import copy
import equinox as eqx

CACHE = []


class Failed(Exception):
    pass


@eqx.filter_jit
def loss(model, x):
    return jnp.sum(model.weight * x)


def evaluate(model, loader):
    total = 0.0
    for batch in loader:
        x = copy.copy(batch).numpy()
        total += loss(model, x)
    return total


def evaluate_arrays(model, loader):
    total = 0.0
    for batch in loader:
        total += loss(jnp.asarray(model), jnp.asarray(copy.copy(batch)))
    return total


def hands_over(model, loader):
    loader.seen.append(model)
    return evaluate(model, loader)


def caches(model, loader):
    CACHE.append(model)
    return evaluate(model, loader)


def logs(model, loader):
    copy.copy(model)
    return evaluate(model, loader)


def raises(model, loader):
    failure = Failed()
    failure.model = model
    if evaluate(model, loader) > 1:
        raise failure
    return 0


def namespace(model, loader):
    copy.copy(locals())
    return evaluate(model, loader)


def returns(model, loader):
    evaluate(model, loader)
    return model


def main(model, loader, f):
    NAME(model, loader)
    return model
"""


@pytest.mark.parametrize(
    ("name", "joined"),
    [
        # the loader reaches unseen code, the model a jit only, whose body sees the model's
        # non-array leaves and the batch copy as they are and may store one into the other
        # (`facts/jit_arguments.py`, tests/hazards h1260)
        ("evaluate", True),
        ("evaluate_arrays", False),  # the jit is given arrays only: it sees tracers
        ("hands_over", True),  # the model is stored into the loader
        ("caches", True),  # into a global: a reference that outlives the call
        ("logs", True),  # handed to unseen code, which may keep it with the loader's
        ("raises", True),  # an exception carries it out to any caller
        ("namespace", True),  # its locals handed out: unseen code may take the model
    ],
)
def test_a_function_of_the_module_keeps_apart_what_it_never_joins(name: str, joined: bool) -> None:
    """A call of an impure function of the module joins only the arguments the function's
    own relation joins: `loader` reaches code autoopt cannot see, `model` never does."""
    ctx = context(APART.replace("NAME", name), HEADER)
    sharing = Sharing(ctx, "main")
    assert sharing.may_share("loader", "model") is joined
    assert sharing.may_share("loader", RETAINED)


def test_an_argument_kept_apart_still_comes_back_in_what_it_returns() -> None:
    code = APART.replace("NAME(model, loader)", "out = returns(model, loader)")
    code = code.replace("    evaluate(model, loader)\n", "    evaluate_arrays(model, loader)\n")
    ctx = context(code, HEADER)
    sharing = Sharing(ctx, "main")
    assert sharing.may_share("out", "model") and not sharing.may_share("loader", "model")


CALLED = """
def main(model, x, fn):
    a = jnp.ones(3)
    CALL
    return x
"""


@pytest.mark.parametrize(
    ("call", "joined"),
    [
        ("model(x)", True),  # the class's `__call__`, unknown for a parameter, holds `model`
        ("jax.vmap(model)(x)", True),  # the transformed function runs `model`'s code
        ("fn(model)(x)", True),  # a callable made from `model`
        ("jax.jit(fn)(x)", False),  # a jit: compiled code keeps nothing
        ("len(x)", False),  # a builtin
    ],
)
def test_the_code_a_called_variable_runs_holds_it(call: str, joined: bool) -> None:
    sharing = Sharing(context(CALLED.replace("CALL", call), HEADER), "main")
    assert sharing.may_share("x", "model") is joined


REBOUND = """
KEPT = []

def loss(w, x):
    return jnp.sum(w * x)

REBIND

def main(w, x):
    loss(w, x)
    return x
"""


@pytest.mark.parametrize(
    ("rebind", "kept"),
    [
        ("", False),  # the `def` alone: pure
        ("loss = jax.jit(loss)", False),  # a jit of it runs it on tracers
        ("loss = keeper(loss)", True),  # the call runs what `keeper` returned
    ],
)
def test_a_rebound_function_is_no_longer_read_as_its_def(rebind: str, kept: bool) -> None:
    sharing = Sharing(context(REBOUND.replace("REBIND", rebind), HEADER), "main")
    assert (sharing.retained_by({"w"}) is not None) is kept


def test_a_comprehension_s_call_links_its_target_s_iterable() -> None:
    """`[seen.append(v) for v in params.values()]`: `seen` holds the leaves (h1914)."""
    code = "def main(params, seen):\n    [seen.append(v) for v in params.values()]\n"
    sharing = Sharing(context(code, HEADER), "main")
    assert sharing.may_share("seen", "params")
    plain = "def main(params, seen):\n    [v for v in params.values()]\n"
    assert not Sharing(context(plain, HEADER), "main").may_share("seen", "params")


@pytest.mark.parametrize(
    ("mapped", "kept"),
    [
        ("jax.tree.map(seen.append, params)", True),  # a bound method keeps each leaf
        ("jax.tree.map(lambda p: seen.append(p), params)", True),
        ("jax.tree.map(keep, params)", True),  # a function of the module that keeps
        ("jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)", False),
        ("jax.tree.map(jnp.zeros_like, params)", False),
        ("jax.tree.map(lambda p, g: p - 0.1 * g, params, seen)", True),  # leaves not arrays
        ("jax.tree.map(scale, params)", False),  # a function of the module read to keep nothing
    ],
)
def test_a_tree_map_keeps_what_its_function_keeps(mapped: str, kept: bool) -> None:
    code = (
        "def keep(p):\n    HISTORY.append(p)\n    return p\n\n"
        "def scale(p):\n    return p * 2.0\n\n"
        "HISTORY = []\n\n"
        "def main(seen):\n"
        "    params, grads = {'w': jnp.ones(3)}, {'w': jnp.zeros(3)}\n"
        f"    {mapped}\n"
        "    return params\n"
    )
    sharing = Sharing(context(code, HEADER), "main")
    assert (RETAINED in sharing.reach("params") or sharing.may_share("seen", "params")) is kept


@pytest.mark.parametrize(
    ("call", "kept"),
    [
        ("model.predict(x)", True),  # a method a class of this file defines runs on `model`
        ("model.unknown_method(x)", False),  # none does: the receiver keeps its arguments
    ],
)
def test_a_method_a_class_of_the_file_defines_may_keep_its_receiver(call: str, kept: bool) -> None:
    code = (
        "class Model:\n    def predict(self, x):\n        return x\n\n"
        f"def main(model, x):\n    {call}\n    return model\n"
    )
    sharing = Sharing(context(code, HEADER), "main")
    assert (RETAINED in sharing.reach("model")) is kept


@pytest.mark.parametrize(
    ("other", "kept"),
    [
        ("optax.sgd", False),  # every binding a listed constructor: it keeps nothing
        ("make_optimizer", True),  # a function of the program may keep what it is given
        ("optax.inject_hyperparams(optax.adam)", True),  # not a constructor named in place
    ],
)
def test_a_name_bound_in_branches_to_listed_constructors_keeps_nothing(
    other: str, kept: bool
) -> None:
    code = (
        "import optax\n\n"
        "def make_optimizer(lr):\n    SEEN.append(lr)\n    return optax.sgd(0.1)\n\n"
        "SEEN = []\n\n"
        "def main(name, lr):\n"
        "    if name == 'adam':\n        opt_class = optax.adam\n"
        f"    else:\n        opt_class = {other}\n"
        "    opt = opt_class(lr)\n"
        "    return opt\n"
    )
    sharing = Sharing(context(code, HEADER), "main")
    assert (RETAINED in sharing.reach("lr")) is kept


def test_a_parameter_bound_in_a_branch_to_a_constructor_is_no_alias() -> None:
    """`opt_class`, a parameter rebound in one branch only: on the other path it holds
    whatever the caller gave, which may keep what it is given."""
    code = (
        "import optax\n\n"
        "def main(opt_class, name, lr):\n"
        "    if name == 'adam':\n        opt_class = optax.adam\n"
        "    opt = opt_class(lr)\n"
        "    return opt\n"
    )
    sharing = Sharing(context(code, HEADER), "main")
    assert RETAINED in sharing.reach("lr")
