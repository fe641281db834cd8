"""A sample of the installed jax, libcst and networkx sources survives check and rewrite."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import roundtrip


def test_sampled_site_packages_round_trip(capsys) -> None:
    assert roundtrip.main(["jax", "libcst", "networkx", "--every", "25"]) == 0, (
        capsys.readouterr().out
    )
