"""The query surface: the questions rules ask of a module's analysis, in one place.

`semantic(ctx)` gives a `Semantic`, whose methods are grouped by topic (values,
execution and jit, donation, functions, loops, environment) and each delegate to the
one authority that proves the fact (`values/`, `facts/`, `core/`), memoised there as
before (`ctx.per_module`, `ctx.per_function`). This module also re-exports the
vocabulary the questions and answers are written in (the dataflow graph's `Stmt`,
`Loop`, `Function`, the syntax helpers `walk` and `read_names`, the answers' types),
so that a rule reads the analysis through this module and, for its rewrite forms,
`analysis/plans/`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core import execution, jitted
from autoopt.analysis.core.blocks import Blocks
from autoopt.analysis.core.context import ModuleContext, module_blocks
from autoopt.analysis.core.exprs import bound_names, calls_in, read_names
from autoopt.analysis.core.graph import MODULE, CallSite, Function, Loop, Stmt
from autoopt.analysis.core.jitted import Jitted
from autoopt.analysis.core.jitted_methods import name_escape
from autoopt.analysis.core.names import dotted, first_jax_import
from autoopt.analysis.core.walk import walk
from autoopt.analysis.facts import (
    call_donation,
    donation,
    effects,
    environment,
    held_globals,
    invariance,
    jax_reach,
    jit_plan,
    loop_vars,
    mutation,
    nnx_modules,
    purity,
    pytest_config,
    summaries,
    tiny,
    tracing,
)
from autoopt.analysis.facts.call_donation import May, Verdict
from autoopt.analysis.facts.donation import Donation, weakest
from autoopt.analysis.facts.donation import Target as DonationTarget
from autoopt.analysis.facts.jit_plan import JitPlan
from autoopt.analysis.facts.pytest_config import Xdist
from autoopt.analysis.facts.tracing import TraceFacts
from autoopt.analysis.overlays import jax as jax_api
from autoopt.analysis.overlays import python as python_api
from autoopt.analysis.values import arrays, ints
from autoopt.analysis.values.lattice import Kind, Value
from autoopt.analysis.values.model import model
from autoopt.analysis.values.placement import Place, Placement
from autoopt.analysis.values.shapes import int_literal
from autoopt.model import RequireImport

__all__ = [
    "MODULE",
    "Blocks",
    "CallSite",
    "Donation",
    "DonationTarget",
    "Function",
    "JitPlan",
    "Jitted",
    "Kind",
    "Loop",
    "May",
    "ModuleContext",
    "Place",
    "Placement",
    "Semantic",
    "Stmt",
    "TraceFacts",
    "Value",
    "Verdict",
    "Xdist",
    "bound_names",
    "calls_in",
    "dotted",
    "first_jax_import",
    "int_literal",
    "jax_api",
    "overlays",
    "python_api",
    "read_names",
    "semantic",
    "walk",
    "weakest",
]


def semantic(ctx: ModuleContext) -> Semantic:
    """The query surface of `ctx` (cheap: the answers are memoised by `ctx`)."""
    return Semantic(ctx)


class Semantic:
    """What the analysis knows about one module, asked as questions."""

    __slots__ = ("ctx",)

    def __init__(self, ctx: ModuleContext) -> None:
        self.ctx = ctx

    # -- values -------------------------------------------------------------------------
    def value_of(self, stmt: Stmt, expr: cst.BaseExpression) -> Value:
        """The abstract value of `expr` where `stmt` evaluates it (`values/model.py`)."""
        return model(self.ctx).value_of(stmt, expr)

    def placement(self) -> Placement:
        """Where values live, host or device (`values/placement.py`)."""
        return Placement(self.ctx)

    def is_int(self, stmt: Stmt, expr: cst.BaseExpression) -> bool:
        """Whether `expr` is a Python integer at `stmt` (`values/ints.py`)."""
        return ints.is_int(self.ctx, stmt, expr)

    def module_constant(self, name: str) -> cst.BaseExpression | None:
        """The literal a module-level name is bound to once, if nothing rebinds it."""
        return ints.module_constant(self.ctx, name)

    def returns_one_array(self, fn: Function, known: frozenset[str]) -> bool:
        """Whether every `return` of `fn` gives one array, `known` parameters being
        arrays (`values/arrays.py`)."""
        return arrays.returns_one_array(self.ctx, fn, known)

    # -- execution and jit --------------------------------------------------------------
    def jitted_callables(self) -> list[Jitted]:
        """The module's jitted functions and wrappers (`core/jitted.py`)."""
        return jitted.jitted_callables(self.ctx)

    def escapes(self, name: str) -> str | None:
        """How `name` reaches code autoopt cannot see, or None (`core/jitted.py`; a
        jitted method called through its instance: `core/jitted_methods.py`)."""
        return name_escape(self.ctx, name)

    def jit_plans(self) -> list[JitPlan]:
        """AO101's plan for every function it may jit (`facts/jit_plan.py`)."""
        return jit_plan.plans(self.ctx)

    def eager_loop_sites(self, fn: Function) -> list[CallSite]:
        """The calls of `fn` from eager loops (`facts/jit_plan.py`)."""
        return jit_plan.eager_loop_sites(self.ctx, fn)

    def jit_plan(self, fn: Function, sites: list[CallSite]) -> JitPlan:
        """How to jit `fn`, judged at `sites` (`facts/jit_plan.py`)."""
        return jit_plan.jit_plan(self.ctx, fn, sites)

    def nnx_jit_spelling(self, name: str = "jit") -> tuple[str, tuple[RequireImport, ...]]:
        """`nnx.jit` (or `nnx.<name>`) as this module spells it, and the import it needs
        (`facts/nnx_modules.py`)."""
        return nnx_modules.jit_spelling(self.ctx, name)

    def module_update(self, stmt: Stmt) -> str | None:
        """The call of `stmt` that changes an nnx module in place, as written, or None
        (`facts/nnx_modules.py`)."""
        return nnx_modules.module_update(self.ctx, stmt)

    def written_back(self, stmt: Stmt) -> str | None:
        """The call of `stmt` to an `nnx.jit` function of the module given a proven nnx
        object, which it changes in place, as written, or None (`facts/nnx_modules.py`)."""
        return nnx_modules.written_back(self.ctx, stmt)

    def layer_globals(self) -> list[str]:
        """The module globals some module-level statement binds to a linen layer the
        overlay lists (`facts/held_globals.py`)."""
        return held_globals.layer_globals(self.ctx)

    def why_not_held(self, loop: Loop, name: str) -> str | None:
        """Why the global `name` is not proven to hold one listed linen layer while `loop`
        runs ("" when it is; None: no statement binds it to one)."""
        return held_globals.why_not_held(self.ctx, loop, name)

    def runs_eagerly(self, scope: str) -> bool:
        """Whether code in `scope` provably runs eagerly (`core/execution.py`)."""
        return execution.runs_eagerly(self.ctx, scope)

    def unproven_callers(self, scope: str) -> list[str]:
        """The callers of the function `scope`, where it has some and none provably runs
        eagerly (`core/execution.py`)."""
        return execution.unproven_callers(self.ctx, scope)

    # -- donation -----------------------------------------------------------------------
    def donation_targets(self) -> Iterator[DonationTarget]:
        """The jitted functions (and AO101's plans) that may donate (`facts/donation.py`)."""
        return donation.targets(self.ctx)

    def donation_verdicts(self, target: DonationTarget) -> tuple[list[Donation], list[str]]:
        """The inputs of `target` that may be donated, and why the others may not."""
        return donation.verdicts(self.ctx, target)

    def donate_mode(
        self, target: DonationTarget, donate: list[Donation]
    ) -> tuple[str | None, list[Donation], str]:
        """The `donate=` mode an `eqx.filter_jit` target may take, the donations it makes,
        and else what blocks it (`facts/donation.py`)."""
        return donation.donate_mode(self.ctx, target, donate)

    def kept_arguments(
        self, target: DonationTarget, donate: list[Donation]
    ) -> tuple[list[str], list[Donation]]:
        """Where no mode fits an `eqx.filter_jit` target: the arguments to keep from
        donation and the donations of the others (`facts/donation.py`)."""
        return donation.kept_arguments(self.ctx, target, donate)

    def all_tiny(self, fn: Function, params: list[str]) -> bool:
        """Every call of the jitted `fn` passes each of `params` a value whose every array
        leaf is proven 0-d or a PRNG key (`facts/tiny.py`): donating them saves nothing."""
        return tiny.all_tiny(self.ctx, fn, params)

    def call_donation(self, stmt: Stmt, call: cst.Call) -> Verdict:
        """Whether `call` may donate an argument it is given: proven no, yes or unknown,
        with the premise (`facts/call_donation.py`)."""
        return call_donation.call_donation(self.ctx, stmt, call)

    def passed_on(
        self, stmt: Stmt, expr: cst.BaseExpression, after: Loop | None = None
    ) -> tuple[Verdict, cst.Call | None]:
        """Whether a call may donate the value of `expr` at `stmt`, followed through the
        names and calls it goes into (from the loop `after` on: `facts/call_donation.py`)."""
        return call_donation.passed_on(self.ctx, stmt, expr, after)

    def safe_donations(self, name: str) -> list[str]:
        """The inputs of the jitted function `name` proven safe to donate."""
        return donation.safe_donations(self.ctx, name)

    # -- functions ----------------------------------------------------------------------
    def handoffs_of(self, fn: Function, params: set[str]) -> list[str]:
        """Where tracing only `params` of `fn` hands a traced value to the host, through
        its callees (`facts/summaries.py`)."""
        return summaries.handoffs_of(self.ctx, fn, params)

    def impurities(self, fn: Function) -> list[str]:
        """Why `fn` is not pure, one reason each; empty when pure (`facts/purity.py`)."""
        return purity.impurities(self.ctx, fn)

    @staticmethod
    def unproven(reason: str) -> bool:
        """Whether an impurity (or a problem quoting one) is a call autoopt cannot see
        into: a premise unproven rather than one that fails (`facts/purity.py`)."""
        return purity.unseen(reason)

    def array_function(self, fn: Function) -> bool:
        """Whether `fn` computes on arrays: a JAX call, an `.at[]` update, an array
        result, a callee that does (`facts/summaries.py`)."""
        return summaries.summary(self.ctx, fn).array_function

    def traced_effects(self, fn: Function) -> list[str]:
        """The host effects `fn` performs each time its traced computation runs
        (`jax.debug.print`, callbacks), through callees; empty when it has none
        (`facts/effects.py`)."""
        return effects.traced_effects(self.ctx, fn)

    def trace_facts(self, fn: Function) -> TraceFacts:
        """Whether `fn` can be traced: Python control flow on traced values, arguments
        that must be static (`facts/tracing.py`)."""
        return tracing.analyse(self.ctx, fn)

    # -- loops --------------------------------------------------------------------------
    def variant_reason(self, loop: Loop, names: set[str]) -> str | None:
        """Why `names` may change from one iteration of `loop` to the next, or None when
        they stay the same (`facts/invariance.py`)."""
        return invariance.variant_reason(self.ctx, loop, names)

    def change_reason(self, loop: Loop, names: set[str]) -> str | None:
        """Why an object `names` hold may change in place while `loop` runs, or None
        (`facts/mutation.py`, the authority on host values changing)."""
        return mutation.change_reason(self.ctx, loop, names)

    def kept_objects(self, stmt: Stmt, expr: cst.BaseExpression) -> set[str]:
        """The names whose changeable objects the value of `expr` may be or hold
        (`facts/mutation.py`)."""
        return mutation.kept_objects(self.ctx, stmt, expr)

    def config_writer(self, loop: Loop) -> str | None:
        """A call the loop runs that changes JAX's configuration, or None
        (`facts/mutation.py`)."""
        return mutation.config_writer(self.ctx, loop)

    def late_reader(self, loop: Loop, name: str) -> str | None:
        """Code other than the loop's statements that may read `name` while `loop` runs:
        a function reading it as a free variable, a lambda, introspection
        (`facts/mutation.py`)."""
        return mutation.late_reader(self.ctx, loop, name)

    def only_writer(self, loop: Loop, name: str, stmt: Stmt) -> bool:
        """Whether `stmt` is the one statement of `loop` that binds or mutates `name`
        (`facts/loop_vars.py`, as the loop questions below)."""
        return loop_vars.only_writer(self.ctx, loop, name, stmt)

    def other_readers(self, loop: Loop, name: str, stmt: Stmt) -> list[Stmt]:
        """The statements of `loop` other than `stmt` that read `name`."""
        return loop_vars.other_readers(self.ctx, loop, name, stmt)

    def entry_def(self, loop: Loop, name: str, stmt: Stmt) -> Stmt | None:
        """The one other definition of `name` reaching `stmt`, when it runs before `loop`."""
        return loop_vars.entry_def(self.ctx, loop, name, stmt)

    def rebinds_outside(self, scope: str, name: str) -> bool:
        """Whether `name` is declared `global`/`nonlocal` in `scope`."""
        return loop_vars.rebinds_outside(self.ctx, scope, name)

    def function_reading(self, scope: str, name: str) -> str | None:
        """A function other than `scope` that reads `name` as a free variable, if any."""
        return loop_vars.function_reading(self.ctx, scope, name)

    def reads_only_shape(self, stmt: Stmt, name: str) -> bool:
        """Whether `stmt` reads only `len(name)` or `name.shape` (`.ndim`, `.dtype`, `.size`)."""
        return loop_vars.reads_only_shape(self.ctx, stmt, name)

    def blocks(self) -> Blocks:
        """The module's statement blocks (`core/blocks.py`)."""
        return self.ctx.per_module(module_blocks)

    # -- environment --------------------------------------------------------------------
    def env_reader(self, stmt: cst.BaseStatement) -> str | None:
        """Why the top-level statement `stmt` may read the process environment, or None
        when it provably does not (`facts/environment.py`)."""
        return environment.env_reader(self.ctx, stmt)

    def reaches_jax(self, path: str | Path | None = None) -> bool:
        """Whether the module (or the file `path`) imports jax, also through the
        project's own modules (`facts/jax_reach.py`)."""
        return jax_reach.reaches_jax(self.ctx, path)

    def first_statement_reaching_jax(self) -> int | None:
        """The index of the first top-level statement that imports jax, if any."""
        return jax_reach.first_statement_reaching_jax(self.ctx)

    def outermost_conftest(self) -> bool:
        """Whether the module is the outermost `conftest.py` of its test suite."""
        return pytest_config.outermost_conftest(self.ctx)

    def suite_reaches_jax(self) -> bool:
        """Whether the module or a test file in its folder imports jax."""
        return pytest_config.suite_reaches_jax(self.ctx)

    def xdist(self) -> Xdist | None:
        """The pytest-xdist workers the configuration above the file starts, if several
        (`facts/pytest_config.py`)."""
        return pytest_config.xdist(self.ctx)
