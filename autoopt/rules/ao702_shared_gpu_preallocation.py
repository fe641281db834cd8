"""AO702 shared-gpu-preallocation."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import libcst as cst

from autoopt.analysis.context import ModuleContext
from autoopt.analysis.names import first_jax_import
from autoopt.analysis.walk import walk
from autoopt.model import Applicability, Finding, InsertBefore
from autoopt.rules.base import Rule
from autoopt.rules.examples import ao702_shared_gpu_preallocation as examples

PREALLOCATE = "XLA_PYTHON_CLIENT_PREALLOCATE"
_SHARING = (PREALLOCATE, "XLA_PYTHON_CLIENT_MEM_FRACTION")
_POOLS = ("multiprocessing.Pool", "multiprocessing.pool.Pool", "multiprocessing.Process")
_EXECUTOR = "concurrent.futures.ProcessPoolExecutor"
_CONTEXT = "multiprocessing.get_context"
_SUBPROCESS = (
    "subprocess.run", "subprocess.Popen", "subprocess.call", "subprocess.check_call",
    "subprocess.check_output", "os.system",
)  # fmt: skip
_LOOPS = (cst.For, cst.While, cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)


@dataclass(frozen=True)
class _Launch:
    node: cst.CSTNode
    what: str
    workers: int | None  # the number of processes per GPU, when it is a constant
    fork: bool = False


class SharedGpuPreallocation(Rule):
    """
    ## What it does
    Finds programs that run JAX in several processes at once on one machine
    (`multiprocessing.Pool`/`Process`, `ProcessPoolExecutor`, `subprocess` or
    `os.system` launching a script of the project that imports jax, Ray tasks
    with a fractional `num_gpus`) without a preallocation setting, and sets
    `XLA_PYTHON_CLIENT_PREALLOCATE=false` with `os.environ.setdefault` above the
    first `import jax`, so that a user's own setting still wins. The processes
    it starts inherit the setting.

    ## Why is this bad?
    By default JAX preallocates 75% of the GPU memory when its backend starts,
    at the first operation. That buys fewer allocations and less fragmentation
    for one process; on a shared GPU the second process finds only 25% left and
    fails with out-of-memory at start-up (or processes race for the rest). With
    preallocation off each process takes what it uses.

    ## Fix safety
    Always **unsafe**: it trades speed for sharing. On-demand allocation costs
    allocation overhead, and a process that uses most of the memory may fail
    from fragmentation where a preallocated pool would not. Alternatives: a
    `XLA_PYTHON_CLIENT_MEM_FRACTION` per process (the message suggests about
    0.9/N when the number of workers N is a constant), or
    `XLA_PYTHON_CLIENT_ALLOCATOR=platform`, which frees memory as soon as it is
    unused but is slow. The setting is read when the backend starts, not at
    import; the fix puts it above the import so that nothing can start the
    backend first. There is **no fix** when the processes are forked (start
    method `fork`) after jax was imported: that deadlocks or fails regardless
    of memory. Programs that set a preallocation setting (also in a launcher's
    `env=`) or `JAX_PLATFORMS=cpu` are left alone.
    """

    id = "AO702"
    name = "shared-gpu-preallocation"
    summary = "several JAX processes share a GPU with preallocation on"
    severity = "warning"
    goal = "memory"
    fixes = "sets `XLA_PYTHON_CLIENT_PREALLOCATE=false` above `import jax`"

    VALID = examples.VALID
    INVALID = examples.INVALID

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        if _configured(ctx):
            return
        launch = next(_launches(ctx), None)
        if launch is None:
            return
        body = list(ctx.module.body)
        first_import = first_jax_import(body)
        message = f"{launch.what} run JAX in several processes with GPU preallocation on"
        if launch.fork and first_import is not None:
            message += (
                "; no fix: they are forked after `import jax`, which deadlocks or fails"
                " regardless of memory (use the `spawn` or `forkserver` start method)"
            )
            yield self.finding(ctx, launch.node, message, Applicability.NONE)
            return
        message += (
            ": the first one takes 75% of the GPU memory and the next fail with"
            f" out-of-memory; set {PREALLOCATE}=false before `import jax`"
        )
        if launch.workers and launch.workers > 1:
            fraction = 0.9 / launch.workers
            message += (
                f", or XLA_PYTHON_CLIENT_MEM_FRACTION of about {fraction:.2f}"
                f" (0.9/{launch.workers}) per process"
            )
        message += "; unsafe: allocating on demand costs time and may fragment memory"
        anchor = body[first_import] if first_import is not None else _first_code(body)
        lines = [] if _os_imported_before(body, anchor) else [_line("import os")]
        lines.append(_line(f'os.environ.setdefault("{PREALLOCATE}", "false")'))
        title = f"Set {PREALLOCATE}=false above `import jax`"
        edits = [InsertBefore(anchor, tuple(lines))]
        yield self.finding(ctx, launch.node, message, Applicability.UNSAFE, edits, title=title)


def _line(code: str) -> cst.SimpleStatementLine:
    stmt = cst.parse_statement(code)
    assert isinstance(stmt, cst.SimpleStatementLine)
    return stmt


def _first_code(body) -> cst.BaseStatement:
    """The first statement that is not the docstring or a `__future__` import."""
    for index, stmt in enumerate(body):
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) else None
        if index == 0 and isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString):
            continue
        if isinstance(small, cst.ImportFrom) and _dotted_module(small) == "__future__":
            continue
        return stmt
    return body[-1]


def _dotted_module(node: cst.ImportFrom) -> str:
    return cst.Module([]).code_for_node(node.module) if node.module else ""


def _os_imported_before(body, anchor) -> bool:
    for stmt in body:
        if stmt is anchor:
            return False
        if isinstance(stmt, cst.SimpleStatementLine) and any(
            isinstance(s, cst.Import)
            and any(
                a.asname is None and cst.Module([]).code_for_node(a.name) == "os" for a in s.names
            )
            for s in stmt.body
        ):
            return True
    return False


# --- what the program already sets ---------------------------------------------------------


def _configured(ctx: ModuleContext) -> bool:
    """Whether the program sets a preallocation setting, or runs JAX on the CPU only."""
    for key, value in _environment_writes(ctx):
        value = (value or "").lower()
        if key in _SHARING or (key == "XLA_PYTHON_CLIENT_ALLOCATOR" and value == "platform"):
            return True
        if key == "JAX_PLATFORMS" and value == "cpu":
            return True
    for call in (n for n in walk(ctx.module) if isinstance(n, cst.Call)):
        if ctx.qualify(call.func) == "jax.config.update" and [
            _string(a.value) for a in call.args
        ] == ["jax_platforms", "cpu"]:
            return True
    return False


def _environment_writes(ctx: ModuleContext) -> Iterator[tuple[str, str | None]]:
    for node in walk(ctx.module):
        if isinstance(node, cst.Assign):
            for target in node.targets:
                t = target.target
                if isinstance(t, cst.Subscript) and ctx.qualify(t.value) == "os.environ":
                    index = t.slice[0].slice
                    if isinstance(index, cst.Index) and (key := _string(index.value)):
                        yield key, _string(node.value)
        elif isinstance(node, cst.Call):
            qual = ctx.qualify(node.func)
            if qual in ("os.environ.setdefault", "os.putenv") and len(node.args) == 2:
                if key := _string(node.args[0].value):
                    yield key, _string(node.args[1].value)
            elif qual == "os.environ.update":
                yield from _dict_items(node)


def _dict_items(node: cst.CSTNode) -> Iterator[tuple[str, str | None]]:
    """Keys and values of dict displays and `dict(...)` keywords inside `node`."""
    for sub in walk(node):
        if isinstance(sub, cst.DictElement) and (key := _string(sub.key)):
            yield key, _string(sub.value)
        elif isinstance(sub, cst.Arg) and sub.keyword is not None:
            yield sub.keyword.value, _string(sub.value)


def _string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


# --- the processes the program starts ------------------------------------------------------


def _launches(ctx: ModuleContext) -> Iterator[_Launch]:
    """Places that start several JAX processes at once."""
    in_loop = {id(n) for loop in walk(ctx.module) if isinstance(loop, _LOOPS) for n in walk(loop)}
    jax_here = any(q.split(".")[0] == "jax" for q in ctx.imports.bindings.values())
    workers_use_jax = jax_here  # spawned workers import this module again
    fork = _forks(ctx)
    contexts = _contexts(ctx)
    processes = []
    for call in (n for n in walk(ctx.module) if isinstance(n, cst.Call)):
        qual, forked = _launcher(ctx, call, contexts)
        forked = forked or fork
        if qual in ("multiprocessing.Pool", "multiprocessing.pool.Pool", _EXECUTOR):
            count = _count(call, "processes" if qual != _EXECUTOR else "max_workers")
            if workers_use_jax and count != 1:
                name = qual.rpartition(".")[2]
                yield _Launch(call, f"the `{name}` workers", count, forked)
        elif qual == "multiprocessing.Process" and workers_use_jax:
            processes.append((call, id(call) in in_loop, forked))
        elif qual in _SUBPROCESS and _launches_jax_script(ctx, call):
            if (jax_here or id(call) in in_loop) and not _env_sets(ctx, call):
                yield _Launch(call, "the launched script and this program", None)
        elif qual == "ray.remote" or (
            isinstance(call.func, cst.Attribute) and call.func.attr.value == "options"
        ):
            share = _fraction(call)
            if share is not None and jax_here:
                workers = round(1 / share) if (1 / share).is_integer() else None
                yield _Launch(call, f"Ray tasks with num_gpus={share:g}", workers)
    if len(processes) > 1 or any(looped for _, looped, _ in processes):
        call, _, forked = processes[0]
        yield _Launch(call, "the `Process` workers", None, forked)


def _contexts(ctx: ModuleContext) -> dict[str, str | None]:
    """Names bound to `multiprocessing.get_context(method)`, with the method."""
    found: dict[str, str | None] = {}
    for node in walk(ctx.module):
        if isinstance(node, cst.Assign) and len(node.targets) == 1:
            target, value = node.targets[0].target, node.value
            if (
                isinstance(target, cst.Name)
                and isinstance(value, cst.Call)
                and ctx.qualify(value.func) == _CONTEXT
            ):
                found[target.value] = _method(value)
    return found


def _method(call: cst.Call) -> str | None:
    return _string(call.args[0].value) if call.args else None


def _launcher(
    ctx: ModuleContext, call: cst.Call, contexts: dict[str, str | None]
) -> tuple[str, bool]:
    """What `call` starts (`multiprocessing.get_context("fork").Pool` -> Pool, forked)."""
    func = call.func
    if isinstance(func, cst.Attribute):
        inner = func.value
        if isinstance(inner, cst.Call) and ctx.qualify(inner.func) == _CONTEXT:
            return f"multiprocessing.{func.attr.value}", _method(inner) == "fork"
        if isinstance(inner, cst.Name) and inner.value in contexts:
            return f"multiprocessing.{func.attr.value}", contexts[inner.value] == "fork"
    qual = ctx.qualify(func) or ""
    if qual == _EXECUTOR:
        context = next(
            (a.value for a in call.args if a.keyword and a.keyword.value == "mp_context"), None
        )
        if isinstance(context, cst.Call) and ctx.qualify(context.func) == _CONTEXT:
            return qual, _method(context) == "fork"
        if isinstance(context, cst.Name) and context.value in contexts:
            return qual, contexts[context.value] == "fork"
    return qual, False


def _forks(ctx: ModuleContext) -> bool:
    """Whether the program sets the `fork` start method for all processes."""
    return any(
        isinstance(n, cst.Call)
        and ctx.qualify(n.func) == "multiprocessing.set_start_method"
        and n.args
        and _string(n.args[0].value) == "fork"
        for n in walk(ctx.module)
    )


def _count(call: cst.Call, keyword: str) -> int | None:
    """The number of workers when it is a literal; None when unknown or the default."""
    for index, arg in enumerate(call.args):
        if (arg.keyword is None and index == 0) or (arg.keyword and arg.keyword.value == keyword):
            return int(arg.value.value) if isinstance(arg.value, cst.Integer) else None
    return None


def _fraction(call: cst.Call) -> float | None:
    """`num_gpus=0.5`: the share of a GPU each task gets, when below one."""
    for arg in call.args:
        if arg.keyword and arg.keyword.value == "num_gpus" and isinstance(arg.value, cst.Float):
            value = float(arg.value.value)
            return value if 0 < value < 1 else None
    return None


def _imports_jax(ctx: ModuleContext) -> bool:
    return any(q.split(".")[0] == "jax" for q in ctx.imports.bindings.values())


def _launches_jax_script(ctx: ModuleContext, call: cst.Call) -> bool:
    """Whether the command runs a Python script of the project that imports jax."""
    here = Path(ctx.path)
    if here.suffix != ".py" or not here.is_file():
        return False
    for node in walk(call.args[0].value) if call.args else ():
        text = _string(node) if isinstance(node, cst.SimpleString) else None
        for word in (text or "").split():
            if word.endswith(".py"):
                script = (here.parent / word).resolve()
                if script.is_file() and script != here.resolve() and _file_imports_jax(script):
                    return True
    return False


def _file_imports_jax(path: Path) -> bool:
    try:
        module = cst.parse_module(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, cst.ParserSyntaxError):
        return False
    return _imports_jax(ModuleContext(str(path), module.code, module))


def _env_sets(ctx: ModuleContext, call: cst.Call) -> bool:
    """Whether the launcher's `env=` sets a preallocation setting (also through a name
    assigned a dict)."""
    for arg in call.args:
        if arg.keyword and arg.keyword.value == "env":
            sources: list[cst.CSTNode] = [arg.value]
            if isinstance(arg.value, cst.Name):
                sources += [
                    n.value
                    for n in walk(ctx.module)
                    if isinstance(n, cst.Assign)
                    and any(
                        isinstance(t.target, cst.Name) and t.target.value == arg.value.value
                        for t in n.targets
                    )
                ]
            for key, value in (item for node in sources for item in _dict_items(node)):
                if key in _SHARING or (key == "JAX_PLATFORMS" and (value or "").lower() == "cpu"):
                    return True
    return False
