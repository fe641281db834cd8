"""Function summaries: array-ness, impurities, host handoffs and frozen outside state."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.facts.summaries import Summary, summary

HEADER = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n"


def summarise(code: str, name: str = "f") -> Summary:
    code = HEADER + code
    ctx = ModuleContext("<t>", code, cst.parse_module(code))
    return summary(ctx, ctx.graph.functions[name])


@pytest.mark.parametrize(
    ("code", "array_function"),
    [
        ("def f(x):\n    return jnp.sin(x)\n", True),
        ("def lap(u):\n    return jnp.roll(u, 1) - u\ndef f(u):\n    return u + lap(u)\n", True),
        ("def f(u):\n    return u.at[0].set(1.0)\n", True),
        ("def f(x):\n    return np.sin(x)\n", False),
        ("def f(x):\n    return x + 1\n", False),  # nothing shows x is an array
        ("def f(x):\n    return x + 1\nfor _ in range(3):\n    y = f(jnp.ones(3))\n", True),
    ],
)
def test_array_function(code: str, array_function: bool) -> None:
    assert summarise(code).array_function is array_function


@pytest.mark.parametrize(
    ("code", "handoff"),
    [
        ("def f(x):\n    return jnp.asarray(np.clip(x, 0, 1))\n", "hands the traced `x` to NumPy"),
        ("def f(x):\n    return x if isinstance(x, np.ndarray) else x\n", "tests `isinstance`"),
        ("def f(x):\n    return str(x)\n", "formats the traced `x` as text"),
        ("def f(x):\n    return f'{x}'\n", "formats a traced value as text"),
        ("def f(x):\n    return jnp.nonzero(x)\n", "without `size=`"),
        ("def f(x):\n    return jnp.where(x > 0)\n", "without `size=`"),
        ("def f(x):\n    return x[x > 0]\n", "boolean mask `x > 0`"),
    ],
)
def test_host_handoffs(code: str, handoff: str) -> None:
    (found,) = summarise(code).handoffs
    assert handoff in found


@pytest.mark.parametrize(
    "code",
    [
        "def f(x):\n    return jnp.nonzero(x, size=3)\n",
        "def f(x):\n    return jnp.where(x > 0, x, 0.0)\n",
        "def f(x):\n    return x[jnp.arange(2)]\n",
        "def f(x):\n    return np.float32(2.0) * x\n",
        "def f(x):\n    return jnp.zeros(np.prod(x.shape))\n",
    ],
)
def test_no_handoff(code: str) -> None:
    assert summarise(code).handoffs == []


@pytest.mark.parametrize(
    ("code", "impurity"),
    [
        (
            "LR = 0.1\ndef f(g):\n    return LR * g\nLR = 0.2\n",
            "reads `LR`, which the module changes",
        ),
        (
            "M = np.ones(3)\ndef f(x):\n    return x * M\nnp.copyto(M, np.zeros(3))\n",
            "reads `M`, which the module changes",
        ),
        (
            "def noise(n):\n    return np.random.normal(size=n)\n"
            "def f(x):\n    return x + noise(3)\n",
            "calls `noise`, which draws host random numbers",
        ),
        (
            "def f(x, rng):\n    return x + rng.normal()\n"
            "for _ in range(3):\n    y = f(jnp.ones(3), np.random.default_rng(0))\n",
            "a method of `rng`",
        ),
    ],
)
def test_impurities(code: str, impurity: str) -> None:
    assert impurity in summarise(code).impurities[0]


def test_outside_objects_are_doubts_not_proofs() -> None:
    code = "class S:\n    lr = 0.1\nsched = S()\ndef f(w):\n    return w * sched.lr\n"
    assert summarise(code).doubts == [
        "reads `sched` (a host object) from outside; jit would freeze its value"
    ]


def test_a_closure_over_a_rebound_local_is_an_impurity() -> None:
    code = (
        "def train(w):\n    lr = 0.1\n    def f(w):\n        return w * lr\n"
        "    for _ in range(3):\n        w = f(w)\n        lr = lr / 2\n    return w\n"
    )
    assert summarise(code, "train.f").impurities == [
        "reads `lr`, which the enclosing function rebinds (jit would freeze it)"
    ]


def test_a_closure_over_a_local_a_nested_function_rebinds_is_an_impurity() -> None:
    """Found by the fuzzer: `decay()` rebinds `scale` with `nonlocal`, once per step."""
    code = (
        "def train(w):\n    scale = 1.0\n    def decay():\n        nonlocal scale\n"
        "        scale = scale * 0.5\n    def f(w):\n        return w * scale\n"
        "    for _ in range(3):\n        w = f(w)\n        decay()\n    return w\n"
    )
    assert summarise(code, "train.f").impurities == [
        "reads `scale`, which a function rebinds with `nonlocal` (jit would freeze it)"
    ]


def test_a_closure_over_a_local_bound_once_is_pure() -> None:
    code = (
        "def train(w):\n    scale = 1.0\n    def f(w):\n        return w * scale\n"
        "    for _ in range(3):\n        w = f(w)\n    return w\n"
    )
    assert summarise(code, "train.f").impurities == []


_CALLER = "for i in range(4):\n    y = f(jnp.ones(3), i)\n"


@pytest.mark.parametrize(
    ("code", "handoff"),
    [
        ("import math\ndef f(x, t):\n    return x * math.exp(t)\n", "to `math.exp`"),
        ("from math import exp as e\ndef f(x, t):\n    return x * e(t)\n", "to `math.exp`"),
        (
            "import functools\n@functools.lru_cache(maxsize=None)\ndef g(k):\n    return 2.0 * k\n"
            "def f(x, t):\n    return x * g(t)\n",
            "`functools.lru_cache` caches by its arguments",
        ),
        (
            "import math\ndef g(k):\n    return math.sqrt(k)\ndef f(x, t):\n    return x * g(t)\n",
            "passes a traced value to `g`, which hands the traced `k` to `math.sqrt`",
        ),
    ],
)
def test_callee_and_host_number_handoffs(code: str, handoff: str) -> None:
    (found,) = summarise(code + _CALLER).handoffs
    assert handoff in found


@pytest.mark.parametrize(
    ("code", "doubt"),
    [
        ("def f(x, t):\n    return x + (t * 2_654_435_761) % 7\n", "`t` may be a Python int"),
        (
            "def g(k):\n    return k * k\ndef f(x, t):\n    return x + g(t)\n",
            "passes a traced value to `g`, where `k` may be a Python int",
        ),
        (
            "def deco(fn):\n    return fn\n@deco\ndef g(k):\n    return jnp.sin(k)\n"
            "def f(x, t):\n    return x + g(t)\n",
            "whose decorator `deco` autoopt cannot see through",
        ),
    ],
)
def test_unproven_uses_are_doubts(code: str, doubt: str) -> None:
    found = summarise(code + _CALLER)
    assert not found.handoffs and any(doubt in d for d in found.doubts), found.doubts


_DONATING = "import functools\n@functools.partial(jax.jit, {})\ndef g(k, y):\n    return k * y\n"


def test_a_donating_jit_is_inlined_like_jax_jit() -> None:
    """Traced, `functools.partial(jax.jit, donate_argnames=...)` is inlined into the
    caller's trace (where donation does nothing): no doubt about the callee."""
    code = _DONATING.format('donate_argnames=("k",)') + "def f(x, t):\n    return g(x, t)\n"
    assert not [d for d in summarise(code + _CALLER).doubts if "cannot see through" in d]


def test_a_partial_jit_with_other_options_stays_a_doubt() -> None:
    code = _DONATING.format('static_argnames=("y",)') + "def f(x, t):\n    return g(x, t)\n"
    found = summarise(code + _CALLER)
    assert any("`functools.partial` autoopt cannot see through" in d for d in found.doubts)


@pytest.mark.parametrize(
    "code",
    [
        "def f(x, t):\n    return x * t * 9_000_017\n",  # meets the array first
        "def f(x, t):\n    return x + t / 3\n",  # a true division cannot wrap
        "def f(x, t):\n    return x + (t * 9_000_017) % 7\n",  # within int32 for t < 4
    ],
)
def test_int_math_that_cannot_wrap(code: str) -> None:
    assert not summarise(code + _CALLER).doubts


def test_float_arguments_are_rounding_only() -> None:
    code = "def f(x, t):\n    return x + t * 3.0\n"
    code += "for i in range(4):\n    y = f(jnp.ones(3), 0.1 * i)\n"
    assert not summarise(code).doubts


CALLED = "for _ in range(3):\n    y = f(jnp.ones(3))\n"


@pytest.mark.parametrize(
    "default",
    [
        "0.5",
        "'mean'",
        "None",
        "(0, 1)",
        "('a', 'b')",
        "jnp.zeros(3)",
        "jnp.float32",
        "jnp.tanh",
        "(jnp.zeros(3), jnp.ones(3))",
        "SCALE",  # a module constant: the default keeps the first object anyway
    ],
)
def test_an_immutable_default_is_a_constant(default: str) -> None:
    code = f"SCALE = 2.0\ndef f(x, w={default}):\n    return x + 1.0\n{CALLED}SCALE = 3.0\n"
    info = summarise(code)
    assert (info.impurities, info.doubts) == ([], [])


@pytest.mark.parametrize(
    ("default", "doubt"),
    [
        ("np.ones(3)", "reads the default of `w` (`np.ones(3)`), a NumPy array: jit would freeze"),
        ("W", "reads the default of `w` (`W`), a NumPy array"),
        ("[1.0, 2.0]", "reads the default of `w` (`[1.0, 2.0]`), a Python container"),
        ("{'a': jnp.ones(3)}", "reads the default of `w` (`{'a': jnp.ones(3)}`), a pytree"),
        ("CONFIG", "reads the default of `w` (`CONFIG`), a host object"),
        ("unseen.WEIGHTS", "reads the default of `w` (`unseen.WEIGHTS`), a value autoopt cannot"),
    ],
)
def test_a_default_not_proven_immutable_is_a_doubt(default: str, doubt: str) -> None:
    code = (
        "import unseen\nW = np.ones(3)\nclass C:\n    pass\nCONFIG = C()\n"
        f"def f(x, w={default}):\n    return x + 1.0\n{CALLED}"
    )
    info = summarise(code)
    assert info.impurities == []
    assert doubt in info.doubts[0]


@pytest.mark.parametrize(
    "change",
    ["W[:] *= 0.5", "W.fill(0.0)", "np.copyto(W, np.zeros(3))", "b = W\nb *= 0.5", "W[0] = 1.0"],
)
def test_a_default_the_module_changes_in_place_is_an_impurity(change: str) -> None:
    code = f"W = np.ones(3)\ndef f(x, w=W):\n    return x * w\n{CALLED}{change}\n"
    assert summarise(code).impurities == [
        "reads the default of `w` (`W`), which the module changes in place (jit would freeze it)"
    ]


@pytest.mark.parametrize(
    ("calls", "read"),
    [
        ("y = f(jnp.ones(3), w=jnp.ones(3))\n", False),  # every call passes it
        ("y = f(jnp.ones(3), jnp.ones(3))\n", False),
        ("y = f(jnp.ones(3))\n", True),
        ("y = f(*args)\n", True),
        ("g = jax.jit(f)\n", True),  # called where autoopt cannot see how
    ],
)
def test_a_default_is_read_where_a_call_may_leave_it(calls: str, read: bool) -> None:
    code = f"W = np.ones(3)\ndef f(x, w=W):\n    return x + 1.0\n{calls}W[:] = 0.0\n"
    assert bool(summarise(code).impurities) is read


def test_a_default_read_two_calls_down() -> None:
    code = (
        "W = np.ones(3)\ndef taps(s, t=W):\n    return s * jnp.asarray(t)\n"
        "def f(x):\n    return x * taps(1.0)\nnp.multiply(W, 2.0, out=W)\n"
    )
    assert summarise(code).impurities == [
        "calls `taps`, which reads the default of `t` (`W`), which the module changes in place "
        "(jit would freeze it)"
    ]


def test_a_global_rebound_through_globals_is_an_impurity() -> None:
    code = "G = 0.5\ndef f(x):\n    return G * x\ndef tune():\n    globals()['G'] = 0.1\n"
    assert summarise(code).impurities == [
        "reads `G`, which may be rebound through `globals()` (jit would freeze it)"
    ]


def test_globals_any_reflection_may_rebind_are_one_doubt_naming_data_first() -> None:
    code = (
        "import sys\nDT = 0.1\ndef helper(x):\n    return x\n"
        "def f(u):\n    return helper(jnp.roll(u, 1)) * DT\n"
        "def set_param(name, value):\n    setattr(sys.modules[__name__], name, value)\n"
    )
    assert summarise(code).doubts == [
        "reads `DT`, which may be rebound through `sys.modules[__name__]`, as may every global "
        "it reads (jit would freeze it)"
    ]


def test_a_closure_is_no_global_for_reflection() -> None:
    code = (
        "def outer(k):\n    def f(x):\n        return k * x\n    return f\n"
        "def tune(name):\n    globals()[name] = 1\n"
    )
    assert summarise(code, "outer.f").doubts == []


def test_the_defaults_of_a_function_the_module_changes_are_impurities() -> None:
    code = f"def f(x, w=2.0):\n    return x * w\n{CALLED}f.__defaults__ = (3.0,)\n"
    assert summarise(code).impurities == [
        "reads the default of `w` (`2.0`), which the module may replace: it changes `f` itself "
        "(jit would freeze it)"
    ]


@pytest.mark.parametrize(
    ("cfg", "impurity", "doubt"),
    [
        ("GAIN = 0.5\n", "", ""),
        (
            "GAIN = 0.5\ndef anneal():\n    global GAIN\n    GAIN = 0.1\n",
            "which `cfg` changes",
            "",
        ),
        ("GAIN = 0.5\ndef anneal():\n    globals()['GAIN'] = 0.1\n", "may be rebound through", ""),
        ("GAIN = 0.5\ndef tune(k):\n    globals()[k] = 0.1\n", "", "may be rebound through"),
        ("import numpy as np\nGAIN = np.ones(3)\n", "", "(a NumPy array) from another module"),
        ("from elsewhere import *\n", "", "(a value autoopt cannot see) from another module"),
    ],
)
def test_a_global_of_another_project_file(tmp_path, cfg: str, impurity: str, doubt: str) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "cfg").mkdir()
    (tmp_path / "cfg/__init__.py").write_text(cfg)
    (tmp_path / "cfg/units.py").write_text("SCALE = 2.0\n")
    code = HEADER + "import cfg.units\ndef f(x):\n    return cfg.GAIN * cfg.units.SCALE * x\n"
    (tmp_path / "main.py").write_text(code)
    ctx = ModuleContext(str(tmp_path / "main.py"), code, cst.parse_module(code))
    info = summary(ctx, ctx.graph.functions["f"])
    assert impurity in " ".join(info.impurities) and bool(info.impurities) is bool(impurity)
    assert doubt in " ".join(info.doubts) and bool(info.doubts) is bool(doubt)


def test_a_module_transform_is_followed_for_what_its_function_reads() -> None:
    """`g = jax.grad(loss)`: the step calling `g` reads what `loss` reads (h760)."""
    code = (
        "SCALE = 2.0\ndef loss(w):\n    return jnp.sum(w * SCALE)\ng = jax.grad(loss)\n"
        "def f(w):\n    return w - g(w)\nfor i in range(3):\n    SCALE = SCALE + 1.0\n"
    )
    assert summarise(code).impurities == [
        "calls `loss`, which reads `SCALE`, which the module changes (jit would freeze it)"
    ]


_FACTORY = (
    "def make(xs):\n    def loss(w):\n        return jnp.sum(xs @ w) * {scale}\n"
    "    return jax.jit(loss)\n"
    "g = jax.grad(make({xs}))\ndef f(w):\n    return w - g(w)\n"
)


def test_a_factory_closure_over_its_arrays_reads_nothing_that_changes() -> None:
    info = summarise(_FACTORY.format(scale="2.0", xs="jnp.ones((2, 3))"))
    assert (info.impurities, info.doubts) == ([], [])


def test_a_factory_closure_reading_a_global_the_module_changes_is_an_impurity() -> None:
    code = _FACTORY.format(scale="SCALE", xs="jnp.ones((2, 3))") + "SCALE = 1.0\nSCALE = 2.0\n"
    assert summarise(code).impurities == [
        "calls `loss`, which reads `SCALE`, which the module changes (jit would freeze it)"
    ]


def test_a_factory_closure_over_a_list_is_a_doubt() -> None:
    info = summarise(_FACTORY.format(scale="2.0", xs="[1.0, 2.0]"))
    assert info.doubts == [
        "`loss` reads `xs` (a Python container) from outside; jit would freeze its value"
    ]


_CHANGED = "K = 1.0\ndef stiffen():\n    global K\n    K = K * 2.0\n"
_READS_K = "def energy(w):\n    return K * jnp.sum(w**2)\n"


@pytest.mark.parametrize(
    "body",
    [
        "    return jax.grad(energy)(w)\n",
        "    return jax.hessian(energy)(w) @ w\n",
        "    return jax.tree.map(energy, w)\n",
        "    return jax.grad(functools.partial(energy))(w)\n",
        "    return jax.lax.scan(lambda c, _: (c, energy(c)), w, None, length=3)[1]\n",
        "    return jax.lax.cond(True, energy, energy, w)\n",
    ],
)
def test_a_function_handed_on_is_judged_as_a_direct_call(body: str) -> None:
    code = "import functools\n" + _CHANGED + _READS_K + "def f(w):\n" + body
    assert summarise(code).impurities == [
        "uses the function `energy`, which reads `K`, which the module changes "
        "(jit would freeze it)"
    ]


def test_a_function_handed_on_through_another_reads_transitively() -> None:
    code = (
        _CHANGED + _READS_K + "def loss(w):\n    return jnp.sum(jax.grad(energy)(w))\n"
        "def f(w):\n    return jax.grad(loss)(w)\n"
    )
    assert summarise(code).impurities == [
        "uses the function `loss`, which uses the function `energy`, which reads `K`, which "
        "the module changes (jit would freeze it)"
    ]


def test_a_function_handed_on_reading_unchanged_state_is_pure() -> None:
    code = "K = 1.0\n" + _READS_K + "def f(w):\n    return jax.grad(energy)(w)\n"
    assert summarise(code).impurities == [] and summarise(code).doubts == []


_HOST = (
    "class S:\n    def __init__(self):\n        self.w = 0.0\nSCHED = S()\n"
    "def loss(w):\n    return SCHED.w * jnp.sum(w)\n"
    "def f(w):\n    return jax.grad(loss)(w)\n"
)


def test_a_function_handed_on_reading_a_host_object_is_a_doubt() -> None:
    """A field some code may set again (here a method of the class)."""
    code = _HOST.replace("SCHED = S()", "    def decay(self):\n        self.w = 0.5\nSCHED = S()")
    assert summarise(code).doubts == [
        "`loss` reads `SCHED` (a host object) from outside; jit would freeze its value"
    ]


def test_a_field_its_constructor_alone_stores_is_frozen_as_it_is() -> None:
    """`SCHED.w`: a plain object's field that only `__init__` stores, a number
    (`facts/data_fields.py`): jit freezes what it holds all along."""
    assert summarise(_HOST).doubts == [] and summarise(_HOST).impurities == []


def test_a_handed_function_of_another_project_file(tmp_path) -> None:
    (tmp_path / "sched.py").write_text(
        "T = 2.0\ndef cool():\n    global T\n    T = T * 0.5\n"
        "def loss(x):\n    return T * x.sum()\n"
    )
    code = "import jax\nimport sched\ndef f(x):\n    return jax.grad(sched.loss)(x)\n"
    path = tmp_path / "main.py"
    path.write_text(code)
    ctx = ModuleContext(str(path), code, cst.parse_module(code))
    assert summary(ctx, ctx.graph.functions["f"]).impurities == [
        "calls `sched.loss`, which reads `T`, which the module changes",  # purity's
        "uses the function `loss`, which reads `T`, which the module changes (jit would freeze it)",
    ]


def test_a_nested_function_handed_on_reads_its_enclosing_variables_as_its_own() -> None:
    body = "    def body(c, i):\n        return c * {} + x, i\n"
    scan = "    return jax.lax.scan(body, x, None, length=3)[0]\n"
    kept = "N = 2\ndef f(x):\n" + body.format("N") + scan
    assert summarise(kept).impurities == [] and summarise(kept).doubts == []
    changed = _CHANGED + "def f(x):\n" + body.format("K") + scan
    assert summarise(changed).impurities == [
        "uses the function `body`, which reads `K`, which the module changes (jit would freeze it)"
    ]


def test_a_local_variable_is_not_the_module_function_of_its_name() -> None:
    """`loss = ...; return loss` reads the local, not the module's `def loss` (a notebook
    defines one cells later): what that function reads is not `f`'s."""
    code = (
        "SCALE = 1.0\n"
        "def loss(x):\n    return x * SCALE\n"
        "def f(x):\n    loss = jnp.sum(x)\n    return loss\n"
        "def g(x):\n    return jax.grad(loss)(x)\n"
        "def bump():\n    global SCALE\n    SCALE = 2.0\n"
    )
    assert summarise(code).impurities == []
    assert summarise(code, "g").impurities == [
        "uses the function `loss`, which reads `SCALE`, which the module changes "
        "(jit would freeze it)"
    ]
