"""Can a loop step that changes nnx modules in place compile as one `nnx.jit` function?

A `jax.jit` step cannot change its arguments, so a step whose lines change an nnx
module in place (`optimizer.update(model, grads)`, `nnx.update(model, state)`, or a call
of an `nnx.jit` function given the module) is compiled with `nnx.jit` instead, which
writes the state of its module arguments back into them after every call
(`overlays/flax_nnx.py`, `UPDATES_MODULES`; tested against the installed flax). Premises,
each failing one named:

- every name the step's lines read that holds an nnx object is proven to
  (`facts/nnx_modules.py`, `module_class`, at every line reading it) and becomes an
  argument of the step: traced, a module read from outside would be a constant of the
  trace, stale after its first update;
- the calls that change them are the overlay's (`MUTATING`) on a proven object of the
  listed class, or calls of a function of this module under a bare `@nnx.jit` given
  one of them by name (`update_calls`): purity judges the rest of their statements, and
  every change of any other name;
- everything else the step does is the plain step's premises (`facts/jit_plan.py`,
  asked with these calls exempt from purity and the modules as arguments nnx.jit splits);
- an `nnx.jit` function the step calls runs its Python body again when the step is
  traced (eagerly it was traced on its own, possibly before the loop), so its body must
  be pure but for the overlay's changes of its module parameters (`callee_problem`): a
  `print` there, or in a module's `__call__` it calls, would run a different number of
  times. Calling a module (`model(x)`) runs its class's `__call__`, followed where the
  name the call is given holds a proven instance (`step_instances`,
  `facts/nnx_instances.py`); otherwise it is code autoopt does not follow: unproven.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import calls_in
from autoopt.analysis.core.graph import Function, Stmt
from autoopt.analysis.core.walk import walk
from autoopt.analysis.facts.nnx_instances import called_instance
from autoopt.analysis.facts.nnx_modules import library_class, module_class, update_call
from autoopt.analysis.facts.purity import impurities, impurities_except
from autoopt.analysis.overlays import flax_nnx as nnx_api
from autoopt.analysis.plans.step import StepPlan


def step_modules(ctx: ModuleContext, plan: StepPlan) -> dict[str, str]:
    """The names the step's lines read that hold a proven nnx object at every line
    reading them -> the overlay class that built it ("" for a class of this module, whose
    methods it may override)."""
    moved = {id(small) for line in plan.lines for small in line.body}
    readers = [s for s in ctx.graph.loop_stmts(plan.loop.id) if id(s.node) in moved]
    found: dict[str, str] = {}
    for name in sorted({n for s in readers for n in s.uses}):
        here = [s for s in readers if name in s.uses]
        if all(module_class(ctx, s, name) is not None for s in here):
            classes = {library_class(ctx, s, name) or "" for s in here}
            found[name] = classes.pop() if len(classes) == 1 else ""
    return found


def update_calls(ctx: ModuleContext, fn: Function, modules: dict[str, str]) -> frozenset[int]:
    """The calls of `fn` (the extracted step, `modules` among its parameters) that change
    them in place, by identity (`facts/nnx_modules.py`, `update_call`)."""
    return frozenset(
        id(call)
        for stmt in ctx.graph.scope_stmts(fn.qualname)
        for call in stmt.calls
        if update_call(ctx, stmt, call, modules, jitted=True)
    )


def callee_problem(ctx: ModuleContext, fn: Function, modules: dict[str, str]) -> str:
    """Why an `nnx.jit` function the step `fn` calls is not proven pure but for the
    overlay's changes of the modules it is given, or why a function either hands to a
    transform is not ("" when each is)."""
    passed = _passed_problem(ctx, fn)
    if passed:
        return passed
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        for call in stmt.calls:
            if update_call(ctx, stmt, call, modules, jitted=True):
                problem = jitted_problem(ctx, stmt, call, modules)
                if problem:
                    return problem
    return ""


def jitted_problem(
    ctx: ModuleContext,
    stmt: Stmt,
    call: cst.Call,
    modules: dict[str, str],
    traced: str = "the step",
) -> str:
    """Why the `nnx.jit` function `call` (of `stmt`, given modules of `modules`) calls,
    traced again inside another compiled function (`traced`), is not proven pure but for
    the overlay's changes of the modules it is given ("" when it is, or is no such
    function)."""
    callee = _jitted_callee(ctx, stmt.scope, call)
    if callee is None:
        return ""
    given = _given(callee, call, modules)
    exempt = frozenset(
        id(inner)
        for s in ctx.graph.scope_stmts(callee.qualname)
        for inner in s.calls
        if update_call(ctx, s, inner, given, jitted=False)
    )
    instances = tuple(_given(callee, call, step_instances(ctx, stmt, call)).items())
    reasons = impurities_except(ctx, callee, exempt, frozenset(given), instances)
    reasons = reasons or [p for p in [_passed_problem(ctx, callee)] if p]
    if not reasons:
        return ""
    return (
        f"`{callee.name}` runs again when {traced} is traced, and it is not "
        f"proven pure but for its module updates: it {reasons[0]}"
    )


def _passed_problem(ctx: ModuleContext, fn: Function) -> str:
    """A function `fn` passes to a call (`nnx.grad(loss_fn)`, `jax.tree.map(lambda v:
    ...)`) that is not proven pure, or a lambda that calls one of its own parameters
    (`lambda m: m(x)`: a module's `__call__`, which autoopt does not follow). Purity now
    reads lambda bodies and the functions handed to transforms too, so this is a
    backstop for what it leaves out: a function handed to any other call."""
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        for call in stmt.calls:
            for arg in call.args:
                value = arg.value
                if type(value) is cst.Lambda:
                    own = {p.name.value for p in value.params.params}
                    if any(_calls(c, own) for c in calls_in(value.body)):
                        code = ctx.code(value)
                        return f"passes `{code}`, which calls its argument: {_UNFOLLOWED}"
                elif type(value) is cst.Name and not _followed(ctx, fn, stmt, call, arg):
                    passed = ctx.graph.resolve_function(value.value, stmt.scope)
                    reasons = impurities(ctx, passed) if passed is not None else []
                    if reasons:
                        return f"passes `{value.value}`, which {reasons[0]}"
    return ""


def _followed(ctx: ModuleContext, fn: Function, stmt: Stmt, call: cst.Call, arg: cst.Arg) -> bool:
    """Whether purity judges the function `arg` hands to `call` where it runs, with the
    instances the arguments hold (`facts/purity.py`): `call` is an nnx transform that
    hands it its own arguments (`ARGUMENT_TRANSFORMS`), given it first, whose result is
    only called, at once (`nnx.grad(loss)(model)`) or through a local bound to it once
    (`g = nnx.grad(loss)`, then `g(model)` alone)."""
    if ctx.qualify(call.func) not in nnx_api.ARGUMENT_TRANSFORMS or arg is not call.args[0]:
        return False
    if any(c.func is call for c in stmt.calls):
        return True
    node = stmt.node
    if type(node) is not cst.Assign or node.value is not call or len(node.targets) != 1:
        return False
    target = node.targets[0].target
    if type(target) is not cst.Name:
        return False
    name = target.value
    stmts = ctx.graph.scope_stmts(fn.qualname)
    if name in fn.params or sum(name in s.defs for s in stmts) != 1:
        return False
    nodes = list(walk(fn.node.body))  # nested functions and lambdas too
    reads = [n for n in nodes if type(n) is cst.Name and n.value == name]
    calls = [n for n in nodes if type(n) is cst.Call and _names(n.func, name)]
    return len(reads) == len(calls) + 1  # the target, then callees only


def _jitted_callee(ctx: ModuleContext, scope: str, call: cst.Call) -> Function | None:
    func = call.func
    return ctx.graph.resolve_function(func.value, scope) if type(func) is cst.Name else None


def step_instances(ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> dict[str, str]:
    """The names `call` (of `stmt`) is given that hold an nnx instance there -> it
    (`facts/nnx_instances.py`): what a call of them runs is followed."""
    names = {a.value.value for a in call.args if type(a.value) is cst.Name}
    found = {n: called_instance(ctx, stmt, n) for n in sorted(names)}
    return {n: i for n, i in found.items() if i is not None}


def _given(callee: Function, call: cst.Call, held: dict[str, str]) -> dict[str, str]:
    """The callee's parameters given a name of `held` by name -> what it holds (none
    where the call unpacks arguments)."""
    given: dict[str, str] = {}
    if any(arg.star for arg in call.args):
        return given
    for position, arg in enumerate(call.args):
        value = arg.value
        if type(value) is not cst.Name or value.value not in held:
            continue
        if arg.keyword is not None:
            given[arg.keyword.value] = held[value.value]
        elif position < len(callee.positional):
            given[callee.positional[position]] = held[value.value]
    return given


_UNFOLLOWED = "code autoopt does not follow"


def _names(expr: cst.BaseExpression, name: str) -> bool:
    return type(expr) is cst.Name and expr.value == name


def _calls(call: cst.Call, names: set[str]) -> bool:
    return type(call.func) is cst.Name and call.func.value in names
