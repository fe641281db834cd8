"""The value model: the kind of value each name holds at a statement."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.values.lattice import Kind, Value, typed_value
from autoopt.analysis.values.model import model

HEADER = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"


def value_at_end(body: str, name: str) -> Value:
    """The value `name` holds when a final `probe(name)` statement reads it."""
    code = HEADER + body + f"\nprobe({name})\n"
    ctx = ModuleContext("<t>", code, cst.parse_module(code))
    last = ctx.graph.scope_stmts("<module>")[-1]
    return model(ctx).name(last, name)


@pytest.mark.parametrize(
    ("body", "name", "kind", "constant", "detail"),
    [
        ("x = np.zeros(3)\ny = jnp.asarray(x)", "y", Kind.ARRAY, False, None),
        ("x = np.zeros(3)", "x", Kind.HOST_ARRAY, False, None),
        ("x = jax.device_put(np.zeros(3))", "x", Kind.PYTREE, False, None),
        ("n = 3", "n", Kind.SCALAR, True, None),
        ("n = 3\nm = n * 2", "m", Kind.SCALAR, True, None),
        ("s = 'tanh'", "s", Kind.STRING, True, None),
        ("d = jnp.float32", "d", Kind.DTYPE, True, None),
        ("x = jnp.ones(n)\ns = x.shape", "s", Kind.SHAPE, False, None),
        ("x = jnp.ones((2, 3))\nt = x.dtype", "t", Kind.DTYPE, False, None),
        ("shape = (2, 3)", "shape", Kind.SHAPE, True, None),
        ("p = {'w': jnp.ones(3), 'b': jnp.zeros(3)}", "p", Kind.PYTREE, False, None),
        ("p = (jnp.ones(3), jnp.zeros(3))", "p", Kind.PYTREE, False, "tuple"),
        ("cfg = {'lr': 0.1}", "cfg", Kind.CONTAINER, False, None),
        # tuples of arrays joined: a new tuple of the same arrays
        ("p = (jnp.ones(3),)\nq = p + (jnp.zeros(3),)", "q", Kind.PYTREE, False, "tuple"),
        ("p = (jnp.ones(3),)\nq = p + [jnp.zeros(3)]", "q", Kind.UNKNOWN, False, None),
        ("p = (jnp.ones(3),)\nq = p + (1,)", "q", Kind.UNKNOWN, False, None),
        # rows of a JAX array unpacked, and comprehensions of JAX arrays
        ("k = jax.random.PRNGKey(0)\nk, sub = jax.random.split(k)", "sub", Kind.ARRAY, False, None),
        (
            "ps = load()\nt = tuple(jnp.asarray(p, jnp.float32) for p in ps)",
            "t",
            Kind.PYTREE,
            False,
            "tuple",
        ),
        ("ps = load()\nt = [jnp.zeros(3) for _ in ps]", "t", Kind.PYTREE, False, None),
        ("ps = load()\nt = {k: jnp.zeros(3) for k in ps}", "t", Kind.PYTREE, False, None),
        ("ps = load()\nt = [p for p in ps]", "t", Kind.UNKNOWN, False, None),
        ("ps = load()\nt = tuple(str(p) for p in ps)", "t", Kind.UNKNOWN, False, None),
        ("ps = load()\na, b = ps", "a", Kind.UNKNOWN, False, None),
        ("k = ('a', 1)", "k", Kind.CONTAINER, True, None),
        ("rng = np.random.default_rng(0)", "rng", Kind.OBJECT, False, "numpy-rng"),
        ("x = jnp.ones(3)\nm = x > 0", "m", Kind.ARRAY, False, "bool"),
        ("i = jnp.argmax(jnp.ones(3))", "i", Kind.ARRAY, False, "int"),
        ("x = jnp.ones(3)\ny = x.at[0].set(2.0)", "y", Kind.ARRAY, False, None),
        ("x = jnp.ones(3)\nv = x.item()", "v", Kind.SCALAR, False, None),
        ("x = None", "x", Kind.NONE, True, None),
        ("g = jax.grad(lambda w: w)", "g", Kind.CALLABLE, False, "arrays"),
        ("f = lambda v: v", "f", Kind.CALLABLE, False, None),
        ("import os\nm = os", "m", Kind.MODULE, True, None),
        ("x = unknown_call()", "x", Kind.UNKNOWN, False, None),
        ("x = jnp.ones(3)\nx = np.ones(3)", "x", Kind.HOST_ARRAY, False, None),
        ("x = jnp.ones(3) if flag else np.ones(3)", "x", Kind.UNKNOWN, False, None),
        ("n = len(xs)", "n", Kind.SCALAR, False, None),
        ("t = f'{1}'", "t", Kind.STRING, False, None),
    ],
)
def test_kind_of_a_name(
    body: str, name: str, kind: Kind, constant: bool, detail: str | None
) -> None:
    assert value_at_end(body, name) == Value(kind, constant, detail)


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        # a loop-carried array: the initial value and the loop's rebinding agree
        ("x = jnp.zeros(3)\nfor _ in range(3):\n    x = x + 1", Kind.ARRAY),
        # a NumPy buffer turned into a device array on the way
        ("x = np.zeros(3)\nfor _ in range(3):\n    x = jnp.asarray(x) * 2", Kind.UNKNOWN),
        # a counter
        ("n = 0\nfor _ in range(3):\n    n += 1", Kind.SCALAR),
    ],
)
def test_loop_carried_names_join_every_definition(body: str, kind: Kind) -> None:
    assert value_at_end(body, "x" if "x" in body else "n").kind is kind


_LOSS = "def loss(w, x):\n    return jnp.sum((x @ w) ** 2)\n"


@pytest.mark.parametrize(
    ("body", "name", "kind", "detail"),
    [
        # the value of `value_and_grad`: what the function returns, where it is an array
        (
            _LOSS + "w = jnp.ones(3)\nv, g = jax.value_and_grad(loss)(w, jnp.ones((2, 3)))",
            "v",
            Kind.ARRAY,
            None,
        ),
        # a constant Python number comes back as it is, not as an array
        (
            "def one(w):\n    return 1.0\nv, g = jax.value_and_grad(one)(jnp.ones(3))",
            "v",
            Kind.UNKNOWN,
            None,
        ),
        # the gradient has the structure of the first argument
        (
            _LOSS + "w = (jnp.ones(3), jnp.ones(3))\nv, g = jax.value_and_grad(loss)(w, 1.0)",
            "g",
            Kind.PYTREE,
            "tuple",
        ),
        (
            _LOSS + "v, g = jax.value_and_grad(loss)(jnp.ones(3), jnp.ones((2, 3)))",
            "g",
            Kind.PYTREE,
            None,
        ),
        # anything else asked of it (`has_aux`): not known
        (
            _LOSS + "v, g = jax.value_and_grad(loss, has_aux=True)(jnp.ones(3), 1.0)",
            "v",
            Kind.PYTREE,
            None,
        ),
    ],
)
def test_the_parts_of_value_and_grad(body: str, name: str, kind: Kind, detail: str | None) -> None:
    found = value_at_end(body, name)
    assert (found.kind, found.detail) == (kind, detail)


def function_values(code: str, fn_name: str) -> tuple[dict[str, Value], Value]:
    code = HEADER + code
    ctx = ModuleContext("<t>", code, cst.parse_module(code))
    fn = ctx.graph.functions[fn_name]
    values = model(ctx)
    return {p: values.parameter(fn, p) for p in fn.params}, values.returns(fn)


def test_parameters_join_the_arguments_of_every_call_site() -> None:
    params, returns = function_values(
        """
def step(x, lr, axis, name):
    return x - lr * jnp.sum(x, axis=axis)

x = jnp.ones((3, 3))
for i in range(4):
    x = step(x, 0.1 * i, 1, "sgd")
""",
        "step",
    )
    assert params == {
        "x": Value(Kind.ARRAY),
        "lr": Value(Kind.SCALAR),
        "axis": Value(Kind.SCALAR, constant=True),
        "name": Value(Kind.STRING, constant=True),
    }
    assert returns == Value(Kind.ARRAY)


def test_a_function_used_as_a_value_has_unknown_parameters() -> None:
    params, _ = function_values(
        """
def step(x):
    return x * 2

for _ in range(3):
    y = step(jnp.ones(3))
callbacks = [step]
""",
        "step",
    )
    assert params == {"x": Value(Kind.UNKNOWN)}


def test_a_public_function_of_a_library_module_has_unknown_parameters() -> None:
    params, _ = function_values("def step(x):\n    return x * 2\n", "step")
    assert params == {"x": Value(Kind.UNKNOWN)}


def test_unpacking_follows_each_returned_element() -> None:
    params, returns = function_values(
        """
def leapfrog(x, v):
    v = v - 0.05 * x
    return x + 0.1 * v, v

x, v = jnp.ones(16), jnp.zeros(16)
for _ in range(200):
    x, v = leapfrog(x, v)
""",
        "leapfrog",
    )
    row = typed_value(Kind.ARRAY, (16,), "float")
    assert params == {"x": row, "v": row}
    assert returns == Value(Kind.PYTREE, detail="tuple")


@pytest.mark.parametrize(
    ("body", "shape", "dtype"),
    [
        ("x = jnp.zeros((4, 3))", (4, 3), "float"),
        ("x = jnp.ones(3, jnp.float32)", (3,), "float32"),
        ("x = jnp.zeros((4, 3))[0]", (3,), "float"),
        ("x = jnp.zeros((4, 3)) * 2.0 + jnp.ones(3)", (4, 3), "float"),
        ("x = jnp.zeros((4, 3)).sum()", (), "float"),
        ("x = jnp.zeros(3) + jnp.zeros(3, jnp.float32)", None, None),  # float may be float64
        ("x = jnp.zeros(3) + jnp.zeros(4)", None, None),  # does not broadcast
        ("x = jnp.zeros(n)", None, "float"),
        ("x = jnp.arange(4)", (4,), "int"),
        ("x = jnp.arange(24.0).reshape(8, 3)", (8, 3), "float"),
    ],
)
def test_shapes_and_dtypes_of_arrays(body: str, shape: tuple | None, dtype: str | None) -> None:
    value = value_at_end(body, "x")
    assert (value.kind, value.shape, value.dtype) == (Kind.ARRAY, shape, dtype)


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        ("def f(x):\n    return jnp.asarray(x).shape[0]\n", Kind.SCALAR),
        ("def f(x):\n    return f'{x}'\n", Kind.STRING),
        ("def f(x):\n    print(x)\n", Kind.NONE),
        ("def f(x):\n    yield x\n", Kind.OBJECT),
        ("def f(x):\n    return helper(x)\n", Kind.UNKNOWN),
        ("def f(x):\n    return jnp.tanh(x), jnp.sin(x)\n", Kind.PYTREE),
    ],
)
def test_return_kinds(code: str, kind: Kind) -> None:
    _, returns = function_values(code, "f")
    assert returns.kind is kind


def test_a_namedtuple_of_arrays_is_a_pytree_and_a_plain_class_an_object() -> None:
    state = value_at_end(
        "from typing import NamedTuple\nclass S(NamedTuple):\n    w: object\ns = S(jnp.ones(3))",
        "s",
    )
    plain = value_at_end("class Opt:\n    pass\no = Opt()", "o")
    assert (state.kind, plain.kind) == (Kind.PYTREE, Kind.OBJECT)


def test_a_long_chain_of_calls_is_analysed_not_refused() -> None:
    """`u = run_i(u)` 150 times, each `run_i` a loop: the model stops following the
    chain past a depth (claiming nothing there) instead of exhausting Python's stack."""
    from autoopt.api import check_source

    parts = ["import jax.numpy as jnp\n"]
    for i in range(150):
        parts.append(
            f"def step_{i}(u):\n    return u * 0.5 + 1.0\n\n"
            f"def run_{i}(u):\n    for _ in range(3):\n        u = step_{i}(u)\n    return u\n"
        )
    calls = "".join(f"    u = run_{i}(u)\n" for i in range(150))
    parts.append(f"def main():\n    u = jnp.ones(3)\n{calls}    return u\n")
    _, findings = check_source("\n".join(parts))
    # the loops of one call the model follows run as one (guarded) scan each
    assert {f.rule for f in findings} == {"AO101", "AO103", "AO201"}
    assert sum(f.rule == "AO103" for f in findings) == sum(f.rule == "AO101" for f in findings)
    assert next(f.message for f in findings if f.rule == "AO101") == (
        "`step_0` is called in a loop without `jax.jit`: add `@jax.jit`"
    )


NT = "from typing import NamedTuple\nclass S(NamedTuple):\n    w: jnp.ndarray\n    n: int\n"
FLAX = "from flax import struct\n@struct.dataclass\nclass S:\n    w: jax.Array\n"
INSTANCE = Value(Kind.PYTREE, detail="class:S")
PYTREE = Value(Kind.PYTREE)


@pytest.mark.parametrize(
    ("body", "name", "expected"),
    [
        # an immutable pytree class whose array fields were given JAX arrays
        (NT + "s = S(jnp.ones(3), 2)", "s", INSTANCE),
        (NT + "s = S(jnp.ones(3), 2)\nv = s.w", "v", Value(Kind.ARRAY)),
        (NT + "s = S(n=2, w=jnp.ones(3))\nv = s.w + 1.0", "v", Value(Kind.ARRAY)),
        (NT + "s = S(jnp.ones(3), 2)\nt = s._replace(n=3)\nv = t.w", "v", Value(Kind.ARRAY)),
        (NT + "s = S(jnp.ones(3), 2)\nt = s._replace(w=jnp.zeros(3))", "t", INSTANCE),
        (FLAX + "s = S(w=jnp.ones(3))\nv = s.w", "v", Value(Kind.ARRAY)),
        (FLAX + "s = S(jnp.ones(3))\nt = s.replace(w=s.w * 2.0)", "t", INSTANCE),
        (
            NT + "def f(s):\n    return S(s.w * 0.5, s.n)\ns = S(jnp.ones(3), 1)\n"
            "for _ in range(3):\n    s = f(s)",
            "s",
            INSTANCE,
        ),
        # not concluded: a field annotated with something else
        (NT + "s = S(jnp.ones(3), 2)\nv = s.n", "v", PYTREE),
        # a field given a NumPy array, or not known to be given a JAX array
        (NT + "s = S(np.ones(3), 2)\nv = s.w", "v", PYTREE),
        (NT + "s = S(jnp.ones(3), 2)\nt = s._replace(w=np.ones(3))\nv = t.w", "v", PYTREE),
        (NT + "s = S(g(), 2)", "s", PYTREE),
        (NT + "s = S(*parts)", "s", PYTREE),
        # an array field left to its default
        (
            "from typing import NamedTuple\nclass S(NamedTuple):\n    w: jax.Array = 0\n"
            "s = S()\nv = s.w",
            "v",
            PYTREE,
        ),
        # a string annotation is not read
        (
            "from typing import NamedTuple\nclass S(NamedTuple):\n    w: 'jax.Array'\n"
            "v = S(jnp.ones(3)).w",
            "v",
            PYTREE,
        ),
        # the class rebound, or its name a parameter somewhere
        (NT + "s = S(jnp.ones(3), 2)\nS = make()\nv = s.w", "v", PYTREE),
        (NT + "def g(S):\n    return S\ns = S(jnp.ones(3), 2)\nv = s.w", "v", PYTREE),
        # a method shadowing a field, or taking over attribute access
        (NT + "    def w(self):\n        return 0\nv = S(jnp.ones(3), 2).w", "v", PYTREE),
        (
            FLAX + "    def __post_init__(self):\n        pass\nv = S(jnp.ones(3)).w",
            "v",
            PYTREE,
        ),
        # not an immutable pytree: a plain or mutable dataclass, a plain class
        (
            "from dataclasses import dataclass\n@dataclass\nclass S:\n    w: jax.Array\n"
            "v = S(jnp.ones(3)).w",
            "v",
            Value(Kind.UNKNOWN),
        ),
        (
            "import chex\n@chex.dataclass\nclass S:\n    w: jax.Array\nv = S(w=jnp.ones(3)).w",
            "v",
            PYTREE,
        ),
        ("class S:\n    w: jax.Array\nv = S(jnp.ones(3)).w", "v", Value(Kind.UNKNOWN)),
    ],
)
def test_fields_of_a_module_pytree_class(body: str, name: str, expected: Value) -> None:
    assert value_at_end(body, name) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("x = np.array([3, 17, 42])", Value(Kind.HOST_ARRAY, detail="int")),
        ("x = np.array([[1, -2], [3, 4]])", Value(Kind.HOST_ARRAY, detail="int")),
        ("x = jnp.array((0, 7))", Value(Kind.ARRAY, detail="int")),
        ("s = np.array([3, 17])\nx = jnp.asarray(s)", Value(Kind.ARRAY, detail="int")),
        ("x = jnp.asarray(jnp.argsort(jnp.ones(3)))", Value(Kind.ARRAY, detail="int")),
        ("x = jnp.asarray(jnp.ones(3) > 0)", Value(Kind.ARRAY, detail="bool")),
        # not concluded: a float or bool among the literals, an empty or starred list
        ("x = np.array([1, 2.0])", Value(Kind.HOST_ARRAY)),
        ("x = np.array([True, False])", Value(Kind.HOST_ARRAY)),
        ("x = np.array([])", Value(Kind.HOST_ARRAY)),
        ("x = np.array([*parts, 1])", Value(Kind.HOST_ARRAY)),
        # a dtype given: that dtype, whatever the source's element type
        ("x = np.array([1, 2], dtype=np.float32)", typed_value(Kind.HOST_ARRAY, dtype="float32")),
        (
            "s = np.array([3, 17])\nx = jnp.asarray(s, jnp.float32)",
            typed_value(Kind.ARRAY, dtype="float32"),
        ),
        ("x = jnp.asarray(s, dtype=float)", Value(Kind.ARRAY)),  # a builtin: not a name we know
        # a source of unknown element type
        ("x = jnp.asarray(np.ones(3))", Value(Kind.ARRAY)),
        ("x = jnp.asarray(load())", Value(Kind.ARRAY)),
    ],
)
def test_conversions_keep_the_element_type(body: str, expected: Value) -> None:
    assert value_at_end(body, "x") == expected


LOOP = "\nfor a, b in pairs:\n    pass"


@pytest.mark.parametrize(
    ("body", "name", "expected"),
    [
        (
            "xs = jnp.ones((8, 3))\npairs = [(xs[i : i + 2], xs[i]) for i in range(0, 8, 2)]"
            + LOOP,
            "a",
            Value(Kind.ARRAY),
        ),
        (
            "pairs = [(jnp.ones(3), 1), (jnp.zeros(3), 2)]" + LOOP,
            "a",
            typed_value(Kind.ARRAY, (3,), "float"),
        ),
        # each item in turn: a number, but not one constant
        ("pairs = [(jnp.ones(3), 1), (jnp.zeros(3), 2)]" + LOOP, "b", Value(Kind.SCALAR)),
        ("pairs = [(jnp.ones(3), 1), (np.zeros(3), 2)]" + LOOP, "a", Value(Kind.UNKNOWN)),
        # not concluded: the list changed, handed out, read or rebound elsewhere
        ("pairs = [(jnp.ones(3), 1)]\npairs.append(load())" + LOOP, "a", Value(Kind.UNKNOWN)),
        ("pairs = [(jnp.ones(3), 1)]\nfill(pairs)" + LOOP, "a", Value(Kind.UNKNOWN)),
        ("pairs = [(jnp.ones(3), 1)]\nfirst = pairs[0]" + LOOP, "a", Value(Kind.UNKNOWN)),
        ("pairs = [(jnp.ones(3), 1)]\nalias = pairs" + LOOP, "a", Value(Kind.UNKNOWN)),
        (
            "pairs = [(jnp.ones(3), 1)]\nif flag:\n    pairs = load()" + LOOP,
            "a",
            Value(Kind.UNKNOWN),
        ),
        # items that are not tuple literals of the target's length, or a starred target
        ("pairs = [make(i) for i in range(3)]" + LOOP, "a", Value(Kind.UNKNOWN)),
        ("pairs = [(jnp.ones(3), 1, 2)]" + LOOP, "a", Value(Kind.UNKNOWN)),
        ("pairs = [(jnp.ones(3), *rest)]" + LOOP, "a", Value(Kind.UNKNOWN)),
        ("pairs = [(jnp.ones(3), 1)]\nfor a, *b in pairs:\n    pass", "a", Value(Kind.UNKNOWN)),
        ("pairs = ((jnp.ones(3), 1) for i in range(3))" + LOOP, "a", Value(Kind.UNKNOWN)),
    ],
)
def test_unpacking_the_items_of_a_list_only_loops_read(
    body: str, name: str, expected: Value
) -> None:
    assert value_at_end(body, name) == expected


NESTED_CYCLES = """
def rhs(state):
    return {"u": jnp.roll(state["u"], 1) - state["v"], "v": state["u"] + state["v"]}


def axpy(a, x, y):
    return {k: y[k] + a * x[k] for k in y}


def rk4_step(state, dt):
    k1 = rhs(state)
    k2 = rhs(axpy(dt / 2, k1, state))
    k3 = rhs(axpy(dt / 2, k2, state))
    k4 = rhs(axpy(dt, k3, state))
    return {k: state[k] + dt / 6.0 * (k1[k] + 2 * k2[k] + 2 * k3[k] + k4[k]) for k in state}


def main():
    state = {"u": jnp.zeros(8), "v": jnp.ones(8)}
    for _ in range(10):
        state = rk4_step(state, 0.1)
    return state
"""


def test_nested_cycles_are_solved_once_per_guess_not_once_per_read() -> None:
    # the loop-carried `state` feeds rk4_step's parameter, which feeds four rhs and
    # three axpy calls: values that read a guess are kept while the guesses hold (this
    # took 5,604 solves when each read solved them again, 116 now; 72,688 and 2,266
    # for the whole of corpus/fhn_ring_rk4.py)
    code = HEADER + NESTED_CYCLES
    ctx = ModuleContext("<t>", code, cst.parse_module(code))
    values = model(ctx)
    value = values.name(ctx.graph.scope_stmts("main")[-1], "state")
    assert (value.kind, value.detail) == (Kind.PYTREE, "dict")
    assert values._steps < 500


def test_a_closure_reads_its_factory_argument_and_the_module() -> None:
    code = HEADER + (
        "def make(xs, n):\n    def loss(w):\n        return jnp.sum(xs @ w) * n\n    return loss\n"
        "f = make(jnp.ones((2, 3)), [1])\n"
    )
    ctx = ModuleContext("<t>", code, cst.parse_module(code))
    values = model(ctx)
    body = next(s for s in ctx.graph.scope_stmts("make.loss") if type(s.node) is cst.Return)
    assert values.name(body, "xs").kind is Kind.ARRAY
    assert values.name(body, "n").kind is Kind.CONTAINER
    assert values.name(body, "jnp").kind is Kind.MODULE


def test_a_method_of_a_class_in_a_function_reads_the_function_not_the_class_body() -> None:
    code = HEADER + (
        "x = 5\ndef f():\n    x = jnp.ones(3)\n    class C:\n        x = 'body'\n"
        "        def m(self):\n            return x\n    return C\n"
    )
    ctx = ModuleContext("<t>", code, cst.parse_module(code))
    body = next(s for s in ctx.graph.scope_stmts("f.C.m") if type(s.node) is cst.Return)
    assert model(ctx).name(body, "x").kind is Kind.ARRAY


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("a, b = map(jnp.asarray, splits)", Kind.ARRAY),  # each item one JAX array
        ("a, b = map(jnp.array, splits)", Kind.ARRAY),
        ("a, b = map(jax.device_put, splits)", Kind.UNKNOWN),  # a pytree given a pytree
        ("a, b = map(convert, splits)", Kind.UNKNOWN),
    ],
)
def test_unpacking_a_map_of_an_array_maker(line: str, kind: Kind) -> None:
    body = f"splits = load()\n{line}\n"
    assert value_at_end(body, "b").kind is kind


def test_a_map_rebound_in_the_module_is_not_the_builtin() -> None:
    body = "map = lambda f, xs: xs\nsplits = load()\na, b = map(jnp.asarray, splits)\n"
    assert value_at_end(body, "b").kind is Kind.UNKNOWN


_NNX_LOSS = "from flax import nnx\n\n" + _LOSS


@pytest.mark.parametrize(
    ("body", "name", "kind"),
    [
        # `nnx.value_and_grad` gives the value as `jax.value_and_grad` does
        (_NNX_LOSS + "v, g = nnx.value_and_grad(loss)(m, jnp.ones((2, 3)))", "v", Kind.ARRAY),
        (_NNX_LOSS + "v, g = nnx.value_and_grad(loss)(m, jnp.ones((2, 3)))", "g", Kind.PYTREE),
        (
            _NNX_LOSS + "v, g = nnx.value_and_grad(loss, has_aux=True)(m, jnp.ones((2, 3)))",
            "v",
            Kind.PYTREE,
        ),
    ],
)
def test_the_parts_of_nnx_value_and_grad(body: str, name: str, kind: Kind) -> None:
    assert value_at_end(body, name).kind is kind


_SPLIT = "from sklearn.model_selection import train_test_split\n\n"


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        # a split of JAX arrays: a list of new JAX arrays
        (_SPLIT + "x = jnp.ones((8, 2))\na, b = train_test_split(x, test_size=0.25)", Kind.ARRAY),
        (
            _SPLIT + "x = jnp.ones((8, 2))\na, b, c, d = train_test_split(x, x, random_state=0)",
            Kind.ARRAY,
        ),
        # of a list or of something unknown: its items as they are
        (_SPLIT + "a, b = train_test_split([1, 2, 3, 4])", Kind.UNKNOWN),
        (_SPLIT + "a, b = train_test_split(load())", Kind.UNKNOWN),
        (_SPLIT + "x = jnp.ones((8, 2))\na, b = train_test_split(*[x])", Kind.UNKNOWN),
    ],
)
def test_a_split_of_arrays_gives_arrays(body: str, kind: Kind) -> None:
    assert value_at_end(body, "a").kind is kind
