"""Sealed code: a module class or function whose code can hand out no array it did not make.

The code of `scope` (nested code included) is *sealed* when it reads from outside only
imports, builtins, literal constants, globals only ever bound to arrays, numbers or
strings (none callable), and sealed classes and functions of the module, and makes its
parameters with library initializers built from constants only
(`facts/initializers.py`: `init=lambda *_: w` twice ties two parameters to one buffer).
`facts/fresh.py` asks it of module classes and `hk.transform` functions, and
`facts/linen_fields.py` of linen module classes.

`sealed_entry` asks it of the part of a linen module class that `init` runs when given
no `method`: the class body but the methods nothing there reaches. It starts from
`setup`, `__call__`, every dunder and every decorated method, and adds each method whose
name any of them reads (`self.pred_logits(x)`, or any attribute or name so spelled), to
a fixed point, and so for the module classes and functions that code names (a
submodule may call `self.parent.m()`); a string naming a method names it, and code
reaching attributes by name (`getattr`) reaches them all. The class derives from
`flax.linen.Module` alone. A method only a user calls after training (`sample`,
jitting a lambda) does not run in `init`.
"""

from __future__ import annotations

import builtins

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import read_names
from autoopt.analysis.core.graph import MODULE, Stmt
from autoopt.analysis.facts.initializer_globals import initializer_globals
from autoopt.analysis.facts.initializers import InitializerAudit
from autoopt.analysis.facts.reflection import constant_globals, rebinding
from autoopt.analysis.overlays import flax_linen as linen_api
from autoopt.analysis.values.lattice import Kind
from autoopt.analysis.values.model import model

_BUILTINS = frozenset(dir(builtins))
#: Words through which code may reach a method by a name it computes.
_REFLECTION = frozenset(
    {"getattr", "vars", "__dict__", "__getattribute__", "attrgetter", "methodcaller",
     "eval", "exec"}
)  # fmt: skip
_DATA_KINDS = frozenset({Kind.ARRAY, Kind.HOST_ARRAY, Kind.SCALAR, Kind.STRING, Kind.NONE})


def class_def(ctx: ModuleContext, name: str) -> cst.ClassDef | None:
    for stmt in ctx.graph.scope_stmts(MODULE):
        if type(stmt.node) is cst.ClassDef and stmt.node.name.value == name:
            return stmt.node
    return None


def sealed_value(ctx: ModuleContext, expr: cst.BaseExpression) -> bool:
    """A function handed to `hk.transform`: a module function or a lambda, whose code is
    sealed."""
    if type(expr) is cst.Lambda:
        params = {p.name.value for p in expr.params.params}
        return _library_initializers(ctx, expr.body) and all(
            _known(ctx, n.value, frozenset())
            for n in read_names(expr.body)
            if n.value not in params
        )
    if type(expr) is cst.Name and expr.value in ctx.graph.functions:
        return sealed_code(ctx, expr.value, frozenset())
    return False


def sealed_code(ctx: ModuleContext, scope: str, seen: frozenset[str] = frozenset()) -> bool:
    """Whether the code of `scope` (a module class or function, nested code included)
    reads from outside only imports, builtins, literal constants and sealed module
    classes and functions: no array an initializer might return as it is."""
    stmts = [s for s in ctx.graph.stmts if s.scope == scope or s.scope.startswith(scope + ".")]
    return _sealed(ctx, scope, _definition(ctx, scope), stmts, seen)


def sealed_entry(ctx: ModuleContext, cls: str) -> bool:
    """Whether the code of the linen module class `cls` that `init` runs when given no
    `method` is sealed (`sealed_code`), the methods nothing there reaches left out."""
    node = class_def(ctx, cls)
    if node is None or len(node.bases) != 1 or node.keywords or node.decorators:
        return False
    if ctx.qualify(node.bases[0].value) not in linen_api.MODULE_BASES:
        return False
    unreached = _unreached(ctx, node)
    inside = [f"{cls}.{m}" for m in unreached]
    stmts = [
        s
        for s in ctx.graph.stmts
        if (s.scope == cls or s.scope.startswith(cls + "."))
        and not any(s.scope == q or s.scope.startswith(q + ".") for q in inside)
        and not (type(s.node) is cst.FunctionDef and s.node.name.value in unreached)
    ]
    body = [i for i in node.body.body if not _method_named(i, unreached)]
    kept = node.with_changes(body=node.body.with_changes(body=body))
    return _sealed(ctx, cls, kept, stmts, frozenset())


def _unreached(ctx: ModuleContext, node: cst.ClassDef) -> set[str]:
    """The methods of the class that nothing `init` runs by default names
    (`sealed_entry`): neither its reached code nor the module classes and functions that
    code names (a submodule may call `self.parent.m()`), as a name, an attribute or a
    string; none where that code reaches attributes by name (`getattr`)."""
    methods = {i.name.value: i for i in node.body.body if type(i) is cst.FunctionDef}
    code: list[cst.CSTNode] = [i for i in node.body.body if type(i) is not cst.FunctionDef]
    reached = {
        name
        for name, fn in methods.items()
        if name in ("setup", "__call__") or name.startswith("__") or fn.decorators
    }
    code += [methods[m] for m in reached]
    scanned = {node.name.value}
    while code:
        named = {word for root in code for word in _words(root)}
        if named & _REFLECTION:
            return set()
        more = (named & set(methods)) - reached
        reached |= more
        code = [methods[m] for m in more]
        for other in sorted(named - scanned):
            definition = _module_code(ctx, other)
            if definition is not None:
                scanned.add(other)
                code.append(definition)
    return set(methods) - reached


def _module_code(ctx: ModuleContext, name: str) -> cst.CSTNode | None:
    """The definition of the module-level class or function `name`, or None."""
    fn = ctx.graph.functions.get(name)
    return fn.node if fn is not None else class_def(ctx, name)


def _words(node: cst.CSTNode) -> set[str]:
    """Every identifier under `node` (names, attribute names, keywords) and the text of
    every plain string."""
    found: set[str] = set()

    class _Words(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

        def visit_SimpleString(self, string: cst.SimpleString) -> None:
            value = string.evaluated_value
            found.add(value if isinstance(value, str) else "")

    node.visit(_Words())
    return found


def _method_named(item: cst.CSTNode, names: set[str]) -> bool:
    return type(item) is cst.FunctionDef and item.name.value in names


def _sealed(
    ctx: ModuleContext,
    scope: str,
    node: cst.CSTNode | None,
    stmts: list[Stmt],
    seen: frozenset[str],
) -> bool:
    """`stmts` (the code of `scope`, whose definition is `node`) read from outside only
    what `_known` allows, and `node` makes parameters with library initializers only."""
    scopes = {s.scope for s in stmts} | {scope}
    local = {n for s in stmts for n in s.defs}
    local |= {p for q in scopes if q in ctx.graph.functions for p in ctx.graph.functions[q].params}
    free = {n for s in stmts for n in s.uses} - local
    if node is None or not _library_initializers(ctx, node):
        return False
    return all(_known(ctx, name, seen | {scope}) for name in free)


def _definition(ctx: ModuleContext, scope: str) -> cst.CSTNode | None:
    fn = ctx.graph.functions.get(scope)
    if fn is not None:
        return fn.node
    return class_def(ctx, scope)


def _library_initializers(ctx: ModuleContext, node: cst.CSTNode) -> bool:
    """Whether `node` makes its parameters with the libraries' initializers only, none
    given an array: `init=lambda *_: w` or `Constant(w)` fills two parameters with the
    one buffer `w` (`initializers.InitializerAudit`)."""
    audit = InitializerAudit(ctx, initializer_globals(ctx))
    node.visit(audit)
    return audit.clean


def _known(ctx: ModuleContext, name: str, seen: frozenset[str]) -> bool:
    if name in ctx.imports.bindings or name in _BUILTINS or name in seen:
        return True
    if name in ctx.graph.classes or name in ctx.graph.functions:
        return sealed_code(ctx, name, seen)
    if name in initializer_globals(ctx):
        return True  # only ever `kernel_init=name`, which the audit clears
    return name in constant_globals(ctx) or name in ctx.per_module(_data_globals)


def _data_globals(ctx: ModuleContext) -> frozenset[str]:
    """Module names only ever bound, by plain assignments the value model reads, to an
    array, a number or a string (`data_variance = np.var(images)`), that nothing rebinds
    (as `constant_globals`). Sealed code may read them: no such value is callable, so
    none is an initializer, and the audit refuses one handed to a layer that keeps it
    (`hk.Embed(embedding_matrix=table)`) or to an initializer (`Constant(table)`)."""
    graph = ctx.graph
    if rebinding(ctx).anything:
        return frozenset()
    values = model(ctx)
    binders: dict[str, list[Stmt]] = {}
    for stmt in graph.scope_stmts(MODULE):
        for name in stmt.defs:
            binders.setdefault(name, []).append(stmt)
    declared = {n for fn in graph.functions.values() for n in fn.globals | fn.nonlocals}
    return frozenset(
        name
        for name, stmts in binders.items()
        if name not in declared
        and name not in rebinding(ctx).names
        and all(
            type(s.node) is cst.Assign and values.defined(s, name).kind in _DATA_KINDS
            for s in stmts
        )
    )
