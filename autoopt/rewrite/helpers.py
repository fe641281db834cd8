"""Generated module-level helpers: where one goes, the blank lines around it, and the
jitted helper that updates a donated array in place (AO401, AO402):

    @partial(jax.jit, donate_argnames=("array",))
    def x_set_at(array, index, value):
        return array.at[index].set(value)
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Stmt
from autoopt.model import RequireImport
from autoopt.rewrite.jit import jit_decorator
from autoopt.rewrite.spell import spell


def top_statement(ctx: ModuleContext, stmt: Stmt) -> cst.CSTNode:
    """The module-level statement that holds `stmt`: the helper goes just above it."""
    if stmt.scope == MODULE:
        return ctx.graph.loops[stmt.loops[0]].node
    scope = stmt.scope
    while ctx.graph.functions[scope].scope in ctx.graph.functions:
        scope = ctx.graph.functions[scope].scope
    fn = ctx.graph.functions[scope]
    return fn.node if fn.scope == MODULE else _class_node(ctx, fn.scope)


def _class_node(ctx: ModuleContext, qualname: str) -> cst.CSTNode:
    top = qualname.split(".")[0]
    return next(s for s in ctx.module.body if type(s) is cst.ClassDef and s.name.value == top)


def spaced(ctx: ModuleContext, definition: cst.FunctionDef, anchor: cst.CSTNode) -> cst.FunctionDef:
    """Blank lines around the helper: two at module level (PEP 8), one in a block; a
    blank line holds no whitespace."""
    lines = 2 if any(anchor is s for s in ctx.module.body) else 1
    above = sum(type(line) is cst.EmptyLine for line in getattr(anchor, "leading_lines", ()))
    blank = cst.EmptyLine(indent=False)  # empty, not the block's indentation
    body = definition.body.with_changes(footer=[blank] * lines)
    leading = [blank] * max(0, lines - above) if above or ctx.module.body[0] is not anchor else []
    return definition.with_changes(body=body, leading_lines=leading)


def grouped(names: tuple[str, ...]) -> str:
    """Names as one target or value: `u`, or `(u, v)`."""
    return names[0] if len(names) == 1 else f"({', '.join(names)})"


def parse_function(code: str) -> cst.FunctionDef:
    """The function definition `code` holds."""
    definition = cst.parse_statement(code)
    assert type(definition) is cst.FunctionDef
    return definition


@dataclass(frozen=True)
class UpdateForm:
    """What a donating update helper does: its parameters after `array`, its body
    lines, and the imports the body's spellings need."""

    params: str
    body: tuple[str, ...]
    imports: tuple[RequireImport, ...] = ()


def at_update(op: str, subscript: str = "index", indexed: bool = True) -> UpdateForm:
    """`array.at[index].op(value)`: the same index semantics as the eager update.
    `subscript` is what the helper writes between the brackets: `index` (the argument),
    or the update's own subscript, its static elements kept as written and `index` (or
    `index[k]`) for the others; the helper takes no `index` where it is not `indexed`."""
    params = "index, value" if indexed else "value"
    return UpdateForm(params, (f"return array.at[{subscript}].{op}(value)",))


def slice_update(ctx: ModuleContext) -> UpdateForm:
    """`value` written at row `start`, converted to the array's dtype."""
    dus, imports = spell(ctx, "jax.lax.dynamic_update_slice_in_dim")
    asarray, more = spell(ctx, "jax.numpy.asarray")
    body = f"return {dus}(array, {asarray}(value, array.dtype), start, 0)"
    return UpdateForm("start, value", (body,), imports + more)


def splice_update(ctx: ModuleContext) -> UpdateForm:
    """`value` written at row `start`, both promoted to the dtype a concatenate gives."""
    dus, imports = spell(ctx, "jax.lax.dynamic_update_slice_in_dim")
    result_type, more = spell(ctx, "jax.numpy.result_type")
    body = (
        f"dtype = {result_type}(array, value)",
        "array, value = array.astype(dtype), value.astype(dtype)",
        f"return {dus}(array, value, start, 0)",
    )
    return UpdateForm("start, value", body, imports + more)


def rows_update(ctx: ModuleContext) -> UpdateForm:
    """`rows` written at row `start`; raises where `concatenate` would, for rows whose
    other dimensions differ (`dynamic_update_slice` would write smaller ones)."""
    dus, imports = spell(ctx, "jax.lax.dynamic_update_slice_in_dim")
    body = (
        "if rows.shape[1:] != array.shape[1:]:",
        '    raise TypeError(f"rows of shape {rows.shape} do not fit shape {array.shape}")',
        f"return {dus}(array, rows, start, 0)",
    )
    return UpdateForm("start, rows", body, imports)


def donating_helper(
    ctx: ModuleContext, name: str, form: UpdateForm, anchor: cst.CSTNode
) -> tuple[cst.FunctionDef, tuple[RequireImport, ...]]:
    """`name`, jitted and donating `array`, spaced to go above `anchor`; its imports."""
    decorator, imports = jit_decorator(ctx, donate=("array",))
    lines = "".join(f"    {line}\n" for line in form.body)
    definition = parse_function(f"@{decorator}\ndef {name}(array, {form.params}):\n{lines}")
    return spaced(ctx, definition, anchor), imports + form.imports
