"""Verification rejects rewrites of programs whose results hang on exact rounding.

Blind round 8's programs in tests/hazards/rounding/ take a sign, a bin, a tie or a
cancellation from the last bits of a float computation that XLA rounds differently
(fused multiply-add, reduction order) once compiled. No rule can prove a float
computation well conditioned, so the default rewrite compiles them; `verify` compares
every leaf and must reject each rewrite (tests/hazards/rounding/README.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from autoopt.verify import Verdict, verify_file

ROUNDING = Path(__file__).parents[1] / "hazards" / "rounding"

ONE_PER_MECHANISM = [
    "h1860_ao101_collinear_waypoints_fma",  # the sign of `u * v - u * v`
    "h1864_ao101_one_pass_variance_pressure",  # `E[x^2] - E[x]^2` cancels
    "h1878_ao103_kmeans_symmetric_ties_fma",  # an exact tie under `argmin`
]


@pytest.mark.parametrize("name", ONE_PER_MECHANISM)
def test_a_program_whose_result_hangs_on_rounding_is_not_equivalent(program, fast, name) -> None:
    source = (ROUNDING / f"{name}.py").read_text()
    report = verify_file(program(source), options=fast)
    assert report.rows and all(row.verdict is Verdict.NOT_EQUIVALENT for row in report.rows)
    assert report.accepted_source == source
