"""Calls that keep no reference to their arguments once they return.

`keeps_no_argument` holds of a call the overlays list (`overlays.KEEPS_NO_ARGUMENT`,
`flax.training.checkpoints.save_checkpoint`, `jax.random.split`) when it is given only
the parameters the overlay names (by position, in order, or by keyword) and no `*args` or
`**kwargs`: an argument left out of the list (an `async_manager` that writes later) voids
it. Once such a call returns, what it was given is held only where it was before, and it
returns none of it.

`visible_keeps_nothing` holds of a function of the module whose body is seen, read with
what the caller gives each parameter (data: an array, a tuple, list or dict of arrays, a
number, a string or None, whose methods and operators run no code of the program; an
instance of a module class; or a value of unknown kind), when it keeps none of its
arguments and changes none in place (but for the running statistics a `BatchNorm` it
calls replaces with new arrays, which put none of its arguments' buffers anywhere):

- it is undecorated, neither a generator nor a coroutine, declares no `global` or
  `nonlocal` and makes no function, lambda, class or comprehension (nothing it makes can
  close over an argument);
- its statements are assignments, expressions, `return`, `assert`, `pass`, `if`, `for`
  and `while`, binding plain names only: no attribute or item is stored anywhere, and
  `x += y` only of data the function made (not of a parameter, a name bound to one or to
  a part of one, or a loop's item, which may be a list it was given, extended in place);
- each call is known to keep nothing and is given data: a JAX, NumPy or `math` function,
  `flax.nnx`'s pooling (`POOLING`), a call the overlays list pure, a builtin, a method
  of data that changes nothing (an array's, given anything: such methods run no
  function they are given; not `append` or `update`, which store in what it was
  given); or it is code seen and proven the same
  way: a function of the module, a method of an instance of a module class
  (`model(x)` runs `C.__call__`, its `self` that instance; `self.encode(x)`), or a layer
  held in a field its `__init__` alone stores (`constructors.init_fields`), which nothing
  in the module stores again but the `__init__` of another such class (run only on the
  object it makes: no code names `__init__` but `super().__init__`), built by a
  constructor the overlay lists as keeping nothing when called, given only options
  that run no code when it is called (`overlays/flax_nnx.py`, `UNKEPT_LAYER_CALLS`,
  `PLAIN_LAYER_OPTIONS`; `STATS_LAYER_CALLS`, whose `BatchNorm` also replaces its own
  statistics with new arrays), or an equinox layer `overlays/equinox.py` lists in
  `FRESH_CALLS`, given for the options its call runs nothing or functions of JAX
  (`equinox_layer`), called directly or through `jax.vmap` with no option but those
  `FRESH_MAPS` lists (it runs on tracers of the data it is given), or a lambda of plain
  parameters returning data, or an
  object of such a class, or an `nnx.Sequential` of these given by position, called
  with one array (each element in turn must return data); where `__init__` stores one
  of several such values (`lambda x: x` in one branch), each is read; a field of an
  equinox module that stores what its constructor is given (`self.n = n`, or a class
  that declares its fields: `facts/field_arguments.py`) holds what every construction
  gives it, read at the call: data no code changes in place, by the value model, or
  such an equinox layer;
- a diffrax solve (`overlays/diffrax.py`), a jit that runs its vector field on tracers,
  given an `ODETerm` of an equinox module of the module whose `__call__(t, y, args)`,
  read as above given data, returns data, and whose every field holds data, a layer
  `SEALED_LAYERS` lists or such a module (the jit's cache keeps the leaves that are no
  arrays), a plain solver built from nothing (`PLAIN_SOLVERS`), a `SaveAt` of states
  given data and data for the rest, keeps nothing; its solution is read only for the
  data `SOLUTION_DATA` lists;
- a value of unknown kind is never called, operated on, iterated or indexed, and none of
  its methods runs: it may only be bound, returned, put in a tuple, or given to a method
  of data.

What such a function returns is the caller's question (`aliases.Sharing`, from its
`return` statements).

`construction_keeps_nothing` holds of a call of a plain class of the module, `C(...)`,
read the same way, when it keeps what it is given nowhere but in the object it makes
(which its caller's relation links to its arguments): `C` is bound once at the top level,
derives from nothing, is undecorated, has no keyword (a metaclass), binds nothing in its
body but undecorated functions and literals (a descriptor's setter may run on a store),
and defines none of `__new__`, `__setattr__`, `__getattr__`, `__getattribute__`,
`__delattr__`, `__post_init__`, `__set_name__`; its `__init__`, read as above with `self`
the object being made, may also store into `self.a` (what it stores there is read again
as stored: an unknown argument stays unknown) and call its own methods on `self`, read
the same way, but call no field and hand `self` to nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import MUTATING_METHODS, read_names, scope_nodes
from autoopt.analysis.core.graph import MODULE, Function, Stmt
from autoopt.analysis.facts.attribute_stores import init_named, stored_elsewhere
from autoopt.analysis.facts.bindings import binding_call
from autoopt.analysis.facts.closure_factories import closure_layer, field_closure, leaf_fields
from autoopt.analysis.facts.constructors import field_value, literal_defaults
from autoopt.analysis.facts.declared_fields import declared_fields
from autoopt.analysis.facts.field_arguments import equinox_fields, field_arguments
from autoopt.analysis.facts.plain_layers import equinox_layer, plain_layer
from autoopt.analysis.overlays import diffrax as diffrax_api
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.overlays import flax_nnx as nnx_api
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import optax as optax_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

#: A value whose methods and operators run no code of the program.
DATA = "data"
#: A value of unknown kind.
UNKNOWN = ""
#: The prefix of the kind of a layer the overlay lists (`layer:flax.nnx.Linear`).
LAYER = "layer:"
#: A kind for the object a constructor is making (`made:Cls`).
_MADE = "made:"
#: Methods that run on construction or on an attribute's store or read.
_HOOKS = frozenset(
    {"__new__", "__setattr__", "__getattr__", "__getattribute__", "__delattr__",
     "__post_init__", "__set_name__"}
)  # fmt: skip
#: A kind for an `nnx.Sequential` of layers (its elements' kinds, comma-separated).
_SEQUENCE = "sequence:"
#: A kind for a field `__init__` stores one of several values in (`|`-separated kinds).
_EITHER = "either:"
#: The prefix of the kind of a factory method's closure (`closure:Net._block.forward`).
_CLOSURE = "closure:"
#: Kinds of diffrax's objects proven to run no code of the program but what was read.
_DIFFRAX = "diffrax:"
_TERM = f"{_DIFFRAX}term"
_SOLVER = f"{_DIFFRAX}solver"
_SAVE = f"{_DIFFRAX}save"
_SOLUTION = f"{_DIFFRAX}solution"
_DIFFRAX_CALLS = diffrax_api.PLAIN_SOLVERS | {
    diffrax_api.SAVE_AT, diffrax_api.ODE_TERM, diffrax_api.SOLVE
}  # fmt: skip
_MAX_DEPTH = 4
_LIBRARIES = ("jax.", "numpy.", "math.")
_DATA_RESULTS = optax_api.LOSSES | nnx_api.JAX_FUNCTIONS | nnx_api.POOLING
_BUILTINS = python_api.PURE_BUILTINS | {"print"}
#: Values of the value model no code changes in place, whose operators run no program code.
_IMMUTABLE_DATA = frozenset(
    {Kind.ARRAY, Kind.HOST_ARRAY, Kind.SCALAR, Kind.STRING, Kind.DTYPE, Kind.NONE, Kind.SHAPE}
)
_MAKES_CODE = (
    cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp, cst.Yield,
    cst.Await, cst.NamedExpr, cst.FunctionDef, cst.ClassDef, cst.Global, cst.Nonlocal,
)  # fmt: skip


def construction_keeps_nothing(ctx: ModuleContext, cls: str, given: Mapping[str, str]) -> bool:
    """Whether `cls(...)`, its `__init__`'s parameters holding what `given` says, keeps
    what it is given nowhere but in the object it makes (module docstring)."""
    if not plain_class(ctx, cls):
        return False
    init = ctx.graph.functions[f"{cls}.__init__"]
    bound = {init.params[0]: f"{_MADE}{cls}"} if init.params else {}
    try:
        _Reader(ctx, frozenset(), {}).function(init, {**given, **bound})
    except _Kept:
        return False
    return True


def plain_class(ctx: ModuleContext, cls: str) -> bool:
    """A class of the module's top level, bound once, deriving from nothing, undecorated,
    with an `__init__` of its own, none of the methods that run on construction or on
    a store (`__new__`, `__setattr__`, ...) and nothing in its body but undecorated
    functions and literals (a descriptor's setter may run on `self.a = v`)."""
    binders = [s for s in ctx.graph.scope_stmts(MODULE) if cls in s.defs]
    node = binders[0].node if len(binders) == 1 else None
    if type(node) is not cst.ClassDef or node.decorators or node.keywords:
        return False
    if any(ctx.code(b.value) != "object" for b in node.bases) or not plain_body(node):
        return False
    methods = [s for s in node.body.body if type(s) is cst.FunctionDef]
    if any(m.decorators for m in methods) or {m.name.value for m in methods} & _HOOKS:
        return False
    return f"{cls}.__init__" in ctx.graph.functions


def plain_body(node: cst.ClassDef) -> bool:
    """Whether a class's body holds only functions, a docstring, `pass` and names bound to
    literals (`literal_defaults`), each a statement of its own: no value a store or a
    read of an attribute could run code of (a descriptor), bound in a branch or a loop."""
    if type(node.body) is not cst.IndentedBlock or not literal_defaults(node):
        return False
    plain = (cst.Assign, cst.AnnAssign, cst.Expr, cst.Pass)
    for statement in node.body.body:
        if type(statement) is cst.SimpleStatementLine:
            if not all(type(small) in plain for small in statement.body):
                return False
        elif type(statement) is not cst.FunctionDef:
            return False
    return True


def keeps_no_argument(ctx: ModuleContext, call: cst.Call) -> bool:
    """Whether `call` keeps none of its arguments once it returns, nor returns one."""
    params = overlays.KEEPS_NO_ARGUMENT.get(ctx.qualify(call.func) or "")
    if params is None or any(a.star for a in call.args):
        return False
    positional = [a for a in call.args if a.keyword is None]
    named = [a.keyword.value for a in call.args if a.keyword is not None]
    return len(positional) <= len(params) and all(n in params for n in named)


def visible_keeps_nothing(
    ctx: ModuleContext, fn: Function, given: Mapping[str, str], compiled: bool = False
) -> bool:
    """Whether calling `fn`, its parameters holding what `given` says (`DATA`, a class of
    the module, else unknown), keeps none of its arguments and changes none in place
    (a `BatchNorm`'s statistics aside: new arrays). `compiled`: `fn`'s one decorator is
    a jit the caller has proven, which runs the body as written (on tracers)."""
    try:
        _Reader(ctx, frozenset()).function(fn, dict(given), compiled)
    except _Kept:
        return False
    return True


def lambda_keeps_nothing(
    ctx: ModuleContext, node: cst.Lambda, scope: str, given: str, free: Mapping[str, str]
) -> bool:
    """Whether calling the lambda `node` of `scope`, its parameters holding `given` (`DATA`
    or unknown) and the names it closes over what `free` says, keeps none of its
    arguments and changes none in place (`visible_keeps_nothing`'s reading)."""
    return _Reader(ctx, frozenset()).lambda_reads(node, scope, given, free)


class _Kept(Exception):
    """The function read may keep or change what it is given."""


class _Reader:
    """Reads a function's body for what its values are; raises `_Kept` where it may keep."""

    def __init__(
        self, ctx: ModuleContext, seen: frozenset[str], made: dict[str, str] | None = None
    ):
        self.ctx = ctx
        self.seen = seen
        # the fields stored so far in the object under construction, where one is read
        self.made = made
        self.env: dict[str, str] = {}
        self.scope = MODULE  # where the code read resolves the names it calls
        self.returns: list[str] = []
        self.shared: set[str] = set()

    def function(
        self,
        fn: Function,
        given: dict[str, str],
        compiled: bool = False,
        free: Mapping[str, str] | None = None,
    ) -> str:
        """The kind `fn` returns, given its parameters' kinds (`compiled`: its one
        decorator a jit, read through; `free`: the kinds of names it closes over)."""
        node = fn.node
        if fn.qualname in self.seen or len(self.seen) >= _MAX_DEPTH:
            raise _Kept
        if len(node.decorators) > int(compiled) or node.asynchronous is not None:
            raise _Kept
        if any(isinstance(n, _MAKES_CODE) for n in scope_nodes(node.body)):
            raise _Kept
        self.scope = fn.qualname
        self.seen = self.seen | {fn.qualname}
        self.env = {**(free or {}), **{p: given.get(p, UNKNOWN) for p in fn.params}}
        self.shared = set(fn.params)  # names that may hold an argument or a part of one
        self._block(node.body)
        kinds = set(self.returns) or {DATA}  # `return` of nothing: None
        return DATA if kinds == {DATA} else UNKNOWN

    # -- statements -----------------------------------------------------------------
    def _block(self, body: cst.BaseSuite) -> None:
        for stmt in body.body:
            if type(stmt) is cst.SimpleStatementLine:
                for small in stmt.body:
                    self._small(small)
            else:
                self._compound(stmt)  # type: ignore[arg-type]  # an IndentedBlock's

    def _small(self, node: cst.BaseSmallStatement) -> None:
        if type(node) is cst.Expr:
            self.expr(node.value)
        elif type(node) is cst.Assign:
            kind = self.expr(node.value)
            for target in node.targets:
                self._bind(target.target, kind, _may_alias(node.value))
        elif type(node) is cst.AnnAssign and node.value is not None:
            self._bind(node.target, self.expr(node.value), _may_alias(node.value))
        elif type(node) is cst.AugAssign and type(node.target) is cst.Name:
            if node.target.value in self.shared:
                raise _Kept  # `xs += ys` extends, in place, a list it was given
            self._data(node.target)
            self._data(node.value)
        elif type(node) is cst.Return:
            self.returns.append(DATA if node.value is None else self.expr(node.value))
        elif type(node) is cst.Assert:
            self._data(node.test)
        elif type(node) is not cst.Pass:
            raise _Kept

    def _compound(self, node: cst.BaseCompoundStatement) -> None:
        before = dict(self.env)
        if type(node) is cst.If:
            self._data(node.test)
            self._block(node.body)
            after = self.env
            self.env = dict(before)
            if node.orelse is not None:
                other = node.orelse
                if type(other) is cst.If:
                    self._compound(other)
                else:
                    self._block(other.body)
            self.env = _join(after, self.env)
        elif type(node) in (cst.For, cst.While) and node.orelse is None:  # type: ignore[attr-defined]  # a loop
            for _ in range(2):  # a kind a later statement binds reaches the next iteration
                if type(node) is cst.For:
                    self._bind(node.target, self._data(node.iter))
                else:
                    self._data(node.test)  # type: ignore[attr-defined]  # a While
                self._block(node.body)
                self.env = _join(before, self.env)
        else:
            raise _Kept

    def _bind(self, target: cst.BaseExpression, kind: str, shared: bool = True) -> None:
        """Bind the plain names of `target` (unpacking data gives data); `shared`: to a
        value that may be, or be part of, an argument."""
        if type(target) is cst.Name:
            self.env[target.value] = kind
            if shared:
                self.shared.add(target.value)
        elif type(target) in (cst.Tuple, cst.List):
            for element in target.elements:  # type: ignore[attr-defined]  # a Tuple or List
                if type(element) is not cst.Element:
                    raise _Kept
                self._bind(element.value, kind, shared)
        elif self._field_store(target):
            field, made = target.attr.value, self.made  # type: ignore[attr-defined]  # checked
            assert made is not None
            made[field] = kind if made.get(field, kind) == kind else UNKNOWN  # either
        else:
            raise _Kept  # an attribute or an item: a store

    def _field_store(self, target: cst.BaseExpression) -> bool:
        """`self.a = v` of the object under construction: it keeps `v`, as its caller's
        relation has it (the object holds what its constructor was given)."""
        if self.made is None or type(target) is not cst.Attribute:
            return False
        return self.expr(target.value).startswith(_MADE)

    # -- expressions ----------------------------------------------------------------
    def _data(self, expr: cst.BaseExpression) -> str:
        if self.expr(expr) != DATA:
            raise _Kept  # its methods or operators may run code of the program
        return DATA

    def expr(self, expr: cst.BaseExpression) -> str:
        """The kind of `expr`'s value."""
        kind = type(expr)
        if kind is cst.Name:
            return self._name(expr)  # type: ignore[arg-type]
        if isinstance(expr, cst.BaseNumber | cst.SimpleString | cst.ConcatenatedString):
            return DATA
        if kind is cst.FormattedString:
            for part in expr.parts:  # type: ignore[attr-defined]
                if type(part) is cst.FormattedStringExpression:
                    self._data(part.expression)
            return DATA
        if kind is cst.Attribute:
            return self._attribute(expr)  # type: ignore[arg-type]
        if kind is cst.Subscript:
            self._data(expr.value)  # type: ignore[attr-defined]
            for element in expr.slice:  # type: ignore[attr-defined]
                for part in _index_parts(element.slice):
                    self._data(part)
            return DATA
        if kind in (cst.BinaryOperation, cst.BooleanOperation):
            self._data(expr.left)  # type: ignore[attr-defined]
            return self._data(expr.right)  # type: ignore[attr-defined]
        if kind is cst.UnaryOperation:
            return self._data(expr.expression)  # type: ignore[attr-defined]
        if kind is cst.Comparison:
            self._data(expr.left)  # type: ignore[attr-defined]
            for target in expr.comparisons:  # type: ignore[attr-defined]
                self._data(target.comparator)
            return DATA
        if kind in (cst.Tuple, cst.List):
            kinds = {self._element(e) for e in expr.elements}  # type: ignore[attr-defined]
            return DATA if kinds <= {DATA} else UNKNOWN
        if kind is cst.IfExp:
            self._data(expr.test)  # type: ignore[attr-defined]
            body, other = self.expr(expr.body), self.expr(expr.orelse)  # type: ignore[attr-defined]
            return body if body == other else UNKNOWN
        if kind is cst.Call:
            return self._call(expr)  # type: ignore[arg-type]
        raise _Kept

    def _element(self, element: cst.BaseElement) -> str:
        if type(element) is not cst.Element:
            raise _Kept  # `*xs` iterates a value
        return self.expr(element.value)

    def _name(self, name: cst.Name) -> str:
        if name.value in ("True", "False", "None"):
            return DATA
        if name.value in self.env:
            return self.env[name.value]
        return UNKNOWN  # a global: it may be anything, and holds no argument

    def _attribute(self, expr: cst.Attribute) -> str:
        qual = self.ctx.qualify(expr) or ""
        if qual.startswith(_LIBRARIES):
            return DATA  # `jnp.pi`, `jnp.float32`
        base = self.expr(expr.value)
        if base == DATA:
            return DATA
        if base.startswith(_MADE):
            return (self.made or {}).get(expr.attr.value, UNKNOWN)  # a method: unknown
        if base == _SOLUTION and expr.attr.value in diffrax_api.SOLUTION_DATA:
            return DATA  # `sol.ys`
        if base.startswith((LAYER, _SEQUENCE, _EITHER, _DIFFRAX)) or not base:
            return UNKNOWN
        return field_kind(self.ctx, base, expr.attr.value)

    # -- calls ----------------------------------------------------------------------
    def _call(self, call: cst.Call) -> str:
        if any(a.star for a in call.args):
            raise _Kept
        args = [self.expr(a.value) for a in call.args]
        func = call.func
        qual = self.ctx.qualify(func) or ""
        if qual.startswith(_LIBRARIES) or qual in overlays.PURE_CALLS or qual in _DATA_RESULTS:
            if any(a != DATA for a in args):
                raise _Kept  # a function it is given (`jax.tree.map(keep, x)`) may keep
            pure = qual.startswith(_LIBRARIES) or qual in _DATA_RESULTS
            return DATA if pure else UNKNOWN
        if qual in _DIFFRAX_CALLS:
            return self._diffrax_call(qual, call, args)
        if qual or keeps_no_argument(self.ctx, call):
            raise _Kept  # another library's code
        if type(func) is cst.Name:
            return self._named_call(call, func.value, args)
        if type(func) is cst.Attribute:
            return self._method_call(call, func, args)
        if type(func) is cst.Call:
            return self._mapped_call(func, args)
        raise _Kept

    # -- diffrax --------------------------------------------------------------------
    def _diffrax_call(self, qual: str, call: cst.Call, args: list[str]) -> str:
        """A diffrax object that runs no code of the program but a vector field read here,
        given what `args` says (`overlays/diffrax.py`): a plain solver built from nothing,
        a `SaveAt` of states given data, an `ODETerm` of a vector field `_vector_field`
        proves, and the solve of these and data, whose solution holds data where
        `SOLUTION_DATA` says; else it raises."""
        named = {a.keyword.value: k for a, k in zip(call.args, args, strict=True) if a.keyword}
        positional = [k for a, k in zip(call.args, args, strict=True) if a.keyword is None]
        if qual in diffrax_api.PLAIN_SOLVERS and not args:
            return _SOLVER
        saves = bool(args) and set(named) <= diffrax_api.SAVES_STATES
        if qual == diffrax_api.SAVE_AT and saves and not positional and set(args) == {DATA}:
            return _SAVE
        field = len(args) == 1 and set(named) <= {diffrax_api.VECTOR_FIELD}
        if qual == diffrax_api.ODE_TERM and field and self._vector_field(args[0]):
            return _TERM
        if qual == diffrax_api.SOLVE and self._solve(positional, named):
            return _SOLUTION
        raise _Kept

    def _solve(self, positional: list[str], named: dict[str, str]) -> bool:
        """The solve given a term, a plain solver, data for each other parameter it takes
        and a `SaveAt` of states, if any option (`SOLVE_PARAMETERS`, `SOLVE_OPTIONS`)."""
        params = diffrax_api.SOLVE_PARAMETERS
        given = dict(zip(params, positional, strict=False))
        if len(positional) > len(params) or set(named) & set(given):
            return False
        if not set(named) <= set(params) | diffrax_api.SOLVE_OPTIONS:
            return False
        given.update(named)
        wanted = {params[0]: _TERM, params[1]: _SOLVER, diffrax_api.SAVE_OPTION: _SAVE}
        required = set(params) - {diffrax_api.SOLVE_ARGS}
        return required <= set(given) and all(k == wanted.get(p, DATA) for p, k in given.items())

    def _vector_field(self, kind: str) -> bool:
        """An equinox module of a class of the module whose every field holds no buffer but
        its array leaves (`_inert`: the solve's jit keeps the others in its cache) and whose
        `__call__(t, y, args)`, given data, returns data and keeps nothing (read as any
        method is; the solve runs it on tracers)."""
        target = self.ctx.graph.functions.get(f"{kind}.__call__") if kind else None
        if target is None or target.scope != kind or not self._inert(kind, 0):
            return False
        params = target.node.params
        if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.star_kwarg:
            return False
        if params.kwonly_params or params.posonly_params or len(params.params) != 4:
            return False
        given = {target.params[0]: kind, **dict.fromkeys(target.params[1:], DATA)}
        return _Reader(self.ctx, self.seen).function(target, given) == DATA

    def _inert(self, kind: str, depth: int) -> bool:
        """An equinox module class of the module (`field_arguments.equinox_fields`) whose
        every field holds data, an equinox layer `SEALED_LAYERS` lists, or such a module."""
        fields = equinox_fields(self.ctx, kind) if kind in self.ctx.graph.classes else None
        if fields is None or depth >= _MAX_DEPTH:
            return False
        for name in fields:
            held = field_kind(self.ctx, kind, name)
            layer = held[len(LAYER) :] if held.startswith(LAYER) else None
            if held == DATA or layer in eqx_api.SEALED_LAYERS:
                continue
            if layer is not None or not self._inert(held, depth + 1):
                return False
        return True

    def _mapped_call(self, transform: cst.Call, args: list[str]) -> str:
        """`jax.vmap(self.out)(x)` of an equinox layer `FRESH_CALLS` lists, given data
        only, and no option but those `FRESH_MAPS` lists: the layer runs on tracers of
        that data, and keeps none of it."""
        options = jax_api.FRESH_MAPS.get(self.ctx.qualify(transform.func) or "")
        given = transform.args
        if options is None or not given or given[0].keyword is not None:
            raise _Kept
        if any(a.star or a.keyword is None or a.keyword.value not in options for a in given[1:]):
            raise _Kept
        for option in given[1:]:
            self._data(option.value)
        kind = self.expr(given[0].value)
        layer = kind[len(LAYER) :] if kind.startswith(LAYER) else ""
        if layer not in eqx_api.FRESH_CALLS or any(a != DATA for a in args):
            raise _Kept
        return DATA

    def _named_call(self, call: cst.Call, name: str, args: list[str]) -> str:
        kind = self.env.get(name)
        if kind is not None:
            return self._object_call(call, kind, "__call__", args)
        target = self.ctx.graph.resolve_function(name, self.scope)
        if target is not None and target.scope == MODULE:
            return self._run(target, call, {})
        module_names = {n for s in self.ctx.graph.scope_stmts(MODULE) for n in s.defs}
        if name in _BUILTINS and name not in module_names and all(a == DATA for a in args):
            return DATA
        raise _Kept

    def _method_call(self, call: cst.Call, func: cst.Attribute, args: list[str]) -> str:
        receiver = self.expr(func.value)
        method = func.attr.value
        if receiver == DATA and (method in MUTATING_METHODS or method.startswith("_")):
            raise _Kept  # `params.update(other)`, `__setitem__`: stores in what it was given
        if receiver == DATA:
            return DATA  # an array's method runs no function it is given
        if receiver.startswith(_MADE) and method not in (self.made or {}):
            cls = receiver[len(_MADE) :]  # `self.schedule(n)`: its own method, on itself
            target = self.ctx.graph.functions.get(f"{cls}.{method}")
            if target is None or target.scope != cls or target.name == "__init__":
                raise _Kept
            return self._run(target, call, {target.params[0]: receiver})
        if receiver.startswith(_MADE):
            raise _Kept  # a field called
        if receiver and f"{receiver}.{func.attr.value}" not in self.ctx.graph.functions:
            return self._object_call(call, self._attribute(func), "__call__", args)  # a field
        return self._object_call(call, receiver, func.attr.value, args)

    def _object_call(self, call: cst.Call, kind: str, method: str, args: list[str]) -> str:
        """A call of an object of `kind`: a layer (its `__call__`, given data) or an
        instance of a class of the module (the method it defines)."""
        if kind.startswith(LAYER):
            if method != "__call__" or any(a != DATA for a in args):
                raise _Kept
            return DATA
        if kind.startswith(_EITHER):
            outs = {self._object_call(call, k, method, args) for k in _parts(kind, _EITHER, "|")}
            return DATA if outs == {DATA} else UNKNOWN
        if kind.startswith(_SEQUENCE):
            return self._sequence_call(call, kind, method, args)
        if kind.startswith(_CLOSURE):
            return self._closure_call(call, kind[len(_CLOSURE) :], method)
        target = self.ctx.graph.functions.get(f"{kind}.{method}") if kind else None
        if target is None or target.scope != kind or target.name == "__init__":
            raise _Kept
        return self._run(target, call, {target.params[0]: kind} if target.params else {})

    def _closure_call(self, call: cst.Call, qualname: str, method: str) -> str:
        """A call of a factory method's closure (`facts/closure_factories.py`), read with
        each free name holding a listed layer (`closure_layer`) as that layer; any other
        free name is unknown."""
        fn = self.ctx.graph.functions.get(qualname)
        if method != "__call__" or fn is None:
            raise _Kept
        free = {}
        for name in {n.value for n in read_names(fn.node.body)} - set(fn.params):
            layer = closure_layer(self.ctx, fn, name)
            if layer is not None:
                free[name] = f"{LAYER}{layer}"
        return self._run(fn, call, {}, free)

    def _sequence_call(self, call: cst.Call, kind: str, method: str, args: list[str]) -> str:
        """`nnx.Sequential`'s `__call__` given one array: each element in turn, given the
        previous one's output (data, as the argument was: each must return data)."""
        if method != "__call__" or args != [DATA] or call.args[0].keyword is not None:
            raise _Kept  # `rngs=` is handed on to the elements
        for element in _parts(kind, _SEQUENCE, ","):
            if self._object_call(call, element, "__call__", args) != DATA:
                raise _Kept
        return DATA

    def lambda_kind(self, node: cst.Lambda, init: Function) -> str:
        """A layer kind for a lambda that `init` stores, whose plain parameters given
        data make it return data keeping nothing; else unknown. The names of `init` it
        may close over are unknown."""
        params = node.params
        if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.star_kwarg:
            return UNKNOWN
        if params.kwonly_params or params.posonly_params or any(p.default for p in params.params):
            return UNKNOWN
        self.scope = init.qualname
        local = {n for s in self.ctx.graph.scope_stmts(init.qualname) for n in s.defs}
        self.env = dict.fromkeys(local | set(init.params), UNKNOWN)
        self.env.update((p.name.value, DATA) for p in params.params)
        self.shared = {p.name.value for p in params.params}
        try:
            return f"{LAYER}lambda" if self.expr(node.body) == DATA else UNKNOWN
        except _Kept:
            return UNKNOWN

    def lambda_reads(
        self, node: cst.Lambda, scope: str, given: str, free: Mapping[str, str]
    ) -> bool:
        """Whether the lambda `node` of `scope`, its plain parameters holding `given` and
        the names it closes over what `free` says (else unknown), keeps none of them
        and changes none in place."""
        params = node.params
        if params.star_arg is not cst.MaybeSentinel.DEFAULT or params.star_kwarg:
            return False
        if params.kwonly_params or params.posonly_params or any(p.default for p in params.params):
            return False
        self.scope = scope
        self.env = {**free, **{p.name.value: given for p in params.params}}
        self.shared = {p.name.value for p in params.params}
        try:
            self.expr(node.body)
        except _Kept:
            return False
        return True

    def _run(
        self,
        target: Function,
        call: cst.Call,
        bound: dict[str, str],
        free: Mapping[str, str] | None = None,
    ) -> str:
        """The kind `target` returns, called by `call` (its parameters in `bound` given;
        `free`: the kinds of the names it closes over)."""
        params = [p for p in target.positional if p not in bound]
        named = {p.name.value for p in target.node.params.kwonly_params}
        given = dict(bound)
        positional = [a for a in call.args if a.keyword is None]
        if len(positional) > len(params) or target.node.params.star_kwarg is not None:
            raise _Kept
        for param, arg in zip(params, positional, strict=False):
            given[param] = self.expr(arg.value)
        for arg in call.args:
            if arg.keyword is not None:
                if arg.keyword.value not in set(params) | named:
                    raise _Kept
                given[arg.keyword.value] = self.expr(arg.value)
        return _Reader(self.ctx, self.seen, self.made).function(target, given, free=free)


def _may_alias(value: cst.BaseExpression) -> bool:
    """Whether a name bound to `value` may hold an argument, or part of one: anything but
    a new value (arithmetic, a literal, a call's result)."""
    return type(value) in (cst.Name, cst.Attribute, cst.Subscript, cst.IfExp, cst.BooleanOperation)


def _index_parts(index: cst.BaseSlice) -> list[cst.BaseExpression]:
    if type(index) is cst.Index:
        return [index.value]
    return [e for e in (index.lower, index.upper, index.step) if e is not None]  # type: ignore[attr-defined]  # a Slice


def _join(one: dict[str, str], other: dict[str, str]) -> dict[str, str]:
    """Each name's kind after two paths: the same on both, else unknown."""
    names = set(one) | set(other)
    return {n: one[n] if one.get(n) == other.get(n) else UNKNOWN for n in names}


def field_kind(ctx: ModuleContext, cls: str, name: str) -> str:
    """The kind of field `name` of an instance of module class `cls`, where nothing in
    the module but the `__init__` of such a class stores an attribute of that name: each
    value `__init__` stores in it (`_value_kind`; data where the value model proves it one
    JAX array), one of them where there are several;
    what every construction gives it, where `__init__` stores a parameter or the class
    declares its fields (`_passed_kind`); a factory method's closure where `__init__`
    stores one (`closure_factories.field_closure`); else unknown."""
    closure = field_closure(ctx, cls, name)
    if closure is not None:
        return f"{_CLOSURE}{closure.qualname}"
    if declared_fields(ctx, cls) is not None:
        return _passed_kind(ctx, cls, name)
    found = leaf_fields(ctx, cls)
    if found is None or stored_elsewhere(ctx, name, found[1]):
        return UNKNOWN
    init = found[0]
    stores = [s for s in found[1] if _field_name(s.node) == name]
    values = [field_value(s) for s in stores]
    if len(values) == 1 and type(values[0]) is cst.Name:
        return _passed_kind(ctx, cls, name)  # `self.latent_size = latent_size`
    arrays = model(ctx)
    kinds = sorted(
        {
            DATA  # `self.w = jax.random.normal(key, (2,))`: one JAX array, never changed
            if arrays.value_of(s, field_value(s)).kind is Kind.ARRAY
            else _value_kind(ctx, field_value(s), init)
            for s in stores
        }
    )
    if not kinds or UNKNOWN in kinds:
        return UNKNOWN
    return kinds[0] if len(kinds) == 1 else _EITHER + "|".join(kinds)


def _value_kind(ctx: ModuleContext, value: cst.BaseExpression, init: Function) -> str:
    """A layer built by a constructor `UNKEPT_LAYER_CALLS` or `STATS_LAYER_CALLS` lists,
    given only `PLAIN_LAYER_OPTIONS`; a lambda returning data (`lambda x: x`); an
    object of an nnx module class of the module (`constructors.init_fields` reads it);
    or an `nnx.Sequential` of such values, given by position; else unknown."""
    if type(value) is cst.Lambda:
        return _Reader(ctx, frozenset()).lambda_kind(value, init)
    if type(value) is not cst.Call:
        return UNKNOWN
    layer = plain_layer(ctx, value) or equinox_layer(ctx, value)
    if layer is not None:
        return f"{LAYER}{layer}"
    func = value.func
    if type(func) is cst.Name and func.value in ctx.graph.classes:
        read = leaf_fields(ctx, func.value) or declared_fields(ctx, func.value)
        return func.value if read is not None else UNKNOWN
    if ctx.qualify(func) != nnx_api.SEQUENTIAL or not value.args:
        return UNKNOWN
    if any(a.star or a.keyword is not None for a in value.args):
        return UNKNOWN
    kinds = [_value_kind(ctx, a.value, init) for a in value.args]
    if any(not k or k.startswith((_SEQUENCE, _EITHER)) for k in kinds):
        return UNKNOWN  # unknown, or nested (its kind would not parse)
    return _SEQUENCE + ",".join(kinds)


def _passed_kind(ctx: ModuleContext, cls: str, name: str) -> str:
    """The kind of field `name` of an equinox module of class `cls` that stores what its
    constructor is given there (`field_arguments`): the one kind of what every
    construction gives (`_given_kind`), where no code but an `__init__` stores an
    attribute of that name nor names `__init__` (which may run on an object out of
    sight); else unknown. A step that rebuilds such an object (`module_structure`) keeps
    it data: `apply_updates` makes an array of a data leaf given an array update, or keeps
    it; `eqx.filter_jit` gives an array for an array leaf and the trace's own value for
    any other, which the trace took as it was."""
    if init_named(ctx) or stored_elsewhere(ctx, name, []):
        return UNKNOWN
    given = field_arguments(ctx, cls, name)
    kinds = {_given_kind(ctx, stmt, expr) for stmt, expr in given or ()}
    return kinds.pop() if len(kinds) == 1 else UNKNOWN


def _given_kind(ctx: ModuleContext, at: Stmt, expr: cst.BaseExpression) -> str:
    """What a construction read at `at` gives a field: data where the value model proves
    it a value no code can change in place and whose operators run no code of the
    program (a JAX or NumPy array, a number, a string, a dtype, None, a shape or a tuple
    of arrays: not a list or dict, which code may fill later); an equinox layer
    (`equinox_layer`) built there or by the call that alone binds a local name there,
    in a function in which no function is nested (none may rebind it `nonlocal`); else
    unknown."""
    value = model(ctx).value_of(at, expr)
    if value.kind in _IMMUTABLE_DATA or value.container == "tuple":
        return DATA
    nested = any(f.qualname.startswith(f"{at.scope}.") for f in ctx.graph.functions.values())
    if type(expr) is cst.Name and at.scope in ctx.graph.functions and not nested:
        expr = binding_call(ctx, at, expr.value) or expr
    layer = equinox_layer(ctx, expr)
    return f"{LAYER}{layer}" if layer is not None else UNKNOWN


def _parts(kind: str, prefix: str, separator: str) -> list[str]:
    return kind[len(prefix) :].split(separator)


def _field_name(node: cst.CSTNode) -> str | None:
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return None
    target = node.targets[0].target
    return target.attr.value if type(target) is cst.Attribute else None
