"""Can a compiled step run the whole loop, as one jitted `lax.scan`?

AO103 extracts the leading lines of an eager loop's body into a step function
(analysis/plans/step.py). When those lines are the whole body and the loop is
`for i in range(n)` with `n` known, the loop itself can move onto the device:
`lax.scan` runs the step `n` times in one compiled program, carrying the names
the step carries and stacking the values the loop appends. A counted `while` loop
(`i = 0; while i < N: <step>; i += 1`, `N` known, nothing else touching `i`) runs as
one too: its step is the body without the increment, and the rewrite sets `i` to the
value the loop leaves (`_counted_while`). This adds three premises to the step's own:

- the loop runs a known number of times, at least once (`range` of integer
  literals or module constants: `scan` traces its body even for zero steps), and
  its variable is not read after the loop, and by the step (in a function) only to
  pick rows of JAX arrays (`xs[i]`: the scan runs over `jnp.arange` of the range,
  `_rows_only`);
- in a function, the step returns only what it carries (a name of the last
  iteration read after the loop would have to come back from the scan too);
- every carried name keeps its shape and dtype from one iteration to the next
  (analysis/plans/carry.py) and is a floating-point array where the proof adds Python
  numbers to it (an integer array times `0.5` becomes a float array, which a
  Python loop allows and `scan` rejects). Values the step appends then have one
  shape and dtype in every iteration, so they stack.

A loop of module code leaves every name its body binds as a module global, which
an importer or a function may read: the last iteration's values, and the loop
variable holding the last index. The scan carries each such name (a temporary,
`lap`) too, from a placeholder of the shape and dtype of a carried name that the
proof shows it has (`jnp.zeros_like(u)`, overwritten in the first of at least one
iteration, since the body is straight-line code binding it every time), and the
loop variable gets its last value (`_ = N_STEPS - 1`) after the call. Where no
carried name's type is proven for a temporary, the loop stays a step and says so.
Its lists keep being lists of the values appended, one row each.

Where the carry's type is the only premise missing, and no iteration provably
changes it with x64 off and on alike (a float32 carry that meets the default float
changes only under x64; one that broadcasts to another shape, always), the loop can
still run as a scan, guarded: the rewrite checks the step's types on the starting
carry when the loop starts, and runs the steps where they differ (`guarded`).

A `for` loop over `range(...)` whose body ends with `if` blocks that only append (a
kept plan, analysis/plans/step.py) runs as a scan of the step with those appends made
unconditional, when each condition reads only the loop variable and Python numbers the
loop does not rebind, through operators and pure builtins (`_kept_test`): the rewrite
evaluates it again over the same range after the loop and gives the list the rows of
the steps where it holds. Such a list never takes the stacked values.

A list that starts empty just before the loop and is read afterwards only as
`jnp.stack(xs)` (or `jnp.array(xs)`, `jnp.asarray(xs)`) can take the stacked
values themselves: stacking the rows again would give the same array, after
compiling a concatenation of `n` operands. At module level the list still receives
the rows (it is a global) and only those calls take the stacked values.

A counted `while` has the condition `i < N`, `i <= N` or `N > i` with `N` an integer
literal or module constant, `i` bound to one (the only definition of `i` reaching the
loop), `i += 1` as the body's last statement, nothing else in the body nor any function
reading or binding `i`, and at least one iteration; `i` is then set to what the loop
leaves, `N`, or `N + 1` for `<=`.

The guarded form checks, with `jax.eval_shape` of the step on the starting carry, the
carry's pytree structure, shapes, dtypes and weak types: a pure step given the same
types returns the same types, so every iteration would have. Weak types count: a carry
that starts weakly typed (`jnp.full(n, 0.5)`, a Python number) and comes back strong
would enter `lax.scan` promoted, and its first step could compute other numbers (a weak
integer meeting an int8 array wraps; a strong one does not). Where the first step
changes only such types and the second keeps them, the scan runs the first step apart,
on the carry as the loop starts with it, then the others. Otherwise it runs the loop of
jitted steps, checking again each time the loop starts; that loop is never taken again.
A step with static arguments, a module loop that leaves temporaries, or a module that
binds names with `:=` keeps the step form. A step of one computing statement
(`StepPlan.single`) is taken only as one scan, plain or guarded.

A kept append's condition may read only the loop variable and Python numbers nothing in
the loop rebinds, through operators, comparisons and the builtins `abs`, `min`, `max`,
`round`, `int` and `bool` (no other call, attribute or subscript), and no other line
may read the list. The scan then holds every step's value until the rows are picked (`n`
where the loop kept `n / k`; verification measures the memory), and in the guarded form
the loop of steps appends every step's value too, so both paths give one row a step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import is_at_update, read_names
from autoopt.analysis.core.graph import MODULE, Loop, Stmt
from autoopt.analysis.core.walk import walk
from autoopt.analysis.facts.invariance import variant_reason
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.plans.batches import block_reads
from autoopt.analysis.plans.carry import entry_value, typed_like, unstable_carry
from autoopt.analysis.plans.carry_types import carry_types, entry_defs
from autoopt.analysis.plans.fori import counted_for
from autoopt.analysis.plans.scan import step_count
from autoopt.analysis.plans.step import StepPlan
from autoopt.analysis.values.ints import module_constant
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model
from autoopt.analysis.values.shapes import dtype_name

#: Floating and complex dtypes, by any name; "float" is the value model's default float.
_FLOATING = jax_api.FLOAT_DTYPES | jax_api.COMPLEX_DTYPES | jax_api.FLOAT_ALIASES | {"float"}


@dataclass(frozen=True)
class WholeLoop:
    """A step that is its loop's whole body: the names scan carries, and how often."""

    carry: tuple[str, ...]  # in the step's return order
    inputs: tuple[str, ...]  # the other names the step takes, in its parameter order
    length: str  # the trip count, as source text (`N_STEPS`, `20 - 4`)
    doubt: str = ""  # the premise not proven: the loop stays a step
    # lists read only through `jnp.stack(xs)` after the loop, with those calls
    stacked: tuple[tuple[str, tuple[cst.Call, ...]], ...] = ()
    # a module-level loop's temporaries, carried for their last value, each with the
    # carried name whose shape and dtype it has (its placeholder is `zeros_like` of it)
    last: tuple[tuple[str, str], ...] = ()
    index_last: str | None = None  # a module-level loop variable's last value, as source
    # the doubt is only the carry's type, and no iteration provably changes it: a guard
    # can check it when the loop starts (`guarded_loop_edits`)
    guarded: bool = False
    # a counted `while`: its counter, its start and the value the loop leaves it, as source
    # (empty where nothing reads it after the loop)
    counter: tuple[str, str, str] | None = None
    in_module: bool = False  # a loop of module code
    # the `range` arguments, as source, where the step reads the loop variable (only to
    # pick rows of JAX arrays, `_rows_only`): the scan runs over `jnp.arange` of them
    rows: tuple[str, ...] | None = None

    @property
    def module(self) -> bool:
        """A loop of module code: its names are globals, its lists keep their rows."""
        return self.in_module


def whole_loop(ctx: ModuleContext, plan: StepPlan) -> WholeLoop | None:
    """The scan form of a step (with a doubt when only the carry's type, a read of the
    loop variable after the loop or, at module level, a temporary's type stands in its
    way), or None when the loop has another shape. Once per plan: the owner of the loop
    asks, then AO103's fix."""
    known = ctx.per_module(_known)  # by id: each entry holds its plan, so ids stay its own
    if id(plan) not in known:
        known[id(plan)] = (plan, _whole_loop(ctx, plan))
    return known[id(plan)][1]


def _known(ctx: ModuleContext) -> dict[int, tuple[StepPlan, WholeLoop | None]]:
    return {}


def _whole_loop(ctx: ModuleContext, plan: StepPlan) -> WholeLoop | None:
    node = plan.loop.node
    if plan.start or plan.hoisted or plan.prelude:
        return None  # statements before the step, or host calls it needs: not a scan
    counter: tuple[str, str, str] | None = None
    premise = ""
    if type(node) is cst.While:
        counted_while = _counted_while(ctx, plan)
        if counted_while is None:
            return None
        index = None
        if isinstance(counted_while, str):
            premise, length = counted_while, ""
        else:
            counter, length = counted_while[:3], counted_while[3]
            if plan.loop.scope != MODULE and not _readers_outside(ctx, plan, counter[0]):
                counter = (*counter[:2], "")  # nothing reads what the loop leaves it
    else:
        counted = counted_for(node)
        if counted is None:
            return None
        index, bounds = counted
        if not (plan.kept or len(plan.lines) == len(node.body.body)):
            return None  # the step is not the whole body (a kept plan's always is)
        if index in plan.params and not _rows_only(ctx, plan, index):
            return None
        if step_count(ctx, bounds) is None or not all(_kept_test(ctx, plan, k) for k in plan.kept):
            return None
        length = _length(ctx, bounds)
    module = plan.loop.scope == MODULE
    carry = tuple(n for n in plan.returns if n in plan.params)
    rest = [n for n in plan.returns if n not in carry]
    if not module and not all(_only_appended(ctx, plan, n) for n in rest):
        return None
    if not _one_array_each(ctx, plan):
        return None
    inputs = tuple(p for p in plan.params if p not in carry and p != index)
    stacked = tuple(
        (name, calls)
        for name in dict.fromkeys(a.name for a in plan.appends if a.kept is None)
        if (calls := _stacked_only(ctx, plan, name)) is not None
    )
    # the loop variable holds the last index after a Python loop; the scan binds nothing
    doubt = f"the loop variable `{index}` is read outside the loop (`lax.scan` binds none)"
    guarded = False
    if premise:
        doubt = premise
    elif index is None or not _readers_outside(ctx, plan, index):
        doubt = _unstable(ctx, plan, carry)
        lists = {a.name for a in plan.appends}
        guarded = bool(doubt) and not lists & set(plan.params) and _checkable(ctx, plan, carry)
    rows = None
    if index is not None and index in plan.params:
        rows = tuple(ctx.code(b) for b in bounds)
    if not module:
        return WholeLoop(
            carry, inputs, length, doubt, stacked, guarded=guarded, counter=counter, rows=rows
        )
    guarded = guarded and not rest  # a temporary's last value would need its type proven
    last: list[tuple[str, str]] = []
    body = _steps(ctx, plan)
    for name in rest if not doubt else ():
        like = typed_like(ctx, body, carry, name)
        if like is None:
            doubt = (
                f"cannot prove `{name}` has the shape and dtype of a carried name (the scan "
                "would carry it to leave its last value as a module global)"
            )
            break
        last.append((name, like))
    last_index = _last_index(ctx, bounds) if index is not None else None
    return WholeLoop(
        carry, inputs, length, doubt, stacked, tuple(last), last_index, guarded, counter, True
    )


def scan_form(whole: WholeLoop | None, static: tuple[str, ...]) -> bool:
    """Whether AO103 runs the loop as one scan (guarded or not) rather than as steps."""
    return whole is not None and (not whole.doubt or (whole.guarded and not static))


def _kept_test(ctx: ModuleContext, plan: StepPlan, block: cst.If) -> bool:
    """The condition of a kept block reads only the loop variable and Python numbers
    that stay the same in the loop, through operators, comparisons and pure builtins:
    the rewrite evaluates it again over the same range after the loop."""
    return index_test(ctx, plan.loop, plan.index, block)


def index_test(ctx: ModuleContext, loop: Loop, index: str | None, block: cst.If) -> bool:
    """The condition of `block`, an `if` of `loop`'s body, reads only the loop variable
    `index` and Python numbers that stay the same in the loop, through operators,
    comparisons and pure builtins: its value at each iteration is known before it runs."""
    stmt = next(s for s in ctx.graph.loop_stmts(loop.id) if s.node is block)
    if not all(_plain_test(ctx, node) for node in walk(block.test)):
        return False
    called = {n.func.value for n in walk(block.test) if type(n) is cst.Call}  # type: ignore[attr-defined]  # _plain_test: named calls
    names = {n.value for n in read_names(block.test)} - called - {index}
    values = model(ctx)
    if any(values.value_of(stmt, cst.Name(n)).kind is not Kind.SCALAR for n in names):
        return False
    return variant_reason(ctx, loop, names) is None


def _plain_test(ctx: ModuleContext, node: cst.CSTNode) -> bool:
    """A node of a condition without effects: names, numbers, operators, comparisons
    and calls of the pure builtins (that the module does not rebind)."""
    if type(node) is cst.Call:
        func = node.func
        return (
            type(func) is cst.Name
            and func.value in python_api.NUMERIC_BUILTINS
            and not any(func.value in s.defs for s in ctx.graph.stmts)
        )
    return not isinstance(node, _EFFECTS)


def _counted_while(ctx: ModuleContext, plan: StepPlan) -> tuple[str, str, str, str] | str | None:
    """A `while counter < BOUND:` loop whose body is the step then `counter += 1`: the
    counter, its start and the value the loop leaves it (as source), and the trip count;
    the premise not proven where the loop looks like one (a comparison of a name the body
    rebinds with `+=`); None where it does not, or the step is not the rest of the body."""
    node = plan.loop.node
    assert type(node) is cst.While
    test = node.test
    if not (type(test) is cst.Comparison and len(test.comparisons) == 1):
        return None
    left, op, right = test.left, test.comparisons[0].operator, test.comparisons[0].comparator
    lines = node.body.body
    increments = {
        small.target.value
        for line in lines
        if type(line) is cst.SimpleStatementLine
        for small in line.body
        if type(small) is cst.AugAssign and type(small.target) is cst.Name
    }
    names = [e.value for e in (left, right) if type(e) is cst.Name and e.value in increments]
    if not names:
        return None
    counter = names[0]
    last = lines[-1]
    if not (
        type(last) is cst.SimpleStatementLine
        and len(last.body) == 1
        and type(last.body[0]) is cst.AugAssign
        and _is(last.body[0].target, counter)
        and type(last.body[0].operator) is cst.AddAssign
        and type(last.body[0].value) is cst.Integer
        and last.body[0].value.evaluated_value == 1
    ):
        return f"the loop's last statement is not `{counter} += 1`, its only change of `{counter}`"
    if len(plan.lines) != len(lines) - 1:
        return None
    if _is(left, counter) and type(op) in (cst.LessThan, cst.LessThanEqual):
        bound, inclusive = right, type(op) is cst.LessThanEqual
    elif _is(right, counter) and type(op) in (cst.GreaterThan, cst.GreaterThanEqual):
        bound, inclusive = left, type(op) is cst.GreaterThanEqual
    else:
        return f"the condition is not `{counter} < BOUND` (or `<=`, or `BOUND > {counter}`)"
    if _int_value(ctx, bound) is None:
        return "the loop's bound is not an integer literal or module constant"
    graph = ctx.graph
    body = graph.loop_stmts(plan.loop.id)
    header = graph.stmts[plan.loop.header]
    step = [s for s in body if s.id != header.id and s.node is not last.body[0]]
    if any(counter in s.uses | s.defs | s.mutates for s in step):
        return f"the body reads or rebinds the counter `{counter}` (the scan runs it without)"
    inside = {s.id for s in body}
    if any(
        counter in s.uses | s.defs | s.mutates
        for s in graph.stmts
        if s.scope != plan.loop.scope and s.id not in inside
    ) or any(counter in f.globals | f.nonlocals for f in graph.functions.values()):
        return f"a function reads or binds the counter `{counter}`, which the scan would not update"
    starts = [d for d in graph.reaching_defs(header, counter) if d.id not in inside]
    start = _start(ctx, starts[0], counter) if len(starts) == 1 else None
    if start is None or not graph.dominates(starts[0], header):
        return (
            f"`{counter}` is not bound once before the loop to an integer literal or module "
            "constant"
        )
    low, high = _int_value(ctx, start), _int_value(ctx, bound)
    assert low is not None and high is not None
    if high + inclusive - low < 1:
        return "the loop runs no iteration (`lax.scan` traces its body even for none)"
    stop = f"{ctx.code(bound)} + 1" if inclusive else ctx.code(bound)
    if type(bound) is cst.Integer:
        stop = str(high + inclusive)
    shift = inclusive - low
    if type(bound) is cst.Integer and type(start) is cst.Integer:
        length = str(high + shift)
    elif type(start) is cst.Integer:  # `N + 1`, `N`, `N - 2`
        sign = "+" if shift > 0 else "-"
        length = ctx.code(bound) + (f" {sign} {abs(shift)}" if shift else "")
    else:
        length = f"{stop} - {ctx.code(start)}"
    final = stop
    return counter, ctx.code(start), final, length


def _start(ctx: ModuleContext, stmt: Stmt, counter: str) -> cst.BaseExpression | None:
    """The integer literal or module constant of `counter = START`."""
    node = stmt.node
    if not (type(node) is cst.Assign and len(node.targets) == 1):
        return None
    if not _is(node.targets[0].target, counter):
        return None
    return node.value if _int_value(ctx, node.value) is not None else None


def _int_value(ctx: ModuleContext, expr: cst.BaseExpression) -> int | None:
    """The value of an integer literal or integer module constant."""
    if type(expr) is cst.Name:
        expr = module_constant(ctx, expr.value) or expr
    return int(expr.evaluated_value) if type(expr) is cst.Integer else None


def _steps(ctx: ModuleContext, plan: StepPlan) -> list[Stmt]:
    """The loop's statements the carry proofs read: a `while` loop's step lines only (its
    test and the counter's increment bind no carried name)."""
    body = ctx.graph.loop_stmts(plan.loop.id)
    if type(plan.loop.node) is not cst.While:
        return body
    moved = {id(small) for line in plan.lines for small in line.body}
    return [s for s in body if id(s.node) in moved]


def _one_array_each(ctx: ModuleContext, plan: StepPlan) -> bool:
    """Each list receives one JAX array per iteration: scan stacks a tuple leaf by leaf,
    and two appends to one list would come back as two blocks, not interleaved."""
    names = [a.name for a in plan.appends]
    if len(set(names)) != len(names):
        return False
    values = model(ctx)
    stmts = {id(s.node): s for s in ctx.graph.loop_stmts(plan.loop.id)}
    return all(
        values.value_of(stmts[id(a.node)], a.node.value.args[0].value).kind is Kind.ARRAY  # type: ignore[attr-defined]  # an append call
        for a in plan.appends
    )


def _rows_only(ctx: ModuleContext, plan: StepPlan, index: str) -> bool:
    """In a function, the step reads the loop variable only as the one index of
    subscripts of JAX arrays (`xs[i]`), with no doubt about them, or in the bounds of the
    batches it takes by it (analysis/plans/batches.py): those pick the same rows for a
    Python int and a traced one (a JAX array clamps an index out of range alike, and every
    batch is proven whole), so a scan over `jnp.arange` of the range runs the same steps.
    Anything else (arithmetic, a call) could see the index's type: the loop keeps the step
    form."""
    if plan.loop.scope == MODULE or plan.doubts:
        return False
    values = model(ctx)
    stmts = {id(s.node): s for s in ctx.graph.loop_stmts(plan.loop.id)}
    batches = block_reads(plan.batches.blocks)
    for line in plan.lines:
        for small in line.body:
            stmt = stmts[id(small)]
            reads = {id(n) for n in read_names(small) if n.value == index} - batches
            rows = {
                id(name)
                for node in walk(small)
                if type(node) is cst.Subscript
                and (name := _row(node)) is not None
                and id(name) in reads
                and values.value_of(stmt, node.value).kind is Kind.ARRAY
            }
            if rows != reads:
                return False
    return True


def _row(sub: cst.Subscript) -> cst.Name | None:
    """The name of `xs[name]` (one element, the name alone), else None."""
    if len(sub.slice) != 1:
        return None
    element = sub.slice[0].slice
    if type(element) is not cst.Index or type(element.value) is not cst.Name:
        return None
    return element.value


def _only_appended(ctx: ModuleContext, plan: StepPlan, name: str) -> bool:
    """`name` comes back only to be appended: nothing outside the loop reads it."""
    return any(a.returned == name for a in plan.appends) and not _readers_outside(ctx, plan, name)


def _readers_outside(ctx: ModuleContext, plan: StepPlan, name: str) -> list[Stmt]:
    """The statements outside the loop that read `name` and may see the loop's: in its
    function and the functions nested in it, or in any scope for a loop of module code
    (another function's `name` is its own)."""
    inside = {s.id for s in ctx.graph.loop_stmts(plan.loop.id)}
    owner = plan.loop.scope
    return [
        s
        for s in ctx.graph.stmts
        if name in s.uses
        and s.id not in inside
        and (owner == MODULE or s.scope == owner or s.scope.startswith(f"{owner}."))
    ]


def _unstable(ctx: ModuleContext, plan: StepPlan, carry: tuple[str, ...]) -> str:
    """Why a carried name may change its type, or "" when every one keeps it (and is
    floating unless only `.at[]` updates rebind it)."""
    body = _steps(ctx, plan)
    doubts = unstable_carry(ctx, body, carry)
    if doubts:
        return doubts[0]
    for name in carry:
        if _at_updates_only(body, name) or entry_value(ctx, body, name).dtype in _FLOATING:
            continue
        if not _inexact_entry(ctx, body, name):
            return (
                f"cannot prove `{name}` is a floating-point array, whose dtype Python numbers keep"
            )
    return ""


def _checkable(ctx: ModuleContext, plan: StepPlan, carry: tuple[str, ...]) -> bool:
    """Whether a guard may check the carry's type when the loop starts instead: no
    iteration provably changes it with x64 off and on alike (the guard would always
    fail), and the module binds no names with `:=` (which the dataflow graph does not
    see, nor then what the step carries)."""
    if ":=" in ctx.source:
        return False
    computed = carry_types(ctx, _steps(ctx, plan), carry)
    return not any(computed.changes_in_both_modes(name) for name in carry)


def _at_updates_only(body: list[Stmt], name: str) -> bool:
    """Every statement binding `name` is `name = name.at[...].op(...)`."""
    values = [s.value for s in body if name in s.defs]
    return all(type(v) is cst.Call and is_at_update(v.func) for v in values)


def _inexact_entry(ctx: ModuleContext, body: list[Stmt], name: str) -> bool:
    """`name` is a JAX array when the loop starts, and every definition of it that
    reaches the loop binds a floating-point (or complex) value, by `_inexact`."""
    if entry_value(ctx, body, name).kind is not Kind.ARRAY:
        return False
    entry = entry_defs(ctx, body, name)
    return bool(entry) and all(_inexact_bound(ctx, d, name, 0) for d in entry)


def _inexact_bound(ctx: ModuleContext, stmt: Stmt, name: str, depth: int) -> bool:
    node = stmt.node
    if not (type(node) is cst.Assign and len(node.targets) == 1):
        return False
    target = node.targets[0].target
    if not (type(target) is cst.Name and target.value == name):
        return False
    return _inexact(ctx, stmt, node.value, depth)


def _inexact(ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression, depth: int) -> bool:
    """`expr`, evaluated at `stmt`, is a floating-point or complex value: the value model
    says so, or it is a float literal, `x.astype(float dtype)`, a NumPy or JAX
    constructor with a floating dtype (`np.zeros(shape, np.float32)`, `jnp.ones(shape)`),
    a conversion (`jnp.asarray(x)`) of such a value or to such a dtype, a function that
    always gives one (`np.exp`), a true division, or `+`, `-`, `*` with such a value
    (promotion never leaves the inexact types), possibly through names bound to them."""
    if depth > _INEXACT_DEPTH:
        return False
    rec = lambda e: _inexact(ctx, stmt, e, depth + 1)  # noqa: E731
    if type(expr) in (cst.Float, cst.Imaginary):
        return True
    if type(expr) is cst.Name:
        defs = ctx.graph.reaching_defs(stmt, expr.value)
        if defs and all(_inexact_bound(ctx, d, expr.value, depth + 1) for d in defs):
            return True
    elif type(expr) is cst.UnaryOperation and type(expr.operator) in (cst.Minus, cst.Plus):
        return rec(expr.expression)
    elif type(expr) is cst.BinaryOperation:
        if type(expr.operator) is cst.Divide:
            return True
        if type(expr.operator) in (cst.Add, cst.Subtract, cst.Multiply):
            return rec(expr.left) or rec(expr.right)
    elif type(expr) is cst.Call and _inexact_call(ctx, stmt, expr, rec):
        return True
    value = model(ctx).value_of(stmt, expr)
    return value.kind is Kind.ARRAY and value.dtype in _FLOATING


def _inexact_call(
    ctx: ModuleContext, stmt: Stmt, call: cst.Call, rec: Callable[[cst.BaseExpression], bool]
) -> bool:
    args = [a.value for a in call.args if a.keyword is None and not a.star]
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if len(args) + len(keywords) != len(call.args):
        return False
    func = call.func
    if type(func) is cst.Attribute and func.attr.value == "astype":
        dtype = args[0] if len(args) == 1 else keywords.get("dtype")
        base = model(ctx).value_of(stmt, func.value).kind
        return dtype is not None and _inexact_dtype(ctx, dtype) and base in _ARRAYS
    module, _, last = (ctx.qualify(func) or "").rpartition(".")
    if module not in ("numpy", "jax.numpy"):
        return False
    if last in jax_api.ALWAYS_INEXACT:
        return not keywords
    at = jax_api.DTYPE_POSITIONS.get(last)
    if at is None:
        return False
    dtype = keywords.get("dtype", args[at] if len(args) > at else None)
    if dtype is not None:
        return _inexact_dtype(ctx, dtype)
    if last in ("zeros", "ones", "empty"):
        return True  # the default float
    at = 1 if last == "full" else 0  # the fill value, or the array converted or copied
    return len(args) > at and rec(args[at])


def _inexact_dtype(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    return dtype_name(ctx, expr) in _FLOATING


def _last_index(ctx: ModuleContext, bounds: tuple[cst.BaseExpression, ...]) -> str:
    """The loop variable's value after `range(...)` ran at least once: its stop less one."""
    stop = bounds[-1]
    if type(stop) is cst.Integer:
        return str(int(stop.evaluated_value) - 1)
    return f"{ctx.code(stop)} - 1"


def _length(ctx: ModuleContext, bounds: tuple[cst.BaseExpression, ...]) -> str:
    if len(bounds) == 1:
        return ctx.code(bounds[0])
    return f"{ctx.code(bounds[1])} - {ctx.code(bounds[0])}"


def _stacked_only(ctx: ModuleContext, plan: StepPlan, name: str) -> tuple[cst.Call, ...] | None:
    """The `jnp.stack(name)` calls that are all the code after the loop does with the
    list, when it starts as `[]` just before the loop (None otherwise)."""
    graph = ctx.graph
    appends = [s for s in graph.loop_stmts(plan.loop.id) if name in s.uses]
    starts = {d.id for s in appends for d in graph.reaching_defs(s, name)}
    if len(starts) != 1:
        return None
    start = graph.stmts[starts.pop()]
    header = graph.stmts[plan.loop.header]
    if not (_empty_list(start, name) and graph.dominates(start, header)):
        return None
    if start.loops != tuple(i for i in header.loops if i != plan.loop.id):  # a `while` test
        return None  # an enclosing loop would fill the list once per outer iteration
    calls: list[cst.Call] = []
    for reader in _readers_outside(ctx, plan, name):
        found = _stack_calls(ctx, reader, name)
        if reader.id < header.id or found is None:
            return None
        if [d.id for d in graph.reaching_defs(reader, name)] != [start.id]:
            return None
        calls += found
    return tuple(calls)


def _empty_list(stmt: Stmt, name: str) -> bool:
    """`name = []`, or `name` bound to `[]` in `a, name = [], []`."""
    node = stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return False
    target, value = node.targets[0].target, node.value
    if type(target) is cst.Tuple and type(value) is cst.Tuple:
        if len(target.elements) != len(value.elements):
            return False
        pairs = zip(target.elements, value.elements, strict=True)
        return any(_is(t.value, name) and _is_empty(v.value) for t, v in pairs)
    return _is(target, name) and _is_empty(value)


def _stack_calls(ctx: ModuleContext, stmt: Stmt, name: str) -> list[cst.Call] | None:
    """Every read of `name` in a simple statement is the one argument of a stack call."""
    if isinstance(stmt.node, _COMPOUND):
        return None
    calls = [
        node
        for node in walk(stmt.node)
        if type(node) is cst.Call
        and ctx.is_jax(node.func, *jax_api.STACKS)
        and len(node.args) == 1
        and node.args[0].keyword is None
        and not node.args[0].star
        and _is(node.args[0].value, name)
    ]
    reads = [n for n in read_names(stmt.node) if n.value == name]
    return calls if len(reads) == len(calls) else None


def _is(node: cst.BaseExpression, name: str) -> bool:
    return type(node) is cst.Name and node.value == name


def _is_empty(node: cst.BaseExpression) -> bool:
    return type(node) is cst.List and not node.elements


#: nodes of a condition that may run code or read something other than a name
_EFFECTS = (
    cst.Attribute, cst.Subscript, cst.Lambda, cst.NamedExpr, cst.Await, cst.Yield,
    cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.FormattedString,
)  # fmt: skip
_INEXACT_DEPTH = 8  # names and operands followed
_ARRAYS = (Kind.ARRAY, Kind.HOST_ARRAY)
_COMPOUND = (cst.If, cst.For, cst.While, cst.With, cst.Try, cst.FunctionDef, cst.ClassDef)
