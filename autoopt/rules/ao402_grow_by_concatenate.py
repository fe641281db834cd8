"""AO402 grow-by-concatenate."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis import loops
from autoopt.analysis.blocks import Blocks, collect_blocks
from autoopt.analysis.context import ModuleContext
from autoopt.analysis.exprs import read_names
from autoopt.analysis.graph import Loop, Stmt
from autoopt.model import (
    Applicability,
    Edit,
    Finding,
    InsertAfter,
    InsertBefore,
    Replace,
    RequireImport,
)
from autoopt.rewrite.jit import fresh_name
from autoopt.rewrite.spell import spell
from autoopt.rules.base import Invalid, Rule, Valid

_JOINS = ("jax.numpy.concatenate", "jax.numpy.vstack", "jax.numpy.hstack")
_APPEND = "jax.numpy.append"


@dataclass(frozen=True)
class _Growth:
    """`acc = join([acc, *pieces], *rest)`, as found in the loop."""

    acc: str
    pieces: tuple[str, ...]  # code of each appended piece
    first: str  # code of the first list element (`acc`, or `jnp.ravel(acc)`)
    join: str  # code of the call that joins the list after the loop, `{}` for the list
    flattens: bool = False  # `jnp.append` without axis
    imports: tuple[RequireImport, ...] = ()


class GrowByConcatenate(Rule):
    """
    ## What it does
    Finds an accumulator grown inside a loop by `jnp.concatenate`, `jnp.vstack`,
    `jnp.hstack` or `jnp.append` and collects the pieces in a Python list
    instead, joining them with one call after the loop.

    ## Why is this bad?
    Each growth step copies the whole accumulator, so the loop does quadratic
    work, and outside `jit` every new length is a new shape: JAX compiles the
    concatenation again on every iteration (measured: 8.6 s of compiles to
    build 200 rows). One join of a list copies every row once and compiles once
    (measured: 34.7 ms to 1.07 ms steady state, 8.6 s to 0.26 s first call).
    Outside `jit`, preallocating and writing rows with `dynamic_update_slice`
    is *slower* than this (every eager update copies the buffer), so the list
    is the rewrite autoopt makes.

    ## Example
    ```python
    out = jnp.zeros((0, 3))
    for t in range(steps):
        out = jnp.concatenate([out, row(t)[None]])
    ```
    becomes
    ```python
    out = jnp.zeros((0, 3))
    out_parts = [out]
    for t in range(steps):
        out_parts.append(row(t)[None])
    out = jnp.concatenate(out_parts)
    ```

    ## Fix safety
    Joining once gives the same array as joining step by step: same values,
    shape and dtype (type promotion is associative), and an empty loop leaves
    the initial value. The fix is **safe** when the growth statement is the
    only write of the accumulator in the loop, nothing else in the loop (nor
    a function it calls) reads it, and the loop has no `else` and sits in no
    `try` (an exception would leave the accumulator un-joined). It is
    **unsafe** for `jnp.append` without `axis`, which flattens: the rewrite
    flattens the initial value too, which differs when the loop never runs
    and the initial value is not 1-D. There is **no fix** when the loop reads
    the accumulator (then every intermediate value is needed).
    """

    id = "AO402"
    name = "grow-by-concatenate"
    summary = "an accumulator grown with jnp.concatenate/append/vstack/hstack in a loop"

    VALID = (
        Valid(
            """
import jax.numpy as jnp

out = jnp.concatenate([a, b])
""",
            "not in a loop",
        ),
        Valid(
            """
import numpy as np

for t in range(10):
    out = np.concatenate([out, row[None]])
""",
            "numpy, not jax",
        ),
        Valid(
            """
import jax.numpy as jnp

for t in range(10):
    out = jnp.concatenate([row[None], out])
""",
            "prepending, not growing at the end",
        ),
        Valid(
            """
import jax.numpy as jnp

for t in range(10):
    y = jnp.concatenate([x, row[None]])
""",
            "not an accumulator: `x` does not change",
        ),
        Valid(
            """
import jax.numpy as jnp

for t in range(10):
    out = jnp.concatenate([out, *rows])
""",
            "a starred piece",
        ),
        Valid(
            """
import jax.numpy as jnp

parts = [out]
for t in range(10):
    parts.append(row)
out = jnp.concatenate(parts)
""",
            "already collected in a list",
        ),
    )

    INVALID = (
        Invalid(
            """
import jax.numpy as jnp

out = jnp.zeros((0, 3))
for t in range(10):
    out = jnp.concatenate([out, jnp.ones((1, 3)) * t])
""",
            """
import jax.numpy as jnp

out = jnp.zeros((0, 3))
out_parts = [out]
for t in range(10):
    out_parts.append(jnp.ones((1, 3)) * t)
out = jnp.concatenate(out_parts)
""",
        ),
        Invalid(
            """
import jax.numpy as jnp

def history(xs):
    hist = xs[:1]
    for x in xs:
        y = jnp.tanh(x)
        hist = jnp.concatenate((hist, y[None]), axis=0)
    return hist
""",
            """
import jax.numpy as jnp

def history(xs):
    hist = xs[:1]
    hist_parts = [hist]
    for x in xs:
        y = jnp.tanh(x)
        hist_parts.append(y[None])
    hist = jnp.concatenate(hist_parts, axis=0)
    return hist
""",
        ),
        Invalid(
            """
import jax.numpy as jnp

for t in range(5):
    acc = jnp.vstack([acc, row])
""",
            """
import jax.numpy as jnp

acc_parts = [acc]
for t in range(5):
    acc_parts.append(row)
acc = jnp.vstack(acc_parts)
""",
        ),
        Invalid(
            """
import jax.numpy as np

for t in range(5):
    acc = np.hstack([acc, v, w])
""",
            """
import jax.numpy as np

acc_parts = [acc]
for t in range(5):
    acc_parts.extend((v, w))
acc = np.hstack(acc_parts)
""",
        ),
        Invalid(
            """
import jax.numpy as jnp

def run(x, n):
    trace = jnp.zeros((0, 2))
    for i in range(n):
        x = x * 0.5
        trace = jnp.append(trace, x[None], axis=0)
    return x, trace
""",
            """
import jax.numpy as jnp

def run(x, n):
    trace = jnp.zeros((0, 2))
    trace_parts = [trace]
    for i in range(n):
        x = x * 0.5
        trace_parts.append(x[None])
    trace = jnp.concatenate(trace_parts, axis=0)
    return x, trace
""",
        ),
        Invalid(
            """
import jax

def run(x, n):
    out = x[None]
    while n > 0:
        n -= 1
        if n % 2:
            out = jax.numpy.concatenate([out, x[None] * n], 0)
    return out
""",
            """
import jax

def run(x, n):
    out = x[None]
    out_parts = [out]
    while n > 0:
        n -= 1
        if n % 2:
            out_parts.append(x[None] * n)
    out = jax.numpy.concatenate(out_parts, 0)
    return out
""",
        ),
        Invalid(
            """
from jax.numpy import concatenate

for epoch in range(3):
    losses = []
    for b in batches:
        log = concatenate([log, b.mean()[None]])
""",
            """
from jax.numpy import concatenate

for epoch in range(3):
    losses = []
    log_parts = [log]
    for b in batches:
        log_parts.append(b.mean()[None])
    log = concatenate(log_parts)
""",
        ),
        Invalid(
            """
import jax.numpy as jnp

vals = jnp.array([])
for t in range(4):
    vals = jnp.append(vals, t * 2.0)
""",
            """
import jax.numpy as jnp

vals = jnp.array([])
vals_parts = [jnp.ravel(vals)]
for t in range(4):
    vals_parts.append(jnp.ravel(t * 2.0))
vals = jnp.concatenate(vals_parts)
""",
            fix=Applicability.UNSAFE,
            message="flattens",
        ),
        Invalid(
            """
import jax.numpy as jnp

for t in range(10):
    out = jnp.concatenate([out, row[None]])
    print(out.shape)
""",
            fix=Applicability.NONE,
            message="the loop reads `out`",
        ),
        Invalid(
            """
import jax.numpy as jnp

while out.shape[0] < 10:
    out = jnp.concatenate([out, row[None]])
""",
            fix=Applicability.NONE,
            message="the loop reads `out`",
        ),
        Invalid(
            """
import jax.numpy as jnp

for t in range(10):
    out = jnp.concatenate([out, out[-1:] + 1])
""",
            fix=Applicability.NONE,
            message="the loop reads `out`",
        ),
        Invalid(
            """
import jax.numpy as jnp

for t in range(10):
    out = jnp.concatenate([out, row[None]])
else:
    done(out)
""",
            fix=Applicability.NONE,
            message="`else`",
        ),
        Invalid(
            """
import jax.numpy as jnp

try:
    for t in range(10):
        out = jnp.concatenate([out, step(t)])
except ValueError:
    pass
""",
            fix=Applicability.NONE,
            message="`try`",
        ),
        Invalid(
            """
import jax.numpy as jnp

def last():
    return out[-1]

for t in range(10):
    out = jnp.concatenate([out, last()[None]])
""",
            fix=Applicability.NONE,
            message="`last` reads `out`",
        ),
        Invalid(
            """
import jax.numpy as jnp

for t in range(10):
    out = jnp.concatenate([out, row[None]])
    if t == 5:
        out = out[:1]
""",
            fix=Applicability.NONE,
            message="also written elsewhere",
        ),
    )

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        blocks: Blocks | None = None
        for stmt in ctx.graph.stmts:
            growth = _growth(ctx, stmt) if stmt.loops else None
            if growth is not None:
                blocks = blocks or collect_blocks(ctx.module)
                yield self._finding(ctx, blocks, stmt, growth)

    def _finding(self, ctx: ModuleContext, blocks: Blocks, stmt: Stmt, g: _Growth) -> Finding:
        loop = ctx.graph.loops[stmt.loops[-1]]
        node = stmt.node.value  # type: ignore[attr-defined]
        where = (
            f"`{g.acc}` grows by `{ctx.code(node.func)}` on every iteration of the loop at "
            f"line {ctx.span(loop.node).line}: each step copies the whole array (quadratic) and, "
            "outside jit, compiles a new shape"
        )
        problem = _problem(ctx, blocks, stmt, loop, g.acc)
        if problem:
            return self.finding(ctx, node, f"{where}; not rewritten: {problem}", Applicability.NONE)
        message = f"{where}: collect the pieces in a list and join them once after the loop"
        fix = Applicability.SAFE
        if g.flattens:
            fix = Applicability.UNSAFE
            message += (
                "; `jnp.append` without `axis` flattens, and the rewrite flattens the initial "
                "value too, which differs if the loop never runs and it is not 1-D"
            )
        title = "Collect the pieces in a list and join once"
        return self.finding(ctx, node, message, fix, _edits(ctx, stmt, loop, g), title=title)


def _growth(ctx: ModuleContext, stmt: Stmt) -> _Growth | None:
    node = stmt.node
    if not (
        isinstance(node, cst.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0].target, cst.Name)
        and isinstance(node.value, cst.Call)
        and len(stmt.anchor.body) == 1  # type: ignore[attr-defined]
    ):
        return None
    acc, call = node.targets[0].target.value, node.value
    if ctx.is_jax(call.func, *_JOINS):
        return _join_growth(ctx, acc, call)
    if ctx.is_jax(call.func, _APPEND):
        return _append_growth(ctx, acc, call)
    return None


def _join_growth(ctx: ModuleContext, acc: str, call: cst.Call) -> _Growth | None:
    if not call.args or call.args[0].keyword is not None:
        return None
    seq = call.args[0].value
    if not isinstance(seq, cst.List | cst.Tuple) or len(seq.elements) < 2:
        return None
    first, *rest = seq.elements
    if not _is_name(first.value, acc) or any(isinstance(e, cst.StarredElement) for e in rest):
        return None
    others = "".join(f", {_code(a)}" for a in call.args[1:])
    join = f"{ctx.code(call.func)}({{}}{others})"
    return _Growth(acc, tuple(_code(e.value) for e in rest), acc, join)


def _append_growth(ctx: ModuleContext, acc: str, call: cst.Call) -> _Growth | None:
    args = {a.keyword.value if a.keyword else ("arr", "values", "axis")[i]: a.value
            for i, a in enumerate(call.args)}  # fmt: skip
    if set(args) - {"arr", "values", "axis"} or not {"arr", "values"} <= set(args):
        return None
    if not _is_name(args["arr"], acc):
        return None
    concatenate, imports = spell(ctx, "jax.numpy.concatenate")
    if "axis" in args:
        join = f"{concatenate}({{}}, axis={_code(args['axis'])})"
        return _Growth(acc, (_code(args["values"]),), acc, join, imports=imports)
    ravel, more = spell(ctx, "jax.numpy.ravel")
    piece = f"{ravel}({_code(args['values'])})"
    first, join = f"{ravel}({acc})", f"{concatenate}({{}})"
    return _Growth(acc, (piece,), first, join, flattens=True, imports=imports + more)


def _problem(ctx: ModuleContext, blocks: Blocks, stmt: Stmt, loop: Loop, acc: str) -> str:
    """Why the list form could change the program, or ""."""
    if not loops.only_writer(ctx, loop, acc, stmt):
        return f"`{acc}` is also written elsewhere in the loop"
    readers = loops.other_readers(ctx, loop, acc, stmt)
    if sum(n.value == acc for n in read_names(stmt.node.value)) > 1:  # type: ignore[attr-defined]
        readers.insert(0, stmt)
    if readers:
        line = ctx.span(readers[0].node).line
        return f"the loop reads `{acc}` (line {line}), so every intermediate value is needed"
    if loop.node.orelse is not None:
        return "the loop has an `else` clause"
    if loop.node in blocks.in_try:
        return "the loop is inside a `try`, whose handler could see the un-joined value"
    if loops.rebinds_outside(ctx, stmt.scope, acc):
        return f"`{acc}` is declared global or nonlocal"
    reader = loops.function_reading(ctx, stmt.scope, acc)
    if reader:
        return f"the function `{reader}` reads `{acc}`"
    return ""


def _edits(ctx: ModuleContext, stmt: Stmt, loop: Loop, g: _Growth) -> list[Edit]:
    parts = fresh_name(ctx, f"{g.acc}_parts")
    if len(g.pieces) == 1:
        grow = f"{parts}.append({g.pieces[0]})\n"
    else:
        grow = f"{parts}.extend(({', '.join(g.pieces)}))\n"
    init = cst.parse_statement(f"{parts} = [{g.first}]\n")
    join = cst.parse_statement(f"{g.acc} = {g.join.format(parts)}\n")
    anchor = stmt.anchor
    return [
        *g.imports,
        InsertBefore(loop.node, (init,)),
        Replace(anchor, lambda n: cst.parse_statement(grow).with_changes(
            leading_lines=n.leading_lines)),  # type: ignore[attr-defined]
        InsertAfter(loop.node, (join,)),
    ]  # fmt: skip


def _is_name(node: cst.BaseExpression, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _code(node: cst.CSTNode) -> str:
    if isinstance(node, cst.Arg):
        node = node.with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return cst.Module([]).code_for_node(node)
