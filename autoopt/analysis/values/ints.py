"""Which expressions are provably Python integers: literals, integer module constants,
`range` loop variables, and integer operators over them (with `range` and `len` the
builtins, not names the module rebinds); and which are provably Python floats (float
literals and constants, true divisions, `float()`, arithmetic with a float operand, and
the locals and parameters every binding or call gives one); and the least and greatest
value of an integer expression where both are proven (`bounds`: literals, constants,
`range` loop variables, `while` counters and locals bound once to such), which tells
whether it stays within the int32 a traced Python int becomes."""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Loop, Stmt

INT_OPS = (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide, cst.Modulo)


def is_int(ctx: ModuleContext, stmt: Stmt, node: cst.BaseExpression) -> bool:
    """Built from integer literals, integer module constants and `range` loop variables
    with integer operators."""
    if type(node) is cst.Integer:
        return True
    if type(node) is cst.UnaryOperation and type(node.operator) is cst.Minus:
        return is_int(ctx, stmt, node.expression)
    if type(node) is cst.BinaryOperation and isinstance(node.operator, INT_OPS):
        return is_int(ctx, stmt, node.left) and is_int(ctx, stmt, node.right)
    if type(node) is not cst.Name:
        return False
    return range_loop(ctx, stmt, node.value) is not None or int_constant(ctx, stmt, node.value)


def int_constant(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """A module-level name bound once, to an integer literal, and never rebound (nor
    shadowed where `stmt` reads it)."""
    if shadowed(ctx, stmt.scope, name):
        return False
    return type(module_constant(ctx, name)) is cst.Integer


def shadowed(ctx: ModuleContext, scope: str, name: str) -> bool:
    """Whether `name` in `scope` is a local or parameter of that scope or of an enclosing
    function, not the module-level name (a class body hides names only from itself)."""
    graph = ctx.graph
    inner = True
    while scope != MODULE:
        fn = graph.functions.get(scope)
        if fn is not None and name in fn.params:
            return True
        if (inner or fn is not None) and any(name in s.defs for s in graph.scope_stmts(scope)):
            return True
        scope = fn.scope if fn is not None else scope.rpartition(".")[0] or MODULE
        inner = False
    return False


def module_constant(ctx: ModuleContext, name: str) -> cst.BaseExpression | None:
    """The literal a module-level name is bound to, once (`N = 8`, `NAME = "x"`), when
    nothing rebinds it; else None."""
    graph = ctx.graph
    defs = [s for s in graph.stmts if name in s.defs | s.mutates]
    if len(defs) != 1 or defs[0].scope != MODULE:
        return None
    if any(name in fn.globals for fn in graph.functions.values()):
        return None
    node = defs[0].node
    literal = (cst.Integer, cst.Float, cst.SimpleString)
    if type(node) is cst.Assign and len(node.targets) == 1 and isinstance(node.value, literal):
        return node.value
    return None


def range_loop(ctx: ModuleContext, stmt: Stmt, name: str) -> Loop | None:
    """The enclosing `for name in range(...)` loop, when its body never rebinds `name`."""
    for loop_id in stmt.loops:
        loop = ctx.graph.loops[loop_id]
        node = loop.node
        if (
            type(node) is cst.For
            and type(node.target) is cst.Name
            and node.target.value == name
            and type(node.iter) is cst.Call
            and type(node.iter.func) is cst.Name
            and node.iter.func.value == "range"
            and builtin(ctx, "range")
        ):
            writers = [s for s in ctx.graph.loop_stmts(loop_id) if name in s.defs]
            return None if writers else loop
    return None


def builtin(ctx: ModuleContext, name: str) -> bool:
    """`name` is the Python builtin: no import, binding or parameter in the module hides it."""
    graph = ctx.graph
    return (
        name not in ctx.imports.bindings
        and not any(name in s.defs for s in graph.stmts)
        and not any(name in fn.params for fn in graph.functions.values())
    )


def is_float(ctx: ModuleContext, stmt: Stmt, node: cst.BaseExpression) -> bool:
    """Provably a Python float: a float literal or module constant, a true division, an
    arithmetic operator with a float operand, `float(...)`, a local every binding of which
    is one (`t = 0.0`, then `t += DT`), or a parameter every call of its function (one at
    least) passes one to."""
    return _is_float(ctx, stmt, node, frozenset())


def _is_float(ctx: ModuleContext, stmt: Stmt, node: cst.BaseExpression, seen: frozenset) -> bool:
    if type(node) is cst.Float:
        return True
    if type(node) is cst.UnaryOperation and type(node.operator) is cst.Minus:
        return _is_float(ctx, stmt, node.expression, seen)
    if type(node) is cst.BinaryOperation:
        if type(node.operator) is cst.Divide:
            return True
        arith = isinstance(node.operator, INT_OPS) or type(node.operator) is cst.Power
        return arith and any(_is_float(ctx, stmt, s, seen) for s in (node.left, node.right))
    if type(node) is cst.Call:
        func = node.func
        return type(func) is cst.Name and func.value == "float" and builtin(ctx, "float")
    if type(node) is not cst.Name or (stmt.scope, node.value) in seen:
        return False
    return _float_name(ctx, stmt, node.value, seen | {(stmt.scope, node.value)})


def float_parameter(ctx: ModuleContext, fn: Function, name: str) -> bool:
    """Every call of `fn` in its module (one at least) passes a float for `name`."""
    return _float_parameter(ctx, fn, name, frozenset({(fn.qualname, name)}))


def _float_parameter(ctx: ModuleContext, fn: Function, name: str, seen: frozenset) -> bool:
    sites = ctx.graph.call_sites(fn)
    return bool(sites) and all(
        (passed := _passed(ctx, fn, site, name)) is not None
        and _is_float(ctx, passed[0], passed[1], seen)
        for site in sites
    )


def _passed(
    ctx: ModuleContext, fn: Function, site: CallSite, name: str
) -> tuple[Stmt, cst.BaseExpression] | None:
    """What a call passes for parameter `name`, where it is evaluated: the argument, or
    the default at the `def` when the call leaves it out; None when neither is known."""
    arg = site.argument(fn.params.index(name), name)
    if arg is not None:
        return site.stmt, arg
    params = fn.node.params
    every = (*params.posonly_params, *params.params, *params.kwonly_params)
    default = next((p.default for p in every if p.name.value == name), None)
    return None if default is None else (ctx.graph.stmts[fn.header], default)


def _float_name(ctx: ModuleContext, stmt: Stmt, name: str, seen: frozenset) -> bool:
    graph = ctx.graph
    fn = graph.functions.get(stmt.scope)
    if fn is not None and name in fn.params:
        return _float_parameter(ctx, fn, name, seen)
    defs = [s for s in graph.scope_stmts(stmt.scope) if name in s.defs | s.mutates]
    if not defs and not shadowed(ctx, stmt.scope, name):
        return type(module_constant(ctx, name)) is cst.Float
    return bool(defs) and all(_float_binding(ctx, d, seen) for d in defs)


def _float_binding(ctx: ModuleContext, stmt: Stmt, seen: frozenset) -> bool:
    """`x = <float>`, or `x op= <float>` (`t += DT`: arithmetic with a float operand)."""
    node = stmt.node
    if type(node) is cst.Assign:
        return len(node.targets) == 1 and _is_float(ctx, stmt, node.value, seen)
    if type(node) is cst.AugAssign and type(node.operator) in _FLOAT_AUG:
        divides = type(node.operator) is cst.DivideAssign
        return divides or _is_float(ctx, stmt, node.value, seen)
    return False


_FLOAT_AUG = (cst.AddAssign, cst.SubtractAssign, cst.MultiplyAssign, cst.DivideAssign)


Bounds = tuple[int, int]
#: The values a traced Python int takes: JAX's default int32.
INT32: Bounds = (-(2**31), 2**31 - 1)
_BOUNDS_DEPTH = 16  # names and ranges followed at once


def bounds(
    ctx: ModuleContext,
    stmt: Stmt,
    node: cst.BaseExpression,
    known: dict[str, Bounds],
    depth: int = 0,
) -> Bounds | None:
    """The least and greatest value of an integer expression where both are proven: from
    integer literals, integer module constants, `range` loop variables of bounded ranges
    and the names in `known`, through `+ - *`, unary minus and `%` by a positive bound;
    None where one is not."""
    if type(node) is cst.Integer:
        value = node.evaluated_value
        return value, value
    if depth > _BOUNDS_DEPTH:
        return None
    if type(node) is cst.UnaryOperation and type(node.operator) is cst.Minus:
        inner = bounds(ctx, stmt, node.expression, known, depth + 1)
        return None if inner is None else (-inner[1], -inner[0])
    if type(node) is cst.BinaryOperation:
        left = bounds(ctx, stmt, node.left, known, depth + 1)
        right = bounds(ctx, stmt, node.right, known, depth + 1)
        return None if left is None or right is None else _combined(node, left, right)
    if type(node) is not cst.Name:
        return None
    name = node.value
    if name in known:
        return known[name]
    constant = module_constant(ctx, name) if not shadowed(ctx, stmt.scope, name) else None
    if type(constant) is cst.Integer:
        return constant.evaluated_value, constant.evaluated_value
    loop = range_loop(ctx, stmt, name)
    if loop is not None:
        return _range_bounds(ctx, loop, known, depth + 1)
    counted = _counter_bounds(ctx, stmt, name, known, depth + 1)
    return counted or _local_bounds(ctx, stmt, name, known, depth + 1)


def _local_bounds(
    ctx: ModuleContext, stmt: Stmt, name: str, known: dict[str, Bounds], depth: int
) -> Bounds | None:
    """A function's local bound once, by a plain assignment, to a bounded integer
    (`n_train = n_batches - 1`), and changed by nothing else."""
    graph = ctx.graph
    if stmt.scope == MODULE or any(
        name in fn.globals | fn.nonlocals for fn in graph.functions.values()
    ):
        return None
    defs = [s for s in graph.scope_stmts(stmt.scope) if name in s.defs | s.mutates]
    fn = graph.functions.get(stmt.scope)
    if len(defs) != 1 or (fn is not None and name in fn.params):
        return None
    node = defs[0].node
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return None
    target = node.targets[0].target
    if type(target) is not cst.Name or target.value != name:
        return None
    return bounds(ctx, defs[0], node.value, known, depth)


def _combined(node: cst.BinaryOperation, left: Bounds, right: Bounds) -> Bounds | None:
    op = type(node.operator)
    if op is cst.Add:
        return left[0] + right[0], left[1] + right[1]
    if op is cst.Subtract:
        return left[0] - right[1], left[1] - right[0]
    if op is cst.Multiply:
        products = [a * b for a in left for b in right]
        return min(products), max(products)
    if op is cst.Modulo and right[0] > 0:
        return 0, right[1] - 1
    return None


def _range_bounds(
    ctx: ModuleContext, loop: Loop, known: dict[str, Bounds], depth: int
) -> Bounds | None:
    """The values of a `range(...)` loop variable: from its start (0 by default) to one
    below its stop, or between start and stop with a step; each argument bounded, none a
    keyword or starred. A stop that is not proven (`range(len(batches))`) counts as
    2**31: counting up by one from a start within int32, the variable leaves int32 only
    after the loop has run to 2**31 - 1, more than two billion Python iterations, which
    no fix promises to keep."""
    node = loop.node
    if type(node) is not cst.For:  # `range_loop` finds `for` loops only
        return None
    call = node.iter
    if type(call) is not cst.Call:
        return None
    args = call.args
    if not 1 <= len(args) <= 3 or any(a.keyword is not None or a.star for a in args):
        return None
    header = ctx.graph.stmts[loop.header]
    ends = [bounds(ctx, header, a.value, known, depth) for a in args[:2]]
    if len(args) < 3 and ends[-1] is None:
        ends[-1] = (0, INT32[1] + 1)  # an unknown stop: reached by counting, see below
    if any(end is None for end in ends):
        return None
    start, stop = ((0, 0), ends[0]) if len(ends) == 1 else (ends[0], ends[1])
    assert start is not None and stop is not None
    if len(args) == 3:
        return min(start[0], stop[0]), max(start[1], stop[1])
    return start[0], max(stop[1] - 1, start[0])


def _counter_bounds(
    ctx: ModuleContext, stmt: Stmt, name: str, known: dict[str, Bounds], depth: int
) -> Bounds | None:
    """The values of a counter of an enclosing `while name < stop` (or `<=`) loop of a
    function: bound before the loop only to bounded integers, changed in the loop only by
    `name += c` with `c` a non-negative literal, each run once an iteration (in no inner
    loop), rebound by no other function. Inside the loop it lies between its start and the
    stop plus the steps of one iteration."""
    graph = ctx.graph
    if stmt.scope == MODULE or any(
        name in fn.globals | fn.nonlocals for fn in graph.functions.values()
    ):
        return None
    for loop_id in reversed(stmt.loops):
        loop = graph.loops[loop_id]
        stop = _while_stop(loop, name)
        if stop is None:
            continue
        header = graph.stmts[loop.header]
        steps = _steps(graph.loop_stmts(loop_id), name, loop_id)
        inside = {s.id for s in graph.loop_stmts(loop_id)}
        starts = [s for s in graph.scope_stmts(stmt.scope) if name in s.defs and s.id not in inside]
        limit = bounds(ctx, header, stop, known, depth)
        if steps is None or limit is None or not starts:
            return None
        found = [_start_bounds(ctx, s, name, known, depth) for s in starts]
        if any(b is None for b in found):
            return None
        low = min(b[0] for b in found if b is not None)
        return low, max(limit[1] + sum(steps), low)
    return None


def _while_stop(loop: Loop, name: str) -> cst.BaseExpression | None:
    """`stop` of a `while name < stop` or `while name <= stop` loop, else None."""
    test = loop.node.test if type(loop.node) is cst.While else None
    if type(test) is not cst.Comparison or len(test.comparisons) != 1:
        return None
    compare = test.comparisons[0]
    named = type(test.left) is cst.Name and test.left.value == name
    below = type(compare.operator) is cst.LessThan or type(compare.operator) is cst.LessThanEqual
    return compare.comparator if named and below else None


def _steps(stmts: list[Stmt], name: str, loop_id: int) -> list[int] | None:
    """The steps of every `name += c` in the loop (`c` a non-negative literal, run by the
    loop itself, not an inner one), or None where the loop changes `name` another way."""
    steps = []
    for s in stmts:
        if name not in s.defs | s.mutates:
            continue
        node = s.node
        if (
            s.loops[-1] != loop_id
            or type(node) is not cst.AugAssign
            or type(node.operator) is not cst.AddAssign
            or type(node.target) is not cst.Name
            or type(node.value) is not cst.Integer
        ):
            return None
        steps.append(node.value.evaluated_value)
    return steps


def _start_bounds(
    ctx: ModuleContext, stmt: Stmt, name: str, known: dict[str, Bounds], depth: int
) -> Bounds | None:
    """The bounds of what `name = value` before the loop binds, else None."""
    node = stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return None
    target = node.targets[0].target
    if type(target) is not cst.Name or target.value != name:
        return None
    return bounds(ctx, stmt, node.value, known, depth)


def within(found: Bounds | None, limits: Bounds = INT32) -> bool:
    """Proven to lie within `limits`."""
    return found is not None and limits[0] <= found[0] and found[1] <= limits[1]


def parameter_bounds(ctx: ModuleContext, fn: Function, name: str) -> Bounds | None:
    """The least and greatest integer every call of `fn` in its module (one at least)
    passes for `name`, where each call's argument has proven `bounds`."""
    found: list[Bounds] = []
    for site in ctx.graph.call_sites(fn):
        passed = _passed(ctx, fn, site, name)
        one = None if passed is None else bounds(ctx, passed[0], passed[1], {})
        if one is None:
            return None
        found.append(one)
    return (min(b[0] for b in found), max(b[1] for b in found)) if found else None
