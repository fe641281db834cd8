"""The rule framework: one small class per rule, with its examples next to it.

A rule reads a `ModuleContext` and yields `Finding`s; it never mutates the tree.
Its docstring is its documentation (What it does / Why is this bad? / Fix
safety, the last naming the analysis modules that prove each premise); `doc()`
adds the `## Example` section, generated from the one INVALID case flagged
`doc=True`, and is shown by `autoopt explain` and rendered to docs/rules/
(`autoopt/report/rule_docs.py` checks the sections). Its examples live in
`autoopt/rules/examples/<module>.py` (or a package of that name), read when
`VALID` or `INVALID` is first asked for (checking code needs neither): `VALID`
cases must produce no finding of the rule; `INVALID` cases must produce one,
with the given fix applicability and, where the fix applies, exactly the
`expected` code. tests/test_rule_examples.py runs them all.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Generic, Literal, TypeVar

import libcst as cst

from autoopt.analysis.core.context import ModuleContext
from autoopt.model import Applicability, Edit, Finding
from autoopt.rules.deferred import DeferredEdits

Severity = Literal["warning", "information"]  # how an editor shows the finding
Goal = Literal["speed", "memory"]  # what verification measures the rewrite by


@dataclass(frozen=True)
class Valid:
    """Code on which the rule must not fire at all."""

    code: str
    why: str = ""
    #: Other files of the project around the case (relative path -> text): the case is
    #: then the file `path` among them, written out and analysed where it lies.
    files: Mapping[str, str] = field(default_factory=dict)
    path: str = "main.py"


@dataclass(frozen=True)
class Invalid:
    """Code on which the rule fires: `expected` is the rewrite (None: unchanged)."""

    code: str
    expected: str | None = None
    fix: Applicability = Applicability.SAFE
    message: str = ""  # a fragment the finding's message must contain
    doc: bool = False  # the one case the rule's documentation shows as its example
    files: Mapping[str, str] = field(default_factory=dict)  # as in `Valid`
    path: str = "main.py"


Case = TypeVar("Case")


class Cases(Generic[Case]):
    """A rule's VALID or INVALID cases, from `autoopt.rules.examples.<the rule's module>`
    (none where there is no such module), loaded on first use."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __get__(self, instance: object, owner: type) -> Sequence[Case]:
        module = f"autoopt.rules.examples.{owner.__module__.rpartition('.')[2]}"
        if importlib.util.find_spec(module) is None:
            return ()
        return getattr(importlib.import_module(module), self.kind, ())


class Rule:
    """Base class; subclasses set the class variables and implement `check`."""

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    fixes: ClassVar[str]  # what the fix does: the README's rules table
    #: "warning" where the code behaves other than its author meant (a setting that is
    #: ignored, a compile or a host sync every iteration); a missed speedup informs.
    severity: ClassVar[Severity] = "information"
    goal: ClassVar[Goal] = "speed"  # "memory": kept for the memory it saves
    VALID: Cases[Valid] | Sequence[Valid] = Cases[Valid]("VALID")
    INVALID: Cases[Invalid] | Sequence[Invalid] = Cases[Invalid]("INVALID")

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        raise NotImplementedError

    @classmethod
    def reads_without_jax(cls, code: str, path: str) -> bool:
        """Whether a module that imports no jax itself may still hold a finding (a cheap
        test of the text); the pipeline skips such modules for every other rule."""
        return False

    @classmethod
    def findings(cls, ctx: ModuleContext) -> list[Finding]:
        """This rule's findings for the module, computed once (other rules may ask)."""
        return ctx.per_module(cls._all_findings)

    @classmethod
    def _all_findings(cls, ctx: ModuleContext) -> list[Finding]:
        return list(cls().check(ctx))

    def finding(
        self,
        ctx: ModuleContext,
        node: cst.CSTNode,
        message: str,
        fix: Applicability,
        edits: Sequence[Edit] = (),
        *,
        target: str | None = None,
        title: str = "",
    ) -> Finding:
        if not edits:
            fix = Applicability.NONE
        span = ctx.span(node)
        if isinstance(edits, DeferredEdits):
            edits.of(type(self).findings, span)
        else:
            edits = tuple(edits)
        return Finding(
            rule=self.id,
            name=self.name,
            message=message,
            span=span,
            fix=fix,
            edits=edits,
            target=target,
            title=title,
            path=ctx.path,
        )

    @classmethod
    def example(cls) -> Invalid:
        """The INVALID case flagged `doc=True` (exactly one per rule)."""
        (case,) = [case for case in cls.INVALID if case.doc]
        return case

    @classmethod
    def doc(cls) -> str:
        """The rule's documentation: its docstring, with the generated `## Example`."""
        text = inspect.cleandoc(cls.__doc__ or "")
        head, fix_safety, tail = text.partition(_FIX_SAFETY)
        return f"{head}{example_section(cls.example())}\n\n{fix_safety}{tail}"


_FIX_SAFETY = "## Fix safety"


def example_section(case: Invalid) -> str:
    """`## Example`: the case's code and its rewrite, as two code blocks."""
    after = case.expected if case.expected is not None else case.code
    return (
        f"## Example\n```python\n{case.code.strip()}\n```\nbecomes\n```python\n{after.strip()}\n```"
    )
