"""Names proven to hold an nnx graph object (a module or an optimizer) where it is read.

`nnx.jit` writes the state of a module argument back into it after every call
(`overlays/flax_nnx.py`, `UPDATES_MODULES`), so a module passed to it is replaced in
place as `state = step(state)` replaces an array. A name read by a statement is proven to
hold such an object (`holds_module`) only when all of these hold:

- the name is neither a parameter nor declared `global`/`nonlocal` in its scope, and
  exactly one statement of the scope binding it reaches the reader (a notebook may bind
  `model` again in a later cell: each reader gets the model bound before it);
- that statement dominates the reader and is `name = C(...)`, where `C` qualifies to a
  constructor the overlay lists (`MODULE_CLASSES`: `nnx.Linear`, `nnx.Optimizer`, ...) or
  is a class of this module whose only base qualifies to an nnx module base
  (`MODULE_BASES`), defined at module level and bound once.

The overlay's constructors build distinct buffers; a class of the module may store one
array in two variables (tied weights), which a donation would donate twice, so its
objects are proven only where `constructors.init_fields` reads its construction, stores
of a factory method's closure included (`closure_factories.leaf_fields`; then
`aliases.repeated_leaf` checks what each `__init__` stores): `built_from_fields`.

Anything else is unproven.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core import execution
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Stmt
from autoopt.analysis.facts.bindings import binding_call
from autoopt.analysis.facts.closure_factories import leaf_fields
from autoopt.analysis.overlays import flax_nnx as nnx_api
from autoopt.model import RequireImport


def built_from_fields(ctx: ModuleContext, reader: Stmt, name: str) -> bool:
    """Whether `name` is proven to hold an nnx object an overlay-listed constructor built,
    or a class of this module whose `__init__` `closure_factories.leaf_fields` reads (a
    class it does not may store one array in two variables: tied weights)."""
    if module_class(ctx, reader, name) in nnx_api.MODULE_CLASSES:
        return True
    call = binding_call(ctx, reader, name)
    func = None if call is None else call.func
    return type(func) is cst.Name and leaf_fields(ctx, func.value) is not None


def holds_module(ctx: ModuleContext, reader: Stmt, name: str) -> bool:
    """Whether `name`, as `reader` reads it, is proven to hold an nnx graph object."""
    return module_class(ctx, reader, name) is not None


def module_class(ctx: ModuleContext, reader: Stmt, name: str) -> str | None:
    """The nnx class `name` is proven to hold where `reader` reads it (`flax.nnx.Optimizer`;
    for a class of this module, its nnx base), else None."""
    value = binding_call(ctx, reader, name)
    if value is None:
        return None
    qual = ctx.qualify(value.func)
    if qual in nnx_api.MODULE_CLASSES:
        return qual
    func = value.func
    return ctx.per_module(_module_classes).get(func.value) if type(func) is cst.Name else None


def user_module_class(ctx: ModuleContext, reader: Stmt, name: str) -> str | None:
    """The nnx module class of this module whose constructor alone built the object `name`
    holds where `reader` reads it, where `constructors.init_fields` reads that class."""
    call = binding_call(ctx, reader, name)
    func = None if call is None else call.func
    if type(func) is not cst.Name or func.value not in ctx.per_module(_module_classes):
        return None
    return func.value if leaf_fields(ctx, func.value) is not None else None


def library_class(ctx: ModuleContext, reader: Stmt, name: str) -> str | None:
    """The overlay-listed class whose constructor built the object `name` holds where
    `reader` reads it (`flax.nnx.Optimizer`), else None (a class of this module, which
    may override any method, included)."""
    value = binding_call(ctx, reader, name)
    qual = ctx.qualify(value.func) if value is not None else None
    return qual if qual in nnx_api.MODULE_CLASSES else None


def _module_classes(ctx: ModuleContext) -> dict[str, str]:
    """The module-level classes bound once whose only base is an nnx module base -> it."""
    found = {}
    for stmt in ctx.graph.scope_stmts(MODULE):
        node = stmt.node
        if type(node) is not cst.ClassDef or len(node.bases) != 1 or node.keywords:
            continue
        name = node.name.value
        once = sum(name in s.defs for s in ctx.graph.scope_stmts(MODULE)) == 1
        base = ctx.qualify(node.bases[0].value)
        if once and base in nnx_api.MODULE_BASES:
            found[name] = base
    return found


def module_update(ctx: ModuleContext, stmt: Stmt) -> str | None:
    """The call of `stmt` that changes an nnx module in place through a function or
    method the overlay lists (`nnx.update(model, state)`, `optimizer.update(model, grads)`
    on a proven `nnx.Optimizer`), as written; None when it makes none."""
    for call in stmt.calls:
        qual = ctx.qualify(call.func)
        if qual in nnx_api.MUTATING:
            return ctx.code(call)
        func = call.func
        if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
            continue
        cls = module_class(ctx, stmt, func.value.value)
        if cls is not None and f"{cls}.{func.attr.value}" in nnx_api.MUTATING:
            return ctx.code(call)
    return None


def written_back(ctx: ModuleContext, stmt: Stmt) -> str | None:
    """The call of `stmt` to a function of this module compiled by a jit that writes its
    module arguments back (`@nnx.jit def train_step(model, ...)`), given a name proven
    to hold an nnx object, as written (`step(...)` where that spans lines); None when it
    makes none."""
    call = next((c for c in stmt.calls if _writes_back(ctx, stmt, c)), None)
    if call is None:
        return None
    code = ctx.code(call)
    return code if "\n" not in code else f"{ctx.code(call.func)}(...)"


def _writes_back(ctx: ModuleContext, stmt: Stmt, call: cst.Call) -> bool:
    """`step(model, ...)`: `step` is a function of this module decorated with a jit that
    writes its module arguments back (`UPDATES_MODULES`), and an argument is a name
    proven to hold an nnx object."""
    if type(call.func) is not cst.Name:
        return False
    fn = ctx.graph.resolve_function(call.func.value, stmt.scope)
    if fn is None or not any(
        execution.transform_of(ctx, d.decorator) in nnx_api.UPDATES_MODULES
        for d in fn.node.decorators
    ):
        return False
    names = (arg.value for arg in call.args if not arg.star)
    return any(type(n) is cst.Name and holds_module(ctx, stmt, n.value) for n in names)


def update_call(
    ctx: ModuleContext, stmt: Stmt, call: cst.Call, modules: dict[str, str], jitted: bool
) -> bool:
    """Whether `call` of `stmt` changes nnx objects of `modules` (a name of the scope ->
    the overlay class that built it, `library_class`, or "" for a class of this module)
    in place through the overlay: `nnx.update(m, ...)`, `m.update(...)` where
    `f"{class}.update"` is listed (`MUTATING`), or (`jitted`) a call of a function of this
    module under a bare `@nnx.jit` (no options), given one of them by name."""
    func = call.func
    if ctx.qualify(func) in nnx_api.MUTATING:
        return bool(call.args) and _names_module(call.args[0].value, modules)
    if type(func) is cst.Attribute and type(func.value) is cst.Name:
        cls = modules.get(func.value.value)
        return bool(cls) and f"{cls}.{func.attr.value}" in nnx_api.MUTATING
    if not jitted or type(func) is not cst.Name:
        return False
    fn = ctx.graph.resolve_function(func.value, stmt.scope)
    if fn is None or len(fn.node.decorators) != 1:
        return False
    decorator = fn.node.decorators[0].decorator
    if ctx.qualify(decorator) not in nnx_api.UPDATES_MODULES:
        return False
    return any(_names_module(arg.value, modules) for arg in call.args if not arg.star)


def _names_module(expr: cst.BaseExpression, modules: dict[str, str]) -> bool:
    return type(expr) is cst.Name and expr.value in modules


def jit_spelling(ctx: ModuleContext, name: str = "jit") -> tuple[str, tuple[RequireImport, ...]]:
    """`nnx.jit` (or `nnx.<name>`) spelled with the module's own binding of `flax.nnx`
    (or of `flax`), with the import to add where it has none."""
    for local, full in ctx.imports.module_bindings.items():
        if full in ("flax.nnx", "flax"):
            return f"{local}.nnx.{name}" if full == "flax" else f"{local}.{name}", ()
    return ctx.ref(f"flax.nnx.{name}")


def optimizer_arguments(
    ctx: ModuleContext, call: cst.Call
) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """`nnx.ModelAndOptimizer(model, tx, wrt=...)` -> its model and transformation, for
    a constructor the overlay lists (`OPTIMIZERS`) given no starred argument and no
    keyword but its parameters and filters; None otherwise."""
    if ctx.qualify(call.func) not in nnx_api.OPTIMIZERS or any(a.star for a in call.args):
        return None
    params = nnx_api.OPTIMIZER_PARAMETERS
    positional = [a.value for a in call.args if a.keyword is None]
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if len(positional) > len(params) or set(keywords) - set(params) - nnx_api.OPTIMIZER_FILTERS:
        return None
    given = dict(zip(params, positional, strict=False))
    if set(given) & set(keywords):
        return None
    given.update(keywords)
    model, tx = (given.get(p) for p in params)
    return None if model is None or tx is None else (model, tx)
