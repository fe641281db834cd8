"""Which globals of a module may be rebound other than by its own assignments.

A module global is constant for a trace only if nothing rebinds it. The graph sees
assignments, `global` statements and loops (`analysis/facts/purity.py`); this module
sees the other ways, through the module's namespace or its module object, and says
which names they rebind (`Rebinding.names`, each with the spelling that does it) or
that they may rebind any global (`Rebinding.anything`).

In the module itself:

- its namespace: `globals()` (anywhere), `vars()` and `locals()` at module level, a
  function's `__globals__` or a frame's `f_globals`, `vars(m)` or `m.__dict__` of its
  module object `m`;
- its module object: `sys.modules[...]`, `sys.modules.get(...)`,
  `importlib.import_module(...)` and `__import__(...)` of `__name__`, of its own name, of
  `"__main__"` or of a name that is not a constant string; `inspect.getmodule(...)`; an
  import of the module itself (or of `__main__`);
- `exec(...)` and `eval(...)`, which may run any code in it: any global. The words are
  read in the source (strings included); `model.eval()` is not the builtin where every
  `eval` of the source is such a call of a method every nnx module has, on a name proven
  to hold one (`overlays/flax_nnx.py`, `MODULE_METHODS`; `facts/nnx_modules.py`).

In the project's other files that name the module (`analysis/core/project.py`), its
module object: an import of it, `sys.modules[...]`/`importlib.import_module(...)` of
its name as a constant string, and of `"__main__"`. A module found there by a computed
name is not followed.

Names bound to these (`g = globals()`, `me = sys.modules[__name__]`) are followed, by
name over the whole file. A namespace rebinds the name `K` where it is stored into or
deleted with a constant key (`ns["K"] = v`, `del ns["K"]`, `ns["K"] += v`), through
`ns.update(K=v)` or `ns.update({"K": v})`, `ns.setdefault("K", v)`, `ns.pop("K")`; it
only reads through `ns["K"]`, `.get`, `.keys`, `.values`, `.items`, `.copy`, `in`,
iteration and the builtins that read a dict. A module object rebinds `K` through
`m.K = v` (`del`, `+=`), `setattr(m, "K", v)` and `delattr(m, "K")`; it reads through
`m.K`, `getattr`, `hasattr` and comparisons. Any other use (a key that is not a constant
string, handing it to a function, returning or storing it) may rebind any global.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import evaluated_exprs, is_constant
from autoopt.analysis.core.graph import MODULE, Stmt
from autoopt.analysis.core.names import dotted
from autoopt.analysis.core.project import importing_files, loads_file
from autoopt.analysis.core.walk import child_list
from autoopt.analysis.facts.nnx_modules import holds_module
from autoopt.analysis.overlays import flax_nnx as nnx_api
from autoopt.analysis.overlays import python as python_api

#: Names one of which a module's code holds where it may reach its own namespace.
_OWN_WORDS = (
    python_api.NAMESPACE_BUILTINS | python_api.CODE_BUILTINS | python_api.GLOBALS_ATTRIBUTES
    | {"modules", "import_module", "__import__", "getmodule"}
)  # fmt: skip
_LOOKUP_WORDS = frozenset({"modules", "import_module", "__import__"})  # by a constant name
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NESTED = (cst.FunctionDef, cst.Lambda, cst.ClassDef)
_NOT_READ = (cst.Param, cst.NameItem, cst.FunctionDef, cst.ClassDef, cst.AsName)
_UNPACKED = (cst.Element, cst.StarredElement, cst.Tuple, cst.List)
_READ_BY = (cst.Comparison, cst.ComparisonTarget, cst.Expr, cst.If, cst.While, cst.Assert)
_MODULE, _NAMESPACE = "module", "namespace"


@dataclass(frozen=True)
class Rebinding:
    """The globals of a module that code may rebind other than by its own assignments:
    `names` (global -> the spelling that rebinds it) and `anything`, the spelling
    through which any global may be rebound ("" when none)."""

    names: dict[str, str] = field(default_factory=dict)
    anything: str = ""

    def how(self, name: str) -> str:
        """The spelling through which `name` may be rebound, or ""."""
        return self.names.get(name) or self.anything


def rebinding(ctx: ModuleContext) -> Rebinding:
    """The module's `Rebinding`, once per module (a derived module's is its origin's)."""
    return (ctx.origin or ctx).per_module(_rebinding)


def constant_globals(ctx: ModuleContext) -> frozenset[str]:
    """Module names only ever bound to constants (`N = 8`, `SIZES = (2, 4)`, `START =
    None`) that nothing rebinds: no function declares them `global`, and no other way of
    `rebinding` reaches them. Such a name never holds an array."""
    return ctx.per_module(_constant_globals)


#: Words through which code may read a module's namespace or find any object: frames,
#: `inspect`, `gc` and a reload besides the rebinding ones (`__main__` is read through an
#: import, or `sys.modules`: not the `if __name__ == "__main__":` test).
_READ_WORDS = _OWN_WORDS | {
    "inspect", "gc", "f_locals", "f_back", "_getframe", "currentframe", "reload",
}  # fmt: skip


def namespace_reader(ctx: ModuleContext) -> str:
    """Why code may read the module's globals other than through what it is handed: its
    own code (comments aside, strings included: `getattr(builtins, "eval")`) holds a word
    that reaches its namespace (`globals`, `sys.modules`, a frame, `gc`, `inspect` but
    where it only imports functions that read what they are given: `_local_inspect`) or
    imports itself or `__main__`; "" when it does neither."""
    words = code_words(ctx, _READ_WORDS)
    if words:
        return f"the module may hand out its own namespace (`{words[0]}`)"
    imports = _may_reach(ctx, _stem(ctx), frozenset())
    return "the module may import itself (or `__main__`)" if imports else ""


def code_words(ctx: ModuleContext, words: frozenset[str]) -> list[str]:
    """Which of `words` the module's code names (comments aside, strings included), in
    order; `inspect` left out where it only imports functions that read what they are
    given (`_local_inspect`)."""
    found = sorted(words & set(_IDENTIFIER.findall(ctx.per_module(_uncommented))))
    found = [w for w in found if not _module_methods_only(ctx, w)]
    return [] if found == ["inspect"] and _local_inspect(ctx) else found


def _module_methods_only(ctx: ModuleContext, word: str) -> bool:
    """Every `word` in the module's code (comments aside) calls a method every nnx module
    has (`overlays/flax_nnx.py`, `MODULE_METHODS`: `model.eval()`, not the builtin) on a
    name proven to hold an nnx module there (`nnx_modules.holds_module`): a class that
    defines or stores its own `eval` names it elsewhere too."""
    if word not in nnx_api.MODULE_METHODS:
        return False
    calls = {
        id(call)
        for stmt in ctx.graph.stmts
        for call in stmt.calls
        if _module_method(ctx, stmt, call.func, word)
    }
    return len(calls) == _IDENTIFIER.findall(ctx.per_module(_uncommented)).count(word)


def _module_method(ctx: ModuleContext, stmt: Stmt, func: cst.BaseExpression, word: str) -> bool:
    if type(func) is not cst.Attribute or func.attr.value != word:
        return False
    receiver = func.value
    return type(receiver) is cst.Name and holds_module(ctx, stmt, receiver.value)


def _uncommented(ctx: ModuleContext) -> str:
    """The module's source without its comments, which no code reads (the whole source
    where it does not tokenize)."""
    try:
        tokens = tokenize.generate_tokens(io.StringIO(ctx.source).readline)
        return " ".join(t.string for t in tokens if t.type != tokenize.COMMENT)
    except (tokenize.TokenError, SyntaxError):
        return ctx.source


def _local_inspect(ctx: ModuleContext) -> bool:
    """Every `inspect` in the source is a `from inspect import ...` of functions that read
    only what they are given (`python_api.INSPECT_LOCAL`), not renamed, and each is only
    called, directly, without a keyword that evaluates text (`eval_str=True`)."""
    found = [s.node for s in ctx.graph.stmts if type(s.node) is cst.ImportFrom]
    found = [n for n in found if type(n.module) is cst.Name and n.module.value == "inspect"]
    if len(found) != _IDENTIFIER.findall(ctx.source).count("inspect"):
        return False  # `import inspect`, an attribute, a comment: not followed
    names: set[str] = set()
    for node in found:
        if isinstance(node.names, cst.ImportStar) or node.relative:
            return False
        for alias in node.names:
            name = dotted(alias.name) or ""
            if alias.asname is not None or name not in python_api.INSPECT_LOCAL:
                return False
            names.add(name)
    return all(_called_plainly(ctx, n) for n in names)


def _called_plainly(ctx: ModuleContext, name: str) -> bool:
    """Every read of `name` is a direct call without `INSPECT_EVALUATING` keywords."""
    for stmt in ctx.graph.stmts:
        if type(stmt.node) is cst.ImportFrom:
            continue
        for root in evaluated_exprs(stmt.node):
            for node, parent in _with_parents(root, None):
                if type(node) is not cst.Name or node.value != name:
                    continue
                if type(parent) is not cst.Call or parent.func is not node:
                    return False
                keywords = {a.keyword.value for a in parent.args if a.keyword is not None}
                if keywords & python_api.INSPECT_EVALUATING or any(a.star for a in parent.args):
                    return False
    return True


def _with_parents(
    node: cst.CSTNode, parent: cst.CSTNode | None
) -> Iterator[tuple[cst.CSTNode, cst.CSTNode | None]]:
    yield node, parent
    for child in child_list(node):
        yield from _with_parents(child, node)


def imported_by_project(ctx: ModuleContext) -> bool:
    """Whether another file of the project may import the module."""
    stem = _stem(ctx)
    return bool(stem) and bool(importing_files(ctx, stem, _LOOKUP_WORDS))


def module_binders(ctx: ModuleContext) -> dict[str, list[cst.CSTNode]]:
    """Each name the module's top level binds -> the statements binding it there."""
    return ctx.per_module(_module_binders)


def _module_binders(ctx: ModuleContext) -> dict[str, list[cst.CSTNode]]:
    binders: dict[str, list[cst.CSTNode]] = {}
    for stmt in ctx.graph.scope_stmts(MODULE):
        for name in stmt.defs:
            binders.setdefault(name, []).append(stmt.node)
    return binders


def _constant_globals(ctx: ModuleContext) -> frozenset[str]:
    graph = ctx.graph
    if rebinding(ctx).anything:
        return frozenset()
    binders = module_binders(ctx)
    declared = {n for fn in graph.functions.values() for n in fn.globals | fn.nonlocals}
    return frozenset(
        name
        for name, nodes in binders.items()
        if name not in declared
        and name not in rebinding(ctx).names
        and all(type(node) is cst.Assign and is_constant(node.value) for node in nodes)
    )


def _rebinding(ctx: ModuleContext) -> Rebinding:
    target = _target(ctx)
    stem = _stem(ctx)
    scans = []
    if _may_reach(ctx, stem, _OWN_WORDS):
        scans.append(_Scan(ctx, target, own=True))
    if target is not None and stem:
        others = importing_files(ctx, stem, _LOOKUP_WORDS)
        scans += [_Scan(o, target, own=False) for o in others if _may_reach(o, stem, _LOOKUP_WORDS)]
    names: dict[str, str] = {}
    anything = ""
    for scan in scans:
        scan.run()
        for name, how in scan.names.items():
            names.setdefault(name, how)
        anything = anything or scan.anything
    return Rebinding(names, anything)


def _may_reach(ctx: ModuleContext, stem: str, words: frozenset[str]) -> bool:
    """Whether the file's code may reach the module's namespace: it holds one of
    `words`, or an import names `stem` (or `__main__`)."""
    if words & set(_IDENTIFIER.findall(ctx.source)):
        return True
    named = {part for line in ctx.imports.import_nodes for part in _imported_names(line)}
    return stem in named or "__main__" in named


def _imported_names(line: cst.SimpleStatementLine) -> set[str]:
    """Every name in the modules an import line names (`a.b` gives `a` and `b`)."""
    found: set[str] = set()
    for small in line.body:
        if type(small) is cst.Import:
            found.update(p for a in small.names for p in (dotted(a.name) or "").split("."))
        elif type(small) is cst.ImportFrom:
            found.update((dotted(small.module) or "").split(".") if small.module else ())
            names = small.names
            if not isinstance(names, cst.ImportStar):  # imports are few: isinstance narrows
                found.update(dotted(a.name) or "" for a in names)
    return found


def _target(ctx: ModuleContext) -> Path | None:
    path = Path(ctx.path)
    return path.resolve() if path.suffix == ".py" and path.is_file() else None


def _stem(ctx: ModuleContext) -> str:
    """The name other files import the module by (its package's, for `__init__.py`)."""
    path = Path(ctx.path)
    return path.parent.name if path.stem == "__init__" else path.stem


class _Scan:
    """One file's writes into the namespace of the module at `target`."""

    def __init__(self, ctx: ModuleContext, target: Path | None, own: bool) -> None:
        self.ctx = ctx
        self.target = target
        self.own = own
        self.parents: dict[int, cst.CSTNode] = {}
        self.nodes: list[tuple[cst.CSTNode, bool]] = []  # (node, inside a def or class)
        self.aliases: dict[str, dict[str, str]] = {_MODULE: {}, _NAMESPACE: {}}
        self.names: dict[str, str] = {}
        self.anything = ""
        self._resolved: dict[tuple[str, int], bool] = {}

    def run(self) -> None:
        self._index(self.ctx.module, False)
        size = -1
        while size != self._size():  # names bound to the module or namespace, to a fixpoint
            size = self._size()
            for node, nested in self.nodes:
                found = self._origin(node, nested)
                if found is not None:
                    self._use(found[0], node, found[1])

    def _size(self) -> int:
        return len(self.aliases[_MODULE]) + len(self.aliases[_NAMESPACE])

    def _index(self, node: cst.CSTNode, nested: bool) -> None:
        """Parents and the nodes that may name the module, imports apart."""
        stack = [(node, nested)]
        while stack:
            current, inside = stack.pop()
            kind = type(current)
            if type(current) is cst.Import or type(current) is cst.ImportFrom:
                self._imported(current)
                continue
            if kind in (cst.Name, cst.Attribute, cst.Call, cst.Subscript):
                self.nodes.append((current, inside))
            inner = inside or kind in _NESTED
            for child in child_list(current):
                self.parents[id(child)] = current
                stack.append((child, inner))

    def _imported(self, node: cst.Import | cst.ImportFrom) -> None:
        """Names an import binds to the module object (a relative one: here; the
        others are qualified names, resolved where they are read)."""
        if type(node) is not cst.ImportFrom or not node.relative:
            return
        names = node.names
        if isinstance(names, cst.ImportStar):  # imports are few: isinstance narrows
            return
        base = dotted(node.module) if node.module is not None else ""
        for alias in names:
            name = dotted(alias.name) or ""
            module = f"{base}.{name}" if base else name
            if self._loads(module, len(node.relative)):
                local = alias.asname.name if alias.asname is not None else alias.name
                self.aliases[_MODULE][dotted(local) or name] = self._spelled(node)

    # -- what names the module or its namespace ----------------------------------
    def _origin(self, node: cst.CSTNode, nested: bool) -> tuple[str, str] | None:
        """(`_MODULE` or `_NAMESPACE`, its spelling) when `node` evaluates to the
        module object or its namespace."""
        if type(node) is cst.Name and self._is_read(node):
            for which in (_MODULE, _NAMESPACE):
                how = self.aliases[which].get(node.value)
                if how is not None:
                    return which, how
        if type(node) is cst.Call:
            return self._called(node, nested)
        if type(node) is cst.Subscript and self._qualify(node.value) == "sys.modules":
            index = _index(node)
            return (_MODULE, self._spelled(node)) if self._may_name(index) else None
        if type(node) is cst.Attribute and node.attr.value in python_api.GLOBALS_ATTRIBUTES:
            return (_NAMESPACE, self._spelled(node)) if self.own else None
        if (type(node) is cst.Name or type(node) is cst.Attribute) and self._is_read(node):
            qual = self._qualify(node)
            if qual == "sys.modules":
                self._modules_use(node)
            elif qual is not None and (qual == "__main__" or self._loads(qual, 0)):
                return _MODULE, self._spelled(node, " (the module itself)" if self.own else "")
        return None

    def _modules_use(self, node: cst.CSTNode) -> None:
        """`sys.modules` other than indexed, `.get`, `.keys()`, `in` or `len`: here, the
        modules it holds may be reached (`for m in sys.modules.values()`)."""
        parent = self.parents.get(id(node))
        if type(parent) is cst.Subscript or type(parent) in _READ_BY:
            return
        if type(parent) is cst.Attribute and parent.attr.value in ("get", "keys"):
            return
        call = self._argument_of(node, parent)
        if call is not None and _called_name(call) == "len":
            return
        if self.own:
            self._any(self._spelled(node))

    def _called(self, call: cst.Call, nested: bool) -> tuple[str, str] | None:
        func = call.func
        name = func.value if type(func) is cst.Name else None
        first = call.args[0].value if call.args else None
        if self.own and name in python_api.CODE_BUILTINS:
            self.anything = self.anything or self._spelled(call)
            return None
        namespace = name in python_api.NAMESPACE_BUILTINS and (name == "globals" or not nested)
        if self.own and namespace and not call.args:
            return _NAMESPACE, self._spelled(call)
        qual = self._qualify(func)
        if self.own and qual == "inspect.getmodule":
            return _MODULE, self._spelled(call)
        if (qual or name) in python_api.MODULE_LOOKUPS and self._may_name(first):
            return _MODULE, self._spelled(call)
        return None

    def _may_name(self, key: cst.BaseExpression | None) -> bool:
        """Whether a lookup of the module named `key` may give this module."""
        if key is None:
            return False
        if type(key) is cst.SimpleString:
            value = key.evaluated_value
            text = value if type(value) is str else ""
            return text == "__main__" or self._loads(text, 0)
        if type(key) is cst.Name and key.value == "__name__":
            return self.own
        return self.own  # a computed name: here, maybe this module; elsewhere not followed

    def _loads(self, module: str, level: int) -> bool:
        if self.target is None or not module:
            return False
        key = (module, level)
        if key not in self._resolved:
            self._resolved[key] = loads_file(self.ctx, module, self.target, level)
        return self._resolved[key]

    def _qualify(self, node: cst.BaseExpression) -> str | None:
        return self.ctx.imports.qualify(node)

    def _spelled(self, node: cst.CSTNode, note: str = "") -> str:
        code = f"`{self.ctx.code(node)}`{note}"
        return code if self.own else f"{code} in `{Path(self.ctx.path).name}`"

    def _is_read(self, node: cst.CSTNode) -> bool:
        """Whether a name (or dotted name) is read here, not bound or an attribute's
        name."""
        parent = self.parents.get(id(node))
        if type(parent) is cst.Attribute:
            return parent.value is node
        if (
            type(parent) is cst.AssignTarget
            or type(parent) is cst.AnnAssign
            or type(parent) is cst.For
            or type(parent) is cst.CompFor
            or type(parent) is cst.NamedExpr
        ):
            return parent.target is not node
        if type(parent) is cst.Arg:
            return parent.value is node
        return type(parent) not in (
            cst.Param,
            cst.NameItem,
            cst.FunctionDef,
            cst.ClassDef,
            cst.AsName,
        )

    # -- what a use of it may rebind ----------------------------------------------
    def _use(self, which: str, node: cst.CSTNode, how: str) -> None:
        parent = self.parents.get(id(node))
        if (
            type(parent) is cst.Assign
            or type(parent) is cst.AnnAssign
            or type(parent) is cst.NamedExpr
        ) and parent.value is node:
            self._alias(which, parent, how)
        elif which == _MODULE:
            self._module_use(node, parent, how)
        else:
            self._namespace_use(node, parent, how)

    def _alias(
        self, which: str, binding: cst.Assign | cst.AnnAssign | cst.NamedExpr, how: str
    ) -> None:
        targets = (
            [t.target for t in binding.targets]
            if isinstance(binding, cst.Assign)
            else [binding.target]
        )
        names = [t.value for t in targets if type(t) is cst.Name]
        if len(names) == len(targets):
            for name in names:
                self.aliases[which].setdefault(name, how)
        else:
            self._any(how)

    def _module_use(self, node: cst.CSTNode, parent: cst.CSTNode | None, how: str) -> None:
        if type(parent) is cst.Attribute and parent.value is node:
            attr = parent.attr.value
            if attr == "__dict__":
                self._use(_NAMESPACE, parent, how)
            elif attr in ("__setattr__", "__delattr__"):
                self._any(how)
            elif self._stored(parent):
                self.names.setdefault(attr, how)
            return
        call = self._argument_of(node, parent)
        if call is not None and type(call.func) is cst.Name and call.args[0].value is node:
            name = call.func.value
            if name in ("setattr", "delattr") and len(call.args) > 1:
                self._write(call.args[1].value, how)
                return
            if name == "vars":
                self._use(_NAMESPACE, call, how)
                return
            if name in python_api.OBJECT_READERS or (name == "getattr" and _plain_attribute(call)):
                return
        if type(parent) not in _READ_BY:
            self._any(how)

    def _namespace_use(self, node: cst.CSTNode, parent: cst.CSTNode | None, how: str) -> None:
        kind = type(parent)
        if type(parent) is cst.Subscript and parent.value is node:
            if self._stored(parent):
                self._write(_index(parent), how)
            return
        if type(parent) is cst.Attribute and parent.value is node:
            self._method(parent, how)
            return
        if (type(parent) is cst.For or type(parent) is cst.CompFor) and parent.iter is node:
            return
        call = self._argument_of(node, parent)
        if call is not None and _called_name(call) in python_api.DICT_READERS:
            return
        if kind not in _READ_BY:
            self._any(how)

    def _method(self, method: cst.Attribute, how: str) -> None:
        """`ns.update(...)`, `ns.get(...)`, ...: what a method of the namespace rebinds."""
        call = self.parents.get(id(method))
        name = method.attr.value
        if type(call) is not cst.Call or call.func is not method:
            self._any(how)  # the bound method kept or handed on
        elif name in python_api.READ_METHODS or name in ("__contains__", "__getitem__"):
            return
        elif name == "update":
            self._update(call, how)
        elif name in ("setdefault", "pop", "__setitem__", "__delitem__") and call.args:
            self._write(call.args[0].value, how)
        else:
            self._any(how)

    def _update(self, call: cst.Call, how: str) -> None:
        for arg in call.args:
            if arg.keyword is not None:
                self.names.setdefault(arg.keyword.value, how)
            elif type(arg.value) is cst.Dict and not arg.star:
                for element in arg.value.elements:
                    key = element.key if type(element) is cst.DictElement else None
                    self._write(key, how)
            else:
                self._any(how)

    def _write(self, key: cst.BaseExpression | None, how: str) -> None:
        """A write under `key`: that name when it is a constant string, else any."""
        value = key.evaluated_value if type(key) is cst.SimpleString else None
        if type(value) is str:
            self.names.setdefault(value, how)
        else:
            self._any(how)

    def _any(self, how: str) -> None:
        self.anything = self.anything or how

    def _argument_of(self, node: cst.CSTNode, parent: cst.CSTNode | None) -> cst.Call | None:
        """The call `node` is a plain argument of."""
        if type(parent) is not cst.Arg or parent.value is not node or parent.star:
            return None
        call = self.parents.get(id(parent))
        return call if type(call) is cst.Call else None

    def _stored(self, node: cst.CSTNode) -> bool:
        """Whether `node` (a subscript or attribute) is assigned, augmented or deleted."""
        current: cst.CSTNode | None = node
        parent = self.parents.get(id(current))
        while type(parent) in _UNPACKED:
            current, parent = parent, self.parents.get(id(parent))
        if type(parent) is cst.AsName:
            return parent.name is current
        return (
            type(parent) is cst.AssignTarget
            or type(parent) is cst.AugAssign
            or type(parent) is cst.AnnAssign
            or type(parent) is cst.For
            or type(parent) is cst.CompFor
            or type(parent) is cst.Del
        ) and parent.target is current


def _index(subscript: cst.Subscript) -> cst.BaseExpression | None:
    """The key of `a[key]` (None for a slice or several keys)."""
    if len(subscript.slice) != 1:
        return None
    index = subscript.slice[0].slice
    return index.value if type(index) is cst.Index else None


def _plain_attribute(call: cst.Call) -> bool:
    """`getattr(m, "name")` of a constant name that is no dunder (`__dict__`)."""
    key = call.args[1].value if len(call.args) > 1 else None
    value = key.evaluated_value if type(key) is cst.SimpleString else None
    return type(value) is str and not value.startswith("__")


def _called_name(call: cst.Call) -> str | None:
    return call.func.value if type(call.func) is cst.Name else None


#: Builtins that give, or run code with, the calling function's locals.
_LOCALS_READERS = frozenset({"locals", "vars"}) | python_api.CODE_BUILTINS
#: Words through which code may read any function's locals: its frame, or any object.
_FRAME_WORDS = frozenset(
    {"f_locals", "_getframe", "currentframe", "inspect", "get_referrers", "get_objects"}
)


def locals_escape(ctx: ModuleContext, scope: str) -> str:
    """Why every local of the function `scope` may be read with no statement handing it
    out, as a clause about the local: the function hands out its own namespace
    (`locals()`, `vars()`, `eval`, `exec`), or its module reads frames; "" otherwise."""
    fn = ctx.graph.functions.get(scope)
    if fn is None:
        return ""
    for stmt in ctx.graph.scope_stmts(scope):
        for call in stmt.calls:
            if _reads_locals(call):
                line = ctx.span(stmt.node).line
                return f"is a local of `{fn.name}`, and `{ctx.code(call)}` at line {line} takes it"
    words = code_words(ctx, _FRAME_WORDS)
    if not words:
        return ""
    return f"is a local of `{fn.name}`, and the module names `{words[0]}`, which may read it"


def _reads_locals(call: cst.Call) -> bool:
    """`locals()`, `vars()`, `eval(...)` or `exec(...)`: every local of the caller."""
    func = call.func
    if type(func) is not cst.Name or func.value not in _LOCALS_READERS:
        return False
    return func.value != "vars" or not call.args
