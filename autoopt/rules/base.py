"""The rule framework: one small class per rule, with its examples next to it.

A rule reads a `ModuleContext` and yields `Finding`s; it never mutates the tree.
Its docstring is its documentation (What it does / Why is this bad? / Example /
Fix safety), shown by `autoopt explain` and rendered to docs/rules/. Its
`VALID` examples must produce no finding of the rule; its `INVALID` examples
must produce one, with the given fix applicability and, where the fix applies,
exactly the `expected` code. tests/test_rule_examples.py runs them all.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import ClassVar

import libcst as cst

from autoopt.analysis.context import ModuleContext
from autoopt.model import Applicability, Edit, Finding


@dataclass(frozen=True)
class Valid:
    """Code on which the rule must not fire at all."""

    code: str
    why: str = ""


@dataclass(frozen=True)
class Invalid:
    """Code on which the rule fires: `expected` is the rewrite (None: unchanged)."""

    code: str
    expected: str | None = None
    fix: Applicability = Applicability.SAFE
    message: str = ""  # a fragment the finding's message must contain


class Rule:
    """Base class; subclasses set the class variables and implement `check`."""

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    VALID: ClassVar[Sequence[Valid]] = ()
    INVALID: ClassVar[Sequence[Invalid]] = ()

    def check(self, ctx: ModuleContext) -> Iterator[Finding]:
        raise NotImplementedError

    @classmethod
    def findings(cls, ctx: ModuleContext) -> list[Finding]:
        """This rule's findings for the module, computed once (other rules may ask)."""
        return ctx.memo(cls.id, lambda: list(cls().check(ctx)))

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
        return Finding(
            rule=self.id,
            name=self.name,
            message=message,
            span=ctx.span(node),
            fix=fix,
            edits=tuple(edits),
            target=target,
            title=title,
            path=ctx.path,
        )

    @classmethod
    def doc(cls) -> str:
        """The rule's documentation, from its docstring."""
        return inspect.cleandoc(cls.__doc__ or "")
