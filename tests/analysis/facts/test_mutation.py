"""May a host value change in place, or be read, while a loop runs."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.facts import mutation
from autoopt.analysis.facts.mutation import change_reason, kept_objects, late_reader

from ..helpers import HEADER, context, loop, stmt

HEADER = HEADER + "import functools\nimport operator\nimport threading\n"

HELPERS = """
SRC = np.ones(3)

class Cfg:
    BUF = np.zeros(3)

def render(frame, gain):
    np.multiply(SRC, gain, frame)

def push(queue, r):
    queue += [r]

def record(log, r):
    book = log
    book[len(book):] = [r]

def reads(buf):
    return buf.sum() + np.sum(buf)

def apply(f, v):
    f(v)

@jax.jit
def step(w, x):
    return w + x

"""


HOLDS = (
    "the loop calls `{callee}`, which may hold `{name}` (a bound method, a closure or a "
    "partial of it) and change it"
)


def reason(setup: str, body: str, name: str = "x") -> str | None:
    """`change_reason` of `name` for the loop `for t in range(3): <body>` in `main`."""
    code = HELPERS + "def main(data):\n"
    code += "".join(f"    {line}\n" for line in setup.split("\n"))
    code += "    for t in range(3):\n" + "".join(f"        {line}\n" for line in body.split("\n"))
    ctx = context(code, HEADER)
    return change_reason(ctx, loop(ctx), {name})


@pytest.mark.parametrize(
    ("setup", "body", "why"),
    [
        # NumPy's in-place spellings
        ("x = np.zeros(3)", "x[:] = t", "`x` changes inside the loop"),
        ("x = np.zeros(3)", "x.flat[0] = t", "`x` changes inside the loop"),
        ("x = np.zeros(3)", "x += 1.0", "`x` changes inside the loop"),
        ("x = np.zeros(3)", "np.multiply(SRC, t, x)", "`x` changes inside the loop"),
        ("x = np.zeros(3)", "np.clip(SRC, 0, t, x)", "`x` changes inside the loop"),
        ("x = np.zeros(3)", "np.ndarray.fill(x, t)", "`x` changes inside the loop"),
        (
            "x = np.zeros(3)",
            "SRC.sum(0, None, x)",
            "the loop passes `x` to `SRC.sum`, which writes into it",
        ),
        ("x = np.zeros(3)", "x.sort()", "`x` changes inside the loop"),
        ("x = np.zeros(3)", "x.partition(1)", "`x` changes inside the loop"),
        ("x = np.zeros(3)\nv = x.reshape(3)", "v[0] = t", "`v` changes inside the loop"),
        (
            "x = np.zeros(3)",
            "operator.iadd(x, 1.0)",
            "the loop passes `x` to `operator.iadd`, which writes into it",
        ),
        # helpers, aliases and parameters
        ("x = np.zeros(3)", "render(x, t)", "the loop passes `x` to `render`, which may change it"),
        ("x = [1.0]\nm = x", "push(m, t)", "the loop passes `m` to `push`, which may change it"),
        (
            "x = [1.0]\ns = (x, 0)",
            "record(s[0], t)",
            "the loop passes `s` to `record`, which may change it",
        ),
        ("x = np.zeros(3)", "mystery(x)", "the loop passes `x` to `mystery`, which may change it"),
        # bound methods, partials and closures taken as values
        (
            "x = np.zeros(3)\nreset = x.fill",
            "reset(t)",
            HOLDS.format(callee="reset", name="x"),
        ),
        (
            "x = np.zeros(3)\nhooks = []\nhooks.append(functools.partial(np.copyto, x))",
            "for hook in hooks:\n    hook(SRC)",
            # `hook` holds the partial over `x`, and the code a called variable runs holds
            # it (aliases.py): the call, which joins `SRC` to `x`, is the first cause found
            "the loop passes `SRC` to `hook`, which may change it",
        ),
        ("x = np.zeros(3)", "apply(x.fill, 1.0)", "the loop passes `x` to `apply`, which calls it"),
        (
            "x = np.zeros(3)",
            "list(map(x.fill, [t]))",
            "the loop passes `x` to `map`, which may change it",
        ),
        ("x = np.zeros(3)\ndef refill(v):\n    x[:] = v", "refill(t)", "`refill` changes `x`"),
        # left alone
        ("x = np.zeros(3)", "y = reads(x) + len(x) + np.sum(x) + x.mean()", None),
        ("x = np.zeros(3)", "y = jnp.asarray(x) + np.multiply(x, 2.0) + np.clip(x, 0, 1)", None),
        ("x = np.zeros(3)", "w = step(data, x)", None),  # jitted: the argument is copied
        ("x = np.zeros(3)\nreset = SRC.fill", "reset(t)", None),  # another array's method
        ("x = np.zeros(3)", "x2 = x + 1.0", None),
    ],
)
def test_change_reason(setup: str, body: str, why: str | None) -> None:
    assert reason(setup, body) == why


def test_a_class_attribute_refilled_by_a_method() -> None:
    why = reason("pass", "Cfg.refill(t)\ny = jnp.asarray(Cfg.BUF)", "Cfg")
    assert why == "`Cfg.refill(t)` may change `Cfg` in place"


def test_a_parameter_holding_a_global_a_helper_refills() -> None:
    code = (
        "FRAME = np.zeros(3)\n\ndef capture():\n    FRAME[:] = 1.0\n\n"
        "def run(frame):\n    for t in range(3):\n        capture()\n"
        "        y = jnp.asarray(frame)\n\n"
        "def main():\n    run(FRAME)\n"
    )
    ctx = context(code, HEADER)
    assert change_reason(ctx, loop(ctx), {"frame"}) == "`capture` changes `FRAME`"


def test_unseen_code_reaches_globals_and_escaped_closures_not_locals() -> None:
    local = "def main():\n    x = np.zeros(3)\n    for t in range(3):\n        tick()\n"
    ctx = context(local, HEADER)
    assert change_reason(ctx, loop(ctx), {"x"}) is None
    escaped = local.replace(
        "    for", "    def get():\n        return x\n    register(get)\n    for"
    )
    ctx = context(escaped, HEADER)
    assert change_reason(ctx, loop(ctx), {"x"}) == (
        "the loop calls `tick`, code autoopt cannot see, which may change `x`"
    )
    ctx = context("x = np.zeros(3)\nfor t in range(3):\n    tick()\n", HEADER)
    assert change_reason(ctx, loop(ctx), {"x"}) == (
        "the loop calls `tick`, code autoopt cannot see, which may change `x`"
    )


def test_a_writer_used_as_a_value_may_run_at_any_time() -> None:
    """A thread's target, a callback: it needs no call from the loop."""
    code = (
        "def main():\n    x = np.zeros(3)\n    def refill():\n        x[:] = 1.0\n"
        "    threading.Thread(target=refill).start()\n"
        "    for t in range(3):\n        y = jnp.asarray(x)\n"
    )
    ctx = context(code, HEADER)
    assert change_reason(ctx, loop(ctx), {"x"}) == "`refill` changes `x`"


@pytest.mark.parametrize(
    ("bind", "callee"),
    [
        ("refill, x = make()", "refill"),
        ("x, refill = make()", "refill"),
        ("(refill, _), x = make(), 0", "refill"),
        ("refill, [x] = make()", "refill"),
    ],
)
def test_a_closure_unpacked_beside_the_buffer_it_refills(bind: str, callee: str) -> None:
    """A factory returns a closure and the buffer it refills (blind h1853): the parts of
    one unpacked value may hold each other's objects."""
    code = (
        "def make():\n    buf = np.zeros(3)\n    def refill():\n        buf[:] = 1.0\n"
        "    return refill, buf\n\n"
        f"def main():\n    {bind}\n    for t in range(3):\n        {callee}()\n"
        "        y = jnp.asarray(x)\n"
    )
    ctx = context(code, HEADER)
    assert change_reason(ctx, loop(ctx), {"x"}) == HOLDS.format(callee=callee, name="x")


def test_a_closure_bound_apart_from_the_buffer_holds_nothing_of_it() -> None:
    code = (
        "def make():\n    buf = np.zeros(3)\n    def refill():\n        buf[:] = 1.0\n"
        "    return refill\n\n"
        "def main():\n    refill = make()\n    x = np.zeros(3)\n    for t in range(3):\n"
        "        refill()\n        y = jnp.asarray(x)\n"
    )
    ctx = context(code, HEADER)
    assert change_reason(ctx, loop(ctx), {"x"}) is None


def test_a_generator_unpacked_beside_the_buffer_it_fills() -> None:
    code = (
        "def make():\n    buf = np.zeros(3)\n    def gen():\n        while True:\n"
        "            buf[:] = 1.0\n            yield 0\n    return gen(), buf\n\n"
        "def main():\n    batches, x = make()\n    for t in range(3):\n"
        "        next(batches)\n        y = jnp.asarray(x)\n"
    )
    ctx = context(code, HEADER)
    assert change_reason(ctx, loop(ctx, 1), {"x"}) == (
        "the loop iterates `batches`, which may hold `x` (a generator or an iterator of it) "
        "and change it"
    )


def test_iterating_a_generator_made_before_the_loop() -> None:
    code = (
        "def batches(buf):\n    while True:\n        buf[:] = 1.0\n        yield 0\n\n"
        "def main():\n    x = np.zeros(3)\n    gen = batches(x)\n"
        "    for _, _ in zip(range(3), gen):\n        y = jnp.asarray(x)\n"
    )
    ctx = context(code, HEADER)
    assert change_reason(ctx, loop(ctx, 1), {"x"}) == (
        "the loop iterates `gen`, which may hold `x` (a generator or an iterator of it) and "
        "change it"
    )


def test_a_generator_the_loop_iterates_runs_every_step() -> None:
    code = (
        "def batches(buf):\n    for i in range(3):\n        buf[:] = i\n        yield i\n\n"
        "def main():\n    x = np.zeros(3)\n    for i in batches(x):\n        y = jnp.asarray(x)\n"
    )
    ctx = context(code, HEADER)
    assert change_reason(ctx, loop(ctx, 1), {"x"}) == (
        "the loop passes `x` to `batches`, which may change it"
    )


def test_a_helper_of_another_file_of_the_project(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "render.py").write_text(
        "import numpy as np\n\nFRAME = np.zeros(3)\n\ndef capture():\n    FRAME[:] = 1.0\n\n"
        "def into(frame):\n    np.clip(frame, 0.0, 1.0, frame)\n"
    )
    main = tmp_path / "main.py"
    code = (
        "import jax.numpy as jnp\nimport numpy as np\nfrom render import FRAME, capture, into\n\n"
        "def main():\n    x = np.zeros(3)\n    for t in range(3):\n        into(x)\n"
        "        capture()\n        y = jnp.asarray(x) + jnp.asarray(FRAME)\n"
    )
    main.write_text(code)
    ctx = ModuleContext(str(main), code, cst.parse_module(code))
    assert (
        change_reason(ctx, loop(ctx), {"x"}) == "the loop passes `x` to `into`, which may change it"
    )
    assert change_reason(ctx, loop(ctx), {"FRAME"}) == "`capture` changes `FRAME`"


@pytest.mark.parametrize(
    ("expr", "kept"),
    [
        ("row", {"row"}),
        ("row[None]", {"row"}),
        ("obj.buf[0]", {"obj"}),
        ("[row, w]", {"row"}),  # `w` is a JAX array: it never changes
        ("row * 2.0", set()),  # arithmetic on an array makes a new one
        ("rows * 2", {"row"}),  # on a list it holds its elements
        ("jnp.asarray(row)", set()),  # copied to the device
        ("row.mean()", set()),
        ("row.reshape(3)", {"row"}),  # may be a view
        ("1.0", set()),
    ],
)
def test_kept_objects(expr: str, kept: set[str]) -> None:
    code = (
        "def f(obj):\n    row = np.zeros(3)\n    rows = [row]\n    w = jnp.ones(3)\n"
        f"    y = {expr}\n"
    )
    ctx = context(code, HEADER)
    at = stmt(ctx, f"y = {expr}")
    assert kept_objects(ctx, at, at.node.value) == kept  # type: ignore[attr-defined]


READER = """
def main(w):
    SETUP
    losses = []
    for t in range(3):
        losses.append(float(w))
        BODY
    return losses
"""


@pytest.mark.parametrize(
    ("setup", "body", "why"),
    [
        (
            "def check():\n        return losses[-1]",
            "check()",
            "the function `check` reads `losses`",
        ),
        (
            "def check():\n        return losses[-1]",
            "hooks[0]()",
            "the function `check` reads `losses`",
        ),
        ("def check():\n        return losses[-1]", "pass", None),  # never runs in the loop
        (
            "def check():\n        return losses[-1]",
            "run(check)",
            "the function `check` reads `losses`",
        ),
        (
            "peek = lambda: losses[-1]",
            "pass",
            "a lambda or generator expression reads `losses` when it runs",
        ),
        ("pass", "print(globals())", "`globals()` may read `losses`"),
        ("def check():\n        return 1", "check()", None),
        (
            "def check():\n        return losses[-1]\n    threading.Thread(target=check).start()",
            "pass",
            "the function `check` reads `losses`",  # a thread's target: it runs any time
        ),
        (
            "class Monitor:\n        def __call__(self):\n            return losses[-1]\n"
            "    monitor = Monitor()",
            "monitor()",
            "the function `__call__` reads `losses`",  # a method of a class in the function
        ),
        ("def other():\n        losses = [1]\n        return losses", "other()", None),
    ],
)
def test_late_reader(setup: str, body: str, why: str | None) -> None:
    code = READER.replace("SETUP", setup).replace("BODY", body)
    if "hooks" in body:
        code = code.replace("    losses = []", "    hooks = [check]\n    losses = []")
    ctx = context(code, HEADER)
    assert late_reader(ctx, loop(ctx), "losses") == why


def test_a_method_reading_a_global_runs_when_the_loop_calls_unseen_code() -> None:
    code = (
        "class Monitor:\n    def __call__(self):\n        return history[-1]\n\n"
        "monitor = Monitor()\nhistory = []\n"
        "for t in range(3):\n    history.append(t)\n    monitor()\n"
    )
    ctx = context(code, HEADER)
    assert late_reader(ctx, loop(ctx), "history") == "the function `__call__` reads `history`"


@pytest.mark.parametrize(
    ("code", "found"),
    [
        ("for i in range(3):\n    jax.config.update('jax_enable_x64', True)\n", "changes JAX's"),
        (
            "def refine():\n    jax.config.update('jax_enable_x64', True)\n"
            "for i in range(3):\n    refine()\n",
            "`refine` runs `jax.config.update('jax_enable_x64', True)` changes JAX's",
        ),
        ("for i in range(3):\n    y = jnp.asarray(np.ones(3))\n", None),
        ("def helper():\n    return 1\nfor i in range(3):\n    helper()\n", None),
    ],
)
def test_config_writer(code: str, found: str | None) -> None:
    ctx = context(code, HEADER)
    reason = mutation.config_writer(ctx, loop(ctx))
    assert (reason is None) if found is None else (reason is not None and found in reason)
