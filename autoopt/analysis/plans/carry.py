"""Does a loop-carried value keep its shape and dtype from one iteration to the next?

A compiled loop (`lax.scan`, `lax.fori_loop`) needs its carry to keep both, where a
Python loop may broadcast or promote it (a scalar that becomes a vector, bfloat16
that becomes float32 after one step). The proof follows the value the loop rebinds
back to the name itself: `.at[]` updates of it, arithmetic with Python numbers
(weakly typed, so they neither promote nor broadcast) or with other values of its
own type, shape-keeping elementwise functions of it, `jax.grad` with respect to it,
module functions whose returned value keeps the type of the parameter it was
passed as, and `+`, `-`, `*` with a JAX array the carried value was already combined
with that way before the loop (`u = u0 * mask`, then `u = f(u) * mask` in it:
broadcasting shapes and promoting dtypes are joins, so combining with the same array
again changes neither). Where no such relation holds (a matrix product, a reduction
broadcast back, a NamedTuple's fields), `analysis/plans/carry_types.py` computes the types
the carry has when the loop starts and after one iteration instead. Anything else is
unproven.

`typed_like` asks the same question of a name the body binds without carrying it
(a temporary): which carried name's shape and dtype it provably has.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import base_name, is_at_update
from autoopt.analysis.core.graph import Function, Stmt
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.plans.carry_types import carry_types, entry_defs, refined
from autoopt.analysis.values.lattice import UNKNOWN, Kind, Value, join_all
from autoopt.analysis.values.model import model

_MAX_DEPTH = 10  # calls and local names followed: helpers that call helpers
#: Operators whose result type is the join of their operands' (broadcast shape, promoted
#: dtype): combining a value with the same array twice gives the type of doing it once.
_JOINS = (cst.Add, cst.Subtract, cst.Multiply)


def unstable_carry(ctx: ModuleContext, body: list[Stmt], carry: tuple[str, ...]) -> list[str]:
    """A doubt for each carried name whose type an iteration may change.

    The proofs of the names hold together: each may read the other carried names as
    having their types at the loop's start, so any doubt is a doubt about them all.
    A module that binds names with `:=` gets no proof: the dataflow graph does not see
    those bindings (any `:=` in the text counts)."""
    if ":=" in ctx.source:
        why = "the module binds names with `:=`, which the analysis does not follow"
        return [f"cannot prove `{n}` keeps its shape and dtype: {why}" for n in carry]
    scope = body[0].scope
    classes = _same_type_classes(ctx, body, carry)
    doubts = []
    computed = carry_types(ctx, body, carry)
    for name in carry:
        if computed.proven(name):
            continue
        keeps = _Keeps(ctx, entry_value(ctx, body, name), scope, body)
        if not all(keeps.rebinding(s, name, classes[name]) for s in body if name in s.defs):
            change = computed.change(name)
            why = f": {change}" if change else ""
            doubts.append(f"cannot prove `{name}` keeps its shape and dtype across iterations{why}")
    return doubts


def typed_like(
    ctx: ModuleContext, body: list[Stmt], carry: tuple[str, ...], name: str
) -> str | None:
    """A carried name whose shape and dtype `name`, bound in the loop's body and not
    carried, provably has after every iteration; None where none is proven. Only
    meaningful for a carry `unstable_carry` proves stable (the proof reads every carried
    name in the body as having its type at the loop's start)."""
    defs = [s for s in body if name in s.defs]
    if not defs:
        return None
    classes = _same_type_classes(ctx, body, carry)
    for other in carry:
        keeps = _Keeps(ctx, entry_value(ctx, body, other), body[0].scope, body)
        if all(keeps.rebinding(s, name, classes[other]) for s in defs):
            return other
    return None


def _same_type_classes(
    ctx: ModuleContext, body: list[Stmt], carry: tuple[str, ...]
) -> dict[str, frozenset[str]]:
    """Carried names of one type at the loop's start (`vel = tree_map(jnp.zeros_like,
    params)`): each may stand for the others in the proof, which holds for all at once."""
    first = min(body, key=lambda s: s.id)
    keeps = _Keeps(ctx, UNKNOWN, first.scope)
    same = {name: {name} for name in carry}
    for name in carry:
        for definition in entry_defs(ctx, body, name):
            bound = _bound(definition, name)
            for other in carry:
                other_names = frozenset({other})
                if other != name and bound and keeps.expr(definition, *bound, other_names, 0):
                    merged = same[name] | same[other]
                    for member in merged:
                        same[member] = merged
    return {name: frozenset(members) for name, members in same.items()}


def entry_value(ctx: ModuleContext, body: list[Stmt], name: str) -> Value:
    """The value `name` has when the loop starts: its definitions before the loop; the
    shape and dtype computed from them (`carry_types`) where the value model has none,
    and the dtype every leaf of a pytree class instance has."""
    values = model(ctx)
    entry = entry_defs(ctx, body, name)
    value = join_all([values.defined(d, name) for d in entry]) if entry else UNKNOWN
    if value.typed or value.kind not in (Kind.ARRAY, Kind.PYTREE):
        return value
    return refined(value, carry_types(ctx, body, (name,), iterate=False).entry.get(name))


def _bound(stmt: Stmt, name: str) -> tuple[cst.BaseExpression, int | None] | None:
    """The value `stmt` binds to `name`, and its element index for `a, b = value`."""
    node = stmt.node
    if type(node) is cst.AugAssign and type(node.target) is cst.Name:
        return cst.BinaryOperation(node.target, cst.Add(), node.value), None
    if not (type(node) is cst.Assign and len(node.targets) == 1):
        return None
    target = node.targets[0].target
    if type(target) is cst.Name:
        return (node.value, None) if target.value == name else None
    if type(target) is cst.Tuple or type(target) is cst.List:
        names = [e.value.value if type(e.value) is cst.Name else None for e in target.elements]
        if name in names:
            index = names.index(name)
            value = node.value
            if type(value) is cst.Tuple and len(value.elements) == len(names):
                return value.elements[index].value, None
            return value, index
    return None


class _Keeps:
    """Whether an expression has the shape and dtype that `name` has at its statement."""

    def __init__(
        self, ctx: ModuleContext, entry: Value, loop_scope: str, body: list[Stmt] | None = None
    ) -> None:
        self.ctx = ctx
        self.loop_scope = loop_scope  # where `name` is the carry itself
        self.body = body  # the loop's statements (None: no combination before it is known)
        self.values = model(ctx)
        self.entry = entry  # the carried value's type when the loop starts
        self.lambda_params: frozenset[str] = frozenset()  # inside a `tree_map` lambda

    def rebinding(self, stmt: Stmt, name: str, names: frozenset[str]) -> bool:
        bound = _bound(stmt, name)
        return bound is not None and self.expr(stmt, bound[0], bound[1], names, 0)

    def expr(
        self,
        stmt: Stmt,
        expr: cst.BaseExpression,
        index: int | None,
        names: frozenset[str],
        depth: int,
    ) -> bool:
        """Whether `expr` (or its element `index`) has the type every one of `names` has."""
        if depth > _MAX_DEPTH:
            return False
        if index is None and depth == 0 and self._same_as_entry(stmt, expr):
            return True
        if index is not None:
            return type(expr) is cst.Call and self._call(stmt, expr, index, names, depth)
        if type(expr) is cst.Name and expr.value in names:
            return expr.value in self.lambda_params or self._unchanged(
                stmt, expr.value, names, depth
            )
        if type(expr) is cst.Name:
            return self._local(stmt, expr.value, names, depth)
        if type(expr) is cst.UnaryOperation:
            return self.expr(stmt, expr.expression, None, names, depth)
        if type(expr) is cst.BinaryOperation:
            sides = [expr.left, expr.right]
            typed = [s for s in sides if self.values.value_of(stmt, s).kind is not Kind.SCALAR]
            keeping = [s for s in typed if self.expr(stmt, s, None, names, depth)]
            others = [s for s in typed if s not in keeping]
            joins = isinstance(expr.operator, _JOINS)
            return bool(keeping) and all(
                self._same_as(stmt, s, names) or (joins and self._absorbed(stmt, s, names))
                for s in others
            )
        if type(expr) is cst.Call:
            return self._call(stmt, expr, None, names, depth)
        return False

    def _same_as_entry(self, stmt: Stmt, expr: cst.BaseExpression) -> bool:
        """Both types known and equal: `acc = acc + x[i]` for `acc = jnp.zeros(3)` and
        rows of a `(n, 3)` array of the same dtype."""
        value = self.values.value_of(stmt, expr)
        entry = self.entry
        return value.typed and entry.typed and value.array == entry.array

    def _unchanged(self, stmt: Stmt, name: str, names: frozenset[str], depth: int) -> bool:
        """`name` read here holds the carry (in the loop) or the parameter it was passed
        as (in a helper), unless the helper rebinds it first: then that value must keep
        the type."""
        if stmt.scope == self.loop_scope:
            return True
        defs = self.ctx.graph.reaching_defs(stmt, name)
        return not defs or self._local(stmt, name, names, depth)

    def _same_as(self, stmt: Stmt, expr: cst.BaseExpression, names: frozenset[str]) -> bool:
        return any(self._same_as_name(stmt, expr, name) for name in names)

    def _same_as_name(self, stmt: Stmt, expr: cst.BaseExpression, name: str) -> bool:
        """`expr` has the known shape and dtype that `name` has here, or a shape that
        broadcasts into it with the same dtype (so combining them changes neither)."""
        mine = self.values.name(stmt, name)
        other = self.values.value_of(stmt, expr)
        if not (mine.typed and other.typed) or mine.dtype != other.dtype:
            return False
        assert mine.shape is not None and other.shape is not None
        tail = mine.shape[len(mine.shape) - len(other.shape) :] if other.shape else ()
        return len(other.shape) <= len(mine.shape) and all(
            o in (1, m) for o, m in zip(other.shape, tail, strict=True)
        )

    def _absorbed(self, stmt: Stmt, expr: cst.BaseExpression, names: frozenset[str]) -> bool:
        """`expr` is a JAX array, read in the loop's own body and bound once before the
        loop, that the value of one of `names` was combined with by `+`, `-` or `*` on
        every path into the loop (`u = jnp.asarray(u0) * mask`, possibly through plain
        copies `v = u`): the carried type is already the join with its type."""
        if self.body is None or type(expr) is not cst.Name:
            return False
        if self.values.value_of(stmt, expr).kind is not Kind.ARRAY:
            return False
        sources = self.ctx.graph.reaching_defs(stmt, expr.value)
        inside = {s.id for s in self.body}
        if stmt.id not in inside or len(sources) != 1 or sources[0].id in inside:
            return False
        for name in names:
            entry = entry_defs(self.ctx, self.body, name)
            if entry and all(self._combined(d, name, expr.value, sources[0], 0) for d in entry):
                return True
        return False

    def _combined(self, stmt: Stmt, name: str, other: str, source: Stmt, depth: int) -> bool:
        """`stmt` binds `name` to a value combined with `other` (bound by `source`) by
        `+`, `-` or `*`, or to a name that is such a value wherever it comes from."""
        node = stmt.node
        bound = _bound(stmt, name)
        if depth > _MAX_DEPTH or type(node) is not cst.Assign or bound is None:
            return False
        value, index = bound
        if index is not None:
            return False
        graph = self.ctx.graph
        if type(value) is cst.Name:
            defs = graph.reaching_defs(stmt, value.value)
            return bool(defs) and all(
                self._combined(d, value.value, other, source, depth + 1) for d in defs
            )
        if not (type(value) is cst.BinaryOperation and isinstance(value.operator, _JOINS)):
            return False
        return any(
            type(side) is cst.Name
            and side.value == other
            and [d.id for d in graph.reaching_defs(stmt, other)] == [source.id]
            for side in (value.left, value.right)
        )

    def _local(self, stmt: Stmt, local: str, names: frozenset[str], depth: int) -> bool:
        """A local name with one definition that keeps the type (`grad = ...` above)."""
        defs = self.ctx.graph.reaching_defs(stmt, local)
        if len(defs) != 1:
            return False
        bound = _bound(defs[0], local)
        return bound is not None and self.expr(defs[0], bound[0], bound[1], names, depth + 1)

    def _call(
        self, stmt: Stmt, call: cst.Call, index: int | None, names: frozenset[str], depth: int
    ) -> bool:
        if is_at_update(call.func):
            return index is None and base_name(call.func) in names
        args = [a.value for a in call.args if a.keyword is None and not a.star]
        if type(call.func) is cst.Call:
            return self._gradient(stmt, call.func, args, index, names, depth)
        qual = self.ctx.qualify(call.func) or ""
        if qual in jax_api.TREE_MAPS and index is None:
            return self._tree_map(stmt, args, names, depth)
        if qual.startswith(("jax.numpy.", "jax.nn.")) and index is None:
            return self._shape_keeping(stmt, qual, args) and self.expr(
                stmt, args[0], None, names, depth
            )
        if type(call.func) is cst.Name:
            fn = self.ctx.graph.resolve_function(call.func.value, stmt.scope)
            return fn is not None and self._function(stmt, fn, args, index, names, depth)
        return False

    def _shape_keeping(self, stmt: Stmt, qual: str, args: list[cst.BaseExpression]) -> bool:
        """A shape-keeping function whose other arguments are Python numbers."""
        rest = [a for a in args[1:] if self.values.value_of(stmt, a).kind is not Kind.SCALAR]
        return qual.rsplit(".", 1)[-1] in jax_api.SHAPE_KEEPING and bool(args) and not rest

    def _tree_map(
        self, stmt: Stmt, args: list[cst.BaseExpression], names: frozenset[str], depth: int
    ) -> bool:
        """`tree_map(f, t, *rest)` has the type of `t` when every tree keeps the type and
        `f` keeps the type of its arguments (`lambda p, g: p - lr * g`, `jnp.zeros_like`)."""
        if len(args) < 2 or not all(self.expr(stmt, t, None, names, depth) for t in args[1:]):
            return False
        func = args[0]
        qual = self.ctx.qualify(func) or ""
        if qual.startswith(("jax.numpy.", "jax.nn.")):
            return len(args) == 2 and qual.rsplit(".", 1)[-1] in jax_api.SHAPE_KEEPING
        if type(func) is not cst.Lambda:
            return False
        params = frozenset(p.name.value for p in func.params.params)
        outer, self.lambda_params = self.lambda_params, params
        try:
            return self.expr(stmt, func.body, None, params, depth + 1)
        finally:
            self.lambda_params = outer

    def _gradient(
        self,
        stmt: Stmt,
        transform: cst.Call,
        args: list[cst.BaseExpression],
        index: int | None,
        names: frozenset[str],
        depth: int,
    ) -> bool:
        """`jax.grad(f)(w, ...)` and the gradient of `jax.value_and_grad(f)(w, ...)`
        have the type of `w` (the default `argnums=0`)."""
        qual = self.ctx.qualify(transform.func) or ""
        if any(a.keyword is not None and a.keyword.value == "argnums" for a in transform.args):
            return False
        wanted = None if qual in jax_api.GRADS else 1 if qual in jax_api.VALUE_AND_GRADS else -1
        return index == wanted and bool(args) and self.expr(stmt, args[0], None, names, depth)

    def _function(
        self,
        stmt: Stmt,
        fn: Function,
        args: list[cst.BaseExpression],
        index: int | None,
        names: frozenset[str],
        depth: int,
    ) -> bool:
        """A module function returning (element `index` of) a value that keeps the type
        of the parameters our values were passed as."""
        passed = [i for i, a in enumerate(args) if self.expr(stmt, a, None, names, depth + 1)]
        params = frozenset(fn.params[i] for i in passed if i < len(fn.positional))
        returns = [s for s in self.ctx.graph.scope_stmts(fn.qualname) if _returns(s)]
        if not params or not returns:
            return False
        return all(self._returned(ret, params, index, depth) for ret in returns)

    def _returned(self, ret: Stmt, params: frozenset[str], index: int | None, depth: int) -> bool:
        value = ret.node.value  # type: ignore[attr-defined]  # a Return
        if index is not None:
            if type(value) is not cst.Tuple or index >= len(value.elements):
                return False
            value = value.elements[index].value
        return self.expr(ret, value, None, params, depth + 1)


def _returns(stmt: Stmt) -> bool:
    return type(stmt.node) is cst.Return and stmt.node.value is not None
