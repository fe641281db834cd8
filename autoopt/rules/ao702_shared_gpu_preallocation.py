"""AO702 shared-gpu-preallocation."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import libcst as cst

from autoopt.analysis.semantic import ModuleContext, python_api, semantic, walk
from autoopt.model import Applicability, Finding, InsertAfter, InsertBefore, RequireImport
from autoopt.rules.base import Rule

PREALLOCATE = "XLA_PYTHON_CLIENT_PREALLOCATE"
_SHARING = (PREALLOCATE, "XLA_PYTHON_CLIENT_MEM_FRACTION")
_EXECUTOR = "concurrent.futures.ProcessPoolExecutor"
_CONTEXT = "multiprocessing.get_context"
_LAUNCH_WORDS = (  # in the text of a module that may start processes
    "multiprocessing", "concurrent.futures", "subprocess", "os.system", "import ray", "from ray",
)  # fmt: skip
_LOOPS = (cst.For, cst.While, cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)


_NEW = "exec"  # a launch that starts a new interpreter, never forked


@dataclass(frozen=True)
class _Launch:
    node: cst.CSTNode | None  # None: the finding sits on the fix's anchor
    what: str
    workers: int | None  # the number of processes per GPU, when it is a constant
    method: str | None = _NEW  # multiprocessing's start method; None: the default
    where: str = "before `import jax`"
    env: tuple[tuple[str, str], ...] = ()  # settings the launcher gives the processes


class SharedGpuPreallocation(Rule):
    """
    ## What it does
    Finds programs that run JAX in several processes at once on one machine
    without a preallocation setting: `multiprocessing.Pool`/`Process`,
    `ProcessPoolExecutor`, `subprocess` or `os.system` launching a script of the
    project that imports jax, Ray tasks with a fractional `num_gpus`, and the
    outermost `conftest.py` of tests that import jax when the project's pytest
    configuration asks pytest-xdist for several workers (`-n 4`, `-n auto`). The
    fix sets `XLA_PYTHON_CLIENT_PREALLOCATE=false` with `os.environ.setdefault`
    (so that a user's own setting still wins) above the first statement that
    imports jax, or in the `conftest.py` before the tests import it; the
    processes started afterwards inherit it. Programs that set a preallocation
    setting (also in a launcher's `env=`, or pytest-env's `env` option) or
    `JAX_PLATFORMS=cpu` are left alone. A fix in `conftest.py`, like every fix in a
    test file, is applied only with `--include-tests`.

    ## Why is this bad?
    By default JAX preallocates 75% of the GPU memory when its backend starts,
    at the first operation, not at `import jax`. For one process that buys
    speed: one large allocation up front, no device allocations later, and
    less fragmentation. On a shared GPU it means the first process holds 75%
    and every other one gets what is left: a second process fails with
    out-of-memory as soon as it needs more than that (or processes race for the
    rest). With preallocation off each process takes what it uses.

    ## Fix safety
    Always **unsafe**: it trades speed for sharing. On-demand allocation costs
    allocation overhead, and a process that uses most of the memory may fail
    from fragmentation where a preallocated pool would not. Alternatives: a
    `XLA_PYTHON_CLIENT_MEM_FRACTION` per process (the message suggests about
    0.9/N when the number of workers N is a constant), which keeps
    preallocation but caps each process; or `XLA_PYTHON_CLIENT_ALLOCATOR=platform`,
    which allocates exactly what is asked and frees it at once, but is slow.
    There is **no fix** when the processes are forked after jax was imported, with
    the `fork` start method or with no start method set (the default on Linux
    before Python 3.14): that deadlocks or fails regardless of memory, and the
    message says to use `spawn` or `forkserver`.

    - the workers use JAX, directly or through the project's modules:
      `analysis/facts/jax_reach.py`
    - the tests run in several processes, and pytest-env sets nothing:
      `analysis/facts/pytest_config.py`
    - the setting goes above the first statement that imports jax, so nothing can
      start the backend first: `analysis/facts/jax_reach.py`
    - the number of workers, for the suggested fraction: `analysis/values/ints.py`
    """

    id = "AO702"
    name = "shared-gpu-preallocation"
    summary = "several JAX processes share a GPU with preallocation on"
    severity = "warning"
    goal = "memory"
    fixes = (
        "sets `XLA_PYTHON_CLIENT_PREALLOCATE=false` above `import jax`, or in the"
        " `conftest.py` of tests run by pytest-xdist"
    )

    @classmethod
    def reads_without_jax(cls, code: str, path: str) -> bool:
        """A launcher whose workers reach jax through project modules, or a conftest.py."""
        return Path(path).name == "conftest.py" or any(word in code for word in _LAUNCH_WORDS)

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        launch = next(_launches(ctx), None) if _imports_launcher(ctx) else None
        launch = launch or _xdist_workers(ctx)
        body: list[cst.BaseStatement] = list(ctx.module.body)
        if launch is None or not body or _configured(ctx, launch.env):
            return
        first_import = semantic(ctx).first_statement_reaching_jax()
        anchor = body[first_import] if first_import is not None else _first_code(body)
        node = launch.node or anchor or body[-1]
        message = f"{launch.what} run JAX in several processes with GPU preallocation on"
        if launch.method in ("fork", None) and first_import is not None:
            message += _FORKED if launch.method else _DEFAULT_FORK
            yield self.finding(ctx, node, message, Applicability.NONE)
            return
        message += (
            ": the first one takes 75% of the GPU memory and the next fail with"
            f" out-of-memory; set {PREALLOCATE}=false {launch.where}"
        )
        if launch.workers and launch.workers > 1:
            fraction = 0.9 / launch.workers
            message += (
                f", or XLA_PYTHON_CLIENT_MEM_FRACTION of about {fraction:.2f}"
                f" (0.9/{launch.workers}) per process"
            )
        message += "; unsafe: allocating on demand costs time and may fragment memory"
        lines, required = _os_import(ctx, body, anchor)
        lines.append(_line(f'os.environ.setdefault("{PREALLOCATE}", "false")'))
        title = f"Set {PREALLOCATE}=false {launch.where}"
        new = tuple(lines)
        edits = [InsertBefore(anchor, new) if anchor else InsertAfter(body[-1], new), *required]
        yield self.finding(ctx, node, message, Applicability.UNSAFE, edits, title=title)


_FORKED = (
    "; no fix: they are forked after `import jax`, which deadlocks or fails"
    " regardless of memory (use the `spawn` or `forkserver` start method)"
)
_DEFAULT_FORK = (
    "; no fix: no start method is set, and on Linux before Python 3.14 the default is"
    " `fork`: forking after `import jax` deadlocks or fails regardless of memory (start"
    ' them with `multiprocessing.get_context("spawn")` or `"forkserver"`, then set'
    f" {PREALLOCATE}=false before `import jax`)"
)


def _line(code: str) -> cst.SimpleStatementLine:
    stmt = cst.parse_statement(code)
    assert type(stmt) is cst.SimpleStatementLine
    return stmt


def _first_code(body: list[cst.BaseStatement]) -> cst.BaseStatement | None:
    """The first statement that is not the docstring, a `__future__` import or
    `import os` (None: there is none)."""
    for index, stmt in enumerate(body):
        small = stmt.body[0] if type(stmt) is cst.SimpleStatementLine else None
        if index == 0 and type(small) is cst.Expr and type(small.value) is cst.SimpleString:
            continue
        if type(small) is cst.ImportFrom and _dotted_module(small) == "__future__":
            continue
        if not _imports_os(stmt):
            return stmt
    return None


def _dotted_module(node: cst.ImportFrom) -> str:
    return cst.Module([]).code_for_node(node.module) if node.module else ""


def _os_import(
    ctx: ModuleContext, body: list[cst.BaseStatement], anchor: cst.BaseStatement | None
) -> tuple[list[cst.SimpleStatementLine], tuple[RequireImport, ...]]:
    """What makes `os` bound above the setting: nothing where it is imported above the
    anchor; where no module-level line binds it, an import placed with the others
    (`rewrite/imports.py`); else (it is imported below) `import os` just above."""
    if _os_imported_before(body, anchor):
        return [], ()
    if "os" not in ctx.imports.module_bindings:
        return [], (RequireImport("os"),)
    return [_line("import os")], ()


def _os_imported_before(body: list[cst.BaseStatement], anchor: cst.BaseStatement | None) -> bool:
    for stmt in body:
        if stmt is anchor:
            return False
        if _imports_os(stmt):
            return True
    return False


def _imports_os(stmt: cst.BaseStatement) -> bool:
    """Whether the statement is a plain `import os` (among others)."""
    return type(stmt) is cst.SimpleStatementLine and any(
        type(s) is cst.Import
        and any(a.asname is None and cst.Module([]).code_for_node(a.name) == "os" for a in s.names)
        for s in stmt.body
    )


# --- what the program already sets ---------------------------------------------------------


def _configured(ctx: ModuleContext, given: tuple[tuple[str, str], ...]) -> bool:
    """Whether the program (or its launcher, `given`) sets a preallocation setting, or
    runs JAX on the CPU only."""
    if any(_shares(key, value) for key, value in (*given, *_environment_writes(ctx))):
        return True
    for call in (n for n in walk(ctx.module) if type(n) is cst.Call):
        if ctx.qualify(call.func) == "jax.config.update" and [
            _string(a.value) for a in call.args
        ] == ["jax_platforms", "cpu"]:
            return True
    return False


def _shares(key: str, value: str | None) -> bool:
    """Whether setting `key` to `value` lets processes share a GPU (or avoids it)."""
    value = (value or "").lower()
    if key in _SHARING or (key == "XLA_PYTHON_CLIENT_ALLOCATOR" and value == "platform"):
        return True
    return key == "JAX_PLATFORMS" and value == "cpu"


def _environment_writes(ctx: ModuleContext) -> Iterator[tuple[str, str | None]]:
    for node in walk(ctx.module):
        if type(node) is cst.Assign:
            for target in node.targets:
                t = target.target
                if type(t) is cst.Subscript and ctx.qualify(t.value) == "os.environ":
                    index = t.slice[0].slice
                    if type(index) is cst.Index and (key := _string(index.value)):
                        yield key, _string(node.value)
        elif type(node) is cst.Call:
            qual = ctx.qualify(node.func)
            if qual in ("os.environ.setdefault", "os.putenv") and len(node.args) == 2:
                if key := _string(node.args[0].value):
                    yield key, _string(node.args[1].value)
            elif qual == "os.environ.update":
                yield from _dict_items(node)


def _dict_items(node: cst.CSTNode) -> Iterator[tuple[str, str | None]]:
    """Keys and values of dict displays and `dict(...)` keywords inside `node`."""
    for sub in walk(node):
        if type(sub) is cst.DictElement and (key := _string(sub.key)):
            yield key, _string(sub.value)
        elif type(sub) is cst.Arg and sub.keyword is not None:
            yield sub.keyword.value, _string(sub.value)


def _string(node: cst.BaseExpression) -> str | None:
    if type(node) is cst.SimpleString:
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


# --- the processes the program starts ------------------------------------------------------


def _launches(ctx: ModuleContext) -> Iterator[_Launch]:
    """Places that start several JAX processes at once."""
    nodes = list(walk(ctx.module))
    calls = {n: ctx.qualify(n.func) or "" for n in nodes if type(n) is cst.Call}
    looped: Callable[[], set[int]] = cache(lambda: _in_loops(nodes))
    uses_jax: Callable[[], bool] = cache(semantic(ctx).reaches_jax)  # spawn imports it again
    default = next(
        (_method(c) for c, q in calls.items() if q == "multiprocessing.set_start_method"), None
    )
    contexts = _contexts(ctx, nodes)
    processes = []
    for call, named in calls.items():
        qual, method = _launcher(ctx, call, named, contexts)
        method = method or default
        if qual in python_api.PROCESS_POOLS:
            count = _count(ctx, call, "processes" if qual != _EXECUTOR else "max_workers")
            if count != 1 and uses_jax():
                name = qual.rpartition(".")[2]
                yield _Launch(call, f"the `{name}` workers", count, method)
        elif qual == "multiprocessing.Process" and uses_jax():
            processes.append((call, id(call) in looped(), method))
        elif qual in python_api.COMMAND_CALLS and _launches_jax_script(ctx, call):
            if id(call) in looped() or uses_jax():
                yield _Launch(
                    call, "the launched script and this program", None, env=_env(ctx, call)
                )
        elif qual == "ray.remote" or (
            type(call.func) is cst.Attribute and call.func.attr.value == "options"
        ):
            share = _fraction(call)
            if share is not None and uses_jax():
                workers = round(1 / share) if (1 / share).is_integer() else None
                yield _Launch(call, f"Ray tasks with num_gpus={share:g}", workers)
    if len(processes) > 1 or any(inside for _, inside, _ in processes):
        call, _, method = processes[0]
        yield _Launch(call, "the `Process` workers", None, method)


def _xdist_workers(ctx: ModuleContext) -> _Launch | None:
    """pytest-xdist workers, when `ctx` is the outermost conftest.py of tests that import
    jax and the project's pytest configuration asks for several."""
    if not semantic(ctx).outermost_conftest():
        return None
    workers = semantic(ctx).xdist()
    if workers is None or not semantic(ctx).suite_reaches_jax():
        return None
    what = f"the pytest-xdist workers (`{workers.option}` in {workers.config.name})"
    where = "in conftest.py, before the tests import jax"
    return _Launch(None, what, workers.workers, where=where, env=workers.env)


def _imports_launcher(ctx: ModuleContext) -> bool:
    """Whether the module imports something that starts processes (a cheap first test)."""
    for qual in ctx.imports.bindings.values():
        if qual.split(".")[0] in python_api.LAUNCHER_MODULES or qual == "os.system":
            return True
    return "os" in ctx.imports.bindings.values() and "system(" in ctx.source


def _in_loops(nodes: list[cst.CSTNode]) -> set[int]:
    """The ids of the nodes inside a loop or comprehension."""
    return {id(n) for loop in nodes if isinstance(loop, _LOOPS) for n in walk(loop)}


def _contexts(ctx: ModuleContext, nodes: list[cst.CSTNode]) -> dict[str, str | None]:
    """Names bound to `multiprocessing.get_context(method)`, with the method."""
    found: dict[str, str | None] = {}
    for node in nodes:
        if type(node) is cst.Assign and len(node.targets) == 1:
            target, value = node.targets[0].target, node.value
            if (
                type(target) is cst.Name
                and type(value) is cst.Call
                and ctx.qualify(value.func) == _CONTEXT
            ):
                found[target.value] = _method(value)
    return found


def _method(call: cst.Call) -> str | None:
    return _string(call.args[0].value) if call.args else None


def _launcher(
    ctx: ModuleContext, call: cst.Call, qual: str, contexts: dict[str, str | None]
) -> tuple[str, str | None]:
    """What `call` starts and with which start method, when it names one
    (`multiprocessing.get_context("fork").Pool` -> Pool, fork)."""
    func = call.func
    if type(func) is cst.Attribute:
        inner = func.value
        if type(inner) is cst.Call and ctx.qualify(inner.func) == _CONTEXT:
            return f"multiprocessing.{func.attr.value}", _method(inner)
        if type(inner) is cst.Name and inner.value in contexts:
            return f"multiprocessing.{func.attr.value}", contexts[inner.value]
    if qual == _EXECUTOR:
        context = next(
            (a.value for a in call.args if a.keyword and a.keyword.value == "mp_context"), None
        )
        if type(context) is cst.Call and ctx.qualify(context.func) == _CONTEXT:
            return qual, _method(context)
        if type(context) is cst.Name and context.value in contexts:
            return qual, contexts[context.value]
    return qual, None


def _count(ctx: ModuleContext, call: cst.Call, keyword: str) -> int | None:
    """The number of workers when it is a literal or an integer module constant; None
    when unknown or the default."""
    for index, arg in enumerate(call.args):
        if (arg.keyword is None and index == 0) or (arg.keyword and arg.keyword.value == keyword):
            value = arg.value
            if type(value) is cst.Name:
                value = semantic(ctx).module_constant(value.value) or value
            return value.evaluated_value if type(value) is cst.Integer else None
    return None


def _fraction(call: cst.Call) -> float | None:
    """`num_gpus=0.5`: the share of a GPU each task gets, when below one."""
    for arg in call.args:
        if arg.keyword and arg.keyword.value == "num_gpus" and type(arg.value) is cst.Float:
            value = float(arg.value.value)
            return value if 0 < value < 1 else None
    return None


def _launches_jax_script(ctx: ModuleContext, call: cst.Call) -> bool:
    """Whether the command runs a Python script of the project that imports jax
    (directly or through project modules)."""
    here = Path(ctx.path)
    if here.suffix != ".py" or not here.is_file():
        return False
    for node in walk(call.args[0].value) if call.args else ():
        text = node.value if type(node) is cst.FormattedStringText else None
        text = _string(node) if type(node) is cst.SimpleString else text
        for word in (text or "").split():
            script = (here.parent / word).resolve()
            mine = script == here.resolve()
            other_script = word.endswith(".py") and script.is_file() and not mine
            if other_script and semantic(ctx).reaches_jax(script):
                return True
    return False


def _env(ctx: ModuleContext, call: cst.Call) -> tuple[tuple[str, str], ...]:
    """The string settings of the launcher's `env=` dict (also through a name assigned
    a dict)."""
    for arg in call.args:
        if arg.keyword and arg.keyword.value == "env":
            sources: list[cst.CSTNode] = [arg.value]
            if type(arg.value) is cst.Name:
                sources += [
                    n.value
                    for n in walk(ctx.module)
                    if type(n) is cst.Assign
                    and any(
                        type(t.target) is cst.Name and t.target.value == arg.value.value
                        for t in n.targets
                    )
                ]
            return tuple((k, v or "") for node in sources for k, v in _dict_items(node))
    return ()
