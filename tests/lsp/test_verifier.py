"""The server's `autoopt.verify` command needs jax, the `verify` extra."""

from __future__ import annotations

import sys

import pytest

from autoopt.frontends import lsp
from autoopt.frontends.extras import missing_jax
from autoopt.verify import verify_file


def test_the_verifier_is_there_with_jax() -> None:
    assert lsp._verifier() is verify_file
    assert missing_jax(lsp.VERIFY_COMMAND) is None


def test_without_jax_there_is_no_verifier(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jax", None)  # as `import jax` fails
    assert lsp._verifier() is None
    assert missing_jax(lsp.VERIFY_COMMAND) == (
        "autoopt.verify needs jax, which is not installed; install it with pip install"
        " 'autoopt[verify]' (for a GPU, also the jax build for it, e.g. pip install 'jax[cuda12]')"
    )
