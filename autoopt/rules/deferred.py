"""A fix's edits, written when first read.

Reporting a finding needs its fix's safety, never its text: `check_source` and an
editor's diagnostics read the edits of few fixes, if any. Some fixes cost as much to
write as the analysis behind them (AO103's step, scan function and guard are code
templates parsed per loop), so a rule may hand `Rule.finding` a `DeferredEdits`
instead of a list. `api.optimize_source` and `api.apply_fixes` write every fix they
apply before the analysis is released; edits first read after that (a caller of
`check_source` rendering fixes itself) come from a fresh analysis of the same tree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import overload

from autoopt.analysis.core.context import ModuleContext
from autoopt.model import Edit, Finding, Span

Findings = Callable[[ModuleContext], list[Finding]]


class DeferredEdits(Sequence[Edit]):
    """`build()`'s edits, built on first read; never empty (a rule defers only edits it
    will write), so a finding holding them is fixable without building them."""

    def __init__(self, ctx: ModuleContext, build: Callable[[], Iterable[Edit]]) -> None:
        self._ctx: ModuleContext | None = ctx
        self._build: Callable[[], Iterable[Edit]] | None = build
        self._edits: tuple[Edit, ...] | None = None
        self._origin: tuple[Findings, Span] | None = None

    def of(self, findings: Findings, span: Span) -> None:
        """Mark these as the edits of the finding at `span` among `findings(ctx)`: what
        a fresh analysis looks up once `ctx` is released."""
        self._origin = (findings, span)

    @property
    def written(self) -> bool:
        return self._edits is not None

    def resolved(self) -> tuple[Edit, ...]:
        if self._edits is None:
            assert self._ctx is not None and self._build is not None
            built = self._build() if not self._ctx.released else self._replayed(self._ctx)
            self._edits = tuple(built)
            assert self._edits, "a deferred fix wrote no edit"
            self._ctx = self._build = None
        return self._edits

    def _replayed(self, released: ModuleContext) -> tuple[Edit, ...]:
        """The same finding's edits from a fresh analysis of the released context's tree
        (the very nodes, so they apply to the tree the caller holds)."""
        assert self._origin is not None
        findings, span = self._origin
        fresh = ModuleContext(released.path, released.source, released.module)
        fresh.rules = released.rules
        try:
            found = next(f for f in findings(fresh) if f.span == span)
            return tuple(found.edits)
        finally:
            fresh.release()

    def __bool__(self) -> bool:
        return True

    def __len__(self) -> int:
        return len(self.resolved())

    @overload
    def __getitem__(self, index: int) -> Edit: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Edit, ...]: ...
    def __getitem__(self, index: int | slice) -> Edit | tuple[Edit, ...]:
        return self.resolved()[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and self.resolved() == tuple(other)

    __hash__ = None  # type: ignore[assignment]  # unhashable, as a list
