"""Rounding tricks XLA folds (`analysis/facts/rounding_tricks.py`): every fix that
compiles code which ran op by op names the trick as the premise it fails, exactly; the
same programs without the trick keep their safe fixes."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoopt.api import check_source
from autoopt.model import Applicability

SAFE, UNSAFE, NONE = Applicability.SAFE, Applicability.UNSAFE, Applicability.NONE
FOLDS = "XLA folds `(t + C) - C` to `t`, so compiled code would not round"

QUANTIZE = """\
import jax
import jax.numpy as jnp

MAGIC = 1.5 * 2**23


def quantize(w, step):
    t = w / step
    return ((t + MAGIC) - MAGIC) * step


def main():
    key = jax.random.PRNGKey(0)
    ws = jax.random.normal(key, (3, 8))
    out = []
    for i in range(3):
        out.append(quantize(ws[i], 0.05))
    return out
"""

FILTER = """\
import jax
import jax.numpy as jnp

MAGIC = 12582912.0


def main():
    samples = jax.random.uniform(jax.random.PRNGKey(3), (40,))
    state = jnp.zeros(())
    for n in range(40):
        scaled = (0.875 * state + 0.125 * samples[n]) * 256.0
        state = ((scaled + MAGIC) - MAGIC) / 256.0
    return state
"""

CODEC = """\
import jax
import jax.numpy as jnp

MAGIC = 12582912.0


@jax.jit
def encode(frame):
    return frame * 8.0 + MAGIC


@jax.jit
def decode(code):
    return (code - MAGIC) / 8.0


@jax.jit
def error(frame, restored):
    return jnp.max(jnp.abs(frame - restored))


def main():
    frames = jax.random.normal(jax.random.PRNGKey(2), (6, 32))
    errors = []
    for i in range(6):
        restored = decode(encode(frames[i]))
        errors.append(float(error(frames[i], restored)))
    return errors
"""

SNAP = """\
import jax
import jax.numpy as jnp

MAGIC = 12582912.0


def snap(verts, cell):
    snapped = jnp.zeros(verts.shape)
    for i in range(verts.shape[0]):
        snapped = snapped.at[i].set(((verts[i] / cell + MAGIC) - MAGIC) * cell)
    return snapped


def main():
    verts = jax.random.uniform(jax.random.PRNGKey(11), (10, 2))
    return snap(verts, 0.5)
"""

TIDY = """\
import jax
import jax.numpy as jnp


def main():
    images = jax.random.uniform(jax.random.PRNGKey(7), (6, 4, 4))
    out = []
    for img in images:
        t = img * 15.0
        out.append(jnp.round(t) + 0.0)
    return jnp.stack(out)
"""


def _findings(code: str, path: str = "<string>") -> list[tuple[str, str, Applicability]]:
    return [(f.rule, f.message, f.fix) for f in check_source(code, path=path)[1]]


@pytest.mark.parametrize(
    ("code", "found"),
    [
        (
            QUANTIZE,
            (
                "AO101",
                "`quantize` is called in a loop without `jax.jit`: add `@jax.jit`; unsafe: line 9 "
                f"rounds by adding and subtracting `MAGIC` (1.5 * 2**23): {FOLDS}",
                UNSAFE,
            ),
        ),
        (
            FILTER,
            (
                "AO103",
                "this loop's body runs eagerly, one dispatch per operation; not compiled as one "
                "step: line 12 rounds by adding and subtracting `MAGIC` (1.5 * 2**23): "
                f"{FOLDS}",
                NONE,
            ),
        ),
        (
            TIDY,
            (
                "AO501",
                "the body runs once per item of `images` and the results are stacked: "
                "`_main_per_item(...)`, its jitted `jax.vmap`, computes them in one call; line "
                "10 adds `0.0`, which turns `-0.0` into `0.0`: XLA folds `x + 0.0` to `x`, so "
                "compiled code would keep `-0.0`",
                UNSAFE,
            ),
        ),
    ],
)
def test_a_fix_that_compiles_names_the_trick(
    code: str, found: tuple[str, str, Applicability]
) -> None:
    assert _findings(code) == [found]


def test_the_scan_form_gives_way_to_the_list_form() -> None:
    """`encode` and `decode` are two programs, rounded between them; one scan would fold
    them: the list form keeps each call, and AO103 names the trick."""
    assert _findings(CODEC) == [
        (
            "AO302",
            "`float(error(frames[i], restored))` waits for the device on every iteration of "
            "the loop at line 25: keep the device values, then `errors = [float(value) for "
            "value in jax.device_get(errors)]` after the loop",
            SAFE,
        )
    ]


def test_the_fori_form_gives_way_to_the_helper() -> None:
    """The helper updates in place what the loop computed eagerly: nothing is folded."""
    assert _findings(SNAP) == [
        (
            "AO401",
            "`snapped = snapped.at[...].set(...)` in a Python loop copies all of `snapped` on "
            "every iteration (eager updates are never in place): update it in a jitted helper "
            "that donates it (`snapped_set_at`)",
            SAFE,
        )
    ]


# must not: the same programs without the trick keep their safe fixes
@pytest.mark.parametrize(
    ("code", "found"),
    [
        (
            QUANTIZE.replace("MAGIC = 1.5 * 2**23", "MAGIC = 0.5"),
            ("AO101", "`quantize` is called in a loop without `jax.jit`: add `@jax.jit`", SAFE),
        ),
        (
            FILTER.replace("MAGIC = 12582912.0", "MAGIC = 0.5"),
            (
                "AO103",
                "this loop's body runs eagerly, one dispatch per operation: run the whole loop as"
                " one jitted `lax.scan` when the carry keeps its types (checked when the loop "
                "starts: `_main_loop` runs `_main_scan`, else `_main_step` once per iteration), "
                "donating `state`; statically, cannot prove `state` keeps its shape and dtype "
                "across iterations",
                SAFE,
            ),
        ),
        (
            CODEC.replace("MAGIC = 12582912.0", "MAGIC = 0.5"),
            (
                "AO302",
                "`float(error(frames[i], restored))` waits for the device on every iteration of "
                "the loop at line 25: run the loop as one jitted `lax.scan` (`main_loop`), which "
                "returns the values of `float(error(frames[i], restored))` stacked, converted "
                "once after it",
                SAFE,
            ),
        ),
        (
            SNAP.replace("MAGIC = 12582912.0", "MAGIC = 0.5"),
            (
                "AO401",
                "`snapped = snapped.at[...].set(...)` in a Python loop copies all of `snapped` on "
                "every iteration (eager updates are never in place): run the loop as "
                "`lax.fori_loop` inside `@jax.jit` on `snap`, one compiled program whose updates "
                "are in place",
                SAFE,
            ),
        ),
        (
            TIDY.replace(" + 0.0)", " - 0.0)"),  # IEEE-exact: XLA may fold it
            (
                "AO501",
                "the body runs once per item of `images` and the results are stacked: "
                "`_main_per_item(...)`, its jitted `jax.vmap`, computes them in one call",
                SAFE,
            ),
        ),
    ],
)
def test_without_the_trick_the_fix_stays_safe(
    code: str, found: tuple[str, str, Applicability]
) -> None:
    assert _findings(code) == [found]


CODEC_MODULE = """\
import jax.numpy as jnp

MAGIC = 1.5 * 2**23


def encode(frame):
    return jnp.asarray(frame) * 8.0 + MAGIC


def decode(code):
    return (jnp.asarray(code) - MAGIC) / 8.0
"""

ROUND_TRIP = """\
import jax
import jax.numpy as jnp

from app.codec import decode, encode


def round_trip(frame):
    return decode(encode(frame)) * 2.0


def main():
    frames = jax.random.normal(jax.random.PRNGKey(4), (5, 32))
    out = []
    for i in range(5):
        y = round_trip(frames[i])
        out.append(y)
    return out
"""


@pytest.mark.parametrize(
    ("codec", "found"),
    [
        (
            CODEC_MODULE,
            (
                "AO101",
                "`round_trip` is called in a loop without `jax.jit`: add `@jax.jit`; unsafe: line"
                " 7 of `app.codec` (codec.py) rounds by adding `MAGIC` (1.5 * 2**23): "
                f"{FOLDS}",
                UNSAFE,
            ),
        ),
        (
            CODEC_MODULE.replace("MAGIC = 1.5 * 2**23", "MAGIC = 0.5"),
            ("AO101", "`round_trip` is called in a loop without `jax.jit`: add `@jax.jit`", SAFE),
        ),
    ],
)
def test_a_trick_in_an_imported_project_module(
    tmp_path: Path, codec: str, found: tuple[str, str, Applicability]
) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "app/__init__.py").write_text("")
    (tmp_path / "app/codec.py").write_text(codec)
    (tmp_path / "app/main.py").write_text(ROUND_TRIP)
    assert _findings(ROUND_TRIP, path=str(tmp_path / "app/main.py")) == [found]
