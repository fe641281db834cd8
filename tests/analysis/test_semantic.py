"""The query surface delegates every question to its authority, adding nothing."""

from __future__ import annotations

import ast
import inspect

from autoopt.analysis import semantic as surface
from autoopt.analysis.core import jitted
from autoopt.analysis.facts import donation, jit_plan, tracing
from autoopt.analysis.semantic import Semantic, semantic
from autoopt.analysis.values.model import model

from .helpers import HEADER, context, function, stmt

CODE = """
@jax.jit
def step(s, x):
    return s + x

def main():
    s = jnp.zeros(3)
    for _ in range(3):
        s = step(s, 1.0)
    print(s)
"""


def test_every_method_is_one_delegating_return() -> None:
    tree = ast.parse(inspect.getsource(surface))
    (cls,) = [n for n in tree.body if type(n) is ast.ClassDef and n.name == "Semantic"]
    methods = [n for n in cls.body if type(n) is ast.FunctionDef and n.name != "__init__"]
    assert len(methods) >= 20
    for method in methods:
        body = method.body[1:] if ast.get_docstring(method) else method.body
        assert [type(s) for s in body] == [ast.Return], method.name


def test_answers_are_the_authorities_own() -> None:
    ctx = context(CODE, HEADER)
    sem = semantic(ctx)
    step = function(ctx, "step")
    call = stmt(ctx, "s = step(s, 1.0)")
    assert type(sem) is Semantic and sem.ctx is ctx
    assert sem.value_of(call, call.node.value) == model(ctx).value_of(call, call.node.value)
    assert sem.jitted_callables() is jitted.jitted_callables(ctx)
    assert sem.jit_plans() is jit_plan.plans(ctx)
    assert sem.trace_facts(step) is tracing.analyse(ctx, step)
    assert sem.safe_donations("step") == donation.safe_donations(ctx, "step") == ["s"]
    (target,) = sem.donation_targets()
    assert sem.donation_verdicts(target) == donation.verdicts(ctx, target)
    assert sem.escapes("step") is None
