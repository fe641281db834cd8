"""The `lax.fori_loop` a loop of in-place updates becomes (plan: analysis/plans/fori.py)."""

from __future__ import annotations

import pytest

from autoopt.analysis.plans.fori import fori_plan
from autoopt.rewrite.apply import apply_edits
from autoopt.rewrite.fori import fori_edits

from ..analysis.helpers import context

TEMPLATE = """\
{imports}

def f(x):
    acc = jnp.zeros((4, 3))
    cnt = jnp.zeros(4)
{loop}
    return acc, cnt


y = f(jnp.ones((4, 3)))
"""


def rewrite(imports: str, loop: str) -> str:
    ctx = context(TEMPLATE.format(imports=imports, loop=loop))
    plan = fori_plan(ctx, ctx.graph.loops[0])
    assert plan is not None
    return apply_edits(ctx.module, fori_edits(ctx, plan)).code


@pytest.mark.parametrize(
    ("imports", "loop", "expected"),
    [
        pytest.param(
            "import jax\nimport jax.numpy as jnp\n",
            "    for i in range(x.shape[0]):\n        acc = acc.at[i].set(x[i])",
            "import jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef f(x):\n"
            "    acc = jnp.zeros((4, 3))\n    cnt = jnp.zeros(4)\n\n"
            "    def body(i, carry):\n        acc = carry\n        acc = acc.at[i].set(x[i])\n"
            "        return acc\n\n"
            "    acc = jax.lax.fori_loop(0, x.shape[0], body, acc)\n    return acc, cnt\n",
            id="one-bound-one-carry",
        ),
        pytest.param(
            "import jax.numpy as jnp\nfrom jax import lax\n",
            "    for i in range(1, 4):\n"
            "        acc = acc.at[i].set(x[i])\n        cnt = cnt.at[i].add(1)",
            "import jax\nimport jax.numpy as jnp\nfrom jax import lax\n\n\n@jax.jit\ndef f(x):\n"
            "    acc = jnp.zeros((4, 3))\n    cnt = jnp.zeros(4)\n\n"
            "    def body(i, carry):\n        acc, cnt = carry\n"
            "        acc = acc.at[i].set(x[i])\n        cnt = cnt.at[i].add(1)\n"
            "        return acc, cnt\n\n"
            "    acc, cnt = lax.fori_loop(1, 4, body, (acc, cnt))\n    return acc, cnt\n",
            id="two-bounds-two-carries-module-spelling",
        ),
    ],
)
def test_the_loop_runs_as_fori_loop_in_the_jitted_function(imports, loop, expected) -> None:
    assert rewrite(imports, loop) == expected + "\n\ny = f(jnp.ones((4, 3)))\n"


def test_names_taken_get_a_suffix() -> None:
    loop = "    body = 1\n    for i in range(4):\n        acc = acc.at[i].set(x[i])"
    code = rewrite("import jax\nimport jax.numpy as jnp\n", loop)
    assert "    def body_2(i, carry):\n" in code
    assert "    acc = jax.lax.fori_loop(0, 4, body_2, acc)\n" in code
