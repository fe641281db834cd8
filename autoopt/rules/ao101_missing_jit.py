"""AO101 missing-jit."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from autoopt.analysis import purity, tracing
from autoopt.analysis.callsites import ArgKind, argument_for, classify
from autoopt.analysis.context import ModuleContext
from autoopt.analysis.graph import CallSite, Function
from autoopt.model import Applicability, Edit, Finding, InsertBefore, Replace
from autoopt.rewrite.jit import add_decorator, fresh_name, jit_call, jit_decorator
from autoopt.rules.base import Invalid, Rule, Valid

#: Calls that hand a function to code that pickles it or runs it elsewhere.
_PICKLING = ("pickle.", "cloudpickle.", "multiprocessing.", "concurrent.futures.", "ray.")
_PICKLING_METHODS = frozenset({"map", "imap", "starmap", "submit", "apply_async", "remote"})
_NONE = Applicability.NONE


class MissingJit(Rule):
    """
    ## What it does
    Finds a pure array function that is called over and over (in a loop, or in a
    comprehension) without `jax.jit`, and decorates it with `@jax.jit`. Arguments
    the body needs as Python values (shapes such as `jnp.zeros(n)`, `range(n)`,
    `if` conditions, slice bounds) become `static_argnames`.

    ## Why is this bad?
    Without `jit`, JAX dispatches every operation on its own, from Python, one
    at a time. Compiled, the whole function runs as one fused XLA program.
    Measured on a 2-core CPU: an MLP training step went 4-5x faster, a chain of
    small elementwise operations 13-24x.

    ## Example
    ```python
    def step(u, alpha):
        return u + alpha * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))

    for _ in range(1000):
        u = step(u, 0.1)
    ```
    becomes
    ```python
    @jax.jit
    def step(u, alpha):
        ...
    ```

    ## Fix safety
    The fix is **safe** when autoopt proves the function pure: no `print`, I/O,
    logging, global or argument mutation, host random numbers (`np.random`,
    `random`), `self` state or calls to code it cannot see; no Python control
    flow on traced values; and every static argument receives a hashable
    constant at every call site. It is **unsafe** when a static argument's value
    cannot be proven constant. There is **no fix** (the finding explains why)
    when the function is impure, branches in Python on an array, returns a
    Python value, or a static argument changes on every call (it would compile
    again on every call). A function handed to pickling or multiprocessing keeps
    its plain definition and is wrapped at the loop instead. Results agree with
    the original within float tolerance: XLA fuses and reorders float
    operations, so jitted code is not bit-identical.
    """

    id = "AO101"
    name = "missing-jit"
    summary = "Pure array function called repeatedly without jax.jit"

    VALID = (
        Valid(
            """
import jax

@jax.jit
def step(x):
    return x * 2

for _ in range(3):
    x = step(x)
""",
            "already jitted",
        ),
        Valid(
            """
import jax.numpy as jnp

def step(x):
    return jnp.sin(x)

y = step(jnp.ones(3))
""",
            "called once, not in a loop",
        ),
        Valid(
            """
import jax
import jax.numpy as jnp

def loss(w, x):
    return jnp.sum((x @ w) ** 2)

grad = jax.grad(loss)
for _ in range(3):
    w = w - 0.1 * grad(w, x)
""",
            "only passed to jax.grad",
        ),
        Valid(
            """
import jax.numpy as jnp

def batches(x):
    for i in range(0, len(x), 8):
        yield jnp.asarray(x[i : i + 8])

for _ in range(3):
    for b in batches(data):
        pass
""",
            "a generator",
        ),
        Valid(
            """
import jax.numpy as jnp

async def fetch(x):
    return jnp.sin(x)

async def main(xs):
    for x in xs:
        await fetch(x)
""",
            "an async function",
        ),
        Valid(
            """
import jax.numpy as jnp

class Model:
    def __init__(self):
        self.scale = 2.0

    def apply(self, x):
        return jnp.tanh(x) * self.scale

    def run(self, xs):
        return [self.apply(x) for x in xs]
""",
            "a method using self state",
        ),
        Valid(
            """
import numpy as np

def step(x):
    return np.sin(x)

for _ in range(3):
    x = step(x)
""",
            "no JAX in the function",
        ),
        Valid(
            """
import jax
import jax.numpy as jnp

def step(x):
    return jnp.sin(x)

fast = jax.jit(step)
for _ in range(3):
    x = fast(x)
""",
            "wrapped with jax.jit elsewhere",
        ),
    )

    INVALID = (
        Invalid(
            """
import jax.numpy as jnp

def step(u, alpha):
    return u + alpha * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))

for _ in range(100):
    u = step(u, 0.1)
""",
            """
import jax
import jax.numpy as jnp

@jax.jit
def step(u, alpha):
    return u + alpha * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))

for _ in range(100):
    u = step(u, 0.1)
""",
        ),
        Invalid(
            """
import jax
from jax import numpy as jnp

def init(key, n):
    return jax.random.normal(key, (n,)) + jnp.zeros(n)

keys = jax.random.split(jax.random.PRNGKey(0), 4)
xs = [init(k, 8) for k in keys]
""",
            """
import jax
from jax import numpy as jnp
import functools

@functools.partial(jax.jit, static_argnames=("n",))
def init(key, n):
    return jax.random.normal(key, (n,)) + jnp.zeros(n)

keys = jax.random.split(jax.random.PRNGKey(0), 4)
xs = [init(k, 8) for k in keys]
""",
        ),
        Invalid(
            """
import jax as J
import jax.numpy as jnp
from functools import partial

def unroll(x, steps):
    for _ in range(steps):
        x = jnp.tanh(x)
    return x

for i in range(5):
    x = unroll(x, 3)
""",
            """
import jax as J
import jax.numpy as jnp
from functools import partial

@partial(J.jit, static_argnames=("steps",))
def unroll(x, steps):
    for _ in range(steps):
        x = jnp.tanh(x)
    return x

for i in range(5):
    x = unroll(x, 3)
""",
        ),
        Invalid(
            """
from jax import jit
import jax.numpy as jnp

def predict(w, x):
    # a linear model
    return jnp.dot(x, w)  # keep this comment

for x in xs:
    y = predict(w, x)
""",
            """
from jax import jit
import jax.numpy as jnp

@jit
def predict(w, x):
    # a linear model
    return jnp.dot(x, w)  # keep this comment

for x in xs:
    y = predict(w, x)
""",
        ),
        Invalid(
            """
import jax.numpy as jnp

def head(x, k):
    return jnp.abs(x[:k])

def main(x, k):
    while True:
        x = head(x, k)
""",
            """
import jax
import jax.numpy as jnp
import functools

@functools.partial(jax.jit, static_argnames=("k",))
def head(x, k):
    return jnp.abs(x[:k])

def main(x, k):
    while True:
        x = head(x, k)
""",
            fix=Applicability.UNSAFE,
            message="cannot prove",
        ),
        Invalid(
            """
import multiprocessing
import jax.numpy as jnp

def work(x):
    return jnp.cos(x) ** 2

def main(xs):
    with multiprocessing.Pool(2) as pool:
        pool.map(work, xs)
    for x in xs:
        y = work(x)
""",
            """
import multiprocessing
import jax
import jax.numpy as jnp

def work(x):
    return jnp.cos(x) ** 2

def main(xs):
    with multiprocessing.Pool(2) as pool:
        pool.map(work, xs)
    work_jit = jax.jit(work)
    for x in xs:
        y = work_jit(x)
""",
        ),
        Invalid(
            """
import jax.numpy as jnp

def step(x):
    print("step", x)
    return jnp.tanh(x) * 2

for _ in range(3):
    x = step(x)
""",
            fix=_NONE,
            message="prints",
        ),
        Invalid(
            """
import jax.numpy as jnp

count = 0

def step(x):
    global count
    count += 1
    return jnp.tanh(x)

for _ in range(3):
    x = step(x)
""",
            fix=_NONE,
            message="writes the global `count`",
        ),
        Invalid(
            """
import jax.numpy as jnp

history = []

def step(x):
    history.append(x)
    return jnp.tanh(x)

for _ in range(3):
    x = step(x)
""",
            fix=_NONE,
            message="mutates `history`",
        ),
        Invalid(
            """
import numpy as np
import jax.numpy as jnp

def step(x):
    noise = np.random.normal(size=x.shape)
    return x + jnp.asarray(noise)

for _ in range(3):
    x = step(x)
""",
            fix=_NONE,
            message="host random numbers",
        ),
        Invalid(
            """
import jax.numpy as jnp

def step(x):
    if jnp.max(x) > 1.0:
        return x / 2
    return x * 2

for _ in range(3):
    x = step(x)
""",
            fix=_NONE,
            message="`if` condition depends on the array argument `x`",
        ),
        Invalid(
            """
import jax.numpy as jnp

def grow(x, n):
    return jnp.concatenate([x, jnp.zeros(n)])

for i in range(10):
    x = grow(x, i)
""",
            fix=_NONE,
            message="recompile",
        ),
        Invalid(
            """
import jax.numpy as jnp

def describe(x):
    return f"mean={jnp.mean(x)}"

for x in xs:
    s = describe(x)
""",
            fix=_NONE,
            message="not an array",
        ),
    )

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        transformed = _transformed_names(ctx)
        for fn in ctx.graph.functions.values():
            sites = [s for s in ctx.graph.call_sites(fn) if s.in_loop and not _in_jit(ctx, s)]
            if sites and _is_candidate(ctx, fn, transformed):
                yield self._finding(ctx, fn, sites)

    def _finding(self, ctx: ModuleContext, fn: Function, sites: list[CallSite]) -> Finding:
        where = f"`{fn.name}` is called in a loop without `jax.jit`"
        reasons = purity.impurities(ctx, fn) + [
            f"reads `{n}`, which the module changes (jit would freeze it)"
            for n in purity.reads_module_state(ctx, fn)
        ]
        if reasons:
            return self._none(ctx, fn, f"{where}, but it is not pure: it {reasons[0]}")
        facts = tracing.analyse(ctx, fn)
        if facts.traced_control:
            return self._none(
                ctx, fn, f"{where}, but {facts.traced_control[0]}; use lax.cond/jnp.where"
            )
        if not _returns_array(fn, facts, ctx):
            return self._none(ctx, fn, f"{where}, but it returns a Python value, not an array")
        static = [p for p in fn.params if p in facts.static]
        problem, fix = _static_problem(ctx, fn, static)
        if problem:
            return self._none(ctx, fn, f"{where}, but {problem}")
        return self._fix(ctx, fn, sites, static, facts, fix, where)

    def _fix(self, ctx, fn, sites, static, facts, fix, where) -> Finding:
        if _escapes_to_pickling(ctx, fn):
            edits = _wrap_at_loops(ctx, fn, sites, static)
            how = "wrap it with `jax.jit` before the loop (it is also pickled, so keep `def` plain)"
        else:
            text, imports = jit_decorator(ctx, static)
            edits = [Replace(fn.node, add_decorator(ctx, text)), *imports]
            how = f"add `@{text}`"
        why = "; ".join(f"`{p}` is needed as a Python value ({facts.static[p]})" for p in static)
        note = f" ({why})" if why else ""
        if fix is Applicability.UNSAFE:
            note += "; cannot prove every call passes a hashable constant for the static arguments"
        title = "Add @jax.jit" + (f" (static: {', '.join(static)})" if static else "")
        return self.finding(
            ctx, fn.node.name, f"{where}: {how}{note}", fix, edits, target=fn.name, title=title
        )

    def _none(self, ctx: ModuleContext, fn: Function, message: str) -> Finding:
        return self.finding(ctx, fn.node.name, message, _NONE, target=fn.name)


def _transformed_names(ctx: ModuleContext) -> set[str]:
    """Function names wrapped by `jax.jit(f)` anywhere in the module."""
    names = set()
    for stmt in ctx.graph.stmts:
        for call in stmt.calls:
            if ctx.is_jax(call.func, "jax.jit", "jax.pmap") and call.args:
                first = call.args[0].value
                if isinstance(first, cst.Name):
                    names.add(first.value)
    return names


def _is_candidate(ctx: ModuleContext, fn: Function, transformed: set[str]) -> bool:
    node = fn.node
    if fn.is_method or node.asynchronous is not None or node.decorators:
        return False
    if fn.name in transformed or not _uses_jax(ctx, fn):
        return False
    return not purity.is_generator(fn)


def _uses_jax(ctx: ModuleContext, fn: Function) -> bool:
    return any(
        (ctx.imports.bindings.get(name) or "").startswith("jax")
        for stmt in ctx.graph.scope_stmts(fn.qualname)
        for name in stmt.uses
    )


def _in_jit(ctx: ModuleContext, site: CallSite) -> bool:
    """A call inside a function that is itself jitted is compiled with it."""
    caller = ctx.graph.functions.get(site.stmt.scope)
    return caller is not None and any(
        "jit" in ctx.code(d.decorator) for d in caller.node.decorators
    )


def _returns_array(fn: Function, facts: tracing.TraceFacts, ctx: ModuleContext) -> bool:
    returns = [s.node for s in ctx.graph.scope_stmts(fn.qualname) if isinstance(s.node, cst.Return)]
    if not returns:
        return False
    for ret in returns:
        value = ret.value
        if value is None or isinstance(value, cst.FormattedString | cst.SimpleString):
            return False
        names = tracing.dynamic_names(value)
        calls_jax = "jax" in ctx.code(value) or any(
            (ctx.imports.bindings.get(n) or "").startswith("jax") for n in names
        )
        if not (names & facts.traced or calls_jax):
            return False
    return True


def _static_problem(
    ctx: ModuleContext, fn: Function, static: list[str]
) -> tuple[str, Applicability]:
    """Why the static arguments cannot work, or "" and how safe the fix is."""
    fix = Applicability.SAFE
    star = fn.node.params.star_arg
    if static and isinstance(star, cst.Param):
        return "its static arguments follow `*args`", _NONE
    for name in static:
        index = fn.params.index(name)
        for site in ctx.graph.call_sites(fn):
            expr = argument_for(site, index, name)
            if expr is None:
                fix = Applicability.UNSAFE
                continue
            kind = classify(ctx, site, expr)
            if kind is ArgKind.VARYING:
                return (
                    f"`{name}` must be static and changes on every iteration "
                    f"(`{ctx.code(expr)}`): jit would recompile on every call",
                    _NONE,
                )
            if kind is ArgKind.UNHASHABLE:
                return (
                    f"`{name}` must be static and receives an unhashable value; pass a tuple",
                    _NONE,
                )
            if kind is ArgKind.ARRAY:
                return f"`{name}` is needed as a Python value but receives an array", _NONE
            if kind is ArgKind.UNKNOWN:
                fix = Applicability.UNSAFE
    return "", fix


def _escapes_to_pickling(ctx: ModuleContext, fn: Function) -> bool:
    for stmt in ctx.graph.references(fn.name):
        for call in stmt.calls:
            passed = any(
                isinstance(a.value, cst.Name) and a.value.value == fn.name for a in call.args
            )
            if not passed:
                continue
            qual = ctx.qualify(call.func) or ""
            method = call.func.attr.value if isinstance(call.func, cst.Attribute) else ""
            if qual.startswith(_PICKLING) or method in _PICKLING_METHODS:
                return True
    return False


def _wrap_at_loops(
    ctx: ModuleContext, fn: Function, sites: list[CallSite], static: list[str]
) -> list[Edit]:
    """`f_jit = jax.jit(f)` before each outermost loop, and the calls renamed."""
    name = fresh_name(ctx, f"{fn.name}_jit")
    text, imports = jit_call(ctx, fn.name, static)
    edits: list[Edit] = list(imports)
    anchors = []
    for site in sites:
        loop = ctx.graph.loops[site.stmt.loops[0]] if site.stmt.loops else None
        anchor = loop.node if loop is not None else site.stmt.anchor
        if anchor not in anchors:
            anchors.append(anchor)
        edits.append(Replace(site.call.func, lambda _node, n=name: cst.Name(n)))
    for anchor in anchors:
        edits.append(InsertBefore(anchor, (cst.parse_statement(f"{name} = {text}\n"),)))
    return edits
