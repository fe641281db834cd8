"""Calls that render their arguments to text and keep none of them (`nnx.display`).

A call the overlay lists as rendering (`overlays/flax_nnx.py`, `RENDERING`) prints each
argument, or draws it as treescope's HTML in IPython, and returns None; it keeps none of
them once it returns. Rendering runs the hooks of every object it reaches (`__repr__`,
`__treescope_repr__`, `_repr_html_`, a pytree's flattening, ...): flax's own for its
modules and variables, but a class of the program may define its own, which may keep
what it is given. `renders_only` holds of such a call given positional arguments only,
each of them:

- data (`values/model.py`): an array, a number, a string, a shape, a dtype, None, or a
  container of them, which Python, NumPy and JAX render; or
- a name bound by the statement just before the call, in the same block (nothing runs
  in between), to a layer the overlay lists as rendered by flax alone
  (`RENDERED_LAYERS`) or to `C(...)`, where `C` is an nnx module class of the module that
  `constructors.init_fields` reads and that `rendered_by_library` accepts given what the
  call passes: each argument a plain value (a literal, or a value the value model proves
  a number, a string, a shape or None) or an `nnx.Rngs(...)` of data.

`rendered_by_library` accepts a class that defines no method whose name starts with an
underscore but `__init__` and `__call__` (rendering runs no public method or property:
it reads the object's attributes), and each value whose `__init__` stores in a field is:
a plain value of the parameters the call gives plain values (`self.f` of a field stored
from a parameter standing for that parameter); a lambda, rendered by Python; a layer the
overlay lists as rendered by flax alone (`RENDERED_LAYERS`), given plain values, the
`rngs` the call gives (an `nnx.Rngs`, of which a layer keeps none but flax's own forks)
and, for `nnx.Sequential`, values accepted so; or another such class, given plain values
and that `rngs`, read the same way (four levels deep at most). Anything else is unproven.
"""

from __future__ import annotations

from collections.abc import Set

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import Function, Stmt
from autoopt.analysis.facts.constructors import (
    bufferless_value,
    field_value,
    init_bufferless_names,
    init_fields,
    literal_default,
    param_fields,
)
from autoopt.analysis.facts.nnx_modules import binding_call
from autoopt.analysis.overlays import flax_nnx as nnx_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

_PLAIN = frozenset({Kind.SCALAR, Kind.SHAPE, Kind.STRING, Kind.NONE})
_DATA = _PLAIN | {Kind.DTYPE, Kind.ARRAY, Kind.HOST_ARRAY}
_OWN_METHODS = frozenset({"__init__", "__call__"})
_MAX_DEPTH = 4


def renders_only(ctx: ModuleContext, at: Stmt, call: cst.Call) -> bool:
    """Whether `call`, read by statement `at`, renders its arguments and keeps none."""
    if ctx.qualify(call.func) not in nnx_api.RENDERING:
        return False
    if any(a.star or a.keyword is not None for a in call.args):
        return False
    return all(_rendered(ctx, at, a.value) for a in call.args)


def _rendered(ctx: ModuleContext, at: Stmt, arg: cst.BaseExpression) -> bool:
    value = model(ctx).value_of(at, arg)
    if value.kind in _DATA or value.container is not None:
        return True
    made = _made_just_before(ctx, at, arg) if type(arg) is cst.Name else None
    if made is None or any(a.star for a in made.args):
        return False
    if ctx.qualify(made.func) in nnx_api.RENDERED_LAYERS:
        return all(_top_option(ctx, at, a) for a in made.args)
    if type(made.func) is not cst.Name:
        return False
    cls = made.func.value
    given = _given(ctx, made, cls)
    if given is None:
        return False
    plain = {p for p, v in given.items() if _plain_value(ctx, at, v)}
    rngs = {p for p, v in given.items() if _new_rngs(ctx, at, v)}
    return set(given) == plain | rngs and rendered_by_library(ctx, cls, plain, rngs, 0)


def _made_just_before(ctx: ModuleContext, at: Stmt, name: cst.Name) -> cst.Call | None:
    """The call `name = C(...)` of the statement just before `at` in its block."""
    call = binding_call(ctx, at, name.value)
    before = ctx.graph.stmts[at.id - 1] if at.id > 0 else None
    if call is None or before is None or before.block != at.block or before.scope != at.scope:
        return None
    node = before.node
    return call if type(node) is cst.Assign and node.value is call else None


def _top_option(ctx: ModuleContext, at: Stmt, arg: cst.Arg) -> bool:
    """An argument of a listed layer built just before: `rngs=nnx.Rngs(...)` of data,
    else a plain value."""
    if arg.keyword is not None and arg.keyword.value == nnx_api.RNGS_ARGUMENT:
        return _new_rngs(ctx, at, arg.value)
    return _plain_value(ctx, at, arg.value)


def _plain_value(ctx: ModuleContext, at: Stmt, value: cst.BaseExpression) -> bool:
    """A literal, or a value the value model proves a number, a string, a shape or None."""
    return bufferless_value(value, set()) or model(ctx).value_of(at, value).kind in _PLAIN


def _new_rngs(ctx: ModuleContext, at: Stmt, value: cst.BaseExpression) -> bool:
    """`nnx.Rngs(...)` of data."""
    if type(value) is not cst.Call or ctx.qualify(value.func) != nnx_api.RNGS:
        return False
    return all(not a.star and model(ctx).value_of(at, a.value).kind in _DATA for a in value.args)


def _given(ctx: ModuleContext, call: cst.Call, cls: str) -> dict[str, cst.BaseExpression] | None:
    """The parameters of `cls.__init__` a constructor call gives -> the values given
    (None: an argument behind `*xs`, or one no parameter by its name takes)."""
    init = ctx.graph.functions.get(f"{cls}.__init__")
    if init is None or any(a.star for a in call.args):
        return None
    named = init.positional[1:] + [p.name.value for p in init.node.params.kwonly_params]
    positional = [a for a in call.args if a.keyword is None]
    if len(positional) > len(init.positional) - 1:
        return None
    given = {init.positional[1 + i]: a.value for i, a in enumerate(positional)}
    for arg in call.args:
        if arg.keyword is not None:
            if arg.keyword.value not in named or arg.keyword.value in given:
                return None
            given[arg.keyword.value] = arg.value
    return given


def rendered_by_library(
    ctx: ModuleContext, cls: str, plain: Set[str], rngs: Set[str], depth: int
) -> bool:
    """Whether an object of nnx module class `cls`, built with the parameters `plain`
    given plain values and `rngs` given an `nnx.Rngs`, renders through flax's code and
    Python's alone (module docstring); a parameter left out has its default, plain where
    it is a literal."""
    found = init_fields(ctx, cls)
    if found is None or depth >= _MAX_DEPTH or _own_hooks(ctx, cls):
        return False
    init, stores = found
    defaults = {p for p in init.params[1:] if literal_default(init, p)}
    bound = {n for s in ctx.graph.scope_stmts(init.qualname) for n in s.defs}
    known = init_bufferless_names(ctx, init, set(plain) | (defaults - set(rngs)))
    reader = _Fields(ctx, init, stores, set(known), set(rngs) - bound, depth)
    return all(reader.field(field_value(s)) for s in stores)


def _own_hooks(ctx: ModuleContext, cls: str) -> bool:
    """Whether class `cls` defines a method rendering may run (`__repr__`, `_repr_html_`,
    `__getattr__`, ...): any whose name starts with an underscore, save `__init__` and
    `__call__`."""
    names = [
        s.node.name.value for s in ctx.graph.scope_stmts(cls) if type(s.node) is cst.FunctionDef
    ]
    return any(n.startswith("_") and n not in _OWN_METHODS for n in names)


class _Fields:
    """Reads the values an `__init__` stores, for what rendering them runs."""

    def __init__(
        self,
        ctx: ModuleContext,
        init: Function,
        stores: list[Stmt],
        known: set[str],
        rngs: set[str],
        depth: int,
    ):
        self.ctx = ctx
        self.me = init.params[0]
        self.params = param_fields(init, stores)
        self.known = known
        self.rngs = rngs
        self.depth = depth

    def field(self, value: cst.BaseExpression) -> bool:
        """Whether a value stored, or given to `nnx.Sequential`, renders through library
        code alone."""
        if type(value) is cst.Lambda or self._plain(value):
            return True
        return type(value) is cst.Call and self._layer(value)

    def _layer(self, call: cst.Call) -> bool:
        """A layer the overlay lists, or a module class of the module, built of values
        that render so."""
        if any(a.star for a in call.args):
            return False
        qual = self.ctx.qualify(call.func) or ""
        if qual == nnx_api.SEQUENTIAL:
            return all(a.keyword is None and self.field(a.value) for a in call.args)
        if qual in nnx_api.RENDERED_LAYERS:
            return all(self._option(a) for a in call.args)
        if type(call.func) is not cst.Name:
            return False
        given = _given(self.ctx, call, call.func.value)
        if given is None:
            return False
        plain = {p for p, v in given.items() if self._plain(v)}
        rngs = {p for p, v in given.items() if self._rngs(v)}
        if set(given) != plain | rngs:
            return False
        return rendered_by_library(self.ctx, call.func.value, plain, rngs, self.depth + 1)

    def _option(self, arg: cst.Arg) -> bool:
        if arg.keyword is not None and arg.keyword.value == nnx_api.RNGS_ARGUMENT:
            return self._rngs(arg.value)
        return self._plain(arg.value)

    def _rngs(self, value: cst.BaseExpression) -> bool:
        return type(value) is cst.Name and value.value in self.rngs

    def _plain(self, value: cst.BaseExpression) -> bool:
        """A plain value: `self.f` of a field stored from a parameter stands for it."""
        if type(value) is cst.Attribute:
            base, attr = value.value, value.attr.value
            if type(base) is cst.Name and base.value == self.me and attr in self.params:
                return self.params[attr] in self.known
        return bufferless_value(value, self.known)
