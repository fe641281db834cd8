"""Spell a qualified JAX name with the module's own imports."""

from __future__ import annotations

from autoopt.analysis.core.context import ModuleContext
from autoopt.model import RequireImport


def spell(ctx: ModuleContext, qualname: str) -> tuple[str, tuple[RequireImport, ...]]:
    """`jax.numpy.stack` -> `jnp.stack` when `jnp` is bound to jax.numpy; else as
    `ctx.ref` spells it (through `jax`, importing it when needed)."""
    parts = qualname.split(".")
    for cut in range(len(parts) - 1, 1, -1):
        alias = ctx.imports.alias_for(".".join(parts[:cut]))
        if alias is not None:
            return ".".join([alias, *parts[cut:]]), ()
    return ctx.ref(qualname)
