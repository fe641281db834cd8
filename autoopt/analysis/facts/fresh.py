"""Library calls whose results are new buffers, none of an argument's and none twice.

`fresh_result` holds of a call the overlays list (`overlays.FRESH_RESULTS`):

- a function, by its qualified name (`optax.apply_updates`); an equinox layer
  (`eqx.nn.MLP(n, n, 8, 1, key=k)`) unless given the array it keeps (`weight=`);
- a method of an object whose construction autoopt sees (`opt.init(params)`,
  `model.init(key, x)`): the receiver is a constructor call written in place, or a name
  bound to one at every definition reaching the call (a global: bound once in the
  module, outside loops, by no function through `global` and through no namespace,
  `analysis/facts/reflection.py`). The constructor is one `overlays.OBJECT_CLASSES`
  lists (`optax.adam` -> `optax.GradientTransformation`, `hk.transform`); a combinator
  (`optax.chain`) only when each argument is such a call, written in place; a function
  defined with `@hk.transform` as its one decorator (`model.init(key, x)`); or a linen
  module (`facts/linen_trees.py`): a linen layer (`nn.Dense(3)`), a class of this module
  deriving from `flax.linen.Module` that binds none of its names (its code sealed,
  as below, or sealed where `init` runs it by default, `sealed.sealed_entry`: then only
  `init` given no `method` is fresh), a module assembled from such modules (a list of
  layers in a field it calls, a subclass chain), or what a factory function of this
  module returns (`create_flow()`), `init` given no `capture_intermediates` (which keeps
  what the module's methods return, an input among them); or a wrapper that keeps the
  `init` of the object it is given, written in place
  (`hk.without_apply_rng(hk.transform(f))`). An initializer may return an
  array it holds (`embedding_init=lambda *_: pretrained`), so a linen layer is built
  from literals only, and a linen module class of this module from literals or from
  anything when none of its fields can become a variable (`facts/linen_fields.py`:
  `Model(**hparams)`), and the code of a module class or of the function handed to
  `hk.transform` is *sealed*: it reads from outside only imports, builtins, literal
  constants, globals only ever bound to arrays, numbers or strings (none callable), and
  sealed classes and functions of the module, and makes its parameters
  with library initializers built from constants only (`analysis/facts/initializers.py`:
  `init=lambda *_: w` twice ties two parameters to one buffer). The receiver may also be
  `self.opt` in a method of a class closed for `opt` (`analysis/facts/self_attrs.py`)
  that stores only such constructor calls of one class in it, or read while the
  instance is built (`facts/construction.py`: `self.model.init(...)` in a method only
  `__init__` calls), where only the class's own stores can have set it: constructor
  calls, or a parameter of its `__init__` (`self.model = flow`), followed to every
  building of an instance (`known_callers.class_call_sites`) as a parameter is; a
  call of such a parameter (`self.model = self.model_class(**hparams)`) builds what
  each class the buildings give would (one linen module for all), `**self.hparams` the
  entries of the dict literal the same building passes where nothing changes that dict
  (`facts/splatted_dicts.py`; a field given one of JAX's functions that the class only
  calls is harmless there, `facts/linen_builds.py`). A
  parameter of a function is followed to every call of it, where all are known
  (`facts/known_callers.py`), and through wrappers that hand on their `*args,
  **kwargs` (`known_callers.given_argument`). An assembled module whose field holds a
  list its builder made is a linen module only where every name and attribute that
  held it on the way keeps it (`facts/module_custody.py`): flax keeps that very list,
  which whoever holds the module may change.

`held_fields` reads `TrainState.create(...)` and `TrainState(...)` (flax's, or a field
subclass's: `analysis/facts/train_states.py`): its result holds the very buffers of
every argument but the static ones (`apply_fn`, `tx`), and, made by `create`,
`opt_state`, new buffers when `tx` is a receiver whose `init` is fresh as above; the
constructor is given `opt_state` and a `tx` that is such a receiver or `None`. Anything
else is unknown (None).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Stmt
from autoopt.analysis.facts.construction import stored_calls, stored_parameters
from autoopt.analysis.facts.known_callers import class_call_sites, given_argument, known_call_sites
from autoopt.analysis.facts.library_objects import enclosing_function, refers_to_global
from autoopt.analysis.facts.linen_trees import ASSEMBLED, LINEN_ENTRY, LINEN_MODULE, linen_module
from autoopt.analysis.facts.module_custody import kept_attribute, kept_name
from autoopt.analysis.facts.reflection import rebinding
from autoopt.analysis.facts.sealed import class_def, sealed_code, sealed_value
from autoopt.analysis.facts.self_attrs import closed_class, is_store, self_method, uses
from autoopt.analysis.facts.splatted_dicts import splatted_keywords
from autoopt.analysis.facts.train_states import create_static, record_static
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.overlays import flax_linen as linen_api


def fresh_result(ctx: ModuleContext, at: Stmt, call: cst.Call) -> bool:
    """Whether `call`, read at `at`, returns new buffers only (none twice)."""
    qual = ctx.qualify(call.func) or ""
    if qual in eqx_api.FRESH_RESULTS:  # `Embedding(weight=table)` holds `table`
        held = eqx_api.HELD_ARGUMENTS.get(qual)
        return not any(a.star for a in call.args) and (held is None or _left_out(call, *held))
    if qual in overlays.FRESH_RESULTS:
        return True
    func = call.func
    if type(func) is not cst.Attribute:
        return False
    cls = receiver_class(ctx, at, func.value)
    if cls == LINEN_ENTRY:
        return func.attr.value == "init" and _given_none(call, linen_api.KEEPS_OUTPUTS | {"method"})
    if cls == LINEN_MODULE and not _given_none(call, linen_api.KEEPS_OUTPUTS):
        return False
    return cls is not None and f"{cls}.{func.attr.value}" in overlays.FRESH_RESULTS


def _given_none(call: cst.Call, keywords: frozenset[str]) -> bool:
    """`call` gives none of `keywords` and nothing behind `**` (`method=` runs another
    method; `capture_intermediates=` keeps what methods return)."""
    return not any(a.star or (a.keyword and a.keyword.value in keywords) for a in call.args)


def _left_out(call: cst.Call, keyword: str, position: int) -> bool:
    """Whether `call` gives the argument `keyword` (at `position`) nothing but None."""
    positional = [a for a in call.args if a.keyword is None]
    given = [a for a in call.args if a.keyword is not None and a.keyword.value == keyword]
    given += positional[position : position + 1]
    return all(type(a.value) is cst.Name and a.value.value == "None" for a in given)


def held_fields(ctx: ModuleContext, at: Stmt, call: cst.Call) -> list[cst.BaseExpression] | None:
    """The arguments whose buffers `TrainState.create(...)` or `TrainState(...)` holds,
    when its optimizer is proven (`create`'s state new buffers; given to the constructor,
    `None` too); None for any other call, or an unproven optimizer."""
    static = record_static(ctx, call)
    if static is None or any(a.keyword is None or a.star for a in call.args):
        return None
    given = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    tx = given.get("tx")
    made = create_static(ctx, call) is None  # the constructor: `opt_state` is given
    given_none = made and type(tx) is cst.Name and tx.value == "None"
    if not given_none and (tx is None or not fresh_init(ctx, at, tx)):
        return None
    return [value for key, value in given.items() if key not in static]


def fresh_init(ctx: ModuleContext, at: Stmt, expr: cst.BaseExpression) -> bool:
    """Whether `expr`, read at `at`, is a receiver whose `init` makes new buffers only
    (`optax.adam(lr)`, or a name bound to one: `receiver_class`)."""
    cls = receiver_class(ctx, at, expr)
    return cls is not None and f"{cls}.init" in overlays.FRESH_RESULTS


def receiver_class(ctx: ModuleContext, at: Stmt, expr: cst.BaseExpression) -> str | None:
    """The class of the library object `expr` holds at `at`, where its construction is
    seen (None: unknown). An assembled linen module (`linen_trees.ASSEMBLED`) is a linen
    module where each name and attribute that held it from its construction on is kept
    (`facts/module_custody.py`)."""
    cls = _receiver(ctx, at, expr, frozenset())
    return LINEN_MODULE if cls == ASSEMBLED else cls


def _receiver(
    ctx: ModuleContext, at: Stmt, expr: cst.BaseExpression, seen: frozenset[str]
) -> str | None:
    """`receiver_class`, `ASSEMBLED` left as it is; `seen`: the functions whose
    parameters are being followed."""
    if type(expr) is cst.Call:
        return _made_class(ctx, expr)
    if type(expr) is cst.Attribute:
        return _attribute_class(ctx, at, expr, seen)
    if type(expr) is not cst.Name:
        return None
    given = _parameter_class(ctx, at, expr, seen)
    if given is not None:
        return given
    defs = _definitions(ctx, at, expr.value)
    if len(defs) == 1 and type(defs[0].node) is cst.FunctionDef:
        return _decorated_class(ctx, defs[0])
    made = [_bound_call(d, expr.value) for d in defs]
    classes = {_made_class(ctx, call) if call else None for call in made}
    cls = classes.pop() if made and len(classes) == 1 else None
    return cls if cls != ASSEMBLED or _kept_local(ctx, at, expr) else None


def _kept_local(ctx: ModuleContext, at: Stmt, expr: cst.Name) -> bool:
    """`expr`, read at `at`, is a local name of a function that keeps it."""
    fn = ctx.graph.functions.get(at.scope)
    return (
        fn is not None
        and expr.value not in fn.globals | fn.nonlocals
        and kept_name(ctx, fn.node, expr.value, expr)
    )


def _parameter_class(
    ctx: ModuleContext, at: Stmt, expr: cst.Name, seen: frozenset[str]
) -> str | None:
    """A parameter of the function `at` is in, which that function never rebinds and
    whose every call is known (`facts/known_callers.py`) and passes an object of one
    class (`optim` in `def train(model, optim)`, called as `train(model, optax.adam(lr))`)."""
    name = expr.value
    fn = ctx.graph.functions.get(at.scope)
    if fn is None or name not in fn.params or fn.qualname in seen:
        return None
    if name in fn.globals | fn.nonlocals or any(
        name in s.defs for s in ctx.graph.scope_stmts(fn.qualname)
    ):
        return None
    sites, unknown = known_call_sites(ctx, fn)
    cls = _passed_class(ctx, sites, unknown, fn, name, seen)
    return cls if cls != ASSEMBLED or kept_name(ctx, fn.node, name, expr) else None


def _passed_class(
    ctx: ModuleContext,
    sites: list[CallSite],
    unknown: str,
    fn: Function,
    name: str,
    seen: frozenset[str],
) -> str | None:
    """The one class of what every call in `sites` passes to the parameter `name` of
    `fn` (None: unknown, or none or several)."""
    if unknown or not sites:
        return None
    given = [given_argument(ctx, s, fn.params.index(name), name) for s in sites]
    if any(g is None for g in given):
        return None  # a default, or a starred argument not handed on: not followed
    classes = {
        _receiver(ctx, s.stmt, e, seen | {fn.qualname}) for pairs in given for s, e in pairs or ()
    }
    return classes.pop() if len(classes) == 1 else None


def _decorated_class(ctx: ModuleContext, stmt: Stmt) -> str | None:
    """`@hk.transform def model(x): ...`: the class its one decorator makes of sealed
    code."""
    node = stmt.node
    assert type(node) is cst.FunctionDef
    if len(node.decorators) != 1:
        return None
    cls = overlays.OBJECT_CLASSES.get(ctx.qualify(node.decorators[0].decorator) or "")
    if cls is None or not cls.startswith("haiku."):
        return None
    name = node.name.value
    qualname = name if stmt.scope == MODULE else f"{stmt.scope}.{name}"
    fn = ctx.graph.functions.get(qualname)
    sealed = fn is not None and fn.node is node and sealed_code(ctx, qualname)
    return cls if sealed else None


def _attribute_class(
    ctx: ModuleContext, at: Stmt, expr: cst.Attribute, seen: frozenset[str]
) -> str | None:
    """`self.opt` in a method of a class closed for `opt`, which stores in it only
    constructor calls of one class; or read while the instance is built, where it holds
    what the class stored (a call, or a parameter of its `__init__`)."""
    method = self_method(ctx, at.scope)
    base = expr.value
    if method is None or type(base) is not cst.Name or base.value != method.params[0]:
        return None
    cls, attr = method.scope, expr.attr.value
    found = _stored_class(ctx, cls, attr) if closed_class(ctx, cls, attr) is None else None
    if found is not None:
        return found
    built = _built_class(ctx, at, expr, seen)
    return built if built != ASSEMBLED or kept_attribute(ctx, cls, attr) else None


def _stored_class(ctx: ModuleContext, cls: str, attr: str) -> str | None:
    """The one class of the constructor calls `cls` stores in `self.attr`, its only
    stores (None: another store, or several classes)."""
    stores = [u.stmt.node for u in uses(ctx, cls, attr) if is_store(u)]
    calls = [n.value for n in stores if type(n) is cst.Assign and len(n.targets) == 1]
    made = {_made_class(ctx, c) if type(c) is cst.Call else None for c in calls}
    found = made.pop() if stores and len(calls) == len(stores) and len(made) == 1 else None
    return found if found != ASSEMBLED else None


def _built_class(
    ctx: ModuleContext, at: Stmt, expr: cst.Attribute, seen: frozenset[str]
) -> str | None:
    """The one class of what the class stored in `self.x` (`expr`), read while the
    instance is built: the calls it stores, or what every building of an instance
    passes to the `__init__` parameter it stores, `__init__` keeping that parameter."""
    built = stored_calls(ctx, at.scope, expr)
    if built:
        made = {_made_class(ctx, c) for c in built}
        return made.pop() if len(made) == 1 else None
    given = stored_parameters(ctx, at.scope, expr)
    classes: set[str | None] = set()
    for init, value in given or []:
        if init.qualname in seen:
            return None
        sites, unknown = class_call_sites(ctx, init)
        cls = _passed_class(ctx, sites, unknown, init, value.value, seen)
        kept = cls != ASSEMBLED or kept_name(ctx, init.node, value.value, value)
        classes.add(cls if kept else None)
    return classes.pop() if len(classes) == 1 else None


def _definitions(ctx: ModuleContext, at: Stmt, name: str) -> list[Stmt]:
    """The statements binding `name` wherever `at` may read it ([]: unknown)."""
    graph = ctx.graph
    fn = enclosing_function(ctx, at.scope)
    if at.scope != MODULE and refers_to_global(ctx, fn, name):
        defs = [s for s in graph.scope_stmts(MODULE) if name in s.defs]
        written = any(name in f.globals for f in graph.functions.values())
        if len(defs) != 1 or defs[0].loops or written or name in rebinding(ctx).names:
            return []
        return defs
    return [d for d in graph.reaching_defs(at, name) if d is not at]


def _bound_call(stmt: Stmt, name: str) -> cst.Call | None:
    node = stmt.node
    if type(node) is not cst.Assign or len(node.targets) != 1:
        return None
    target = node.targets[0].target
    if type(target) is not cst.Name or target.value != name or type(node.value) is not cst.Call:
        return None
    return node.value


def _made_class(ctx: ModuleContext, call: cst.Call) -> str | None:
    """The class of the object a constructor call makes, where the overlays know it."""
    qual = ctx.qualify(call.func) or _aliased_constructor(ctx, call)
    if qual in overlays.SAME_INIT:  # `hk.without_apply_rng(hk.transform(f))`
        given = call.args[0].value if len(call.args) == 1 and not call.args[0].keyword else None
        return _made_class(ctx, given) if type(given) is cst.Call else None
    cls = overlays.OBJECT_CLASSES.get(qual)
    if cls is not None and qual in overlays.COMBINATORS:
        parts = _combined_parts(ctx, call)
        inner = [_made_class(ctx, p) if type(p) is cst.Call else None for p in parts or []]
        fresh = all(c is not None and f"{c}.init" in overlays.FRESH_RESULTS for c in inner)
        return cls if parts is not None and fresh else None
    if cls is not None and cls.startswith("haiku."):
        given = call.args[0].value if len(call.args) == 1 and not call.args[0].keyword else None
        return cls if given is not None and sealed_value(ctx, given) else None
    if cls is not None:
        return cls
    if not qual and type(call.func) is cst.Attribute:  # `self.model_class(...)`
        return _given_class(ctx, call)
    return linen_module(ctx, call)


def _aliased_constructor(ctx: ModuleContext, call: cst.Call) -> str:
    """`opt_class(lr)`, where every binding of the local `opt_class` that reaches the call
    is `opt_class = optax.adam` (or another constructor), all of one class
    (`OBJECT_CLASSES`, none a combinator or haiku's): the first of them ("" otherwise)."""
    stmt = ctx.graph_statement(call)
    func = call.func
    if stmt is None or type(func) is not cst.Name or stmt.scope == MODULE:
        return ""
    fn = ctx.graph.functions.get(stmt.scope)
    if fn is None or func.value in fn.params or func.value in fn.globals | fn.nonlocals:
        return ""
    binders = ctx.graph.reaching_defs(stmt, func.value)
    quals = set()
    for binder in binders:
        node = binder.node
        if type(node) is not cst.Assign or len(node.targets) != 1:
            return ""
        if type(node.targets[0].target) is not cst.Name:
            return ""
        quals.add(ctx.qualify(node.value) or "")
    classes = {overlays.OBJECT_CLASSES.get(q, "") for q in quals}
    plain = not quals & (overlays.COMBINATORS | overlays.SAME_INIT)
    one = len(classes) == 1 and "" not in classes and plain
    return sorted(quals)[0] if one and not classes.pop().startswith("haiku.") else ""


def _combined_parts(ctx: ModuleContext, call: cst.Call) -> list[cst.BaseExpression] | None:
    """What a combinator call combines: its arguments by position, a starred one
    (`optax.chain(*parts, opt)`) standing for every call `_listed_calls` finds; None for
    a keyword, `**`, or a list not proven so."""
    found: list[cst.BaseExpression] = []
    for arg in call.args:
        if arg.keyword is not None or arg.star == "**":
            return None
        if not arg.star:
            found.append(arg.value)
            continue
        listed = _listed_calls(ctx, call, arg.value)
        if listed is None:
            return None
        found += listed
    return found


def _listed_calls(
    ctx: ModuleContext, call: cst.Call, expr: cst.BaseExpression
) -> list[cst.Call] | None:
    """The calls a local list `parts`, starred in `call`, may hold: its function binds it
    once, to a list display of calls, and mentions it otherwise only as `parts.append(c)`
    of a call `c` and in `call` itself (no other read that could hand it on, no nested
    function, `global` or `nonlocal`); None otherwise."""
    stmt = ctx.graph_statement(call)
    fn = ctx.graph.functions.get(stmt.scope) if stmt is not None else None
    if type(expr) is not cst.Name or fn is None or stmt is None:
        return None
    name = expr.value
    if name in fn.params or name in fn.globals | fn.nonlocals | fn.captured:
        return None
    found: list[cst.Call] = []
    for other in ctx.graph.scope_stmts(fn.qualname):
        if other is stmt:
            if sum(n.value == name for n in read_names(other.node)) != 1:
                return None
            continue
        if name not in other.defs and name not in other.uses:
            continue
        calls = _list_part(other.node, name)
        if calls is None:
            return None
        found += calls
    return found


def _list_part(node: cst.CSTNode, name: str) -> list[cst.Call] | None:
    """The calls `name = [c, ...]` or `name.append(c)` adds to the list; None for any
    other statement."""
    if type(node) is cst.Assign and len(node.targets) == 1:
        target, value = node.targets[0].target, node.value
        if type(target) is not cst.Name or target.value != name or type(value) is not cst.List:
            return None
        elements = [e.value for e in value.elements if type(e) is cst.Element]
        plain = len(elements) == len(value.elements)
        return elements if plain and all(type(e) is cst.Call for e in elements) else None  # type: ignore[return-value]
    if type(node) is not cst.Expr or type(node.value) is not cst.Call:
        return None
    call = node.value
    func = call.func
    own = type(func) is cst.Attribute and type(func.value) is cst.Name and func.value.value == name
    if not own or func.attr.value != "append" or len(call.args) != 1:  # type: ignore[attr-defined]
        return None
    added = call.args[0]
    if added.keyword is not None or added.star or type(added.value) is not cst.Call:
        return None
    if any(n.value == name for n in read_names(added.value)):
        return None
    return [added.value]


def _given_class(ctx: ModuleContext, call: cst.Call) -> str | None:
    """`self.model_class(**hparams)` run while the instance is built, where `__init__`
    stores a parameter in `self.model_class` and every building of an instance gives it
    a class of this module (through wrappers handing on `*args, **kwargs` too:
    `known_callers.given_argument`): what such a call of each builds, where one thing;
    `**self.hparams` given the entries of the dict literal that building passes, where
    proven (`facts/splatted_dicts.py`); `ASSEMBLED` where some building holds a list."""
    stmt = ctx.graph_statement(call)
    func = call.func
    if stmt is None or type(func) is not cst.Attribute:
        return None
    given = stored_parameters(ctx, stmt.scope, func)
    if given is None:
        return None
    made: set[str | None] = set()
    for init, value in given:
        sites, unknown = class_call_sites(ctx, init)
        if unknown or not sites:
            return None
        for site in sites:
            pairs = given_argument(ctx, site, init.params.index(value.value), value.value)
            if pairs is None:
                return None
            for outer, expr in pairs:
                if type(expr) is not cst.Name or class_def(ctx, expr.value) is None:
                    return None
                keywords = splatted_keywords(ctx, call, init, site, outer)
                built = call.with_changes(func=expr, args=keywords or call.args)
                made.add(linen_module(ctx, built))
    if made == {LINEN_MODULE, ASSEMBLED}:
        return ASSEMBLED  # a linen module where each holder keeps it
    return made.pop() if len(made) == 1 else None
