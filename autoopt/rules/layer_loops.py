"""AO601's module form: layers applied in a loop in a linen or equinox module's
`__call__` (`for layer in self.layers: x = layer(x)`, `x = Block(...)(x)` in a loop of
an `@nn.compact` method), checkpointed one by one with the framework's own transform."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.exprs import is_literal
from autoopt.analysis.core.graph import Function, Loop, Stmt
from autoopt.analysis.core.names import dotted
from autoopt.analysis.facts import module_layers as layers
from autoopt.analysis.overlays import equinox as eqx_api
from autoopt.analysis.overlays import flax_linen as linen_api
from autoopt.model import Applicability, Edit, Finding, Replace
from autoopt.rewrite.jit import fresh_name
from autoopt.rewrite.spell import spell
from autoopt.rules.base import Rule

#: Why a fix of a Python loop of layers is never safe, whatever the layer.
UNROLLED = (
    "unsafe: on CPU XLA merges the recomputation of unrolled layers away (no memory "
    "change; measured on TPU: 298 -> 39 MiB compiled temp for 8 MLP layers), so keep it "
    "only where activations limit memory"
)
_NOT_FOLLOWED = "autoopt does not follow the differentiated function to `{owner}`"
#: Measured with flax 0.12: a module whose `nn.remat` layers run twice in one `init`
#: (a parent calling it twice, sharing weights) draws different initial parameters.
_SHARED = "a module called twice in one `init` draws other initial parameters under nn.remat"
NONE = Applicability.NONE


@dataclass(frozen=True)
class _Site:
    """`x = layer(x, ...)` in a loop of `owner.__call__`; `layer` is the module class of
    the layer when known, `inline` when linen builds it there (`Block(...)(x)`)."""

    owner: str
    framework: str
    fn: Function
    call: cst.Call
    loop: Loop
    layer: str | None
    inline: bool
    direct: bool  # the statement is in the loop's own body, not under an `if`
    carried: str  # the name the layer takes and gives back


def findings(rule: Rule, ctx: ModuleContext, shallow: Callable[[Loop], bool]) -> Iterator[Finding]:
    """AO601 findings for loops of layers in module classes, where the module (or the
    program it is in) differentiates; `shallow(loop)` tells a loop too short to pay."""
    grad = _differentiation(ctx)
    if grad is None:
        return
    for site in _sites(ctx):
        if not shallow(site.loop):
            yield _finding(rule, ctx, site, grad)


def _differentiation(ctx: ModuleContext) -> str | None:
    """The first reverse-mode transform of any library the module applies or decorates
    with, anywhere (a lambda's body included), as written with its line (`jax.grad` at
    line 40); None when it applies none."""
    found = [n for n in _transforms(ctx.module) if ctx.qualify(n) in overlays.REVERSE_MODE]
    if not found:
        return None
    first = min(found, key=lambda n: ctx.span(n).line)
    return f"`{dotted(first) or ctx.qualify(first)}` at line {ctx.span(first).line}"


def _transforms(module: cst.Module) -> list[cst.BaseExpression]:
    """What every call of the module calls, and every bare decorator."""

    class Collect(cst.CSTVisitor):
        def __init__(self) -> None:
            self.found: list[cst.BaseExpression] = []

        def visit_Call(self, node: cst.Call) -> None:
            self.found.append(node.func)

        def visit_Decorator(self, node: cst.Decorator) -> None:
            self.found.append(node.decorator)

    collect = Collect()
    module.visit(collect)
    return collect.found


def _sites(ctx: ModuleContext) -> Iterator[_Site]:
    for owner, framework in layers.module_classes(ctx).items():
        fn = ctx.graph.functions.get(f"{owner}.__call__")
        for stmt in ctx.graph.scope_stmts(fn.qualname) if fn else ():
            site = _site(ctx, owner, framework, fn, stmt)  # type: ignore[arg-type]
            if site is not None:
                yield site


def _site(ctx: ModuleContext, owner: str, framework: str, fn: Function, stmt: Stmt) -> _Site | None:
    node = stmt.node
    if not stmt.loops or type(node) is not cst.Assign or len(node.targets) != 1:
        return None
    loop = ctx.graph.loops[stmt.loops[-1]]
    target, call = node.targets[0].target, node.value
    if type(loop.node) is not cst.For or loop.scope != fn.qualname or type(target) is not cst.Name:
        return None
    if type(call) is not cst.Call or not _carries(call, target.value):
        return None
    func = call.func
    if type(func) is cst.Call and type(func.func) is cst.Name:
        built = layers.module_classes(ctx).get(func.func.value)
        if framework == layers.LINEN and built == layers.LINEN:
            built_here, direct = func.func.value, _direct(loop, stmt)
            return _Site(owner, framework, fn, call, loop, built_here, True, direct, target.value)
        return None
    field = _self_field(loop.node.iter)
    loop_var = loop.node.target
    if type(func) is not cst.Name or type(loop_var) is not cst.Name or field is None:
        return None
    if func.value != loop_var.value:
        return None
    layer = layers.element_class(ctx, owner, field)
    return _Site(owner, framework, fn, call, loop, layer, False, _direct(loop, stmt), target.value)


def _direct(loop: Loop, stmt: Stmt) -> bool:
    body = loop.node.body
    return type(body) is cst.IndentedBlock and any(s is stmt.anchor for s in body.body)


def _carries(call: cst.Call, name: str) -> bool:
    return any(_is_name(a.value, name) for a in call.args)


def _self_field(expr: cst.BaseExpression) -> str | None:
    """`self.layers` -> "layers"."""
    if type(expr) is cst.Attribute and type(expr.value) is cst.Name and expr.value.value == "self":
        return expr.attr.value
    return None


def _finding(rule: Rule, ctx: ModuleContext, site: _Site, grad: str) -> Finding:
    shown = f"`{site.layer}`" if site.layer else "the"
    where = (
        f"{shown} layers run one after another in a Python loop in `{site.owner}.__call__`, "
        f"in a program that differentiates ({grad}); reverse mode keeps every layer's "
        "intermediates for the backward pass"
    )
    refuted, unproven = layers.layer_problems(ctx, site.layer) if site.layer else ([], [])
    if refuted:
        return rule.finding(ctx, site.call, f"{where}, but `{site.layer}` {refuted[0]}", NONE)
    if site.layer is None:
        unproven = [f"cannot see which layers `{ctx.code(site.call.func)}` is"]
    plan = _linen_plan(ctx, site) if site.framework == layers.LINEN else _equinox_plan(ctx, site)
    if isinstance(plan, str):
        return rule.finding(ctx, site.call, f"{where}, but {plan}", NONE)
    spelled, edits = plan
    doubts = [UNROLLED, _NOT_FOLLOWED.format(owner=site.owner), *unproven, *_traced(ctx, site)]
    doubts += [_SHARED] if site.framework == layers.LINEN else []
    message = f"{where}: checkpoint each layer (`{spelled}`); {'; '.join(doubts)}"
    title = "Checkpoint each layer"
    return rule.finding(ctx, site.call, message, Applicability.UNSAFE, edits, title=title)


def _equinox_plan(ctx: ModuleContext, site: _Site) -> tuple[str, list[Edit]]:
    """`x = layer(x, ...)` -> `x = eqx.filter_checkpoint(layer)(x, ...)`: every non-array
    leaf stays static, so no argument needs naming."""
    checkpoint, imports = spell(ctx, eqx_api.REMAT)
    layer = ctx.code(site.call.func)
    wrapped = cst.parse_expression(f"{checkpoint}({layer})")
    return f"{checkpoint}({layer})", [*imports, Replace(site.call.func, lambda _n: wrapped)]


def _linen_plan(ctx: ModuleContext, site: _Site) -> tuple[str, list[Edit]] | str:
    """`x = Block(...)(x, train=train)` -> `x = nn.remat(Block, static_argnums=(2,))(...,
    name=f"Block_{i}")(x, train)`: the original parameter names, Python values static
    (by position: nn.remat names no keyword static); else why not."""
    if not site.inline:
        return (
            "a linen layer held in a field is checkpointed where it is built "
            "(`nn.remat(Block)(...)`), which autoopt does not rewrite"
        )
    inner = site.call.func
    assert type(inner) is cst.Call and site.layer is not None
    naming = _naming(ctx, site, inner)
    if isinstance(naming, str):
        return naming
    name_arg, index_edits = naming
    args = _static_args(ctx, site)
    if isinstance(args, str):
        return args
    outer_args, static = args
    remat, imports = spell(ctx, linen_api.REMAT)
    option = f", static_argnums=({', '.join(map(str, static))},)" if static else ""
    spelled = f"{remat}({site.layer}{option})"
    func = inner.with_changes(func=cst.parse_expression(spelled), args=[*inner.args, *name_arg])
    new_call = site.call.with_changes(func=func, args=outer_args)
    edits: list[Edit] = [*imports, *index_edits]
    edits.append(Replace(site.call, lambda _n: new_call))
    return spelled, edits


def _naming(
    ctx: ModuleContext, site: _Site, inner: cst.Call
) -> tuple[list[cst.Arg], list[Edit]] | str:
    """The `name=` that keeps linen's automatic name (`Block_0`, `Block_1`, ...) under
    nn.remat (which would name it `CheckpointBlock_0`), and the edit naming an unused
    loop variable `_`; or why it cannot be written."""
    if any(a.keyword is not None and a.keyword.value == "name" for a in inner.args):
        return [], []
    layer = site.layer or ""
    why = (
        f"nn.remat would rename the parameters of `{layer}` "
        f"(`{linen_api.REMAT_PREFIX}{layer}_0`), and autoopt cannot write their names here"
    )
    loop = site.loop.node
    assert type(loop) is cst.For
    it, var = loop.iter, loop.target
    counted = type(it) is cst.Call and dotted(it.func) == "range" and len(it.args) == 1
    once = _built(ctx, site.fn, layer) == 1 and not site.loop.loops and site.direct
    if not counted or type(var) is not cst.Name or not once:
        return why
    body = [s for s in ctx.graph.stmts if site.loop.id in s.loops]
    if any(var.value in s.defs for s in body):
        return why
    if var.value != "_":
        return [_name_arg(layer, var.value)], []
    if any("_" in s.uses for s in ctx.graph.scope_stmts(site.fn.qualname)):
        return why
    index = fresh_name(ctx, "layer_index")
    return [_name_arg(layer, index)], [Replace(var, lambda _n: cst.Name(index))]


def _name_arg(layer: str, index: str) -> cst.Arg:
    value = cst.parse_expression(f'f"{layer}_{{{index}}}"')
    return cst.Arg(value=value, keyword=cst.Name("name"), equal=cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")
    ))  # fmt: skip


def _built(ctx: ModuleContext, fn: Function, layer: str) -> int:
    """How many calls in `fn` build `layer` (linen numbers its names per class)."""
    return sum(dotted(c.func) == layer for s in ctx.graph.scope_stmts(fn.qualname) for c in s.calls)


def _static_args(ctx: ModuleContext, site: _Site) -> tuple[list[cst.Arg], list[int]] | str:
    """The outer call's arguments with every Python value passed by position, and their
    `static_argnums` (counting `self`); or why they cannot be."""
    call = site.call
    if any(a.star for a in call.args):
        return "the layer is called with `*args` or `**kwargs`"
    layer_fn = ctx.graph.functions.get(f"{site.layer}.__call__")
    if layer_fn is None:
        return f"`{site.layer}` has no `__call__` autoopt can read"
    params = layer_fn.positional
    positional = [a for a in call.args if a.keyword is None]
    keywords = [a for a in call.args if a.keyword is not None]
    while len(positional) + 1 < len(params):
        following = params[len(positional) + 1]
        moved = next((a for a in keywords if _keyword(a) == following), None)
        if moved is None or not _python_value(site.fn, moved.value):
            break
        keywords.remove(moved)
        positional.append(moved.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT))
    if any(_python_value(site.fn, a.value) for a in keywords):
        return f"a Python value is passed to `{site.layer}` by keyword, which nn.remat traces"
    static = [i + 1 for i, a in enumerate(positional) if _python_value(site.fn, a.value)]
    return [*positional, *keywords], static


def _traced(ctx: ModuleContext, site: _Site) -> list[str]:
    """For linen, the arguments besides the carried value that nn.remat traces and that
    autoopt does not prove arrays (a Python flag there fails at trace time)."""
    if site.framework != layers.LINEN:
        return []
    return [
        f"nn.remat traces `{ctx.code(a.value)}`, not proven an array"
        for a in site.call.args
        if not _python_value(site.fn, a.value) and not _is_name(a.value, site.carried)
    ]


def _is_name(expr: cst.BaseExpression, name: str) -> bool:
    return type(expr) is cst.Name and expr.value == name


def _keyword(arg: cst.Arg) -> str | None:
    return arg.keyword.value if arg.keyword is not None else None


def _python_value(fn: Function, expr: cst.BaseExpression) -> bool:
    """A literal, or a parameter of `fn` whose default is one (`train=True`): a Python
    value the layer may branch on, which nn.remat must keep static."""
    if is_literal(expr):
        return True
    if type(expr) is not cst.Name:
        return False
    params = [*fn.node.params.params, *fn.node.params.kwonly_params]
    found = next((p for p in params if p.name.value == expr.value), None)
    return found is not None and found.default is not None and is_literal(found.default)
