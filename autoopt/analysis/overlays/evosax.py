"""Facts about evosax (0.3 and later) that the analyses rely on.

A strategy (`es = CMA_ES(population_size=16, solution=x)`) is a Python object of
hyperparameters whose methods are pure functions of their arguments, each jitted by
evosax with the object static (`static_argnames=("self",)`, hashed by identity):
`init(key, ...)` gives a state dataclass of arrays, `ask(key, state, params)` the
population and the next state, `tell(key, population, fitness, state, params)` the next
state and a dict of metrics. A benchmark problem (`BBOBProblem(...)`) is built the same
way: `init(key)`, `eval(key, solutions, state)`, `sample(key)`.

A strategy runs the functions it is given (`fitness_shaping_fn`, `metrics_fn`) inside
`tell`: the object is known only where each is one of evosax's own pure functions
(`PURE_FUNCTIONS`, or a `FUNCTION_MAKERS` call of one), and where it is given no option
but those and the data options `OPTIONS` lists (an `optimizer` or a schedule it is given
is not followed). Qualified names as `ImportMap.qualify` spells them; methods by the
class that stands for them here. A name missing here is unknown.
"""

from __future__ import annotations

#: The class standing for every listed strategy (evosax's `EvolutionaryAlgorithm`).
STRATEGY = "evosax.algorithms.base.EvolutionaryAlgorithm"
#: The class standing for every listed problem (evosax's `Problem`).
PROBLEM = "evosax.problems.Problem"
#: Constructors of a strategy whose object, given the options below only, is static and
#: whose `init`, `ask` and `tell` are pure.
STRATEGIES = frozenset(
    f"evosax.algorithms.{name}"
    for name in (
        "CMA_ES", "Sep_CMA_ES", "SimpleES", "Open_ES", "SNES", "xNES", "PGPE", "ARS",
        "MA_ES", "LM_MA_ES", "CR_FM_NES", "HillClimbing", "SimulatedAnnealing",
        "iAMaLGaM_Full", "iAMaLGaM_Univariate", "GradientlessDescent", "SimpleGA",
        "DifferentialEvolution", "PSO", "MR15_GA", "SAMR_GA", "GESMR_GA",
    )
)  # fmt: skip
#: Constructors of a benchmark problem whose `init`, `eval` and `sample` are pure.
PROBLEMS = frozenset({"evosax.problems.BBOBProblem"})
#: Constructors -> the class of the object they return.
RETURNS = {**dict.fromkeys(STRATEGIES, STRATEGY), **dict.fromkeys(PROBLEMS, PROBLEM)}
#: Constructors -> the data options (arrays, numbers, strings) they may be given, in
#: their order (the first ones may be given by position): none runs code.
OPTIONS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(STRATEGIES, ("population_size", "solution")),
    "evosax.problems.BBOBProblem": (
        "fn_name", "num_dims", "x_opt", "f_opt", "sample_rotations", "noise_config", "seed",
    ),
}  # fmt: skip
#: Options of a strategy, by keyword only, that hold a function `tell` runs: known only
#: where it is one of `PURE_FUNCTIONS` or a `FUNCTION_MAKERS` call of one.
FUNCTION_OPTIONS = frozenset({"fitness_shaping_fn", "metrics_fn"})
#: evosax's functions that compute on their arguments alone (fitness shaping, metrics).
PURE_FUNCTIONS = frozenset(
    {
        "evosax.core.fitness_shaping.identity_fitness_shaping_fn",
        "evosax.core.fitness_shaping.standardize_fitness_shaping_fn",
        "evosax.core.fitness_shaping.normalize_fitness_shaping_fn",
        "evosax.core.fitness_shaping.centered_rank_fitness_shaping_fn",
        "evosax.core.fitness_shaping.weights_fitness_shaping_fn",
        "evosax.algorithms.base.metrics_fn",
        "evosax.algorithms.distribution_based.base.metrics_fn",
        "evosax.algorithms.population_based.base.metrics_fn",
    }
)
#: Calls that wrap the function given first into one as pure as it (its other
#: arguments are numbers): `add_weight_decay(standardize_fitness_shaping_fn, 0.01)`.
FUNCTION_MAKERS = frozenset({"evosax.core.fitness_shaping.add_weight_decay"})
#: Methods that are pure functions of their receiver and arguments, each traceable under
#: jit with the object closed over or static.
PURE_METHODS = frozenset(
    {f"{STRATEGY}.{m}" for m in ("init", "ask", "tell")}
    | {f"{PROBLEM}.{m}" for m in ("init", "eval", "sample")}
)
#: Classes whose objects jit may keep as static arguments: evosax's own jits keep them
#: so, hashed by identity; nothing in them changes once built.
STATIC_CLASSES = frozenset({STRATEGY, PROBLEM})
#: Methods whose result, given arrays, is a pytree of arrays (states, populations,
#: fitness, metrics).
ARRAYS_RESULTS = PURE_METHODS
#: Attributes of an object (`class.attribute`) that hold a pytree whose leaves are arrays
#: or Python numbers, as jit takes them (`es.default_params`, a dataclass of them).
ARRAYS_ATTRIBUTES = frozenset({f"{STRATEGY}.default_params"})
#: Calls that compute on their arguments and touch nothing else (`add_weight_decay`
#: builds a function, computes nothing).
PURE_CALLS = FUNCTION_MAKERS
