"""Which variables may hold the same device buffers (for donation and hoisting).

An expression *shares* the names whose objects may end up inside its value:
`b = a`, `s = State(p, p)`, `hist.append(x["w"])`, `p = avg = init()` all
make their names share buffers. Sharing is **strong** when it follows from the
syntax (names, containers, constructors, chained assignment) and **weak** when
autoopt only cannot rule it out (calls it cannot see, operators that may
concatenate lists). Calls that return new buffers (jitted functions, array
creation, random draws, conversions to Python or NumPy values) share nothing;
a NumPy view of a device array pins its buffer, so JAX then refuses to donate
it rather than delete it.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.execution import is_jit
from autoopt.analysis.core.exprs import (
    MUTATING_METHODS,
    base_name,
    bound_names,
    mutating_call_target,
    read_names,
)
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.core.jitted import jitted_callables
from autoopt.analysis.core.names import dotted
from autoopt.analysis.facts import purity
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import numpy as numpy_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

_MAX_DEPTH = 3
_LEAF_DEPTH = 8  # nested containers and helper calls followed to find a pytree's leaves
#: A pseudo-name for "somewhere autoopt cannot see": what unknown code may keep.
RETAINED = "<retained>"
_JOINING = (cst.Add, cst.Multiply, cst.BitOr)
_FRESH_NODES = (
    cst.Comparison, cst.UnaryOperation, cst.BaseNumber, cst.BaseString, cst.Ellipsis,
    cst.BinaryOperation,
)  # fmt: skip
_READS_ALL = (
    cst.Lambda, cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp, cst.StarredElement,
    cst.Await, cst.NamedExpr,
)  # fmt: skip


@dataclass
class Shares:
    """The names an expression's value may hold, split by how sure autoopt is."""

    strong: set[str] = field(default_factory=set)
    weak: set[str] = field(default_factory=set)

    def add(self, other: Shares, weak: bool = False) -> None:
        if weak:
            self.weak |= other.strong | other.weak
        else:
            self.strong |= other.strong
            self.weak |= other.weak

    def names(self) -> set[str]:
        return self.strong | self.weak


def scope_sharing(ctx: ModuleContext, scope: str, depth: int = 0) -> Sharing:
    """The may-share relation of `scope`, built once per module; each caller gets its
    own copy, whose `at` it may move."""
    return copy.copy(ctx.per_module(Sharing, scope, None, depth))


class Sharing:
    """The may-share relation of one scope, as an undirected graph of names."""

    def __init__(self, ctx: ModuleContext, scope: str, skip: Stmt | None = None, depth: int = 0):
        self.ctx = ctx
        self.scope = scope
        self.depth = depth
        self.jitted = {j.name for j in jitted_callables(ctx)}
        self.ignored = set(ctx.imports.bindings) | set(ctx.graph.classes)
        self.ignored |= {f.name for f in ctx.graph.functions.values()}
        self.ignored |= ctx.per_module(_constants)
        self.strong: dict[str, set[str]] = {}
        self.weak: dict[str, set[str]] = {}
        self.at: Stmt | None = None  # where `shares` evaluates values (set per statement read)
        self.retainers: dict[str, set[str]] = {}  # code that may keep names -> those names
        for stmt in ctx.graph.scope_stmts(scope):
            if stmt is not skip:
                self.at = stmt
                self._link_stmt(stmt)

    # -- queries -------------------------------------------------------------------
    def retained_by(self, names: set[str]) -> str | None:
        """The code that may keep a reference to one of `names`, if any."""
        for code, kept in sorted(self.retainers.items()):
            if kept & names:
                return code
        return None

    def component(self, names: Iterable[str], weak: bool) -> set[str]:
        """Every name reachable from `names` (through weak links too when `weak`)."""
        seen, todo = set(names), list(names)
        while todo:
            name = todo.pop()
            near = self.strong.get(name, set()) | (self.weak.get(name, set()) if weak else set())
            for other in near - seen:
                seen.add(other)
                todo.append(other)
        return seen

    def shares(self, expr: cst.BaseExpression) -> Shares:
        """The names `expr`'s value may hold."""
        out = Shares()
        if type(expr) is cst.Name:
            if expr.value not in ("True", "False", "None") and expr.value not in self.ignored:
                out.strong.add(expr.value)
        elif type(expr) is cst.Attribute or type(expr) is cst.Subscript:
            root: cst.BaseExpression = expr
            while type(root) is cst.Attribute or type(root) is cst.Subscript:
                root = root.value
            out.add(self.shares(root))
        elif (
            type(expr) is cst.Tuple
            or type(expr) is cst.List
            or type(expr) is cst.Set
            or type(expr) is cst.Dict
        ):
            for element in expr.elements:
                out.add(self.shares(element.value))
        elif type(expr) is cst.IfExp:
            out.add(self.shares(expr.body))
            out.add(self.shares(expr.orelse))
        elif type(expr) is cst.BooleanOperation:
            out.add(self.shares(expr.left))
            out.add(self.shares(expr.right))
        elif type(expr) is cst.Call:
            out = self._call(expr)
        elif type(expr) is cst.BinaryOperation and isinstance(expr.operator, _JOINING):
            out.add(self.shares(expr.left), weak=True)  # `[a] + b`, `[a] * 2`, `d | e`
            out.add(self.shares(expr.right), weak=True)
        elif isinstance(expr, _READS_ALL):
            out.strong |= self._named(read_names(expr))
        elif not isinstance(expr, _FRESH_NODES):
            out.weak |= self._named(read_names(expr))
        return out

    # -- construction --------------------------------------------------------------
    def _named(self, names: Iterable[cst.Name]) -> set[str]:
        return {n.value for n in names} - self.ignored

    def _link(self, names: Iterable[str], shares: Shares) -> None:
        names = set(names) - self.ignored
        for name in names:
            for other, table in [(n, self.strong) for n in shares.strong] + [
                (n, self.weak) for n in shares.weak
            ]:
                if other != name:
                    table.setdefault(name, set()).add(other)
                    table.setdefault(other, set()).add(name)

    def _link_stmt(self, stmt: Stmt) -> None:
        node = stmt.node
        if type(node) is cst.Assign:
            targets = [t.target for t in node.targets]
            self._link_targets(targets, node.value)
            if len(targets) > 1:  # `p = avg = init()`: both names hold one object
                together = {n for t in targets for n in bound_names(t)}
                self._link(together, Shares(strong=together))
        elif (
            type(node) is cst.AugAssign or type(node) is cst.AnnAssign
        ) and node.value is not None:
            self._link_targets([node.target], node.value)
        elif type(node) is cst.For:
            self._link(bound_names(node.target), self.shares(node.iter))
        elif type(node) is cst.With:
            for item in node.items:
                if item.asname is not None:
                    self._link(bound_names(item.asname.name), self.shares(item.item))
        for call in stmt.calls:
            self._link_mutation(call)
            self._link_retention(call)

    def _link_targets(
        self, targets: Sequence[cst.BaseExpression], value: cst.BaseExpression
    ) -> None:
        for target in targets:
            pairs = _pairs(target, value)
            for sub_target, sub_value in pairs:
                shares = self.shares(sub_value)
                bound = set(bound_names(sub_target))
                root = base_name(sub_target)
                if root is not None and type(sub_target) is not cst.Name:
                    bound.add(root)  # `d[k] = v`, `obj.field = v`
                self._link(bound, shares)

    def _link_mutation(self, call: cst.Call) -> None:
        func = call.func
        if type(func) is cst.Attribute and func.attr.value in MUTATING_METHODS:
            root = base_name(func.value)
            if root is not None:
                shares = Shares()
                for arg in call.args:
                    shares.add(self.shares(arg.value))
                self._link({root}, shares)

    def _link_retention(self, call: cst.Call) -> None:
        """Code that may keep what it is given: the receiver of an unknown method keeps
        its arguments (`monitor.observe(w)`); an unknown or impure function may keep them
        anywhere (`RETAINED`)."""
        args = Shares()
        for arg in call.args:
            args.add(self.shares(arg.value))
        if not args.names() or self._keeps_nothing(call):
            return
        func = call.func
        holder = base_name(func.value) if type(func) is cst.Attribute else None
        if holder is not None and holder not in self.ignored:
            self._link({holder}, Shares(weak=args.names()))
        else:
            self._link({RETAINED}, Shares(weak=args.names()))
            self.retainers.setdefault(self.ctx.code(func), set()).update(args.names())

    def _keeps_nothing(self, call: cst.Call) -> bool:
        """JAX, NumPy, builtins, jitted functions, array methods and pure module
        functions return what they compute and keep no reference to their arguments."""
        qual = self.ctx.qualify(call.func) or ""
        name = dotted(call.func) or ""
        if qual.startswith(("jax.", "numpy.", "math.", "functools.")) or name in self.jitted:
            return True
        if qual in overlays.JIT_SPELLINGS:
            return True  # `eqx.filter_jit(f)`, like `jax.jit(f)`, keeps the function only
        if name in python_api.PURE_BUILTINS or name in ("print", "len", "isinstance"):
            return True
        func = call.func
        if type(func) is cst.Attribute:
            if func.attr.value in MUTATING_METHODS and not qual:
                return True  # linked by `_link_mutation`
            if self.at is not None:
                receiver = model(self.ctx).value_of(self.at, func.value).kind
                return receiver in (Kind.ARRAY, Kind.HOST_ARRAY, Kind.STRING)
            return False
        if name in self.ctx.graph.classes and self.at is not None:
            made = model(self.ctx).value_of(self.at, call.func)
            return made.detail == "pytree-class"  # a NamedTuple holds its fields, nothing else
        fn = self.ctx.graph.resolve_function(name, self.scope) if name and "." not in name else None
        return fn is not None and not purity.impurities(self.ctx, fn)

    def _call(self, call: cst.Call) -> Shares:
        qual = self.ctx.qualify(call.func) or dotted(call.func) or ""
        last = call.func.attr.value if type(call.func) is cst.Attribute else qual
        args = Shares()
        for arg in call.args:
            args.add(self.shares(arg.value))
        if _is_fresh(qual, last, call) or qual in self.jitted or self._host_copy(qual, call):
            return Shares()
        if type(call.func) is cst.Call and is_jit(self.ctx, call.func.func):
            return Shares()  # `jax.jit(f)(x)`: compiled outputs are new buffers
        if qual in jax_api.TREE_MAPS and call.args:
            return self._tree_map(call, args)
        if last[:1].isupper() or last in ("replace", "_replace", "copy"):
            receiver = (
                self.shares(call.func.value) if type(call.func) is cst.Attribute else Shares()
            )
            receiver.add(args)
            return receiver  # a constructor or a shallow copy holds what it is given
        fn = self.ctx.graph.resolve_function(qual, self.scope) if "." not in qual else None
        if fn is not None and self.depth < _MAX_DEPTH:
            return self._module_call(fn, call)
        out = Shares()
        out.add(args, weak=True)
        if type(call.func) is cst.Attribute:
            out.add(self.shares(call.func.value), weak=True)
        return out

    def _host_copy(self, qual: str, call: cst.Call) -> bool:
        """`jnp.asarray(a)` / `jax.device_put(a)` of a NumPy array: a new device buffer."""
        if qual not in jax_api.DEVICE_COPIES or not call.args or self.at is None:
            return False
        return model(self.ctx).value_of(self.at, call.args[0].value).kind is Kind.HOST_ARRAY

    def _tree_map(self, call: cst.Call, args: Shares) -> Shares:
        func = call.args[0].value
        qual = self.ctx.qualify(func) or ""
        if _is_fresh(qual, qual.rsplit(".", 1)[-1], None):
            return Shares()
        out = Shares()
        if type(func) is cst.Lambda:
            body = self.shares(func.body)
            params = {p.name.value for p in func.params.params}
            if not body.names() & params:
                return out
            out.add(args, weak=not body.strong & params)
            return out
        out.add(args, weak=True)
        return out

    def _module_call(self, fn: Function, call: cst.Call) -> Shares:
        """What a call of a module function returns, from its `return` statements."""
        inner = scope_sharing(self.ctx, fn.qualname, self.depth + 1)
        returned = Shares()
        for stmt in self.ctx.graph.scope_stmts(fn.qualname):
            if type(stmt.node) is cst.Return and stmt.node.value is not None:
                returned.add(inner.shares(stmt.node.value))
        strong = inner.component(returned.strong, weak=False)
        weak = inner.component(returned.names(), weak=True) - strong
        out = Shares()
        for names, is_weak in ((strong, False), (weak, True)):
            for name in names:
                out.add(self.argument(fn, call, name), weak=is_weak)
        return out

    def argument(self, fn: Function, call: cst.Call, name: str) -> Shares:
        """The caller-side names behind callee name `name` (a parameter or a global)."""
        local = {n for s in self.ctx.graph.scope_stmts(fn.qualname) for n in s.defs}
        if name not in fn.params:
            return Shares() if name in local else Shares(strong={name})
        params = fn.node.params
        variadic = {
            p.name.value for p in (params.star_arg, params.star_kwarg) if type(p) is cst.Param
        }
        if name not in variadic:
            expr = CallSite(self.at, call, fn).argument(fn.params.index(name), name)  # type: ignore[arg-type]  # self.at: set per statement read
            if expr is not None:
                return self.shares(expr)
        if name not in variadic and not any(a.star for a in call.args):
            return Shares()  # not passed: its default
        out = Shares()  # `*args`, `**kwargs`, or an argument hidden in a starred one
        for arg in call.args:
            out.add(self.shares(arg.value))
        return out


def _is_fresh(qual: str, last: str, call: cst.Call | None) -> bool:
    """Calls whose result holds no buffer of their arguments."""
    if (
        qual in python_api.FRESH_BUILTINS
        or qual in jax_api.HOST_COPIES
        or qual.startswith(("jax.random.", "jax.nn."))
    ):
        return not _copy_false(call)
    module = qual.rsplit(".", 1)[0]
    if module in ("jax.numpy", "numpy") and last in jax_api.FRESH_FUNCTIONS:
        return not _copy_false(call)
    is_method = call is not None and type(call.func) is cst.Attribute
    return is_method and module not in ("jax.numpy", "numpy") and last in numpy_api.FRESH_METHODS


def _constants(ctx: ModuleContext) -> set[str]:
    """Module names only ever bound to literals (`N = 8`, `SIZES = (2, 4)`): never buffers."""
    binders: dict[str, list[Stmt]] = {}
    for stmt in ctx.graph.scope_stmts(MODULE):
        for name in stmt.defs:
            binders.setdefault(name, []).append(stmt)
    return {
        name
        for name, stmts in binders.items()
        if all(type(s.node) is cst.Assign and _literal(s.node.value) for s in stmts)
    }


def _literal(expr: cst.BaseExpression) -> bool:
    if type(expr) is cst.Tuple:
        return all(_literal(e.value) for e in expr.elements)
    if type(expr) in (cst.UnaryOperation, cst.BinaryOperation):
        parts = [getattr(expr, a, None) for a in ("expression", "left", "right")]
        return all(_literal(p) for p in parts if p is not None)
    return isinstance(expr, cst.BaseNumber | cst.BaseString)


def _copy_false(call: cst.Call | None) -> bool:
    return call is not None and any(
        a.keyword is not None and a.keyword.value == "copy" for a in call.args
    )


def _pairs(
    target: cst.BaseExpression, value: cst.BaseExpression
) -> list[tuple[cst.BaseExpression, cst.BaseExpression]]:
    """`a, b = x, y` pairs `a` with `x` and `b` with `y`; otherwise the whole."""
    if (
        (type(target) is cst.Tuple or type(target) is cst.List)
        and (type(value) is cst.Tuple or type(value) is cst.List)
        and len(target.elements) == len(value.elements)
        and not any(type(e) is cst.StarredElement for e in target.elements)
        and not any(type(e) is cst.StarredElement for e in value.elements)
    ):
        return [
            pair
            for t, v in zip(target.elements, value.elements, strict=True)
            for pair in _pairs(t.value, v.value)
        ]
    return [(target, value)]


def repeated_leaf(ctx: ModuleContext, stmt: Stmt, name: str) -> tuple[str, bool] | None:
    """Why the value `name` holds when `stmt` reads it may hold one buffer in two of its
    leaves (donating it would donate that buffer twice), or None when its leaves are
    provably distinct. The flag says whether the repetition is proven (else unknown)."""
    values = model(ctx)
    if values.name(stmt, name).kind is Kind.ARRAY:
        return None  # one array: one buffer
    defs = [d for d in ctx.graph.reaching_defs(stmt, name) if d is not stmt]
    for definition in defs:
        if values.defined(definition, name).kind is Kind.ARRAY:
            continue
        value = _bound_value(definition, name)
        if value is None:
            return f"cannot prove the leaves of `{name}` are distinct buffers", False
        leaves = _Leaves(ctx, definition).of(value, 0)
        if leaves is None:
            code = ctx.code(value)
            return (
                f"cannot prove the leaves of `{name}` are distinct buffers (`{code}`)",
                False,
            )
        twice = _first_repeat(leaves, name)
        if twice is not None:
            return (
                f"`{twice}` fills two leaves of `{name}`: one buffer would be donated twice",
                True,
            )
    return None


def _bound_value(stmt: Stmt, name: str) -> cst.BaseExpression | None:
    node = stmt.node
    if type(node) is cst.Assign and all(type(t.target) is cst.Name for t in node.targets):
        return node.value  # `s = value`, or `s = t = value`
    return None


def _first_repeat(leaves: list[frozenset[str]], name: str) -> str | None:
    """A name behind two leaves (other than the value's own name, when there is one)."""
    seen: set[str] = set()
    for leaf in leaves:
        both = leaf & seen
        if both:
            return sorted(both - {name})[0] if both - {name} else name
        seen |= leaf
    return None


class _Leaves:
    """The names behind each leaf of a pytree expression (None: cannot tell)."""

    def __init__(self, ctx: ModuleContext, at: Stmt) -> None:
        self.ctx = ctx
        self.scope = at.scope
        self.sharing = scope_sharing(ctx, at.scope)
        self.sharing.at = at

    def of(self, expr: cst.BaseExpression, depth: int) -> list[frozenset[str]] | None:
        if depth > _LEAF_DEPTH:
            return None
        if type(expr) is cst.Tuple or type(expr) is cst.List:
            return self._all([e.value for e in expr.elements], depth)
        if type(expr) is cst.Dict:
            values = [e.value for e in expr.elements if type(e) is cst.DictElement]
            return self._all(values, depth) if len(values) == len(expr.elements) else None
        if type(expr) is cst.Name:
            if self._filled_with_names(expr.value):
                return None  # a container filled in place: its leaves are not tracked
            strong = self.sharing.component({expr.value}, weak=False)
            weak = self.sharing.component({expr.value}, weak=True)
            return [frozenset(strong)] if strong == weak else None
        if type(expr) is cst.Call:
            return self._call(expr, depth)
        if type(expr) in (cst.BinaryOperation, cst.UnaryOperation) and self._array(expr):
            return [frozenset()]  # arithmetic on arrays makes a new buffer
        shares = self.sharing.shares(expr)
        return [frozenset(shares.names())] if not shares.weak else None

    def _array(self, expr: cst.BaseExpression) -> bool:
        at = self.sharing.at
        return at is not None and model(self.ctx).value_of(at, expr).kind is Kind.ARRAY

    def _filled_with_names(self, name: str) -> bool:
        """`name[k] = v`, `name.f = v` or `name.append(v)` with a `v` that is not fresh."""
        for stmt in self.ctx.graph.scope_stmts(self.scope):
            if name not in stmt.mutates:
                continue
            node = stmt.node
            stored = [node.value] if type(node) is cst.Assign else []
            stored += [
                a.value for c in stmt.calls if mutating_call_target(c) == name for a in c.args
            ]
            self.sharing.at = stmt
            if any(self.sharing.shares(v).names() for v in stored):
                return True
        return False

    def _all(self, parts: list[cst.BaseExpression], depth: int) -> list[frozenset[str]] | None:
        out: list[frozenset[str]] = []
        for part in parts:
            leaves = self.of(part, depth + 1)
            if leaves is None:
                return None
            out += leaves
        return out

    def _call(self, call: cst.Call, depth: int) -> list[frozenset[str]] | None:
        qual = self.ctx.qualify(call.func) or dotted(call.func) or ""
        last = qual.rsplit(".", 1)[-1]
        if last in self.ctx.graph.classes or last[:1].isupper():
            return self._all([a.value for a in call.args], depth)
        fn = self.ctx.graph.resolve_function(qual, self.scope) if "." not in qual else None
        if fn is None:  # new buffers only, or a call autoopt cannot see into
            return [frozenset()] if not self.sharing.shares(call).names() else None
        returns = [
            s
            for s in self.ctx.graph.scope_stmts(fn.qualname)
            if type(s.node) is cst.Return and s.node.value is not None
        ]
        if len(returns) != 1:
            return None
        leaves = _Leaves(self.ctx, returns[0]).of(returns[0].node.value, depth + 1)  # type: ignore[attr-defined]  # a Return
        if leaves is None:
            return None
        return [self._caller_names(fn, call, leaf) for leaf in leaves]

    def _caller_names(self, fn: Function, call: cst.Call, leaf: frozenset[str]) -> frozenset[str]:
        """Callee names mapped to the caller's: a parameter becomes its argument's names."""
        out: set[str] = set()
        for name in leaf:
            if name in fn.params:
                out |= self.sharing.argument(fn, call, name).names() | {name}
            else:
                out.add(f"{fn.name}.{name}")
        return frozenset(out)
