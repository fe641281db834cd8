"""Module globals that hold one known library layer for as long as a loop runs.

A notebook rebinds `model` cell after cell (`model = nn.Dense(5)`, later
`model = MLP(...)`), and a function it defines reads the global when it runs
(`pred = model.apply(params, x)`). Such a global is changed by the program, so a
function reading it is not pure in general; but a step extracted from one loop (AO103)
runs only while that loop runs, so what it reads is the binding that reaches the loop,
flow-sensitively. `held_layers(ctx, loop)` gives the globals proven to hold one linen
layer of a kind the overlay lists (`overlays/flax_linen.py`, `APPLY_PURE_LAYERS`: its
`init` and `apply` are pure) for the whole time `loop` runs, when all of these hold:

- the loop runs at module level (a function's loop would read globals some caller may
  have rebound);
- exactly one binding of the name reaches the loop's header, `name = nn.Dense(...)` at
  module level outside any loop, whose arguments are plain values (numbers, strings,
  shapes, dtypes, None: no function the layer would run);
- neither the loop nor any loop around it binds or changes the name; no function
  declares it `global`, and nothing rebinds globals through the module's namespace
  (`facts/reflection.py`);
- every read of the name in a function (which may run at any time), and every read at
  module level that binding reaches, is the receiver of `name.init(...)` or `name.apply(...)`:
  no alias of the layer exists that could change its fields (linen layers are not
  frozen: `model.features = 4` works) and nothing changes them through the name.

Anything else leaves the name out, and a call of its methods stays code autoopt cannot
see.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import evaluated_exprs, is_literal
from autoopt.analysis.core.graph import MODULE, Loop, Stmt
from autoopt.analysis.core.walk import walk
from autoopt.analysis.facts.library_objects import enclosing_function, refers_to_global
from autoopt.analysis.facts.reflection import rebinding
from autoopt.analysis.overlays import flax_linen as linen_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.layers import layer_call
from autoopt.analysis.values.model import model

#: The kinds of a layer's constructor argument that run no code (sizes, names, dtypes).
_PLAIN_KINDS = (Kind.SCALAR, Kind.STRING, Kind.SHAPE, Kind.DTYPE, Kind.NONE)


def held_layers(ctx: ModuleContext, loop: Loop) -> dict[str, str]:
    """The module globals proven to hold one listed linen layer while `loop` runs -> the
    layer's qualified class."""
    return ctx.per_module(_held_layers, loop.id)


def layer_at(ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression) -> str | None:
    """The listed linen layer class the name `expr` holds where the module-level `stmt`
    reads it: every binding reaching it binds one (plain arguments), whose every later
    read is one of its listed methods; else None."""
    if type(expr) is not cst.Name or stmt.scope != MODULE:
        return None
    name = expr.value
    if name in rebinding(ctx).names or rebinding(ctx).anything or _declared_global(ctx, name):
        return None
    binders = ctx.graph.reaching_defs(stmt, name)
    classes = {_layer_binding(ctx, b, name) for b in binders}
    if not binders or None in classes or len(classes) != 1:
        return None
    if any(_other_reader(ctx, b, name) is not None for b in binders):
        return None
    return classes.pop()


def why_not_held(ctx: ModuleContext, loop: Loop, name: str) -> str | None:
    """Why the global `name`, which some module-level statement binds to a listed linen
    layer, is not proven to hold one while `loop` runs ("" when it is); None where no
    statement binds it to one."""
    return ctx.per_module(_verdicts, loop.id).get(name, (None, None))[1]


def _held_layers(ctx: ModuleContext, loop_id: int) -> dict[str, str]:
    verdicts = ctx.per_module(_verdicts, loop_id)
    return {name: cls for name, (cls, why) in verdicts.items() if cls and not why}


def _verdicts(ctx: ModuleContext, loop_id: int) -> dict[str, tuple[str | None, str]]:
    """Each global some statement binds to a listed layer -> (its class while the loop
    runs, else None; why it is not proven held, "" when it is)."""
    loop = ctx.graph.loops[loop_id]
    return {name: _verdict(ctx, loop, name) for name in sorted(_layer_names(ctx))}


def _verdict(ctx: ModuleContext, loop: Loop, name: str) -> tuple[str | None, str]:
    graph = ctx.graph
    if loop.scope != MODULE:
        return None, f"the loop runs in a function, whose callers may rebind `{name}`"
    how = rebinding(ctx).how(name)
    if how:
        return None, f"`{name}` may be rebound through {how}"
    if any(name in graph.written_in_loop(outer) for outer in (*loop.loops, loop.id)):
        return None, f"the loop rebinds or changes `{name}`"
    if _declared_global(ctx, name):
        return None, f"a function rebinds `{name}` through `global`"
    binder = _reaching(ctx, graph.stmts[loop.header], name)
    if binder is None:
        return None, f"no one binding of `{name}` reaches the loop on every path"
    cls = _layer_binding(ctx, binder, name)
    if cls is None:
        line = ctx.span(binder.node).line
        return None, (
            f"the binding of `{name}` reaching the loop, at line {line}, is not a linen "
            "layer autoopt lists, built from plain values"
        )
    reader = _other_reader(ctx, binder, name)
    if reader is not None:
        return None, (
            f"line {ctx.span(reader.node).line} reads `{name}` other than to call its "
            "`init` or `apply`, so the layer may be kept or changed"
        )
    return cls, ""


def _reaching(ctx: ModuleContext, header: Stmt, name: str) -> Stmt | None:
    """The one module-level binding of `name` that reaches `header` on every path: the
    last before it, which runs whenever the header does."""
    before = [s for s in ctx.graph.scope_stmts(MODULE) if name in s.defs and s.id < header.id]
    last = max(before, key=lambda s: s.id, default=None)
    return last if last is not None and ctx.graph.dominates(last, header) else None


def layer_globals(ctx: ModuleContext) -> list[str]:
    """The module-level names some statement binds to a call of a listed layer."""
    return sorted(_layer_names(ctx))


def _layer_names(ctx: ModuleContext) -> set[str]:
    """The module-level names some statement binds to a call of a listed layer."""
    return {
        t.target.value
        for s in ctx.graph.scope_stmts(MODULE)
        if type(s.node) is cst.Assign
        and type(s.node.value) is cst.Call
        and ctx.qualify(s.node.value.func) in linen_api.APPLY_PURE_LAYERS
        for t in s.node.targets
        if type(t.target) is cst.Name
    }


def _layer_binding(ctx: ModuleContext, stmt: Stmt, name: str) -> str | None:
    """The listed layer class `stmt` binds `name` to: `name = nn.Dense(...)` alone, at
    module level outside loops, its arguments plain values."""
    node = stmt.node
    if stmt.scope != MODULE or stmt.loops or type(node) is not cst.Assign:
        return None
    if len(node.targets) != 1 or type(node.targets[0].target) is not cst.Name:
        return None
    value = node.value
    if node.targets[0].target.value != name or type(value) is not cst.Call:
        return None
    cls = ctx.qualify(value.func)
    if cls not in linen_api.APPLY_PURE_LAYERS:
        return None
    values = model(ctx)
    for arg in value.args:
        if arg.star or not (
            is_literal(arg.value) or values.value_of(stmt, arg.value).kind in _PLAIN_KINDS
        ):
            return None
    return cls


def _declared_global(ctx: ModuleContext, name: str) -> bool:
    return any(name in fn.globals for fn in ctx.graph.functions.values())


def _other_reader(ctx: ModuleContext, binder: Stmt, name: str) -> Stmt | None:
    """A statement reading `name`, where it may see the layer `binder` binds, other than
    as the receiver of one of its listed methods (reads inside functions, which may run
    at any time, and those at module level that `binder` reaches); None when there is
    none."""
    for fn in ctx.graph.functions.values():
        if _default_reads(fn.node, name):  # the default holds the object it reads
            return ctx.graph.stmts[fn.header]
    held = {name: ""}
    for stmt in ctx.graph.stmts:
        if name not in stmt.uses:
            continue
        if stmt.scope == MODULE and binder not in ctx.graph.reaching_defs(stmt, name):
            continue  # reads another binding of the name
        if not refers_to_global(ctx, enclosing_function(ctx, stmt.scope), name):
            continue
        for expr in _read_exprs(stmt.node):
            names = [n for n in walk(expr) if type(n) is cst.Name and n.value == name]
            receivers = [c for c in walk(expr) if type(c) is cst.Call and layer_call(held, c)]
            if len(names) != len(receivers):
                return stmt
    return None


def _default_reads(node: cst.FunctionDef, name: str) -> bool:
    """A default of the function reads `name` (the graph records no use of it)."""
    params = node.params
    every = [*params.posonly_params, *params.params, *params.kwonly_params]
    return any(
        type(n) is cst.Name and n.value == name
        for p in every
        if p.default is not None
        for n in walk(p.default)
    )


def _read_exprs(node: cst.CSTNode) -> list[cst.CSTNode]:
    """What a statement evaluates, and a class's bases."""
    if type(node) is cst.ClassDef:
        return [*node.decorators, *node.bases, *node.keywords]
    return evaluated_exprs(node)
