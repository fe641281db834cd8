"""Values proven tiny: every array leaf a 0-d array or a PRNG key.

Donating such a value saves nothing worth a diff. A value is proven tiny only from what the
code spells out: a number literal, `jnp.array(1.0)` or `jnp.float32(1.0)` of one, a key
(`jax.random.PRNGKey(0)`, `jax.random.key(0)`, a `jax.random.split` of a key with no
count or a literal one up to 16), a tuple of such values or an element of one (`keys[0]`),
and a module class of this file deriving from `equinox.Module` alone, with no `__init__`
or `__post_init__`, whose every field (annotated, no default) the call sets to such a value.
Where every array leaf of their operands is 0-d (no key among them), so is every one of
the results of arithmetic (`+ - * / **`), of the library calls the overlays list
(`LEAF_SHAPES_FROM`: an optax optimizer's `init` and `update`, `apply_updates`) and of a
gradient (`eqx.filter_grad(f)(model, x)`, shaped like `model`).

A name is tiny where every definition reaching it is. A jitted step's own call that rebinds
an argument (`model = step(model)`) counts by induction: at the first call every argument
it replaces comes from tiny definitions, and the step returns tiny values from tiny
arguments, so it does at every call. Anything else (a parameter of the calling function, a
global some function rebinds, unseen code) is not tiny.
"""

from __future__ import annotations

from enum import IntEnum

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.core.jitted import call_sites
from autoopt.analysis.facts.fresh import receiver_class
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import optax as optax_api

_DEPTH = 12
_SCALAR_CALLS = frozenset(
    {"jax.numpy.array", "jax.numpy.asarray"} | {f"jax.numpy.{t}" for t in jax_api.DTYPES}
)
_ARITHMETIC = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.Power)
_KEYS = frozenset({"jax.random.PRNGKey", "jax.random.key"})
_SPLIT = "jax.random.split"
#: The most keys a split may make and stay tiny (8 bytes each).
_MAX_SPLIT = 16
_LEAF_SHAPES_FROM = {**optax_api.LEAF_SHAPES_FROM, **eqx_api.LEAF_SHAPES_FROM}


class Size(IntEnum):
    """How small a value is proven: every array leaf 0-d, or 0-d or a key."""

    SCALARS = 2
    KEYS = 1
    UNKNOWN = 0


def all_tiny(ctx: ModuleContext, step: Function, params: list[str]) -> bool:
    """Every call of the jitted `step` passes a proven-tiny value for each of `params`."""
    sites = [CallSite(s.stmt, s.call, step) for s in call_sites(ctx, step.name)]
    if not sites or not params:
        return False
    sizer = _Sizer(ctx, step, sites)
    return all(sizer.argument(site, p) > Size.UNKNOWN for site in sites for p in params)


class _Sizer:
    """The sizes of values around the calls of one jitted step."""

    def __init__(self, ctx: ModuleContext, step: Function, sites: list[CallSite]) -> None:
        self.ctx, self.step, self.sites = ctx, step, sites
        self.calls = {id(s.call) for s in sites}
        # the induction hypothesis, lowered until it holds: each parameter's size at
        # every call, and the size of what the step returns
        self.assumed = dict.fromkeys(step.params, Size.SCALARS)
        self.returns = Size.SCALARS
        self._settle()

    def _settle(self) -> None:
        """Lower the hypothesis to its greatest fixed point: each parameter no larger
        than some call passes it, the returns no larger than the step gives from them."""
        changed = True
        while changed:
            changed = False
            for param in self.step.params:
                size = min(self.argument(s, param) for s in self.sites)
                if size < self.assumed[param]:
                    self.assumed[param], changed = size, True
            returns = self._returns()
            if returns < self.returns:
                self.returns, changed = returns, True

    def _returns(self) -> Size:
        stmts = self.ctx.graph.scope_stmts(self.step.qualname)
        found = [s for s in stmts if type(s.node) is cst.Return]
        sizes = [
            Size.UNKNOWN if s.node.value is None else self.size(s, s.node.value)  # type: ignore[attr-defined]
            for s in found
        ]
        return min(sizes, default=Size.UNKNOWN)

    def argument(self, site: CallSite, param: str) -> Size:
        """The size of the value `site` passes for `param`."""
        expr = site.argument(self.step.params.index(param), param)
        return Size.UNKNOWN if expr is None else self.size(site.stmt, expr)

    def size(self, at: Stmt, expr: cst.BaseExpression, depth: int = 0) -> Size:
        """How small `expr`, read at `at`, is proven."""
        if depth > _DEPTH:
            return Size.UNKNOWN
        if _number(expr):
            return Size.SCALARS
        if type(expr) is cst.Tuple:
            parts = [self.size(at, e.value, depth + 1) for e in expr.elements]
            return (
                min(parts, default=Size.SCALARS)
                if all(type(e) is cst.Element for e in expr.elements)
                else Size.UNKNOWN
            )
        if type(expr) is cst.BinaryOperation and type(expr.operator) in _ARITHMETIC:
            return self._scalars(at, [expr.left, expr.right], depth)  # 0-d with 0-d
        if type(expr) is cst.Subscript and _integer_index(expr):
            return self.size(at, expr.value, depth + 1)  # a part of a tiny value
        if type(expr) is cst.Name:
            return self._name(at, expr.value, depth)
        if type(expr) is cst.Call and not any(a.star for a in expr.args):
            return self._call(at, expr, depth)
        return Size.UNKNOWN

    def _name(self, at: Stmt, name: str, depth: int) -> Size:
        graph = self.ctx.graph
        fn = graph.functions.get(at.scope)
        defs = graph.reaching_defs(at, name)
        if fn is not None and fn is not self.step and name in fn.params:
            return Size.UNKNOWN  # the caller's argument: not followed
        if at.scope == MODULE and any(name in f.globals for f in graph.functions.values()):
            return Size.UNKNOWN
        sizes = [self._defined(d, name, depth) for d in defs]
        if fn is self.step and name in fn.params and not any(graph.dominates(d, at) for d in defs):
            sizes.append(self.assumed[name])
        return min(sizes, default=Size.UNKNOWN)

    def _defined(self, stmt: Stmt, name: str, depth: int) -> Size:
        """The size of what `stmt` binds to `name`: the whole value it assigns (a part of
        a tiny value is tiny)."""
        node = stmt.node
        value = None
        if type(node) is cst.Assign and all(_binds(t.target, name) for t in node.targets):
            value = node.value
        if type(node) is cst.AnnAssign and type(node.target) is cst.Name:
            value = node.value
        if value is None:
            return Size.UNKNOWN
        if type(value) is cst.Call and id(value) in self.calls:
            return self.returns
        return self.size(stmt, value, depth + 1)

    def _call(self, at: Stmt, call: cst.Call, depth: int) -> Size:
        qual = self.ctx.qualify(call.func) or ""
        args = [a.value for a in call.args]
        if qual in _SCALAR_CALLS:
            return Size.SCALARS if len(args) == 1 and _number(args[0]) else Size.UNKNOWN
        if qual in _KEYS:
            return Size.KEYS
        if qual == _SPLIT:
            count = args[1:2]
            literal = len(args) <= 2 and all(_small_count(c) for c in count)
            return min(Size.KEYS, self.size(at, args[0], depth + 1)) if literal else Size.UNKNOWN
        inner = call.func
        if type(inner) is cst.Call and (self.ctx.qualify(inner.func) or "") in eqx_api.GRAD_LIKE:
            return self._scalars(at, args[:1], depth)  # the gradient: shaped like `model`
        shaped = _LEAF_SHAPES_FROM.get(qual) or _LEAF_SHAPES_FROM.get(self._method(at, call))
        if shaped is not None and not any(a.keyword for a in call.args):
            return self._scalars(at, [args[i] for i in shaped if i < len(args)], depth)
        if type(call.func) is cst.Name:
            return self._module(at, call, depth)
        return Size.UNKNOWN

    def _method(self, at: Stmt, call: cst.Call) -> str:
        func = call.func
        if type(func) is not cst.Attribute:
            return ""
        cls = receiver_class(self.ctx, at, func.value)
        return "" if cls is None else f"{cls}.{func.attr.value}"

    def _scalars(self, at: Stmt, args: list[cst.BaseExpression], depth: int) -> Size:
        """SCALARS where every one of `args` has 0-d array leaves only."""
        sizes = [self.size(at, a, depth + 1) for a in args]
        return Size.SCALARS if args and min(sizes) is Size.SCALARS else Size.UNKNOWN

    def _module(self, at: Stmt, call: cst.Call, depth: int) -> Size:
        """An equinox module class of this file whose every field the call sets."""
        assert type(call.func) is cst.Name
        fields = _module_fields(self.ctx, call.func.value)
        if fields is None or any(a.keyword is not None for a in call.args):
            return Size.UNKNOWN
        if len(call.args) != len(fields):
            return Size.UNKNOWN
        return min(self.size(at, a.value, depth + 1) for a in call.args) if fields else Size.SCALARS


def _module_fields(ctx: ModuleContext, name: str) -> list[str] | None:
    """The fields of `name`, a class bound once in this module that derives from
    `equinox.Module` alone, defines no `__init__` or `__post_init__`, and whose every
    field is annotated without a default (None otherwise)."""
    binders = [s for s in ctx.graph.scope_stmts(MODULE) if name in s.defs]
    node = binders[0].node if len(binders) == 1 else None
    if type(node) is not cst.ClassDef or len(node.bases) != 1 or node.keywords:
        return None
    if ctx.qualify(node.bases[0].value) not in eqx_api.MODULE_BASES or node.decorators:
        return None
    fields: list[str] = []
    for line in node.body.body:
        inner = line.body[0] if type(line) is cst.SimpleStatementLine else line
        if type(inner) is cst.FunctionDef and inner.name.value in ("__init__", "__post_init__"):
            return None
        if type(inner) is cst.AnnAssign:
            if inner.value is not None or type(inner.target) is not cst.Name:
                return None
            fields.append(inner.target.value)
    return fields


def _binds(target: cst.BaseExpression, name: str) -> bool:
    """`target` binds `name` as a plain name, or inside (nested) tuples and lists."""
    if type(target) is cst.Name:
        return target.value == name
    if type(target) is cst.Tuple or type(target) is cst.List:
        return any(_binds(e.value, name) for e in target.elements)
    return False


def _integer_index(expr: cst.Subscript) -> bool:
    """`value[3]`: one integer literal index."""
    parts = expr.slice
    return (
        len(parts) == 1
        and type(parts[0].slice) is cst.Index
        and type(parts[0].slice.value) is cst.Integer
    )


def _small_count(expr: cst.BaseExpression) -> bool:
    """An integer literal no larger than `_MAX_SPLIT`."""
    return type(expr) is cst.Integer and int(expr.evaluated_value) <= _MAX_SPLIT


def _number(expr: cst.BaseExpression) -> bool:
    """A number literal, signed or not."""
    if type(expr) is cst.UnaryOperation and type(expr.operator) in (cst.Minus, cst.Plus):
        expr = expr.expression
    return type(expr) in (cst.Integer, cst.Float)
