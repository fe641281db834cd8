"""Snapshots of the dataflow graph of a few programs, rendered as text.

Regenerate after an intended change of the graph with
`AUTOOPT_UPDATE_SNAPSHOTS=1 python -m pytest tests/analysis/core/test_graph_text.py`
and review the diff of `tests/analysis/core/snapshots/`.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import libcst as cst
import pytest

from autoopt.analysis.core.graph import ModuleGraph
from autoopt.analysis.core.graph_text import render_graph
from tests.snapshots import assert_snapshot

SNAPSHOTS = Path(__file__).parent / "snapshots"

FIXTURES = {
    "training_loop": '''
        import jax
        import jax.numpy as jnp


        @jax.jit
        def update(params, batch):
            """One step of gradient descent."""
            grads = jax.grad(loss)(params, batch)
            return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


        def loss(params, batch):
            return jnp.mean((batch @ params["w"]) ** 2)


        def train(params, data, steps):
            losses = []
            for step in range(steps):
                batch = data[step % len(data)]
                params = update(params, batch)
                losses.append(float(loss(params, batch)))
            return params, losses
        ''',
    "closures": """
        import jax.numpy as jnp

        SCALE = 2.0
        calls = 0


        def make_step(lr):
            total = jnp.zeros(3)

            def step(x):
                nonlocal total
                total = total + x
                return x * lr * SCALE

            def report():
                global calls
                calls += 1
                return [t * lr for t in total]

            return step, report


        class Model:
            def apply(self, x):
                return jnp.tanh(x @ self.w)
        """,
    "while_break": """
        import jax.numpy as jnp


        def search(x, tol):
            it = 0
            while it < 100:
                x = x - jnp.sin(x)
                if jnp.abs(x).max() < tol:
                    break
                elif it % 10 == 0:
                    print(it)
                else:
                    x = x * 0.5
                it += 1
            else:
                raise RuntimeError("no convergence")
            return x, it
        """,
    "module_script": """
        import numpy as np
        import jax.numpy as jnp

        xs = np.ones((8, 3))
        out = []
        for row in xs:
            try:
                y = jnp.asarray(row); out.append(y)
            except ValueError as err:
                print(err)
            with open("log.txt") as fh:
                fh.write(str(row))
        result = jnp.stack(out)
        """,
}


def render(name: str) -> str:
    source = textwrap.dedent(FIXTURES[name]).lstrip("\n")
    numbered = "".join(f"{i:3} {line}" for i, line in enumerate(source.splitlines(True), 1))
    graph = render_graph(ModuleGraph(cst.parse_module(source)))
    return f"source:\n{numbered}\n{graph}"


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_graph_snapshot(name: str) -> None:
    assert_snapshot(SNAPSHOTS / f"{name}.txt", render(name), f"the graph of {name}")


def test_render_graph_lists_each_section_in_a_stable_order() -> None:
    source = "def f(a):\n    b = g(a); c = b\n    return c\n\n\ndef g(x):\n    return x\n"
    assert render_graph(ModuleGraph(cst.parse_module(source))) == textwrap.dedent(
        """\
        statements:
          s0 <module> | def f(a): | defs=f
          s1 f | b = g(a) | defs=b uses=a,g
          s2 f | c = b | defs=c uses=b
          s3 f | return c | uses=c
          s4 <module> | def g(x): | defs=g
          s5 g | return x | uses=x
        loops:
        functions:
          f in <module> header=s0 params=a
          g in <module> header=s4 params=x
        calls:
          s1 -> g
        flow:
          s1 -> s2 b
          s2 -> s3 c
        """
    )
