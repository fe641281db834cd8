"""AO701 xla-env-after-import."""

from __future__ import annotations

import builtins
from collections.abc import Iterator
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis.semantic import (
    ModuleContext,
    dotted,
    first_jax_import,
    jax_api,
    read_names,
    semantic,
    walk,
)
from autoopt.model import Applicability, Finding, InsertBefore, Replace
from autoopt.rules.base import Rule


@dataclass(frozen=True)
class _Setting:
    index: int  # position among the module's top-level statements
    line: cst.SimpleStatementLine
    keys: tuple[str, ...]


class XlaEnvAfterImport(Rule):
    """
    ## What it does
    Finds `os.environ[...] = ...`, `os.environ.setdefault(...)` and
    `os.environ.update(...)` of JAX and XLA settings (`JAX_*`, `XLA_FLAGS`,
    `XLA_PYTHON_CLIENT_*`) placed after `import jax`, and moves them above it.

    ## Why is this bad?
    The settings are read once, and the program does not say so when it is too late:
    - `JAX_*` options (e.g. `JAX_ENABLE_X64`) are read when `jax` is imported; set
      afterwards they are ignored.
    - `XLA_PYTHON_CLIENT_PREALLOCATE`, `XLA_PYTHON_CLIENT_MEM_FRACTION`,
      `XLA_PYTHON_CLIENT_ALLOCATOR` and `XLA_FLAGS` are read when the backend
      starts: at the first computation, `jax.devices()` or `device_put`. Set
      between the import and that first use, they still work, until someone
      adds a line above that touches a device, or imports a library that does
      at import time. Set after the first use, they are silently ignored.

    The allocator settings are a trade-off. By default JAX preallocates 75% of
    the GPU memory at the first operation: fewer out-of-memory errors from
    fragmentation and no allocation overhead later, but one process holds the
    GPU. `XLA_PYTHON_CLIENT_PREALLOCATE=false` allocates on demand, so several
    processes can share a GPU and memory figures are real, at the price of
    fragmentation and allocation cost. On the CPU backend they have no effect.

    ## Fix safety
    Moving the setting above the import makes it take effect. That is **safe** only
    for the allocator settings (`XLA_PYTHON_CLIENT_PREALLOCATE`,
    `XLA_PYTHON_CLIENT_MEM_FRACTION`, `XLA_CLIENT_MEM_FRACTION`,
    `XLA_PYTHON_CLIENT_ALLOCATOR`: memory, not results), and only when no statement it
    jumps over may read the environment. It is **unsafe** for every other setting, which
    may change what is computed or printed (`JAX_ENABLE_X64` turns float32 into
    float64, `JAX_LOG_COMPILES` logs every compilation, `JAX_DEBUG_NANS` raises,
    `XLA_FLAGS` may change numerics or the device count, `JAX_PLATFORMS` the device),
    and when a statement it jumps over may read the environment: a read of `os.environ`,
    a call, an import of anything but JAX, NumPy, the standard library and project
    modules that provably read none of it at import. The message says which case it
    was (ignored, or working only by luck). There is **no fix** when the value is
    computed from names defined after the import, or when the setting shares its
    line with other statements.

    - the first statement that imports jax: `analysis/core/names.py`
    - the setting changes memory use alone (a positive list): `analysis/overlays/jax.py`
    - no statement it jumps over may read the environment (imports followed into the
      project's modules): `analysis/facts/environment.py`
    - the value reads no name bound after the import: `analysis/core/exprs.py` (names read)
    """

    id = "AO701"
    name = "xla-env-after-import"
    summary = "XLA/JAX environment setting placed after import jax"
    severity = "warning"
    fixes = "moves `XLA_*`/`JAX_*` settings above `import jax`"

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        body = list(ctx.module.body)
        first_import = first_jax_import(body)
        if first_import is None:
            return
        first_use = _first_jax_use(ctx, body, first_import)
        for setting in _settings(ctx, body):
            if setting.index > first_import:
                yield self._finding(ctx, body, setting, first_import, first_use)

    def _finding(self, ctx, body, setting: _Setting, first_import: int, first_use) -> Finding:
        keys = ", ".join(setting.keys)
        import_line = ctx.span(body[first_import]).line
        why = _why(ctx, body, setting, first_use)
        message = f"{keys} is set after `import jax` (line {import_line}): {why}"
        problem = _cannot_move(ctx, body, setting, first_import)
        if problem:
            return self.finding(ctx, setting.line, f"{message}; {problem}", Applicability.NONE)
        moved = [*_os_import_to_move(ctx, body, first_import), setting.line]
        edits: list[Replace | InsertBefore] = [
            Replace(stmt, lambda _n: cst.RemovalSentinel.REMOVE) for stmt in moved
        ]
        edits.append(InsertBefore(body[first_import], tuple(moved)))
        title = f"Move {keys} above `import jax`"
        doubt = _effect_doubt(ctx, body, setting, first_import)
        fix = Applicability.UNSAFE if doubt else Applicability.SAFE
        message += "; move it above the import" + (f"; unsafe: {doubt}" if doubt else "")
        return self.finding(ctx, setting.line, message, fix, edits, title=title)


def _effect_doubt(ctx: ModuleContext, body, setting: _Setting, first_import: int) -> str:
    """Why making the setting take effect, or moving it, may change what the program
    computes or prints: a setting not known to change memory use alone, or a statement
    it jumps over that may read the environment."""
    changing = [k for k in setting.keys if k not in jax_api.MEMORY_ENV]
    if changing:
        return (
            f"once moved, `{changing[0]}` takes effect, which can change what the program "
            "computes or prints (only the allocator settings are known to change memory "
            "use alone)"
        )
    for index in range(first_import, setting.index):
        stmt = body[index]
        if type(stmt) is cst.SimpleStatementLine and _settings_in(ctx, stmt):
            continue  # another setting: moved above the import too, in the same order
        reason = semantic(ctx).env_reader(stmt)
        if reason:
            line = ctx.span(stmt).line
            return (
                f"line {line} may read the environment before the setting, and after it "
                f"once moved: it {reason}"
            )
    return ""


def _why(ctx: ModuleContext, body, setting: _Setting, first_use: int | None) -> str:
    if any(k.startswith("JAX_") for k in setting.keys):
        return "jax reads its JAX_* configuration when jax is imported, so this is ignored"
    if first_use is not None and setting.index > first_use:
        line = ctx.span(body[first_use]).line
        return (
            f"it is set after the first JAX use at line {line}, when the backend has"
            " started, so it is silently ignored"
        )
    return (
        "it is read when the backend starts, so before the first use it still works,"
        " but only until code above it touches a device"
    )


def _first_jax_use(ctx: ModuleContext, body, after: int) -> int | None:
    """The first top-level statement after the import that can start the backend:
    a call to anything but the os module, or an import of another library."""
    for index in range(after + 1, len(body)):
        stmt = body[index]
        if type(stmt) is not cst.SimpleStatementLine or _settings_in(ctx, stmt):
            continue
        for small in stmt.body:
            if type(small) in (cst.Import, cst.ImportFrom):
                continue
            for call in (n for n in walk(small) if type(n) is cst.Call):
                qual = ctx.qualify(call.func) or ""
                if not qual.startswith("os."):
                    return index
    return None


def _settings(ctx: ModuleContext, body) -> Iterator[_Setting]:
    for index, stmt in enumerate(body):
        if type(stmt) is cst.SimpleStatementLine:
            keys = _settings_in(ctx, stmt)
            if keys:
                yield _Setting(index, stmt, keys)


def _settings_in(ctx: ModuleContext, stmt: cst.SimpleStatementLine) -> tuple[str, ...]:
    keys: list[str] = []
    for small in stmt.body:
        keys.extend(_keys_set(ctx, small))
    return tuple(k for k in keys if k.startswith(jax_api.ENV_PREFIXES))


def _keys_set(ctx: ModuleContext, small: cst.BaseSmallStatement) -> list[str]:
    if type(small) is cst.Assign:
        return [k for t in small.targets if (k := _environ_key(ctx, t.target))]
    if type(small) is not cst.Expr or type(small.value) is not cst.Call:
        return []
    call = small.value
    qual = ctx.qualify(call.func)
    if qual == "os.environ.setdefault" and call.args:
        return [k] if (k := _string(call.args[0].value)) else []
    if qual == "os.environ.update":
        keys = [a.keyword.value for a in call.args if a.keyword is not None]
        for arg in call.args:
            if type(arg.value) is cst.Dict:
                keys += [
                    k
                    for e in arg.value.elements
                    if type(e) is cst.DictElement and (k := _string(e.key))
                ]
        return keys
    return []


def _environ_key(ctx: ModuleContext, target: cst.BaseExpression) -> str | None:
    if type(target) is cst.Subscript and ctx.qualify(target.value) == "os.environ":
        index = target.slice[0].slice
        if type(index) is cst.Index:
            return _string(index.value)
    return None


def _string(node: cst.BaseExpression) -> str | None:
    if type(node) is cst.SimpleString:
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _cannot_move(ctx: ModuleContext, body, setting: _Setting, first_import: int) -> str:
    if len(setting.line.body) > 1:
        return "it shares its line with other statements, so it is not moved automatically"
    defined_before = {
        n
        for s in ctx.graph.stmts
        if s.scope == "<module>" and _index_of(body, s.anchor) < first_import
        for n in s.defs
    }
    needed = {n.value for n in read_names(setting.line)} - {"os"} - defined_before
    needed -= set(dir(builtins))
    if needed:
        names = ", ".join(f"`{n}`" for n in sorted(needed))
        return f"its value uses {names}, computed after the import, so move that too"
    return ""


def _index_of(body, stmt) -> int:
    return next((i for i, s in enumerate(body) if s is stmt), len(body))


def _os_import_to_move(
    ctx: ModuleContext, body, first_import: int
) -> list[cst.SimpleStatementLine]:
    """`import os` when it comes after the jax import (it must move up too)."""
    for index, stmt in enumerate(body):
        if type(stmt) is cst.SimpleStatementLine and any(
            type(s) is cst.Import
            and any(dotted(a.name) == "os" and a.asname is None for a in s.names)
            for s in stmt.body
        ):
            return [stmt] if index > first_import and len(stmt.body) == 1 else []
    return []
