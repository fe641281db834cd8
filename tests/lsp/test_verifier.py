"""The server's `autoopt.verify` command needs jax, the `verify` extra."""

from __future__ import annotations

import sys

import pytest

from autoopt.frontends import lsp
from autoopt.verify import verify_file


def test_the_verifier_is_there_with_jax() -> None:
    assert lsp._verifier() is verify_file


def test_without_jax_there_is_no_verifier(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jax", None)  # as `import jax` fails
    assert lsp._verifier() is None
