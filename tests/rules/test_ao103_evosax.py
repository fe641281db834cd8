"""AO103 on evolution-strategy loops with evosax (`overlays/evosax.py`): the eager ask /
evaluate / tell loop becomes one jitted step, the strategy a static argument or a global
closed over, computing what the loop did; a strategy of unproven kind, given a function
of the program's own or rebuilt in the loop keeps the loop as it was."""

from __future__ import annotations

from autoopt.api import check_source, optimize_source
from autoopt.config import Settings
from autoopt.model import Applicability
from autoopt.rules.examples.ao103_compiled_loop_step import evosax_steps

from .helpers import assert_same, run_snippet

_RESULT = "\n\nresult = main()\n"

#: Notebook cells at module level: `es` bound twice, the second strategy given evosax's
#: weight-decayed standardizing shaping through a name; a BBOB problem evaluates.
_CELLS = """
import jax
import jax.numpy as jnp
from evosax.algorithms import Open_ES, SimpleES
from evosax.core.fitness_shaping import add_weight_decay, standardize_fitness_shaping_fn
from evosax.problems import BBOBProblem

key = jax.random.key(0)
problem = BBOBProblem(fn_name="sphere", num_dims=2, sample_rotations=False, seed=0)
key, subkey = jax.random.split(key)
problem_state = problem.init(subkey)
solution = problem.sample(subkey)
es = SimpleES(population_size=8, solution=solution)
params = es.default_params
state = es.init(subkey, solution, params)
first = []
for i in range(4):
    key, subkey = jax.random.split(key)
    key_ask, key_eval, key_tell = jax.random.split(subkey, 3)
    population, state = es.ask(key_ask, state, params)
    fitness, problem_state, info = problem.eval(key_eval, population, problem_state)
    state, metrics = es.tell(key_tell, population, fitness, state, params)
    first.append(metrics["best_fitness"])

fitness_shaping_fn = add_weight_decay(standardize_fitness_shaping_fn, weight_decay=0.01)
es = Open_ES(population_size=8, solution=solution, fitness_shaping_fn=fitness_shaping_fn)
params = es.default_params
state = es.init(subkey, solution, params)
second = []
for i in range(4):
    key, subkey = jax.random.split(key)
    key_ask, key_eval, key_tell = jax.random.split(subkey, 3)
    population, state = es.ask(key_ask, state, params)
    fitness, problem_state, info = problem.eval(key_eval, population, problem_state)
    state, metrics = es.tell(key_tell, population, fitness, state, params)
    second.append(metrics["best_fitness"])
result = first, second, state.mean
"""


def _ao103(code: str) -> list:
    _, findings = check_source(code, settings=Settings(select=("AO103",)))
    return findings


def _rewritten(code: str) -> str:
    return optimize_source(code, settings=Settings(select=("AO103",))).new_source


def test_a_strategy_built_in_the_function_is_a_static_argument_and_results_are_kept() -> None:
    code = evosax_steps.ASK_TELL.code + _RESULT
    (finding,) = _ao103(code)
    assert finding.fix is Applicability.SAFE
    assert finding.message == (
        "this loop's body runs eagerly, one dispatch per operation: compile it as one jitted "
        "step, `_main_step`"
    )
    new = _rewritten(code)
    assert new == evosax_steps.ASK_TELL.expected + _RESULT
    assert_same(run_snippet(code), run_snippet(new), rtol=1e-5)


def test_notebook_cells_rebinding_the_strategy_each_get_a_safe_step() -> None:
    findings = _ao103(_CELLS)
    assert [(f.span.line, f.fix) for f in findings] == [
        (17, Applicability.SAFE),
        (30, Applicability.SAFE),
    ]
    new = _rewritten(_CELLS)
    assert '@functools.partial(jax.jit, static_argnames=("es",))' in new
    assert new.count("_step(") == 2 and new.count("_step_2(") == 2
    assert_same(run_snippet(_CELLS), run_snippet(new), rtol=1e-5)


def test_a_shaping_function_of_the_program_keeps_the_strategy_unproven() -> None:
    code = _CELLS.replace(
        "fitness_shaping_fn = add_weight_decay(standardize_fitness_shaping_fn, weight_decay=0.01)",
        "def fitness_shaping_fn(population, fitness, state, params):\n    return fitness",
    )
    first, second = _ao103(code)
    assert first.fix is Applicability.SAFE
    assert second.fix is Applicability.NONE
    assert "it calls `es.ask`, a method of its argument `es` of a kind not proven" in (
        second.message
    )


def test_a_strategy_rebound_by_code_not_seen_in_the_loop_gets_no_fix() -> None:
    """evosax's restart example: `restarter.restart(...)` may rebind `es` in the loop."""
    code = _CELLS.replace(
        '    first.append(metrics["best_fitness"])\n',
        '    first.append(metrics["best_fitness"])\n'
        "    if restarter.should_restart(state):\n"
        "        es, params, state = restarter.restart(es, state, params)\n",
    ).replace(
        "key = jax.random.key(0)\n", "key = jax.random.key(0)\nrestarter = make_restarter()\n"
    )
    first = _ao103(code)[0]
    assert first.fix is Applicability.NONE
    assert "it calls `es.ask`, a method of its argument `es` of a kind not proven" in (
        first.message
    )
