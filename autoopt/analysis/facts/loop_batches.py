"""Loop targets that hold a new batch every iteration: dead after the step taking them.

`for step, (x, y) in zip(range(n), dataloader((xs, ys), 32))` binds `x` and `y` anew
on every iteration to what a generator of this module yields. Donating them to the
step that takes them deletes nothing another name reads when all of these hold
(`batch_verdict`):

- the call statement is in the body of the innermost `for` loop whose target binds the
  name, that target's binding is the only one reaching the call, and the call is the
  only statement it reaches (the caller checks that the call reads it once and no
  nested function reads it): the name may be bound elsewhere in the scope, even to the
  dataset the generator is given (`for data in batches(data)`: the iterable is read
  once, before the first batch), but a read after the loop, or the loop's own iterable
  read again by an outer loop, reaches the last batch;
- the loop iterates a call of a generator function of this module, directly, as an
  argument of the builtins `zip` or `enumerate` (the target's element taking that
  argument's items), or through a name bound once to such a call and read by nothing
  but the loop;
- that function's name is bound once in the module, and every `yield` in it yields an
  expression (never a name or `yield from`) whose every leaf is made anew where it is
  yielded, one buffer per leaf (`_stale` finds none that is not): a tuple (or
  `tuple(E for a in arrays)`) of such expressions, or `A[I]` with `I` an array
  (advanced indexing: a NumPy copy, a JAX gather; `overlays/jax.py` `INDEX_COPIES`) and
  `A` an array, a parameter given an array or the element of a parameter given a tuple
  of arrays at the loop's call (written out, or a value the value model knows is a tuple
  or list of arrays: `(ts, labels) + coeffs`). A basic slice `A[i:j]` is no copy: JAX
  returns `A` itself where the slice covers it.

Where the loop iterates anything else (a list, `itertools.repeat`, a library's loader)
its items may be kept there: no fix. Where the generator's yields are not proven new
buffers the premise is unproven: unsafe, and the verdict names the part that fails.
`fresh_items` answers the same question for the may-share relation
(`analysis/facts/aliases.py`): such a batch holds no object another name holds, though
the generator keeps its arguments.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import CallSite, Function, Stmt
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.values.ints import builtin
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model
from autoopt.model import Applicability

_SAFE, _UNSAFE, _NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE
#: Kinds of arrays -> their type, as `overlays/jax.py` names it.
ARRAY_TYPES = {Kind.ARRAY: "jax.Array", Kind.HOST_ARRAY: "numpy.ndarray"}
#: Builtins whose items pair an item of each argument: the target's element `i` takes
#: argument `i`'s items (`enumerate` numbers its one argument: element 1 takes it).
_PAIRING = {"zip": None, "enumerate": 1}

Verdict = tuple[Applicability, str]


def batch_verdict(ctx: ModuleContext, stmt: Stmt, name: str) -> Verdict | None:
    """Whether `name`, read once at `stmt`, holds a new batch of the loop around it;
    None where `name` is not such a loop's target read only there."""
    header = _binding_loop(ctx, stmt, name)
    if header is None:
        return None
    source = _source(ctx, header, name)
    if source is None:  # a container or a library's iterator may keep what it gives
        return _NONE, f"`{name}` is neither replaced by the call's output nor proven dead after it"
    call, fn, gen_stmt = source
    return _fresh_yields(ctx, fn, CallSite(gen_stmt, call, fn))


def _binding_loop(ctx: ModuleContext, stmt: Stmt, name: str) -> Stmt | None:
    """The header of the innermost `for` around `stmt` whose target binds `name`, when
    its binding is the only one `stmt` reads and only `stmt` reads it (through an outer
    loop, the header's own iterable counts as a reader)."""
    graph = ctx.graph
    headers = [graph.stmts[graph.loops[i].header] for i in stmt.loops]
    binding = [h for h in headers if type(h.node) is cst.For and name in h.defs]
    if not binding or binding[-1] is not headers[-1]:
        return None
    header = binding[-1]
    if [d.id for d in graph.reaching_defs(stmt, name)] != [header.id]:
        return None
    if [u.id for u in graph.uses_of(header, name)] != [stmt.id]:
        return None
    return header


def _source(ctx: ModuleContext, header: Stmt, name: str) -> tuple[cst.Call, Function, Stmt] | None:
    """The generator call whose items bind `name`, its function, and the statement that
    makes it (the loop header, or the one binding the name the loop iterates)."""
    loop = header.node
    assert type(loop) is cst.For
    items = _items_of(ctx, loop.target, loop.iter, name)
    made_at = header
    if type(items) is cst.Name:
        bound = _bound_once(ctx, header, items.value)
        if bound is None:
            return None
        made_at, items = bound
    if type(items) is not cst.Call or type(items.func) is not cst.Name:
        return None
    fn = ctx.graph.resolve_function(items.func.value, header.scope)
    if fn is None or not fn.is_generator or _rebound(ctx, fn):
        return None
    return items, fn, made_at


def _items_of(
    ctx: ModuleContext, target: cst.BaseExpression, items: cst.BaseExpression, name: str
) -> cst.BaseExpression | None:
    """The iterable whose items bind `name`: `items`, or through the builtins `zip` and
    `enumerate` the argument whose element of the target binds it (None: not known)."""
    if type(items) is not cst.Call or type(items.func) is not cst.Name:
        return items if _binds(target, name) else None
    func = items.func.value
    if func not in _PAIRING or not builtin(ctx, func):
        return items if _binds(target, name) else None
    args = [a for a in items.args if not (a.keyword is not None and a.keyword.value == "strict")]
    if type(target) not in (cst.Tuple, cst.List) or any(a.keyword or a.star for a in args):
        return None
    elements = [e.value for e in target.elements]  # type: ignore[attr-defined]
    fixed = _PAIRING[func]
    if fixed is not None:  # `enumerate(items)`: the count, then the item
        pairs = [(elements[fixed], args[0].value)] if len(args) == 1 == len(elements) - 1 else []
    else:
        values = [a.value for a in args]
        pairs = list(zip(elements, values, strict=True)) if len(values) == len(elements) else []
    return next((a for t, a in pairs if _binds(t, name)), None)


def _binds(target: cst.BaseExpression, name: str) -> bool:
    """Whether `target` (a name or nested tuples of names) binds `name`."""
    if type(target) is cst.Name:
        return target.value == name
    if type(target) in (cst.Tuple, cst.List):
        return any(_binds(e.value, name) for e in target.elements)  # type: ignore[attr-defined]
    return False


def _bound_once(ctx: ModuleContext, header: Stmt, name: str) -> tuple[Stmt, cst.Call] | None:
    """`name = gen(...)`, the only binding of `name` in the scope, read only by the loop."""
    scope = ctx.graph.scope_stmts(header.scope)
    binders = [s for s in scope if name in s.defs]
    readers = [s for s in scope if name in s.uses]
    if len(binders) != 1 or readers != [header]:
        return None
    assigned = binders[0].call_assigned
    if assigned is None or assigned[0] != name:
        return None
    return binders[0], assigned[1]


def _rebound(ctx: ModuleContext, fn: Function) -> bool:
    """Whether the generator's name is bound anywhere but by its `def`."""
    return any(fn.name in s.defs and s.id != fn.header for s in ctx.graph.stmts)


def fresh_items(ctx: ModuleContext, header: Stmt, name: str) -> bool:
    """Whether the `for` loop `header` binds `name` to the items of a generator of this
    module whose every `yield` is proven new buffers: `name` then holds no object any
    other name holds (`analysis/facts/aliases.py` links it to nothing)."""
    if type(header.node) is not cst.For:
        return False
    source = _source(ctx, header, name)
    if source is None:
        return False
    call, fn, gen_stmt = source
    return _fresh_yields(ctx, fn, CallSite(gen_stmt, call, fn))[0] is _SAFE


def _fresh_yields(ctx: ModuleContext, fn: Function, site: CallSite) -> Verdict:
    """Safe when every `yield` of `fn` yields new buffers only, one per leaf."""
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        for node in stmt.own_nodes:
            if type(node) is not cst.Yield:
                continue
            value = node.value
            if value is None or isinstance(value, cst.From):
                return _UNSAFE, f"`{fn.name}` yields values it does not make (`yield from`)"
            why = _stale(ctx, fn, site, stmt, value, None)
            if why is not None:
                return _UNSAFE, (
                    f"cannot prove `{fn.name}` yields new buffers (`{ctx.code(value)}`){why}"
                )
    return _SAFE, ""


def _stale(
    ctx: ModuleContext,
    fn: Function,
    site: CallSite,
    stmt: Stmt,
    expr: cst.BaseExpression,
    element: tuple[str, str] | None,
) -> str | None:
    """None where every leaf of `expr`, evaluated at `stmt` of `fn`, is a new buffer of
    its own; else the premise that fails, as a clause (empty where nothing more is
    known); `element` is (name, parameter) for `E` in `tuple(E for name in parameter)`."""
    if type(expr) in (cst.Tuple, cst.List):
        elements = expr.elements  # type: ignore[attr-defined]
        if any(type(e) is cst.StarredElement for e in elements):
            return ""
        found = (_stale(ctx, fn, site, stmt, e.value, element) for e in elements)
        return next((why for why in found if why is not None), None)
    if type(expr) is cst.Call:
        return _stale_comprehension(ctx, fn, site, stmt, expr)
    if type(expr) is not cst.Subscript or len(expr.slice) != 1:
        return ""
    index = expr.slice[0].slice
    if type(index) is not cst.Index or not _is_array(ctx, stmt, index.value):
        return ": its index is no array (a basic slice may return the array itself)"
    return _array_source(ctx, fn, site, stmt, expr.value, element)


def _stale_comprehension(
    ctx: ModuleContext, fn: Function, site: CallSite, stmt: Stmt, call: cst.Call
) -> str | None:
    """`tuple(E for a in p)` (or `list`), `p` a parameter of `fn`, `E` fresh for each."""
    func, args = call.func, call.args
    if type(func) is not cst.Name or func.value not in ("tuple", "list") or len(args) != 1:
        return ""
    gen = args[0].value
    if type(gen) is not cst.GeneratorExp or gen.for_in.inner_for_in is not None:
        return ""
    for_in = gen.for_in
    if for_in.ifs or type(for_in.target) is not cst.Name or type(for_in.iter) is not cst.Name:
        return ""
    element = (for_in.target.value, for_in.iter.value)
    return _stale(ctx, fn, site, stmt, gen.elt, element)


def _array_source(
    ctx: ModuleContext,
    fn: Function,
    site: CallSite,
    stmt: Stmt,
    expr: cst.BaseExpression,
    element: tuple[str, str] | None,
) -> str | None:
    """None where `expr` is proven an array: by its value, as a parameter of `fn` given
    an array, or as the element of a parameter given a tuple of arrays (written out, or
    a value the value model knows is a tuple or list of arrays); else why not."""
    if _is_array(ctx, stmt, expr):
        return None
    if type(expr) is not cst.Name:
        return f": `{ctx.code(expr)}` is not proven an array"
    param = element[1] if element is not None and expr.value == element[0] else expr.value
    given = _argument(ctx, fn, site, param)
    if given is None:
        return f": `{ctx.code(expr)}` is not proven an array"
    if element is None or param != element[1]:
        proven = _is_array(ctx, site.stmt, given)
        return None if proven else f": `{ctx.code(given)}`, given as `{param}`, is no array"
    if type(given) in (cst.Tuple, cst.List):
        parts = list(given.elements)  # type: ignore[attr-defined]
        for part in parts:
            if type(part) is cst.StarredElement or not _is_array(ctx, site.stmt, part.value):
                return f": `{ctx.code(part.value)}`, given in `{param}`, is not proven an array"
        return None if parts else f": `{param}` is given no array"
    value = model(ctx).value_of(site.stmt, given)
    if value.container in ("tuple", "list"):
        return None
    return f": `{ctx.code(given)}`, given as `{param}`, is not proven a tuple of arrays"


def _argument(
    ctx: ModuleContext, fn: Function, site: CallSite, param: str
) -> cst.BaseExpression | None:
    """The expression the loop's call gives `param`, where `fn` never rebinds it."""
    if param not in fn.params:
        return None
    if any(param in s.defs for s in ctx.graph.scope_stmts(fn.qualname)):
        return None
    return site.argument(fn.params.index(param), param)


def _is_array(ctx: ModuleContext, stmt: Stmt, expr: cst.BaseExpression) -> bool:
    """Whether `expr` is proven an array whose indexing by an array copies it."""
    return ARRAY_TYPES.get(model(ctx).value_of(stmt, expr).kind, "") in jax_api.INDEX_COPIES
