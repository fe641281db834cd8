"""Methods jitted with a static `self`, called through the one instance of their class."""

from __future__ import annotations

import pytest

from autoopt.analysis.core.graph import CallSite
from autoopt.analysis.core.jitted import call_sites
from autoopt.analysis.core.jitted_methods import jitted_methods, method_escape

from ..helpers import context

HEADER = "import functools\nimport jax\nimport jax.numpy as jnp\n"
PROGRAM = """
class GAN:
    def __init__(self, width):
        self.width = width

    DECORATOR
    def update(self, rng, state, batch):
        return rng, state * self.width + batch

    def sample(self, x):
        return x * self.width


gan = GAN(4)
for step in range(3):
    rng, state = gan.update(rng, state=state, batch=x)
    rng, state = gan.update(rng, state, x)
out = gan.sample(x)
"""
_STATIC = "@functools.partial(jax.jit, static_argnums=0)"


@pytest.mark.parametrize(
    ("decorator", "names"),
    [
        (_STATIC, ["gan.update"]),
        ('@functools.partial(jax.jit, static_argnames=("self",))', ["gan.update"]),
        ("@functools.partial(jax.jit, static_argnums=1)", []),  # `rng` static, not `self`
        ("@jax.jit", []),  # `self` traced: jit fails on the instance
        ("@functools.lru_cache", []),  # not a jit
    ],
)
def test_methods_jitted_with_a_static_self(decorator: str, names: list[str]) -> None:
    ctx = context(PROGRAM.replace("DECORATOR", decorator), HEADER)
    assert [j.name for j in jitted_methods(ctx)] == names


@pytest.mark.parametrize(
    "head",
    ["class GAN(Base):", "@register\nclass GAN:", "class GAN(metaclass=Meta):"],
)
def test_a_class_whose_methods_other_code_may_wrap_is_not_read(head: str) -> None:
    ctx = context(PROGRAM.replace("DECORATOR", _STATIC).replace("class GAN:", head), HEADER)
    assert jitted_methods(ctx) == []


def test_a_bound_call_site_binds_the_parameters_after_self() -> None:
    ctx = context(PROGRAM.replace("DECORATOR", _STATIC), HEADER)
    (jitted,) = jitted_methods(ctx)
    fn = jitted.function
    assert fn is not None
    sites = [CallSite(s.stmt, s.call, fn, True) for s in call_sites(ctx, "gan.update")]
    bound = [[ctx.code(s.argument(i, p)) for i, p in enumerate(fn.params[1:], 1)] for s in sites]
    assert bound == [["rng", "state", "x"], ["rng", "state", "x"]]


_LAST = "out = gan.sample(x)\n"
_BODY = "        return x * self.width"


@pytest.mark.parametrize(
    ("old", "new", "escape"),
    [
        ("", "", None),
        (_LAST, "out = gan.sample\n", "`gan` is used other than to call its methods at line 20"),
        (_LAST, _LAST + "keep(gan)\n", "`gan` is used other than to call its methods"),
        (_LAST, _LAST + "gan.width = 3\n", "`gan` is used other than to call its methods"),
        (_LAST, _LAST + "other = GAN(2)\n", "`GAN` is used other than to make `gan`"),
        (_LAST, _LAST + "class Sub(GAN):\n    pass\n", "`GAN` is bound more than once or"),
        (_BODY, "        return self.update(x, x, x)", "`GAN.sample` reads `self.update`"),
        (_BODY, "        return keep(self)", "`self` is used other than to read an attribute"),
    ],
)
def test_every_call_of_the_method_is_seen(old: str, new: str, escape: str | None) -> None:
    code = PROGRAM.replace("DECORATOR", _STATIC).replace(old, new) if old else PROGRAM
    ctx = context(code.replace("DECORATOR", _STATIC), HEADER)
    (jitted,) = [j for j in jitted_methods(ctx) if j.name == "gan.update"]
    found = method_escape(ctx, jitted)
    if escape is None:
        assert found is None
    else:
        assert found is not None and found.startswith(escape), found
