"""The fields of an equinox module class of the module that declares them only.

`class Func(eqx.Module)` with `scale: jax.Array` and `mlp: eqx.nn.MLP` and no `__init__`:
the dataclass equinox makes of it has an `__init__` taking one parameter per field, in
the order the class body writes them, which stores each argument in its field as given
(`overlays/equinox.py`, `FIELD_INIT_BASES`). `declared_fields` gives those names where the
class is read so:

- it is bound once at the module's top level, undecorated, with no keyword (a
  metaclass) and `equinox.Module` its one base (which declares no field);
- its body holds only a docstring, `pass`, undecorated functions and annotated names
  with no value (no default, no `eqx.field(converter=...)` that runs on construction);
- it defines none of `__init__`, `__new__`, `__post_init__`, `__check_init__`,
  `__setattr__`, `__getattr__`, `__getattribute__`, `__delattr__`, and no function of a
  field's name;
- each annotation is a name or an attribute naming a builtin number or string type
  (not bound in the module), a class of the module, or a name of JAX, NumPy or
  `equinox.nn` (never `ClassVar`, `InitVar`, `KW_ONLY` or an `AbstractVar`, which
  would leave a name out of the parameters or make the rest keyword-only).
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.overlays import equinox as eqx_api

#: Methods that run on construction or on an attribute's store or read.
_HOOKS = frozenset(
    {"__init__", "__new__", "__post_init__", "__check_init__", "__setattr__", "__getattr__",
     "__getattribute__", "__delattr__"}
)  # fmt: skip
_TYPES = frozenset({"int", "float", "complex", "bool", "str"})
_LIBRARIES = ("jax.", "numpy.", "equinox.nn.")


def declared_fields(ctx: ModuleContext, cls: str) -> tuple[str, ...] | None:
    """The fields of `cls` in the order its generated `__init__` takes them; None where
    the class is not read so (module docstring)."""
    binders = [s for s in ctx.graph.scope_stmts(MODULE) if cls in s.defs]
    node = binders[0].node if len(binders) == 1 else None
    if type(node) is not cst.ClassDef or node.decorators or node.keywords or len(node.bases) != 1:
        return None
    if ctx.qualify(node.bases[0].value) not in eqx_api.FIELD_INIT_BASES:
        return None
    if type(node.body) is not cst.IndentedBlock:
        return None
    fields: list[str] = []
    methods: set[str] = set()
    for statement in node.body.body:
        if type(statement) is cst.FunctionDef and not statement.decorators:
            methods.add(statement.name.value)
        elif type(statement) is not cst.SimpleStatementLine:
            return None
        else:
            for small in statement.body:
                name = _field(ctx, small)
                if name is None and not _inert(small):
                    return None
                fields += [name] if name is not None else []
    if methods & (_HOOKS | set(fields)) or len(set(fields)) != len(fields):
        return None
    return tuple(fields)


def _field(ctx: ModuleContext, small: cst.BaseSmallStatement) -> str | None:
    """`name: T` with no value and an annotation `_plain_type` accepts -> `name`."""
    if type(small) is not cst.AnnAssign or small.value is not None:
        return None
    target = small.target
    if type(target) is not cst.Name or not _plain_type(ctx, small.annotation.annotation):
        return None
    return target.value


def _plain_type(ctx: ModuleContext, annotation: cst.BaseExpression) -> bool:
    if type(annotation) is cst.Name and annotation.value in _TYPES:
        bound = {n for s in ctx.graph.scope_stmts(MODULE) for n in s.defs}
        return annotation.value not in bound
    if type(annotation) is cst.Name and annotation.value in ctx.graph.classes:
        return True
    if type(annotation) not in (cst.Name, cst.Attribute):
        return False
    return (ctx.qualify(annotation) or "").startswith(_LIBRARIES)


def _inert(small: cst.BaseSmallStatement) -> bool:
    """A docstring or `pass`."""
    if type(small) is cst.Pass:
        return True
    return type(small) is cst.Expr and isinstance(small.value, cst.SimpleString)
