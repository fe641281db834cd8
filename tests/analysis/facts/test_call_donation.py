"""`facts/call_donation.py`: may a call donate an argument it is given (no, yes, unknown),
and does a value reach such a call?"""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.facts.call_donation import May, call_donation, passed_on
from tests.analysis.helpers import HEADER, context, stmt

CODE = """
import functools

def plain(w, m):
    return w * m

def hands_on(w, m):
    return donating(w, m)

@jax.jit
def seen(w, m):
    return w * m

donating = jax.jit(plain, donate_argnums=(1,))
spread = jax.jit(plain, **OPTS)
made = functools.partial(jax.jit, donate_argnums=0)(plain)

def run(step, w, m):
    a = seen(w, m)
    b = jnp.tanh(m)
    c = np.sum(m)
    d = print(m)
    e = plain(w, m)
    f = donating(w, m)
    g = spread(w, m)
    h = made(w, m)
    i = step(w, m)
    j = STEPS["k"](w, m)
    k = hands_on(w, m)
    l = jax.jit(plain)(w, m)
    n = jax.jit(plain, donate_argnums=1)(w, m)
    o = np.apply_along_axis(step, 0, m)
    return a
"""

CASES = {
    "a = seen(w, m)": (May.NO, ""),
    "b = jnp.tanh(m)": (May.NO, ""),
    "c = np.sum(m)": (May.NO, ""),
    "d = print(m)": (May.NO, ""),
    "e = plain(w, m)": (May.NO, ""),
    "f = donating(w, m)": (May.YES, "`donating` donates its arguments (`donate_argnums=(1,)`)"),
    "g = spread(w, m)": (
        May.UNKNOWN,
        "`spread` is jitted with `**OPTS`, which may donate its arguments",
    ),
    "h = made(w, m)": (
        May.UNKNOWN,
        "`made` is the result of a call at line 18: what it donates is not known",
    ),
    "i = step(w, m)": (
        May.UNKNOWN,
        "`step` is a parameter of `run`: what the function it is given donates is not known",
    ),
    'j = STEPS["k"](w, m)': (
        May.UNKNOWN,
        '`STEPS["k"]` is looked up in a container: what it donates is not known',
    ),
    "k = hands_on(w, m)": (
        May.YES,
        "`hands_on` hands on its arguments: `donating` donates its arguments "
        "(`donate_argnums=(1,)`)",
    ),
    "l = jax.jit(plain)(w, m)": (May.NO, ""),
    "n = jax.jit(plain, donate_argnums=1)(w, m)": (
        May.YES,
        "`jax.jit` donates its arguments (`donate_argnums=1`)",
    ),
    "o = np.apply_along_axis(step, 0, m)": (
        May.UNKNOWN,
        "`np.apply_along_axis` (`numpy.apply_along_axis`) is not known not to donate its arguments",
    ),
}


@pytest.mark.parametrize("line", sorted(CASES))
def test_call_donation(line: str) -> None:
    ctx = context(CODE, HEADER)
    at = stmt(ctx, line)
    node = at.node
    assert type(node) is cst.Assign and type(node.value) is cst.Call
    verdict = call_donation(ctx, at, node.value)
    assert (verdict.may, verdict.why) == CASES[line]


FOLLOWED = """
def f(w, xs, step):
    m = jnp.asarray(w)
    m2 = m
    pair = (w, m2)
    out = []
    out.append(pair)
    for p in out:
        step(p)
    return m
"""


def test_a_value_is_followed_through_aliases_containers_and_loops() -> None:
    ctx = context(FOLLOWED, HEADER)
    at = stmt(ctx, "m = jnp.asarray(w)")
    node = at.node
    assert type(node) is cst.Assign
    verdict, call = passed_on(ctx, at, node.value)
    assert verdict.may is May.UNKNOWN
    assert call is not None and ctx.code(call) == "step(p)"


def test_a_value_read_only_by_proven_calls_is_not_donated() -> None:
    ctx = context(
        """
        def f(w):
            m = jnp.asarray(w)
            total = jnp.sum(m) + float(m.sum())
            return total
        """,
        HEADER,
    )
    at = stmt(ctx, "m = jnp.asarray(w)")
    node = at.node
    assert type(node) is cst.Assign
    verdict, call = passed_on(ctx, at, node.value)
    assert (verdict.may, call) == (May.NO, None)
