"""Which variables may hold the same device buffers (for donation and hoisting).

An expression *shares* the names whose objects may end up inside its value:
`b = a`, `s = State(p, p)`, `hist.append(x["w"])`, `p = avg = init()` all
make their names share buffers. Sharing is **strong** when it follows from the
syntax (names, containers, constructors, chained assignment) and **weak** when
autoopt only cannot rule it out (calls it cannot see, operators that may
concatenate lists). Calls that return new buffers (jitted functions, array
creation, random draws, conversions to Python values, a method of an equinox module
class of the module returning what a layer computes: `facts/method_results.py`) share
nothing, and so do
conversions to NumPy (`np.asarray`, `jax.device_get`) of a value proven a JAX array
or a number (for `device_get`, or a pytree of arrays): a NumPy view of a device array
pins its buffer, so JAX then refuses to donate it rather than delete it. Of any other
value the copy may hold the value's own objects, a weak link (`np.asarray(d)` of a
dict is a 0-d object array holding `d`; `device_get` returns a leaf that is no array
as it is). A name that never holds a buffer (a module constant, a
number, a shape: `analysis/facts/bufferless.py`) links nothing: two values that hold
the same number share no buffer through it.

Code that may keep a reference is a name in the relation too, so that a donated
buffer it holds is found like an alias: `RETAINED` for what is handed to code autoopt
cannot see (and for an object of a class of the module called, or a method of its
class called, `model(x)`, `model.keep()`, where that code is not proven to keep
nothing: it may store the object's own buffers; a method of an equinox module class
proven to keep nothing, on an object that class built or a step rebuilt from one,
`facts/module_structure.py`, links nothing), and a pseudo-name per place (`is
stored in `Run.start``) for a value

- stored into, or read from, an attribute or item of a class, a module or a function
  (`Run.start = p`, `config.best[k] = p`, `p = Run.start`), where no variable holds it;
- returned by a call autoopt cannot see into (a function of an installed package, a
  decorated function such as an `lru_cache`, a method of a module or class), which may
  keep what it returns: only JAX, NumPy, `math`, `functools` and builtins are known
  not to; a method of a variable is linked to that variable instead. A library call
  the overlays list as keeping none of its arguments and returning none of them
  (`analysis/facts/unkept_arguments.py`: `save_checkpoint`) links nothing, nor does one
  that only renders what it is given (`analysis/facts/rendering.py`: `nnx.display`).

Code a call runs holds what it is called on: a variable called (`model(x)`, where the
object is not proven one of a class of the module, whose code is read instead; a closure
`fn(x)`) or what a callable made in place was given (`jax.vmap(model)(x)`,
`partial(f, model)(x)`; not a jit's, whose function runs on tracers) joins its arguments
as they do. A call of a compiled function (`core/jitted.py`, by name) joins only the
arguments its body sees as the caller's objects: `jax.jit`'s static ones, and every one
of `eqx.filter_jit`'s and `nnx.jit`'s but arrays and immutable values holding no buffer
(and, for `eqx.filter_jit`, equinox modules of such leaves: `facts/inert_modules.py`)
(`facts/jit_arguments.py`); an object that is no pytree carries the buffers it holds
into the body, which may store them on another (tests/hazards h1260, h1584). A body
read and proven to keep and store nothing joins none. An `nnx.jit` call given only data
and graph objects proven to keep nothing carrying a buffer outside their variables
(`facts/nnx_static_parts.py`) keeps nothing, but its body may move a variable from one
of them to another, which nnx writes back (h1585): it joins those arguments to each
other only, a link `Sharing(moves=False)` leaves out (where a donation passes each
variable once, whichever arguments reach it: `facts/nnx_optimizers.py`).

A call of an undecorated function of the module that may keep some of its
arguments joins only those: an argument whose parameter, in the function's own relation,
may share objects with nothing but the function's locals (no other parameter, global,
keeper or raised exception; no namespace handed out: `reflection.locals_escape`) is kept
apart, held after the call only by what the function returns.

What a call of a function of the project returns is read from its `return`
statements, in its own file (`analysis/core/project.py`): the arguments behind its
parameters, the places it stores them (a global it declares, a class attribute, a
container of its module: held by that module), and, for a generator or a coroutine,
every argument (its frame keeps them). A nested function a scope names holds the names
of that scope it reads (its closure). A loop's target holds what its iterable holds,
except a new batch of a generator proven to yield new buffers
(`analysis/facts/loop_batches.py` `fresh_items`), which holds nothing; the loop's
iterator, a pseudo-name, keeps the generator's arguments instead.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.execution import is_jit
from autoopt.analysis.core.exprs import (
    MUTATING_METHODS,
    base_name,
    bound_names,
    evaluated_exprs,
    is_at_update,
    is_literal,
    mutating_call_target,
    read_names,
    scope_nodes,
)
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.core.jitted import jitted_callables
from autoopt.analysis.core.jitted_methods import jitted_methods
from autoopt.analysis.core.names import dotted
from autoopt.analysis.core.project import project_function
from autoopt.analysis.facts import purity
from autoopt.analysis.facts.attribute_stores import stored_anywhere
from autoopt.analysis.facts.bufferless import bufferless_names
from autoopt.analysis.facts.closure_factories import factory_sizes, leaf_fields
from autoopt.analysis.facts.constructors import (
    bufferless_value,
    field_value,
    fresh_filled,
    init_bufferless_names,
    literal_default,
    param_fields,
    plain_record,
)
from autoopt.analysis.facts.fresh import fresh_init, fresh_result, held_fields, receiver_class
from autoopt.analysis.facts.jit_arguments import as_is, moved_only
from autoopt.analysis.facts.jit_outputs import fresh_output, fresh_positions
from autoopt.analysis.facts.loop_batches import fresh_items
from autoopt.analysis.facts.method_results import fresh_method_result
from autoopt.analysis.facts.module_structure import class_methods, structure_class
from autoopt.analysis.facts.nnx_modules import (
    binding_call,
    holds_module,
    optimizer_arguments,
    user_module_class,
)
from autoopt.analysis.facts.reflection import constant_globals, locals_escape, rebinding
from autoopt.analysis.facts.rendering import renders_only
from autoopt.analysis.facts.split_makers import made_call
from autoopt.analysis.facts.train_states import create_static, record_static
from autoopt.analysis.facts.unkept_arguments import (
    DATA,
    UNKNOWN,
    construction_keeps_nothing,
    keeps_no_argument,
    lambda_keeps_nothing,
    visible_keeps_nothing,
)
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.overlays import flax_nnx as nnx_api
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import numpy as numpy_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

_MAX_DEPTH = 3
_LEAF_DEPTH = 8  # nested containers and helper calls followed to find a pytree's leaves
#: A pseudo-name for "somewhere autoopt cannot see": what unknown code may keep.
RETAINED = "<retained>"
#: The start of a pseudo-name for one place that keeps a reference: the rest of the name
#: says where, as a clause about the value (`is stored in `Run.start``).
KEPT = "<kept>"
_JOINING = (cst.Add, cst.Multiply, cst.BitOr)
#: Transforms whose function, called, keeps no reference to its arguments (a jit's cache
#: keeps its static ones).
_UNKEPT_CALLS = (jax_api.TRACING_TRANSFORMS - jax_api.JIT_SPELLINGS) | eqx_api.UNKEPT_CALLS
_CONSTANT_NAMES = frozenset({"True", "False", "None"})
#: Values a host copy converts to a NumPy array of numbers: a JAX array, a number.
_CONVERTED = frozenset({Kind.ARRAY, Kind.SCALAR})
_BUFFERLESS = frozenset({Kind.SCALAR, Kind.SHAPE, Kind.STRING, Kind.DTYPE, Kind.NONE})
#: Values whose methods and operators run no code of the program.
_DATA_KINDS = _BUFFERLESS | {Kind.ARRAY, Kind.HOST_ARRAY}
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

    def __init__(
        self,
        ctx: ModuleContext,
        scope: str,
        skip: Stmt | None = None,
        depth: int = 0,
        until: Stmt | None = None,
        skips: Sequence[Stmt] = (),
        moves: bool = True,
    ):
        """`skip` (and `skips`): statements left out; `until`: only the statements that
        may run before it (earlier in the scope, or in a loop with it) are read;
        `moves`: the links of `nnx.jit` calls that can only move variables and graph
        objects between their arguments are made (`_link_compiled`)."""
        self.ctx = ctx
        self.moves = moves
        self.scope = scope
        self.depth = depth
        self.until = until
        methods = {j.name for j in jitted_methods(ctx)}  # `gan.update`: `self` static
        self.jitted = {j.name for j in jitted_callables(ctx)} | methods
        # every jit by name: a call joins what its body sees as it is (`_link_compiled`)
        self.jits = {j.name: j for j in jitted_callables(ctx, frameworks=True)}
        self.jits |= {j.name: j for j in jitted_methods(ctx)}
        self.compiled = set(self.jits)
        self.ignored = set(ctx.imports.bindings) | set(ctx.graph.classes)
        self.ignored |= ctx.per_module(_function_names, scope)
        # names that never hold a buffer: module constants, the scope's numbers, shapes...
        self.constants = constant_globals(ctx) | bufferless_names(ctx, scope)
        self.ignored |= self.constants
        self.strong: dict[str, set[str]] = {}
        self.weak: dict[str, set[str]] = {}
        # the same links, directed: a name -> the names whose objects its value may hold
        self.holds: dict[str, set[str]] = {}
        # objects changed in place (any object they hold, too) -> what they may take in
        self.changes: list[tuple[frozenset[str], frozenset[str]]] = []
        self._held: dict[str, set[str]] | None = None
        self.at: Stmt | None = None  # where `shares` evaluates values (set per statement read)
        self.retainers: dict[str, set[str]] = {}  # code that may keep names -> those names
        self._unkept_methods: dict[tuple[int, str, str], bool] = {}
        left_out = {id(skip), *map(id, skips)}
        for stmt in ctx.graph.scope_stmts(scope):
            if id(stmt) not in left_out and (until is None or may_run_before(stmt, until)):
                self.at = stmt
                self._link_stmt(stmt)

    # -- queries -------------------------------------------------------------------
    def retained_by(self, names: set[str]) -> str | None:
        """Where a reference to one of `names` may be kept, as a clause about the value
        (`is handed to `log`, which may keep it`), if anywhere."""
        for code, kept in sorted(self.retainers.items()):
            if kept & names:
                return f"is handed to `{code}`, which may keep it"
        held = sorted(n for n in names if n.startswith(KEPT))
        if held:
            return held[0][len(KEPT) :]
        return "may be kept by code autoopt cannot see" if RETAINED in names else None

    def component(
        self, names: Iterable[str], weak: bool, without: frozenset[str] = frozenset()
    ) -> set[str]:
        """Every name reachable from `names` (through weak links too when `weak`), not
        through the names `without`."""
        seen, todo = set(names), list(names)
        seen |= without
        while todo:
            name = todo.pop()
            near = self.strong.get(name, set()) | (self.weak.get(name, set()) if weak else set())
            for other in near - seen:
                seen.add(other)
                todo.append(other)
        return seen - (without - set(names))

    def may_share(self, one: str, other: str) -> bool:
        """Whether `one` and `other` may hold one object: each reaches it through the
        directed links, a name to what its value may hold. Two names that only a third
        holds (`pair = (a, b)`, `loss = f(a, b)` of a function that changes neither) share
        nothing through it; a change in place (`a.append(b)`, a call of code autoopt
        cannot see, which may change what it is given) may put its values into any object
        the changed name holds."""
        held = self._holding()
        return bool(_reach(held, one) & _reach(held, other))

    def reach(self, name: str) -> set[str]:
        """`name` and every name whose objects its value may hold, through the directed
        links and the changes in place (`may_share`'s half)."""
        return _reach(self._holding(), name)

    def _holding(self) -> dict[str, set[str]]:
        """`holds`, with each change's values added to every object the changed names
        may hold, until nothing more is added."""
        if self._held is not None:
            return self._held
        held = {name: set(names) for name, names in self.holds.items()}
        grew = True
        while grew:
            grew = False
            for changed, values in self.changes:
                for name in {n for c in changed for n in _reach(held, c)}:
                    new = values - {name} - held.get(name, set())
                    if new:
                        held.setdefault(name, set()).update(new)
                        grew = True
        self._held = held
        return held

    def shares(self, expr: cst.BaseExpression) -> Shares:
        """The names `expr`'s value may hold."""
        out = Shares()
        if type(expr) is cst.Name:
            if expr.value in self.ignored:
                out.strong |= self._closed_over(expr.value)
            elif expr.value not in _CONSTANT_NAMES:
                out.strong.add(expr.value)
        elif (type(expr) is cst.Attribute or type(expr) is cst.Subscript) and self._bufferless(
            expr
        ):
            pass  # `x.shape`, `x.ndim`, `sizes[0]`: numbers, no buffer
        elif type(expr) is cst.Attribute or type(expr) is cst.Subscript:
            root: cst.BaseExpression = expr
            while type(root) is cst.Attribute or type(root) is cst.Subscript:
                root = root.value
            out.add(self.shares(root))
            if type(root) is cst.Name and self._held_by_root(root.value, expr):
                out.strong.add(f"{KEPT}is read from `{self.ctx.code(expr)}`, which holds it too")
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
        elif type(expr) is cst.BinaryOperation and self._array_value(expr):
            pass  # `scale * w`: arithmetic on an array makes a new buffer
        elif type(expr) is cst.BinaryOperation and isinstance(expr.operator, _JOINING):
            out.add(self.shares(expr.left), weak=True)  # `[a] + b`, `[a] * 2`, `d | e`
            out.add(self.shares(expr.right), weak=True)
        elif type(expr) is cst.ListComp or type(expr) is cst.DictComp:
            out = self._comprehension(expr)
        elif isinstance(expr, _READS_ALL):
            out.strong |= self._named(read_names(expr))
        elif not isinstance(expr, _FRESH_NODES):
            out.weak |= self._named(read_names(expr))
        return out

    def _comprehension(self, expr: cst.ListComp | cst.DictComp) -> Shares:
        """`[Func(key=k) for k in keys]` holds what its elements hold, a loop variable
        standing for what its iterable holds."""
        parts = [expr.elt] if type(expr) is cst.ListComp else [expr.key, expr.value]  # type: ignore[union-attr]
        out = Shares()
        for part in parts:
            out.add(self.shares(part))
        clause: cst.CompFor | None = expr.for_in
        while clause is not None:
            bound = set(bound_names(clause.target))
            held = self.shares(clause.iter)
            if out.names() & bound:
                out = Shares(out.strong - bound, out.weak - bound)
                out.add(held)
            clause = clause.inner_for_in
        return out

    # -- construction --------------------------------------------------------------
    def _named(self, names: Iterable[cst.Name]) -> set[str]:
        """The variables among `names` (`None`, `True` and `False` are constants)."""
        return {n.value for n in names} - self.ignored - _CONSTANT_NAMES

    def _closed_over(self, name: str) -> set[str]:
        """The names of this scope a nested function `name` reads (its closure holds them)
        or its defaults hold."""
        fn = self.ctx.graph.resolve_function(name, self.scope)
        if fn is None or fn.scope != self.scope or self.scope == MODULE:
            return set()
        stmts = self.ctx.graph.scope_stmts(fn.qualname)
        free = {n for s in stmts for n in s.uses} | fn.captured
        free -= {n for s in stmts for n in s.defs} | set(fn.params)
        here = {n for s in self.ctx.graph.scope_stmts(self.scope) for n in s.defs}
        closed = free & (here | set(self.ctx.graph.functions[self.scope].params)) - self.ignored
        return closed.union(*(self.shares(e).names() for e in _defined_values(fn.node)))

    def _held_by_root(self, root: str, expr: cst.BaseExpression) -> bool:
        """`Run.start`, `config.best`, `step.cache[0]`: read from a class, a module or a
        function, not a variable; a name of JAX, NumPy or `math` holds no buffer."""
        if root not in self.ignored or root in self.constants:
            return False
        qual = self.ctx.qualify(expr) or ""
        return not qual.startswith(("jax.", "numpy.", "math.")) and qual not in overlays.CLASSES

    def _holder(self, root: str | None, place: cst.BaseExpression) -> str:
        """What holds a value stored into `place` (`root.f = v`, `root[k].append(v)`): the
        variable `root`, or where it is none (a class, a module, a function, the result
        of a call) a pseudo-name for that place."""
        if root is not None and root not in self.ignored:
            return root
        return f"{KEPT}is stored in `{self.ctx.code(place)}`, which keeps a reference to it"

    def _link(self, names: Iterable[str], shares: Shares, changes: bool = False) -> None:
        """`names` may hold what `shares` holds; `changes`: by a change in place of their
        objects (recorded for `may_share`)."""
        names = set(names) - self.ignored
        held = shares.names()
        if changes and held:
            self.changes.append((frozenset(names), frozenset(held)))
        for name in names:
            self.holds.setdefault(name, set()).update(held - {name})
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
        elif type(node) is cst.AugAssign:  # `xs += ys` extends the list `xs` in place
            self._link_targets([node.target], node.value, changes=True)
        elif type(node) is cst.AnnAssign and node.value is not None:
            self._link_targets([node.target], node.value)
        elif type(node) is cst.For:
            self._link_loop(stmt, node)
        elif type(node) is cst.With:
            for item in node.items:
                if item.asname is not None:
                    self._link(bound_names(item.asname.name), self.shares(item.item))
        elif type(node) is cst.FunctionDef or type(node) is cst.ClassDef:
            self._link_definition(node)
        self._link_comprehensions(node)
        for call in stmt.calls:
            self._link_mutation(call)
            self._link_retention(call)
        self._link_yields(stmt)

    def _link_comprehensions(self, node: cst.CSTNode) -> None:
        """A comprehension's target holds what its iterable holds, as a loop's does
        (`[seen.append(v) for v in params.values()]` puts the leaves into `seen`)."""
        for expr in evaluated_exprs(node):  # a loop's header, not its body
            for inner in scope_nodes(expr):
                if type(inner) is cst.CompFor:
                    self._link(bound_names(inner.target), self.shares(inner.iter))

    def _link_definition(self, node: cst.FunctionDef | cst.ClassDef) -> None:
        """What a definition evaluates once, when it runs, and keeps: a function's default
        arguments (`def drift(p, p0=params)`), a class body's values (`start = u`) and its
        methods' defaults. Read whenever the function is called or the class attribute
        read, however the names were rebound since."""
        kept = Shares()
        for expr in _defined_values(node):
            kept.add(self.shares(expr))
        if kept.names():
            kind = "a default argument of" if type(node) is cst.FunctionDef else "the body of"
            line = self.ctx.span(node).line
            where = f"{KEPT}is held by {kind} `{node.name.value}` (line {line}), made once"
            self._link({where}, kept)

    def _link_loop(self, stmt: Stmt, node: cst.For) -> None:
        """The loop's target holds what its iterable holds; a new batch of a generator
        (`facts/loop_batches.py`) holds nothing else, but the generator keeps its
        arguments and reads them again on every iteration."""
        held = self.shares(node.iter)
        names = list(bound_names(node.target))
        bound = [n for n in names if not fresh_items(self.ctx, stmt, n)]
        self._link(bound, held)
        if len(bound) < len(names):
            line = self.ctx.span(node).line
            where = (
                f"{KEPT}is held by the iterator of the loop at line {line}, which reads it again"
            )
            self._link({where}, held)

    def _link_yields(self, stmt: Stmt) -> None:
        """A value a generator yields (`yield params`, `yield from [params]`) is handed to
        its caller, which may keep it."""
        for node in (n for e in evaluated_exprs(stmt.node) for n in scope_nodes(e)):
            if type(node) is cst.Yield and node.value is not None:
                given = node.value
                value = given.item if isinstance(given, cst.From) else given
                line = self.ctx.span(stmt.node).line
                where = f"{KEPT}is yielded at line {line}, where the caller may keep it"
                self._link({where}, self.shares(value))

    def _link_targets(
        self,
        targets: Sequence[cst.BaseExpression],
        value: cst.BaseExpression,
        changes: bool = False,
    ) -> None:
        for target in targets:
            pairs = self._output_pairs(target, value) or _pairs(target, value)
            for sub_target, sub_value in pairs:
                shares = self.shares(sub_value)
                bound = set(bound_names(sub_target))
                stored = type(sub_target) in (cst.Attribute, cst.Subscript)
                if stored:
                    root = base_name(sub_target)  # `d[k] = v`, `obj.field = v`, `f()[k] = v`
                    bound.add(self._holder(root, sub_target))
                self._link(bound, shares, changes or stored)

    def _output_pairs(
        self, target: cst.BaseExpression, value: cst.BaseExpression
    ) -> list[tuple[cst.BaseExpression, cst.BaseExpression]]:
        """`loss, model = make_step(model, b)` of an `eqx.filter_jit` function: each target
        but those bound to new buffers only (`facts/jit_outputs.py`) paired with the call."""
        if type(target) not in (cst.Tuple, cst.List) or type(value) is not cst.Call:
            return []
        elements = target.elements  # type: ignore[attr-defined]  # a Tuple or List
        if any(type(e) is cst.StarredElement for e in elements):
            return []
        fresh = fresh_positions(self.ctx, value, len(elements))
        if not fresh:
            return []
        return [(e.value, value) for i, e in enumerate(elements) if i not in fresh]

    def _link_mutation(self, call: cst.Call) -> None:
        func = call.func
        if dotted(func) in self.compiled:
            return  # `gan.update(...)`: a jitted method (`core/jitted_methods.py`), no dict's
        if type(func) is cst.Attribute and func.attr.value in MUTATING_METHODS:
            if (self.ctx.qualify(func) or "").startswith(("jax.", "numpy.", "math.")):
                return  # `np.add(a, b)`: a library function named like a method, no store
            root = base_name(func.value)
            if root is None and is_at_update(func):
                return  # `jnp.zeros(3).at[i].add(v)`: a new array, nothing stored
            shares = Shares()
            for arg in call.args:
                shares.add(self.shares(arg.value))
            self._link({self._holder(root, func.value)}, shares, changes=True)

    def _link_retention(self, call: cst.Call) -> None:
        """Code that may keep what it is given: the receiver of an unknown method keeps
        its arguments (`monitor.observe(w)`); an unknown or impure function may keep them
        anywhere (`RETAINED`), and a variable called (`model(x)`, a class's `__call__` or
        a closure) its own objects too, as a variable whose method of a name a class of
        the module defines is called (`model.predict(x)`: that code runs with the object
        as `self`); an argument a function of the module is proven to keep apart
        (`_apart`) takes no part."""
        if self._link_compiled(call):
            return
        apart = self._apart(call)
        args = Shares()
        for arg in call.args:
            if id(arg) not in apart:
                args.add(self.shares(arg.value))
        own = self._program_object(call)
        if own is not None:
            args.strong.add(own)  # its class's code may keep the object's own buffers
        elif self._unkept_program_call(call):
            return  # `model(x)`: its class's code, read, keeps nothing and changes nothing
        if own is None:
            args.add(self._called(call.func))  # `fn(x)`: the code it runs holds `fn`'s objects
        if not args.names() or self._keeps_nothing(call):
            return
        func = call.func
        holder = base_name(func.value) if type(func) is cst.Attribute else None
        if own is not None or holder is None or holder in self.ignored | args.names():
            holder = RETAINED  # `model.predict(x)` may keep `model`'s objects anywhere
            self.retainers.setdefault(self.ctx.code(func), set()).update(args.names())
        self._link({holder}, Shares(weak=args.names()))
        together = frozenset(args.names() | {holder})  # may put any into any other of them
        self.changes.append((together, together))

    def _link_compiled(self, call: cst.Call) -> bool:
        """A call of a compiled function: its body sees tracers of the array leaves, and
        may put none of them anywhere; the arguments it sees as the caller's objects
        (`facts/jit_arguments.py`) it may put into each other or keep, as code autoopt
        cannot see may, unless the body is read and proven to keep and store nothing
        (`unkept_arguments.visible_keeps_nothing`). An `nnx.jit` call given only data and
        graph objects keeping nothing that carries a buffer outside their variables
        (`jit_arguments.moved_only`) keeps nothing, and links those arguments to each
        other only (a variable moved from one to another: `moves`). False for any other
        call."""
        name = dotted(call.func) or ""
        jitted = self.jits.get(name)
        if jitted is None or self.at is None:
            return False
        seen = as_is(self.ctx, self.at, call, jitted, bound="." in name)
        if seen is None:
            return False
        if "." not in name and self._body_unkept(jitted.function, call):
            return True  # its body stores nothing anywhere and keeps nothing
        moved = moved_only(self.ctx, self.at, call, jitted)
        if moved is not None:
            if self.moves and len(moved) > 1:  # a variable moved from one to another
                self._link(moved, Shares(weak=set(moved)))
                self.changes.append((frozenset(moved), frozenset(moved)))
            return True
        passed = Shares()
        for expr in seen:
            passed.add(self.shares(expr))
        if passed.names():
            self.retainers.setdefault(self.ctx.code(call.func), set()).update(passed.names())
            self._link({RETAINED}, Shares(weak=passed.names()))
            together = frozenset(passed.names() | {RETAINED})
            self.changes.append((together, together))
        return True

    def _body_unkept(self, fn: Function | None, call: cst.Call) -> bool:
        """The compiled function `fn` (its jit the one decorator, or none where a
        wrapper compiles it) is read and proven to keep and store nothing."""
        if fn is None or len(fn.node.decorators) > 1:
            return False
        return self._visibly_unkept(self.ctx, fn, call, bool(fn.node.decorators))

    def _apart(self, call: cst.Call) -> set[int]:
        """The ids of the arguments of `call`, a call of an undecorated function of this
        module (neither a generator nor a coroutine, handing out no namespace:
        `reflection.locals_escape`), whose parameter no name of the function's own relation
        may share objects with but its own locals: the function keeps no reference to
        the argument, and puts it into no other argument, no global and nothing it
        hands to code that may keep it, nor any of those into it."""
        found = self.callee(call)
        if found is None or found[0] is not self.ctx or self.at is None:
            return set()
        fn = found[1]
        if fn.node.decorators or fn.is_generator or fn.node.asynchronous is not None:
            return set()
        if self.depth + 1 >= _MAX_DEPTH or any(a.star for a in call.args):
            return set()
        if locals_escape(self.ctx, fn.qualname):
            return set()
        inner = scope_sharing(self.ctx, fn.qualname, self.depth + 1)
        local = {n for s in self.ctx.graph.scope_stmts(fn.qualname) for n in s.defs}
        local -= fn.globals | fn.nonlocals | set(fn.params)
        names = set(inner.holds) | {n for held in inner.holds.values() for n in held}
        raised = _raised(self.ctx, fn)  # an exception carries them out to any caller
        site = CallSite(self.at, call, fn)
        apart = set()
        for index, param in enumerate(fn.params):
            arg = site.argument(index, param)
            shared = {n for n in names - {param} if inner.may_share(n, param)}
            if any(n == param or inner.may_share(n, param) for n in raised):
                continue
            if arg is not None and shared <= local:
                apart |= {id(a) for a in call.args if a.value is arg}
        return apart

    def _called(self, func: cst.BaseExpression) -> Shares:
        """What the callable `func` holds, whose code a call runs with it: a variable
        (`model(x)`, `fn(x)`: a name the module binds) whose object is not proven one of a
        class of the module (`_program_object` reads those), or what a callable made by a
        call was given (`jax.vmap(model)(x)`, `functools.partial(f, model)(x)`)."""
        out = Shares()
        if type(func) is cst.Call and is_jit(self.ctx, func.func):
            return out  # `jax.jit(f)(x)`: `f` runs on tracers, never on what the call is given
        if type(func) is cst.Call:
            for arg in func.args:
                out.add(self.shares(arg.value))
            out.add(self._called(func.func))
            return out
        if type(func) is cst.Attribute:  # `model.predict(x)`: a class's code runs on `model`
            root = base_name(func.value)
            variable = root is not None and root in self.ctx.per_module(_variables)
            own = func.attr.value in self.ctx.per_module(class_methods)
            return self.shares(func.value) if own and variable and root not in self.ignored else out
        if type(func) is not cst.Name or func.value in self.ignored:
            return out
        if func.value not in self.ctx.per_module(_variables):
            return out  # a builtin
        made = None if self.at is None else binding_call(self.ctx, self.at, func.value)
        cls = made.func.value if made is not None and type(made.func) is cst.Name else ""
        if cls not in self.ctx.graph.classes:
            out.strong.add(func.value)
        return out

    def _program_object(self, call: cst.Call) -> str | None:
        """The name of an object of a class of the module that `call` calls or calls a
        method of (`model(x)`, `model.keep()`), where the code it runs is the class's
        own and not proven to keep nothing (`unkept_arguments.visible_keeps_nothing`):
        that code may store the object's buffers anywhere. The class is the constructor's
        that alone binds the name, or an equinox class whose structure the object keeps
        (`facts/module_structure.py`: a step rebuilt it). A method the class does not
        define is a base's: nnx's own `eval` and `train` keep nothing
        (`overlays/flax_nnx.py`, `MODULE_METHODS`), any other is unknown."""
        found = self._program_method(call)
        if found is None:
            return None
        name, method, fn, receiver = found
        if fn is None:
            own = method in nnx_api.MODULE_METHODS and holds_module(self.ctx, self.at, name)  # type: ignore[arg-type]  # `_program_method` checked `at`
            return None if own else name
        return None if self._method_unkept(fn, call, receiver) else name

    def _unkept_program_call(self, call: cst.Call) -> bool:
        """`model(x)`, `model.encode(x)`: a method the class of `_program_method` defines,
        given no `*args` or `**kwargs`, proven to keep none of its arguments and change
        none in place; a method but `__call__` (which Python looks up on the class) only
        where no statement stores an attribute of its name (an instance's own would hide
        it)."""
        found = self._program_method(call)
        if found is None or any(a.star for a in call.args):
            return False
        _, method, fn, receiver = found
        if fn is None or (method != "__call__" and stored_anywhere(self.ctx, method)):
            return False
        return self._method_unkept(fn, call, receiver)

    def _program_method(self, call: cst.Call) -> tuple[str, str, Function | None, str] | None:
        """For `name(...)` or `name.m(...)` of an object of a class of the module
        (`_program_object`): the name, the method, the class's own `def` of it (None: a
        base's) and the kind of the object as `visible_keeps_nothing` reads it."""
        func = call.func
        name = func.value if type(func) is cst.Attribute else func
        if type(name) is not cst.Name or self.at is None or name.value in self.ignored:
            return None
        made = binding_call(self.ctx, self.at, name.value)
        cls = made.func.value if made is not None and type(made.func) is cst.Name else ""
        method = func.attr.value if type(func) is cst.Attribute else "__call__"
        receiver = self._argument_kind(self.at, name) if cls else ""
        if cls not in self.ctx.graph.classes and method in self.ctx.per_module(class_methods):
            cls = receiver = structure_class(self.ctx, self.at, name.value) or ""  # rebuilt
        if cls not in self.ctx.graph.classes:
            return None
        fn = self.ctx.graph.functions.get(f"{cls}.{method}")
        return name.value, method, fn if fn is not None and fn.scope == cls else None, receiver

    def _method_unkept(self, fn: Function, call: cst.Call, receiver: str) -> bool:
        """The method `fn` of a class of the module, called by `call` on an object of kind
        `receiver`, proven to keep none of its arguments and change none in place
        (`unkept_arguments.visible_keeps_nothing`; read once per call)."""
        key = (id(call), fn.qualname, receiver)
        if key not in self._unkept_methods:
            self._unkept_methods[key] = self._read_method(fn, call, receiver)
        return self._unkept_methods[key]

    def _read_method(self, fn: Function, call: cst.Call, receiver: str) -> bool:
        assert self.at is not None
        site = CallSite(self.at, call, fn, bound=True)
        given = {fn.params[0]: receiver} if fn.params else {}
        for index, param in enumerate(fn.params[1:], start=1):
            arg = site.argument(index, param)
            if arg is not None:
                given[param] = self._argument_kind(self.at, arg)
        return visible_keeps_nothing(self.ctx, fn, given)

    def _unkept_equinox_method(self, call: cst.Call) -> bool:
        """`model.sample(ts)`: a method an equinox module class of the module defines,
        called on an object that class built or one with its structure
        (`facts/module_structure.py`), proven to keep none of its arguments and change
        none in place; no statement stores an attribute of the method's name (an
        instance's own would hide it)."""
        func = call.func
        if type(func) is not cst.Attribute or type(func.value) is not cst.Name or self.at is None:
            return False
        if func.attr.value not in self.ctx.per_module(class_methods):
            return False
        cls = structure_class(self.ctx, self.at, func.value.value)
        fn = self.ctx.graph.functions.get(f"{cls}.{func.attr.value}") if cls else None
        if fn is None or fn.scope != cls or any(a.star for a in call.args):
            return False
        return not stored_anywhere(self.ctx, fn.name) and self._method_unkept(fn, call, cls)

    def _keeps_nothing(self, call: cst.Call) -> bool:
        """JAX, NumPy, builtins, jitted functions, array methods and pure module
        functions return what they compute and keep no reference to their arguments."""
        inner = made_call(self.ctx, call)
        if inner is not None:
            return self._keeps_nothing(inner)  # `make_with_state(Model)(key)`: `Model(key)`
        qual = self.ctx.qualify(call.func) or self._library_alias(call.func)
        name = dotted(call.func) or ""
        if qual.startswith(("jax.", "numpy.", "math.", "functools.")) or name in self.compiled:
            return self._given_unkept_functions(call, qual)  # `jax.tree.map(f, params)` runs `f`
        if qual in overlays.JIT_SPELLINGS:
            return True  # `eqx.filter_jit(f)`, like `jax.jit(f)`, keeps the function only
        if qual in overlays.UNKEPT_OBJECTS or qual in nnx_api.VARIABLE_TYPES:
            return True  # `nnx.Linear(...)`, `nnx.Param(w)`: holds what it is given (linked)
        if qual in overlays.PURE_CALLS:
            return True  # `TrainState.create(...)`, `optax.adam(lr)`: touch nothing else
        if keeps_no_argument(self.ctx, call):
            return True  # `checkpoints.save_checkpoint(d, target=p, step=0)`
        if self.at is not None and renders_only(self.ctx, self.at, call):
            return True  # `nnx.display(model)` of a model flax alone renders
        if record_static(self.ctx, call) is not None:
            return True  # a field subclass's `TrainState.create` or constructor, flax's
        if name in python_api.PURE_BUILTINS or name in ("print", "len", "isinstance"):
            return True
        func = call.func
        if type(func) is cst.Attribute and self._pure_library_method(func):
            return True  # `opt.init(params)`, `model.apply(variables, x)`
        if self._unkept_equinox_method(call):
            return True  # `model.sample(ts)` of a method read to keep nothing
        if self._factory_call(call):
            return True  # `self._block(8, rngs)`: a closure over new layers of its own
        if type(func) is cst.Attribute:
            if func.attr.value in MUTATING_METHODS and not qual:
                return True  # linked by `_link_mutation`
            if self.at is not None:
                receiver = model(self.ctx).value_of(self.at, func.value).kind
                return receiver in (Kind.ARRAY, Kind.HOST_ARRAY, Kind.STRING)
            return False
        if name in self.ctx.graph.classes and self._init_keeps_nothing(name):
            return True  # an equinox module storing only fields of its own
        if name in self.ctx.graph.classes and self._constructs_only(call, name):
            return True  # a plain class whose `__init__` keeps what it is given in fields
        if name in self.ctx.graph.classes and plain_record(self.ctx, name):
            return True  # a record holds its arguments (linked), nothing else keeps them
        if name in self.ctx.graph.classes and self.at is not None:
            made = model(self.ctx).value_of(self.at, call.func)
            return made.detail == "pytree-class"  # a NamedTuple holds its fields, nothing else
        if self._transformed(call) is not None:
            return True  # `batched = jax.vmap(predict)`, then `batched(params, x)`
        found = self.callee(call)
        if found is None:
            return False
        owner, fn = found
        if owner is not self.ctx and fn.name in _jitted_names(owner):
            return True
        if fn.node.decorators:
            return False
        return not purity.impurities(owner, fn) or self._visibly_unkept(owner, fn, call)

    def _library_alias(self, func: cst.BaseExpression) -> str:
        """`opt_class(lr)` where `opt_class` is a local of a function (no parameter,
        `global` or `nonlocal`) every binding of which that reaches the call binds it to a
        constructor the overlays list as keeping nothing it is given (`UNKEPT_OBJECTS`:
        `opt_class = optax.adam` in one branch, `optax.sgd` in another): the first of them
        ("" otherwise)."""
        if type(func) is not cst.Name or self.at is None:
            return ""
        fn = self.ctx.graph.functions.get(self.at.scope)
        if fn is None or func.value in set(fn.params) | fn.globals | fn.nonlocals:
            return ""  # a parameter or a global may hold anything on a path with no binding
        binders = self.ctx.graph.reaching_defs(self.at, func.value)
        quals = set()
        for binder in binders:
            node = binder.node
            if type(node) is not cst.Assign or len(node.targets) != 1:
                return ""
            target = node.targets[0].target
            if type(target) is not cst.Name or target.value != func.value:
                return ""
            quals.add(self.ctx.qualify(node.value) or "")
        found = sorted(quals)
        return found[0] if found and set(found) <= overlays.UNKEPT_OBJECTS else ""

    def _given_unkept_functions(self, call: cst.Call, qual: str) -> bool:
        """Whether each function a JAX call runs on the values it is given (its first
        argument, where it is one of `EAGER_CALLERS`, and `is_leaf=`) is proven to keep
        none of them and change none in place: a function of JAX, NumPy or `math`; a
        function of the module or a lambda read so (`unkept_arguments`), its parameters
        data where every other argument by position is, by the value model, a JAX array
        or a pytree of arrays (a tree map's leaves), else unknown."""
        given = [
            a.value for a in call.args if a.keyword is not None and a.keyword.value == "is_leaf"
        ]
        positional = [a for a in call.args if a.keyword is None]
        if qual in jax_api.EAGER_CALLERS:
            if not positional or any(a.star for a in call.args):
                return False
            given.append(positional[0].value)
        if not given:
            return True
        values = model(self.ctx)
        data = self.at is not None and all(
            values.value_of(self.at, a.value).is_arrays for a in positional[1:]
        )
        kind = DATA if data and qual in jax_api.EAGER_CALLERS and len(given) == 1 else UNKNOWN
        return all(self._unkept_function(f, kind) for f in given)

    def _unkept_function(self, func: cst.BaseExpression, kind: str) -> bool:
        """`func` is a function of JAX, NumPy or `math`, or a function of the module or a
        lambda proven, its parameters holding `kind`, to keep none of them."""
        if type(func) in (cst.Name, cst.Attribute) and (self.ctx.qualify(func) or "").startswith(
            ("jax.", "numpy.", "math.")
        ):
            return True
        if type(func) is cst.Lambda and self.at is not None:
            free = {n.value for n in read_names(func.body)} - {
                p.name.value for p in func.params.params
            }
            values = model(self.ctx)
            known = {n: DATA for n in free if values.name(self.at, n).kind in _DATA_KINDS}
            return lambda_keeps_nothing(self.ctx, func, self.scope, kind, known)
        fn = (
            self.ctx.graph.resolve_function(func.value, self.scope)
            if type(func) is cst.Name
            else None
        )
        if fn is None or fn.node.decorators or fn.scope != MODULE:
            return False
        return visible_keeps_nothing(self.ctx, fn, dict.fromkeys(fn.params, kind))

    def _factory_call(self, call: cst.Call) -> bool:
        """`self.m(...)` in a method of a class, `m` a factory of that class
        (`facts/closure_factories.py`: it never reads `self`, and its layers keep none
        of `rngs`'s buffers) given sizes that hold nothing of the scope's (numbers and
        shapes): it keeps nothing it is given."""
        fn = self.ctx.graph.functions.get(self.scope)
        if fn is None or not fn.is_method or not fn.params:
            return False
        sizes = factory_sizes(self.ctx, fn.scope, fn.params[0], call)
        return sizes is not None and not any(self.shares(s).names() for s in sizes)

    def _constructs_only(self, call: cst.Call, cls: str) -> bool:
        """`cls(...)` of a plain class keeping what it is given only in the object it makes
        (`unkept_arguments.construction_keeps_nothing`), read with what each argument is."""
        init = self.ctx.graph.functions.get(f"{cls}.__init__")
        at = self.at
        if init is None or at is None or any(a.star for a in call.args):
            return False
        site = CallSite(at, call, init, bound=True)
        given = {}
        for index, param in enumerate(init.params[1:], start=1):
            arg = site.argument(index, param)
            if arg is not None:
                given[param] = self._argument_kind(at, arg)
        return construction_keeps_nothing(self.ctx, cls, given)

    def _visibly_unkept(
        self, owner: ModuleContext, fn: Function, call: cst.Call, compiled: bool = False
    ) -> bool:
        """A function of this module whose body keeps none of the arguments this call
        gives it, read with what each is (`unkept_arguments.visible_keeps_nothing`;
        `compiled`: through its jit decorator)."""
        at = self.at
        if owner is not self.ctx or at is None or any(a.star for a in call.args):
            return False
        site = CallSite(at, call, fn)
        given = {}
        for index, param in enumerate(fn.params):
            arg = site.argument(index, param)
            if arg is not None:
                given[param] = self._argument_kind(at, arg)
        return visible_keeps_nothing(self.ctx, fn, given, compiled)

    def _argument_kind(self, at: Stmt, arg: cst.BaseExpression) -> str:
        """What `arg` is, for `visible_keeps_nothing`: an instance of a module class,
        data, or unknown."""
        if type(arg) is cst.Name:
            cls = user_module_class(self.ctx, at, arg.value)
            if cls is not None:
                return cls
        value = model(self.ctx).value_of(at, arg)
        if value.kind in _DATA_KINDS or value.container is not None:
            return DATA  # a container of arrays: `arrays_in`'s
        return UNKNOWN

    def _transformed(self, call: cst.Call) -> tuple[str, Function] | None:
        """The JAX transform and the function of the module a call runs, where its callee
        is a transform (`jax.vmap`, `jax.grad`, `eqx.filter_grad`, ...: `_UNKEPT_CALLS`)
        of a pure, undecorated function, written in place (`jax.grad(loss)(w, x)`) or a
        name bound once in this scope, by no function through `global`, to one: calling
        it keeps no argument."""
        transform = call.func if type(call.func) is cst.Call else self._bound_transform(call)
        if transform is None or not transform.args:
            return None
        given = transform.args[0].value
        qual = self.ctx.qualify(transform.func) or ""
        graph = self.ctx.graph
        fn = graph.resolve_function(given.value, self.scope) if type(given) is cst.Name else None
        if qual not in _UNKEPT_CALLS or fn is None or fn.node.decorators:
            return None
        return None if purity.impurities(self.ctx, fn) else (qual, fn)

    def _bound_transform(self, call: cst.Call) -> cst.Call | None:
        """The call bound to the callee's name, where one statement of this scope, and no
        function through `global`, binds it."""
        graph = self.ctx.graph
        name = call.func.value if type(call.func) is cst.Name else ""
        binders = [s for s in graph.scope_stmts(self.scope) if name in s.defs]
        node = binders[0].node if len(binders) == 1 else None
        if type(node) is not cst.Assign or type(node.value) is not cst.Call:
            return None
        if any(name in f.globals | f.nonlocals for f in graph.functions.values()):
            return None
        return node.value

    def _init_keeps_nothing(self, cls: str) -> bool:
        """Whether class `cls` is read by `constructors.init_fields` and its `__init__`
        hands nothing to code that may keep it (`super().__init__(**kwargs)` of
        `eqx.Module` takes no argument) and stores nothing but in its fields."""
        found = leaf_fields(self.ctx, cls)
        if found is None or self.depth >= _MAX_DEPTH:
            return False
        inner = scope_sharing(self.ctx, found[0].qualname, self.depth + 1)
        kept = set(inner.retainers) - {"super().__init__"}
        names = set(inner.strong) | set(inner.weak) - {RETAINED}  # super().__init__'s only
        return not kept and not any(is_pseudo(n) for n in names)

    def _init_shares(self, call: cst.Call, cls: str) -> Shares | None:
        """What an object of `cls` holds of the caller's: the arguments its `__init__`
        links to `self` by the fields it stores (None: not such a class)."""
        if not self._init_keeps_nothing(cls) or any(a.star for a in call.args):
            return None
        init, _ = leaf_fields(self.ctx, cls)  # type: ignore[misc]  # checked above
        inner = scope_sharing(self.ctx, init.qualname, self.depth + 1)
        read = inner.component({init.params[0]}, weak=True)  # what its fields may hold
        out = Shares()
        for arg in call.args:
            out.add(self.shares(arg.value), weak=True)  # unless the parameter is known
        params = [p for p in init.params[1:] if p in read]
        local = {n for s in self.ctx.graph.scope_stmts(init.qualname) for n in s.defs}
        local -= init.globals | init.nonlocals
        known = Shares(strong=read - local - set(init.params))  # a global it stores
        for param in params:
            given = _init_argument(init, call, param)
            if given is None:
                return out
            known.add(self.shares(given))
        bound = {_init_argument(init, call, p) for p in init.params[1:]}
        if any(a.value not in bound for a in call.args):
            return out  # an argument behind `**kwargs`
        return known

    def _pure_library_method(self, func: cst.Attribute) -> bool:
        """A pure method of a library object whose construction is seen (`fresh.py`)."""
        if self.at is None:
            return False
        cls = receiver_class(self.ctx, self.at, func.value)
        return cls is not None and f"{cls}.{func.attr.value}" in overlays.PURE_OBJECT_METHODS

    def callee(self, call: cst.Call) -> tuple[ModuleContext, Function] | None:
        """The function a call runs: of this module (by a bare name its `def` alone binds,
        or jits of it: `_rebound_functions`), or of another file of the project; with the
        context that analyses it."""
        name = dotted(call.func) or ""
        if name and "." not in name:
            fn = self.ctx.graph.resolve_function(name, self.scope)
            if fn is not None and fn.qualname in self.ctx.per_module(_rebound_functions):
                return None  # `loss = keeper(loss)`: the call may run something else
            if fn is not None:
                return self.ctx, fn
        qual = self.ctx.qualify(call.func)
        return project_function(self.ctx, qual) if qual else None

    def _unseen(self, call: cst.Call, qual: str) -> bool:
        """A call of code autoopt cannot see into, which may keep what it returns: not a
        function of JAX, NumPy, `math` or `functools`, nor a builtin (the module's own
        functions and classes are asked before). A method of a variable is linked to its
        receiver instead, which stands for where the object lives."""
        if qual.startswith(("jax.", "numpy.", "math.", "functools.")):
            return False
        if qual in overlays.UNKEPT_OBJECTS:
            return False
        func = call.func
        if type(func) is cst.Name:
            return func.value not in python_api.PURE_BUILTINS | python_api.FRESH_BUILTINS
        if is_at_update(func) or self._array_method(func):
            return False
        root = func
        while type(root) in (cst.Attribute, cst.Subscript):
            root = root.value  # type: ignore[attr-defined]
        return type(root) is not cst.Name or root.value in self.ignored

    def _bufferless(self, expr: cst.BaseExpression) -> bool:
        """Whether `expr`'s value is proven a number, a shape, a string or a dtype."""
        if self.at is None:
            return False
        return model(self.ctx).value_of(self.at, expr).kind in _BUFFERLESS

    def _array_value(self, expr: cst.BaseExpression) -> bool:
        """Whether `expr`'s value is one array (where `at` is known)."""
        return self.at is not None and model(self.ctx).value_of(self.at, expr).kind is Kind.ARRAY

    def _array_method(self, func: cst.BaseExpression) -> bool:
        """`x.sum()`, `jnp.zeros(3).reshape(...)`: a method of an array or a string."""
        if type(func) is not cst.Attribute or self.at is None:
            return False
        receiver = model(self.ctx).value_of(self.at, func.value).kind
        return receiver in (Kind.ARRAY, Kind.HOST_ARRAY, Kind.STRING)

    def _call(self, call: cst.Call) -> Shares:
        made = made_call(self.ctx, call)
        if made is not None:
            return self._call(made)  # `make_with_state(Model)(key)`: `Model(key)`'s buffers
        qual = self.ctx.qualify(call.func) or self._library_alias(call.func)
        qual = qual or dotted(call.func) or ""
        last = call.func.attr.value if type(call.func) is cst.Attribute else qual
        args = Shares()
        for arg in call.args:
            args.add(self.shares(arg.value))
        if qual in jax_api.HOST_COPIES and not self._converts_arrays(qual, call):
            out = Shares()  # `np.asarray({"w": w})`: an object array holding the dict
            out.add(args, weak=True)
            return out
        if _is_fresh(qual, last, call) or qual in self.jitted or self._host_copy(qual, call):
            return Shares()
        if keeps_no_argument(self.ctx, call):
            return Shares()  # returns none of its arguments (a path)
        if fresh_output(self.ctx, call):
            return Shares()  # an `eqx.filter_jit` function returning arrays (`jit_outputs.py`)
        if self.at is not None and fresh_result(self.ctx, self.at, call):
            return Shares()  # `opt.init(params)`, `model.init(key, x)`: new buffers
        if self.at is not None and fresh_method_result(self.ctx, self.at, call):
            return Shares()  # `model.sample(ts)` of a method returning what a layer computes
        held = None if self.at is None else held_fields(self.ctx, self.at, call)
        if held is not None:
            out = Shares()  # `TrainState.create(params=p, tx=opt)` holds `p`
            for value in held:
                out.add(self.shares(value))
            return out
        if type(call.func) is cst.Call and is_jit(self.ctx, call.func.func):
            return Shares()  # `jax.jit(f)(x)`: compiled outputs are new buffers
        if qual in jax_api.TREE_MAPS and call.args:
            return self._tree_map(call, args)
        built = self._init_shares(call, dotted(call.func) or "")
        if built is not None:
            return built
        if qual in nnx_api.VARIABLE_TYPES:
            return args  # `nnx.Param(w)` holds `w`, and nothing keeps it
        kept = _layer_arguments(qual, call)
        if kept is not None:
            out = Shares()  # new buffers, none of `rngs`'s (`key`'s), and what the rest hold
            for value in kept:
                out.add(self.shares(value))
            return out
        found = self.callee(call)  # a function of the project, whatever its name's case
        if (last[:1].isupper() and found is None) or last in ("replace", "_replace", "copy"):
            return self._constructed(call, qual, last, args)
        mapped = self._transformed(call)
        if mapped is not None and mapped[0] == "jax.vmap" and self.depth < _MAX_DEPTH:
            return self._module_call(self.ctx, mapped[1], call)  # may return an argument
        if found is not None and not found[1].node.decorators and self.depth < _MAX_DEPTH:
            return self._module_call(*found, call)
        if found is not None and found[1].name in _jitted_names(found[0]):
            return Shares()  # jitted in another file of the project: new buffers
        out = Shares()
        out.add(args, weak=qual not in overlays.ALIASING)  # `nnx.state(m)`: m's buffers
        if self._library_alias(call.func):
            return out  # `opt_class(lr)`: a listed constructor's new object holds its arguments
        out.add(self._callable_holds(call.func), weak=True)
        if found is not None or self._unseen(call, qual):
            out.weak.add(self._kept_result(call))  # a cache, a global may hold it too
        return out

    def _callable_holds(self, func: cst.BaseExpression) -> Shares:
        """What the value called may hand its result: a method's receiver, or a callable
        bound to a variable (a closure, a `functools.partial`, a generator function made by
        a factory), which may return what it was built from; a name the module never binds
        (a builtin) holds nothing of it."""
        if type(func) is cst.Attribute:
            return self.shares(func.value)
        if type(func) is cst.Name and func.value not in self.ctx.per_module(_bound_anywhere):
            return Shares()
        return self.shares(func)

    def _constructed(self, call: cst.Call, qual: str, last: str, args: Shares) -> Shares:
        """A constructor or a shallow copy holds what it is given (and a class autoopt
        cannot see, but a `TrainState`, may register the object it makes)."""
        func = call.func
        out = self.shares(func.value) if type(func) is cst.Attribute else Shares()
        out.add(args)
        unseen_class = last[:1].isupper() and last not in self.ctx.graph.classes
        if unseen_class and record_static(self.ctx, call) is None and self._unseen(call, qual):
            out.weak.add(self._kept_result(call))
        return out

    def _kept_result(self, call: cst.Call) -> str:
        code = self.ctx.code(call.func)
        return f"{KEPT}comes from `{code}`, which may keep a reference to it"

    def _host_copy(self, qual: str, call: cst.Call) -> bool:
        """`jnp.asarray(a)` / `jax.device_put(a)` of a NumPy array: a new device buffer."""
        if qual not in jax_api.DEVICE_COPIES or not call.args or self.at is None:
            return False
        return model(self.ctx).value_of(self.at, call.args[0].value).kind is Kind.HOST_ARRAY

    def _converts_arrays(self, qual: str, call: cst.Call) -> bool:
        """A host copy (`np.asarray`, `jax.device_get`) of a value proven a JAX array or a
        number (`jax.device_get`: or a pytree of arrays): a NumPy array holding no object
        of its argument. Of anything else it may hold the very objects: `np.asarray(d)` of
        a dict is a 0-d object array holding `d`, `jax.device_get` returns a leaf that is
        no array as it is."""
        first = call.args[0] if call.args else None
        if self.at is None or first is None or first.keyword is not None or first.star:
            return False
        kind = model(self.ctx).value_of(self.at, first.value).kind
        return kind in _CONVERTED or (kind is Kind.PYTREE and qual == "jax.device_get")

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

    def _module_call(self, owner: ModuleContext, fn: Function, call: cst.Call) -> Shares:
        """What a call of a function of the project (`owner` analyses it) returns, from
        its `return` statements: a generator or a coroutine holds all its arguments."""
        inner = scope_sharing(owner, fn.qualname, self.depth + 1)
        returned = Shares()
        for stmt in owner.graph.scope_stmts(fn.qualname):
            if type(stmt.node) is cst.Return and stmt.node.value is not None:
                returned.add(inner.shares(stmt.node.value))
        if fn.is_generator or fn.node.asynchronous is not None:
            returned.strong |= set(fn.params)
        strong = inner.component(returned.strong, weak=False)
        weak = inner.component(returned.names(), weak=True) - strong
        out = Shares()
        for names, is_weak in ((strong, False), (weak, True)):
            for name in names:
                out.add(self.argument(fn, call, name, owner), weak=is_weak)
        return out

    def argument(
        self, fn: Function, call: cst.Call, name: str, owner: ModuleContext | None = None
    ) -> Shares:
        """The caller-side names behind callee name `name` (a parameter or a global; a
        global of another file, `owner`, is held there)."""
        owner = owner or self.ctx
        local = {n for s in owner.graph.scope_stmts(fn.qualname) for n in s.defs}
        local -= fn.globals | fn.nonlocals
        if name not in fn.params:
            if name in local:
                return Shares()
            if owner is not self.ctx and not name.startswith("<"):
                module = Path(owner.path).stem
                return Shares(strong={f"{KEPT}is held by `{module}.{name}` too"})
            return Shares(strong={name})
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


def _defined_values(node: cst.FunctionDef | cst.ClassDef) -> Iterator[cst.BaseExpression]:
    """The expressions a definition evaluates when it runs and keeps: a function's
    defaults; a class body's assigned values and its methods' defaults (nested classes
    too)."""
    if type(node) is cst.FunctionDef:
        params = node.params
        for param in (*params.posonly_params, *params.params, *params.kwonly_params):
            if param.default is not None:
                yield param.default
        return
    for small in scope_nodes(node.body):
        if type(small) is cst.Assign or type(small) is cst.AnnAssign:
            if small.value is not None:
                yield small.value
        elif type(small) is cst.FunctionDef or type(small) is cst.ClassDef:
            yield from _defined_values(small)


def _function_names(ctx: ModuleContext, scope: str) -> frozenset[str]:
    """The names that refer to a function from `scope`: one defined in the module or in
    a function around it, and bound by nothing else there (a nested function's name
    elsewhere, `loader`, may be a variable here)."""
    graph = ctx.graph
    around = {MODULE} | {f.qualname for f in graph.enclosing_functions(scope)}
    names = {f.name for f in graph.functions.values() if f.scope in around}
    stmts = graph.scope_stmts(scope)
    return frozenset(
        names - {n for s in stmts if type(s.node) is not cst.FunctionDef for n in s.defs}
    )


def _rebound_functions(ctx: ModuleContext) -> frozenset[str]:
    """The functions of the module whose name something but their `def` and jits of them
    (`loss = eqx.filter_jit(loss)`, which run them on tracers) binds in their scope, or
    that a function declares `global` or `nonlocal`, or the module's namespace may rebind
    (`facts/reflection.py`)."""
    graph = ctx.graph
    moved = rebinding(ctx)
    declared = {n for f in graph.functions.values() for n in f.globals | f.nonlocals}
    found = set()
    for fn in graph.functions.values():
        binders = [s for s in graph.scope_stmts(fn.scope) if fn.name in s.defs]
        others = [s for s in binders if s.node is not fn.node and not _jit_of(ctx, s, fn.name)]
        if others or fn.name in declared or moved.anything or fn.name in moved.names:
            found.add(fn.qualname)
    return frozenset(found)


def _jit_of(ctx: ModuleContext, stmt: Stmt, name: str) -> bool:
    """`name = jit(name, ...)`, by a spelling the overlays list."""
    node = stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1 or type(node.value) is not cst.Call:
        return False
    target, call = node.targets[0].target, node.value
    first = call.args[0].value if call.args else None
    return (
        type(target) is cst.Name
        and target.value == name
        and (ctx.qualify(call.func) or "") in overlays.JIT_SPELLINGS
        and type(first) is cst.Name
        and first.value == name
    )


def _variables(ctx: ModuleContext) -> frozenset[str]:
    """Every name a statement of the module binds, or a parameter of one of its functions."""
    params = {p for f in ctx.graph.functions.values() for p in f.params}
    return ctx.per_module(_bound_anywhere) | params


def _bound_anywhere(ctx: ModuleContext) -> frozenset[str]:
    """Every name a statement of the module binds."""
    return frozenset(n for s in ctx.graph.stmts for n in s.defs)


def may_run_before(stmt: Stmt, other: Stmt) -> bool:
    """Whether `stmt` may run before `other` (of one scope, run once): it comes earlier,
    or a loop holds both (a later statement of the body runs before the next iteration's
    `other`)."""
    return stmt is not other and (stmt.id < other.id or bool(set(stmt.loops) & set(other.loops)))


def _reach(held: dict[str, set[str]], name: str) -> set[str]:
    """`name` and every name it reaches through `held`."""
    seen, todo = {name}, [name]
    while todo:
        for other in held.get(todo.pop(), ()):
            if other not in seen:
                seen.add(other)
                todo.append(other)
    return seen


def _layer_arguments(qual: str, call: cst.Call) -> list[cst.BaseExpression] | None:
    """The arguments a layer holds, besides new buffers: of an nnx layer not given an
    initializer, all but `rngs`; of an equinox layer that holds its arguments, all but
    `key` (with no starred one); None for any other call."""
    if qual in nnx_api.FRESH_LAYERS and not _initializer_given(call):
        skipped = nnx_api.RNGS_ARGUMENT
    elif qual in eqx_api.HOLDING_LAYERS and not any(a.star for a in call.args):
        skipped = eqx_api.KEY_ARGUMENT
    else:
        return None
    return [a.value for a in call.args if a.keyword is None or a.keyword.value != skipped]


def _initializer_given(call: cst.Call) -> bool:
    """Whether an nnx layer call may be given an initializer (`kernel_init=...`, or a
    starred argument), which may return an array it holds."""
    suffix = nnx_api.INITIALIZER_SUFFIX
    keywords = [a.keyword.value for a in call.args if a.keyword is not None]
    return any(a.star for a in call.args) or any(k.endswith(suffix) for k in keywords)


def _init_argument(init: Function, call: cst.Call, param: str) -> cst.BaseExpression | None:
    """The expression a constructor call binds to `__init__`'s `param` (None: left to
    its default, or behind a starred argument)."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == param:
            return arg.value
    positional = [a for a in call.args if a.keyword is None]
    index = init.positional.index(param) - 1 if param in init.positional else -1
    if index < 0 or index >= len(positional) or any(a.star for a in positional[: index + 1]):
        return None
    return positional[index].value


def _raised(ctx: ModuleContext, fn: Function) -> set[str]:
    """The names the exceptions `fn` raises are made of (`raise Failed(model)`)."""
    found = set()
    for stmt in ctx.graph.scope_stmts(fn.qualname):
        node = stmt.node
        if type(node) is cst.Raise:
            for part in (node.exc, node.cause):
                if part is not None:
                    found |= {n.value for n in read_names(part)}
    return found


def _jitted_names(ctx: ModuleContext) -> set[str]:
    """The jitted callables of a module: their results are new buffers."""
    return {j.name for j in jitted_callables(ctx)}


def is_pseudo(name: str) -> bool:
    """Whether `name` stands for a place that keeps a reference, not a variable."""
    return name.startswith("<")


def _is_fresh(qual: str, last: str, call: cst.Call | None) -> bool:
    """Calls whose result holds no buffer of their arguments."""
    if (
        qual in python_api.FRESH_BUILTINS
        or qual in jax_api.HOST_COPIES
        or (qual.startswith(("jax.random.", "jax.nn.")) and qual not in jax_api.RANDOM_VIEWS)
    ):
        return not _copy_false(call)
    module = qual.rsplit(".", 1)[0]
    if module in ("jax.numpy", "numpy") and last in jax_api.FRESH_FUNCTIONS:
        return not _copy_false(call)
    is_method = call is not None and type(call.func) is cst.Attribute
    return is_method and module not in ("jax.numpy", "numpy") and last in numpy_api.FRESH_METHODS


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
    return _repeated(ctx, stmt, name, 0)


def _repeated(
    ctx: ModuleContext, stmt: Stmt, name: str, depth: int, in_place: bool = True
) -> tuple[str, bool] | None:
    """`repeated_leaf`, its values' leaves read `depth` levels down (`Leaves.of`);
    `in_place`: what is put into it in place checked too (else the caller does)."""
    values = model(ctx)
    if values.name(stmt, name).kind is Kind.ARRAY:
        return None  # one array: one buffer
    if in_place and any(name in s.mutates for s in ctx.graph.scope_stmts(stmt.scope)):
        filled = Leaves(ctx, stmt).of(cst.Name(name), depth)  # `p.append(w)`: p holds w too
        if filled is None:
            return (
                f"cannot prove the leaves of `{name}` are distinct buffers (filled in place)",
                False,
            )
    defs = [d for d in ctx.graph.reaching_defs(stmt, name) if d is not stmt]
    for definition in defs:
        if values.defined(definition, name).kind is Kind.ARRAY:
            continue
        value = _bound_value(ctx, definition, name)
        if value is None:
            return f"cannot prove the leaves of `{name}` are distinct buffers", False
        without = Sharing(ctx, definition.scope, skip=definition)  # not through `name`
        leaves = Leaves(ctx, definition, without).of(value, depth)
        if leaves is None:
            return (
                f"cannot prove the leaves of `{name}` are distinct buffers{_why(ctx, value)}",
                False,
            )
        twice = first_repeat(leaves, name)
        if twice is not None:
            return (
                f"`{twice}` fills two leaves of `{name}`: one buffer would be donated twice",
                True,
            )
    return None


def _why(ctx: ModuleContext, value: cst.BaseExpression) -> str:
    """The value whose leaves are unknown, and for a class of the module, why."""
    cls = dotted(value.func) or "" if type(value) is cst.Call else ""
    if cls in ctx.graph.classes:
        return (
            ": a module class of this file may hold one array in two variables (tied "
            f"weights), or one of the caller's (`{cls}`)"
        )
    return f" (`{ctx.code(value)}`)"


def _bound_value(ctx: ModuleContext, stmt: Stmt, name: str) -> cst.BaseExpression | None:
    node = stmt.node
    if type(node) is not cst.Assign:
        return None
    if all(type(t.target) is cst.Name for t in node.targets):
        return node.value  # `s = value`, or `s = t = value`
    value = node.value  # `params, state = model.init(key, x)`: new buffers, none twice
    one = len(node.targets) == 1 and type(node.targets[0].target) is cst.Tuple
    if not one or type(value) is not cst.Call:
        return None
    # `model, state = make_with_state(Model)(key)`: each part's leaves are some of the pair's
    return value if fresh_result(ctx, stmt, value) or made_call(ctx, value) else None


def first_repeat(leaves: list[frozenset[str]], name: str) -> str | None:
    """A name behind two leaves (other than the value's own name, when there is one)."""
    seen: set[str] = set()
    for leaf in leaves:
        both = leaf & seen
        if both:
            return sorted(both - {name})[0] if both - {name} else name
        seen |= leaf
    return None


@dataclass(frozen=True)
class InitScope:
    """What `Leaves` knows inside an `__init__` it reads for one call: the names holding
    no buffer (`constructors.init_bufferless_names`), the object (`self`, whose links are
    its field stores, not sharing) and the fields it may read -> their parameters."""

    bufferless: frozenset[str] = frozenset()
    me: frozenset[str] = frozenset()
    fields: dict[str, str] = field(default_factory=dict)


class Leaves:
    """The names behind each leaf of a pytree expression (None: cannot tell)."""

    def __init__(
        self,
        ctx: ModuleContext,
        at: Stmt,
        sharing: Sharing | None = None,
        init: InitScope | None = None,
    ) -> None:
        self.ctx = ctx
        self.scope = at.scope
        self.sharing = copy.copy(sharing) if sharing else scope_sharing(ctx, at.scope)
        self.sharing.at = at
        self.init = init or InitScope()

    def of(self, expr: cst.BaseExpression, depth: int) -> list[frozenset[str]] | None:
        if depth > _LEAF_DEPTH:
            return None
        if is_literal(expr) or (type(expr) is cst.Name and expr.value in self.init.bufferless):
            return []  # a Python value: no buffer
        if (
            type(expr) is cst.Attribute
            and type(expr.value) is cst.Name
            and expr.value.value in self.init.me
            and expr.attr.value in self.init.fields
        ):
            return self.of(cst.Name(self.init.fields[expr.attr.value]), depth + 1)
        if type(expr) is cst.Tuple or type(expr) is cst.List:
            return self._all([e.value for e in expr.elements], depth)
        if type(expr) is cst.Dict:
            values = [e.value for e in expr.elements if type(e) is cst.DictElement]
            return self._all(values, depth) if len(values) == len(expr.elements) else None
        if type(expr) is cst.ListComp or type(expr) is cst.DictComp:
            return self._comprehension(expr, depth)
        if type(expr) is cst.IfExp:
            return self._either(expr, depth)
        if type(expr) is cst.Name:
            if self._fresh_container(expr.value, depth):
                return [frozenset({expr.value})]  # each leaf new: the container once
            if self._filled_with_names(expr.value):
                return None  # a container filled in place: its leaves are not tracked
            if not self._whole(expr.value, depth):
                return None  # `pair = [w, w]`: one leaf here, but two buffers of `w` in it
            strong = self.sharing.component({expr.value}, weak=False, without=self.init.me)
            weak = self.sharing.component({expr.value}, weak=True, without=self.init.me)
            return [frozenset(strong)] if strong == weak else None
        if type(expr) is cst.Call and self._array(expr):
            return [frozenset(self.sharing.shares(expr).names())]  # one array: one leaf
        if type(expr) is cst.Call:
            return self._call(expr, depth)
        if type(expr) in (cst.BinaryOperation, cst.UnaryOperation) and self._array(expr):
            return [frozenset()]  # arithmetic on arrays makes a new buffer
        root = base_name(expr) if type(expr) in (cst.Attribute, cst.Subscript) else None
        if root is not None and not self._whole(root, depth):
            return None  # `holder.pair`: a part of a value whose leaves may repeat
        shares = self.sharing.shares(expr)
        return [frozenset(shares.names())] if not shares.weak else None

    def _either(self, expr: cst.IfExp, depth: int) -> list[frozenset[str]] | None:
        """`a if c else b`: where each branch's leaves are distinct, one leaf standing for
        either, holding what both may hold."""
        branches = [self.of(expr.body, depth + 1), self.of(expr.orelse, depth + 1)]
        if any(b is None or first_repeat(b, "") is not None for b in branches):
            return None
        return [frozenset().union(*(leaf for b in branches for leaf in b or ()))]

    def _whole(self, name: str, depth: int) -> bool:
        """Whether the value `name` holds where it is read has distinct leaves (an array,
        or a value `repeated_leaf` proves so): a leaf standing for all of it is sound.
        What is put into it in place, `of` has checked (`_filled_with_names`)."""
        at = self.sharing.at
        return at is not None and _repeated(self.ctx, at, name, depth + 1, False) is None

    def _distinct(self, expr: cst.BaseExpression, depth: int) -> bool:
        """Whether `expr`'s leaves are provably distinct buffers."""
        leaves = self.of(expr, depth + 1)
        return leaves is not None and first_repeat(leaves, "") is None

    def _array(self, expr: cst.BaseExpression) -> bool:
        at = self.sharing.at
        return at is not None and model(self.ctx).value_of(at, expr).kind is Kind.ARRAY

    def _comprehension(
        self, expr: cst.ListComp | cst.DictComp, depth: int
    ) -> list[frozenset[str]] | None:
        """`[Func(key=k) for k in keys]`: its leaves are distinct only where each element
        is new buffers (`[w for _ in keys]` repeats `w`)."""
        element = expr.elt if type(expr) is cst.ListComp else expr.value  # type: ignore[union-attr]
        leaves = self.of(element, depth + 1)
        return [frozenset()] if leaves is not None and not any(leaves) else None

    def _fresh_container(self, name: str, depth: int) -> bool:
        """A local list or dict filled in place with new buffers only
        (`constructors.fresh_filled`)."""
        stored = fresh_filled(self.ctx, self.scope, name)
        return stored is not None and all(self._new(at, v, depth, name) for at, v in stored)

    def _new(self, at: Stmt, expr: cst.BaseExpression, depth: int, into: str) -> bool:
        """Whether `expr`, stored at `at` into the container `into`, is new buffers only,
        none twice: a leaf may be a local made for this store alone (`_made_for`)."""
        before, self.sharing.at = self.sharing.at, at
        leaves = self.of(expr, depth + 1)
        self.sharing.at = before
        if leaves is None or first_repeat(leaves, "") is not None:
            return False
        return all(not leaf or self._made_for(at, leaf - {into}, depth) for leaf in leaves)

    def _made_for(self, at: Stmt, leaf: frozenset[str], depth: int) -> bool:
        """Whether the leaf is one local that `at` alone reads, once, and that is bound to
        new buffers by `name = value` in `at`'s own block before it at every definition
        reaching it (`w = jax.random.normal(k, s) * g; params.append({"w": w})` in a
        loop body): each run of `at` stores a buffer made for it and kept nowhere else."""
        (name,) = leaf if len(leaf) == 1 else ("",)
        fn = self.ctx.graph.functions.get(self.scope)
        if not name or fn is None or name in fn.params or name in fn.globals | fn.nonlocals:
            return False
        graph = self.ctx.graph
        if any(
            name in s.uses | s.defs for s in graph.stmts if s.scope.startswith(f"{self.scope}.")
        ):
            return False  # a nested function or class reads it
        defs = graph.reaching_defs(at, name)
        for stmt in graph.scope_stmts(self.scope):
            reads = name in stmt.uses and stmt is not at and stmt not in defs
            if reads or name in stmt.mutates:
                return False
        once = sum(n.value == name for n in read_names(at.node)) == 1
        return once and bool(defs) and all(self._binds_new(d, at, name, depth) for d in defs)

    def _binds_new(self, definition: Stmt, at: Stmt, name: str, depth: int) -> bool:
        """`name = value` of new buffers, run before `at` in its block on every path."""
        node = definition.node
        if definition.block != at.block or definition.id >= at.id or type(node) is not cst.Assign:
            return False
        targets = node.targets
        if len(targets) != 1 or type(targets[0].target) is not cst.Name:
            return False
        before, self.sharing.at = self.sharing.at, definition
        leaves = self.of(node.value, depth + 1)
        self.sharing.at = before
        return leaves is not None and not any(leaves) and first_repeat(leaves, "") is None

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
        inner = made_call(self.ctx, call)
        if inner is not None:
            return self._call(inner, depth)  # `make_with_state(Model)(key)`: `Model(key)`'s
        at = self.sharing.at
        if at is not None and fresh_result(self.ctx, at, call):
            return [frozenset()]  # new buffers, none twice
        held = None if at is None else held_fields(self.ctx, at, call)
        if held is not None:
            leaves = self._all(held, depth)
            made = create_static(self.ctx, call) is not None  # `create`: a new opt_state
            return None if leaves is None else [*leaves, *([frozenset[str]()] if made else [])]
        qual = self.ctx.qualify(call.func) or dotted(call.func) or ""
        last = qual.rsplit(".", 1)[-1]
        name = dotted(call.func) or ""
        optimizer = optimizer_arguments(self.ctx, call)
        if optimizer is not None:
            return self._optimizer(*optimizer, depth)
        if qual in eqx_api.ARRAYLESS_LAYERS and all(
            not a.star and self._no_buffer(a.value) for a in call.args
        ):
            return []  # `MaxPool2d(kernel_size=2)`: no array anywhere
        kept = _layer_arguments(qual, call)
        if kept is not None:  # new buffers, and what its arguments but `rngs`/`key` hold
            leaves = self._all(kept, depth)
            return None if leaves is None else [*leaves, frozenset()]
        if qual in nnx_api.FRESH_LAYERS:
            return None  # given an initializer, which may return an array it holds
        if qual in nnx_api.VARIABLE_TYPES:  # `nnx.Param(w)` holds `w`, as given
            return self._all([a.value for a in call.args], depth)
        if name in self.ctx.graph.classes and not plain_record(self.ctx, name):
            return self._constructed(call, name, depth)
        if name in self.ctx.graph.classes:  # a plain record holds each argument once
            return self._all([a.value for a in call.args], depth)
        if qual in overlays.UNKEPT_OBJECTS:  # a library object: what it is given, and new
            return self._all([a.value for a in call.args], depth)
        if last[:1].isupper() and last not in self.ctx.graph.classes:
            return None  # a class autoopt cannot see may tie or keep arrays of its own
        found = self.sharing.callee(call)
        if found is None or found[1].node.decorators:  # new buffers only, or unseen code
            return [frozenset()] if not self.sharing.shares(call).names() else None
        owner, fn = found
        returns = [
            s
            for s in owner.graph.scope_stmts(fn.qualname)
            if type(s.node) is cst.Return and s.node.value is not None
        ]
        if len(returns) != 1:
            return None
        leaves = Leaves(owner, returns[0]).of(returns[0].node.value, depth + 1)  # type: ignore[attr-defined]  # a Return
        if leaves is None or not self._returned_distinct(fn, call, leaves, depth):
            return None  # `wrap([w, w])` returns its argument, `w` twice in it
        return [self._caller_names(owner, fn, call, leaf) for leaf in leaves]

    def _returned_distinct(
        self, fn: Function, call: cst.Call, leaves: list[frozenset[str]], depth: int
    ) -> bool:
        """Whether each argument the callee may return (a parameter behind a leaf) has
        distinct leaves itself; a starred argument may stand for any parameter, and
        `*args` or `**kwargs` for several arguments."""
        returned = {n for leaf in leaves for n in leaf} & set(fn.params)
        params = fn.node.params
        variadic = {
            p.name.value for p in (params.star_arg, params.star_kwarg) if type(p) is cst.Param
        }
        if returned and (any(a.star for a in call.args) or returned & variadic):
            return False
        site = CallSite(self.sharing.at, call, fn)  # type: ignore[arg-type]  # set per read
        given = [site.argument(fn.params.index(p), p) for p in sorted(returned)]
        return all(e is None or self._distinct(e, depth) for e in given)

    def _optimizer(
        self, given: cst.BaseExpression, tx: cst.BaseExpression, depth: int
    ) -> list[frozenset[str]] | None:
        """`nnx.ModelAndOptimizer(model, tx)`: the module given, whole (one leaf, where its
        own leaves are distinct), and `tx.init`'s new buffers, where `tx` makes them."""
        at = self.sharing.at
        if at is None or not fresh_init(self.ctx, at, tx):
            return None
        if type(given) is not cst.Name:
            leaves = self.of(given, depth + 1)
            return None if leaves is None else [*leaves, frozenset()]
        if not self._whole(given.value, depth):
            return None  # a model holding one array in two variables
        return [frozenset(self.sharing.shares(given).names()), frozenset()]

    def _constructed(self, call: cst.Call, cls: str, depth: int) -> list[frozenset[str]] | None:
        """The leaves of an object of an equinox or nnx module class with its own
        `__init__`: the values it stores (`constructors.init_fields`), read with the
        parameters the call gives literals holding no buffer and the others read as the
        caller's arguments; a local filled with new buffers, or a class it makes, is new
        at each call; a closure a factory method returns (`closure_factories`) is none,
        where the call gives its sizes no buffer."""
        found = leaf_fields(self.ctx, cls)
        if found is None or any(a.star for a in call.args):
            return None
        init, stores = found
        scope = InitScope(
            init_bufferless_names(self.ctx, init, self._literal_params(init, call)),
            frozenset(init.params[:1]),
            param_fields(init, stores),
        )
        leaves: list[frozenset[str]] = []
        unknown = False
        for stmt in stores:
            reader = Leaves(self.ctx, stmt, init=scope)
            sizes = factory_sizes(self.ctx, cls, init.params[0], field_value(stmt))
            if sizes is not None:  # a closure over new layers: static, no leaf
                unknown |= not all(reader._no_buffer(size) for size in sizes)
                continue
            part = reader.of(field_value(stmt), depth + 1)
            unknown |= part is None
            leaves += [leaf - scope.me for leaf in part or ()]  # linked by the store only
        if first_repeat(leaves, "") is not None:  # among the fields known, whatever the rest
            return [frozenset(f"{cls}.{n}" for n in leaf) for leaf in leaves]  # `self.b = w`
        if unknown:
            return None
        out = []
        for leaf in leaves:
            names = self._init_names(init, call, leaf, depth)
            if names is None:
                return None
            out.append(names)
        return out

    def _literal_params(self, init: Function, call: cst.Call) -> set[str]:
        """The parameters of `__init__` that `call` gives a value holding no buffer, or
        leaves to a literal default (`*args` and `**kwargs` aside)."""
        params = init.node.params
        stars = (params.star_arg, params.star_kwarg)
        variadic = {p.name.value for p in stars if type(p) is cst.Param}
        out = set()
        for param in init.params[1:]:
            given = _init_argument(init, call, param)
            if param in variadic:
                continue
            if literal_default(init, param) if given is None else self._no_buffer(given):
                out.add(param)
        return out

    def _no_buffer(self, expr: cst.BaseExpression) -> bool:
        """Whether `expr` is a Python value holding no buffer: built of literals and names
        known to hold none, or of a kind the value model proves bufferless."""
        if bufferless_value(expr, self.init.bufferless):
            return True
        at = self.sharing.at
        return at is not None and model(self.ctx).value_of(at, expr).kind in _BUFFERLESS

    def _init_names(
        self, init: Function, call: cst.Call, leaf: frozenset[str], depth: int
    ) -> frozenset[str] | None:
        """`__init__`'s names mapped to the caller's: a parameter to its argument's names
        (None: left to a default that is not a literal); a local filled with new buffers
        to none, any other local to its own name; a global to itself."""
        out: set[str] = set()
        local = {n for s in self.ctx.graph.scope_stmts(init.qualname) for n in s.defs}
        local -= init.globals | init.nonlocals
        for name in leaf:
            if name in init.params:
                given = _init_argument(init, call, name)
                if given is None and not literal_default(init, name):
                    return None
                if given is not None and not self._distinct(given, depth):
                    return None  # `Holder([w, w])`: the field holds `w` twice
                out |= set() if given is None else self.sharing.shares(given).names()
            elif name not in local:
                out.add(name)  # a global: the caller's too
            elif not self._fresh_in(init, name, depth):
                out.add(f"{init.qualname}.{name}")
        return frozenset(out)

    def _fresh_in(self, fn: Function, name: str, depth: int) -> bool:
        stored = fresh_filled(self.ctx, fn.qualname, name)
        inner = Leaves(self.ctx, self.ctx.graph.scope_stmts(fn.qualname)[0])
        return stored is not None and all(inner._new(at, v, depth, name) for at, v in stored)

    def _caller_names(
        self, owner: ModuleContext, fn: Function, call: cst.Call, leaf: frozenset[str]
    ) -> frozenset[str]:
        """Callee names mapped to the caller's: a parameter becomes its argument's names."""
        out: set[str] = set()
        for name in leaf:
            if name in fn.params:
                out |= self.sharing.argument(fn, call, name, owner).names() | {name}
            else:
                out.add(f"{fn.name}.{name}")
        return frozenset(out)
