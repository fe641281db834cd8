"""The jit authority: which scopes run traced and which run eagerly."""

from __future__ import annotations

import libcst as cst
import pytest

from autoopt.analysis.core import execution
from autoopt.analysis.core.context import ModuleContext


def ctx_of(code: str) -> ModuleContext:
    return ModuleContext("<t>", code, cst.parse_module(code))


@pytest.mark.parametrize(
    "spelling",
    [
        "import jax\n@jax.jit\n",
        "from jax import jit\n@jit\n",
        "import jax as J\n@J.jit\n",
        "import jax\n@jax.jit(static_argnames='n')\n",
        "import functools, jax\n@functools.partial(jax.jit, static_argnums=1)\n",
        "from functools import partial\nimport jax\n@partial(jax.jit, donate_argnums=0)\n",
        "import jax\n@jax.pmap\n",
        "from jax.experimental.pjit import pjit\n@pjit\n",
        "from flax import nnx\n@nnx.jit\n",
        "import equinox as eqx\n@eqx.filter_jit\n",
    ],
)
def test_every_jit_spelling_is_recognised_by_its_qualified_name(spelling: str) -> None:
    ctx = ctx_of(spelling + "def f(x):\n    return x\n")
    fn = ctx.graph.functions["f"]
    (decorator,) = fn.node.decorators
    assert execution.is_jit(ctx, decorator.decorator)
    assert execution.runs_traced(ctx, fn)


@pytest.mark.parametrize(
    "spelling",
    [
        "def timed_jit_stats(f):\n    return f\n@timed_jit_stats\n",
        "import mylib\n@mylib.jit\n",
        "import functools\n@functools.lru_cache\n",
    ],
)
def test_a_decorator_named_like_jit_is_not_jit(spelling: str) -> None:
    ctx = ctx_of(spelling + "def f(x):\n    return x\n")
    (decorator,) = ctx.graph.functions["f"].node.decorators
    assert not execution.is_jit(ctx, decorator.decorator)
    assert not execution.runs_traced(ctx, ctx.graph.functions["f"])


@pytest.mark.parametrize(
    ("code", "traced", "eager"),
    [
        (  # a helper only a jit-wrapped function calls runs traced, never eagerly
            "import jax\ndef helper(x):\n    return x\ndef outer(x):\n    return helper(x)\n"
            "fast = jax.jit(outer)\ny = fast(1.0)\n",
            {"outer", "helper"},
            {"<module>"},
        ),
        (  # a loop body of lax.scan, and what it calls
            "from jax import lax\ndef cell(c):\n    return c\ndef body(c, x):\n"
            "    return cell(c), x\nlax.scan(body, 0.0, xs)\n",
            {"body", "cell"},
            {"<module>"},
        ),
        (  # a function handed to grad through partial
            "import jax, functools\ndef loss(w, x):\n    return w * x\n"
            "g = jax.grad(functools.partial(loss, x=2.0))\n",
            {"loss"},
            {"<module>"},
        ),
        (  # called from the module and from main(): eager; also jitted elsewhere: both
            "import jax\ndef step(x):\n    return x\ndef main():\n    return step(1.0)\n"
            "fast = jax.jit(step)\n",
            {"step"},
            {"<module>", "main", "step"},
        ),
        (  # called only from a library function nothing calls: neither
            "def inner(x):\n    return x\ndef api(x):\n    return inner(x)\n",
            set(),
            {"<module>"},
        ),
        (  # a method is neither: who calls it is not known
            "class M:\n    def apply(self, x):\n        return x\nm = M()\nm.apply(1)\n",
            set(),
            {"<module>"},
        ),
        (  # nested in an eagerly called function
            "def train(w):\n    def update(w):\n        return w\n    return update(w)\n"
            "train(1.0)\n",
            set(),
            {"<module>", "train", "train.update"},
        ),
    ],
)
def test_traced_and_eager_scopes(code: str, traced: set[str], eager: set[str]) -> None:
    modes = execution.modes(ctx_of(code))
    assert set(modes.traced) == traced
    assert set(modes.eager) == eager


ABSL = (
    "from absl import app\nimport jax.numpy as jnp\n\n\ndef main(argv):\n    return jnp.ones(3)\n"
)


@pytest.mark.parametrize(
    ("tail", "eager"),
    [
        ("\nif __name__ == '__main__':\n    app.run(main)\n", True),
        ("\napp.run(main=main)\n", False),  # a keyword: not the first argument as written
        ("\napp.run(lambda argv: main(argv))\n", False),  # the lambda is not `main`
        ("\nrunner.run(main)\n", False),  # not absl's
    ],
)
def test_absl_app_run_makes_its_function_an_entry_point(tail: str, eager: bool) -> None:
    ctx = ctx_of(ABSL + tail)
    assert execution.runs_eagerly(ctx, "main") is eager


def test_a_decorated_function_handed_to_app_run_is_no_entry_point() -> None:
    code = ABSL.replace("def main", "import jax\n\n\n@jax.jit\ndef main") + "\napp.run(main)\n"
    assert not execution.runs_eagerly(ctx_of(code), "main")


_CALLED = "def f(x):\n    return x\n"


@pytest.mark.parametrize(
    ("tail", "callers"),
    [
        # called only from a method nothing here calls: its mode is its users'
        ("class Env:\n    def step(self, x):\n        return f(x)\n", ["Env.step"]),
        # and from a helper that method calls
        (
            "def g(x):\n    return f(x)\nclass Env:\n    def step(self, x):\n        return g(x)\n",
            ["g"],
        ),
        # one caller that runs eagerly is enough
        ("def g(x):\n    return f(x)\ndef main():\n    return g(1)\n", []),
        ("y = f(1)\n", []),
        # nothing here calls it: an entry of the program's users, not judged here
        ("", []),
    ],
)
def test_unproven_callers(tail: str, callers: list[str]) -> None:
    assert execution.unproven_callers(ctx_of(_CALLED + tail), "f") == callers
