"""The absl overlay, checked against the installed absl-py."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import pytest
from absl import app

from autoopt.analysis.overlays import absl as absl_api
from tests.analysis.overlays import resolve


def test_app_run_calls_its_function_once_eagerly_with_the_arguments() -> None:
    """`RUNS_EAGERLY`: `app.run(main)` calls `main(argv)` from Python (concrete arrays,
    not tracers), once, then exits."""
    assert [n for n in sorted(absl_api.RUNS_EAGERLY) if not resolve(n)] == []
    seen = []

    def main(argv):
        x = jnp.ones(3) * 2
        seen.append((list(argv), isinstance(x, jax.core.Tracer), float(x.sum())))

    with pytest.raises(SystemExit):
        app.run(main, argv=["prog"])
    assert seen == [(["prog"], False, 6.0)]
