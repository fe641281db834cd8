"""AO103 examples, evolution-strategy loops with evosax (`overlays/evosax.py`): a
strategy built in the program from evosax's constructors is a static argument of the
step and its `ask` and `tell` are pure; a strategy of unproven kind, one given a function
of the program's own, one rebuilt in the loop, or a look-alike class is not."""

from autoopt.model import Applicability
from autoopt.rules.base import Invalid, Valid

_LOOP = """
import jax
import jax.numpy as jnp
from evosax.algorithms import SimpleES


def fitness_fn(population):
    return jnp.sum((population - 1.0) ** 2, axis=-1)


def main():
    key = jax.random.key(0)
    solution = jnp.zeros(3)
    es = SimpleES(population_size=8, solution=solution)
    params = es.default_params
    state = es.init(key, solution, params)
    best = []
    for generation in range(6):
        key, key_ask, key_tell = jax.random.split(key, 3)
        population, state = es.ask(key_ask, state, params)
        fitness = fitness_fn(population)
        state, metrics = es.tell(key_tell, population, fitness, state, params)
        best.append(metrics["best_fitness"])
    return state.mean, best
"""

ASK_TELL = Invalid(
    _LOOP,
    """
import functools

import jax
import jax.numpy as jnp
from evosax.algorithms import SimpleES


def fitness_fn(population):
    return jnp.sum((population - 1.0) ** 2, axis=-1)


@functools.partial(jax.jit, static_argnames=("es",))
def _main_step(key, state, es, params):
    key, key_ask, key_tell = jax.random.split(key, 3)
    population, state = es.ask(key_ask, state, params)
    fitness = fitness_fn(population)
    state, metrics = es.tell(key_tell, population, fitness, state, params)
    best_item = metrics["best_fitness"]
    return key, population, state, best_item


def main():
    key = jax.random.key(0)
    solution = jnp.zeros(3)
    es = SimpleES(population_size=8, solution=solution)
    params = es.default_params
    state = es.init(key, solution, params)
    best = []
    for generation in range(6):
        key, population, state, best_item = _main_step(key, state, es, params)
        best.append(best_item)
    return state.mean, best
""",
    message="compile it as one jitted step, `_main_step`",
)

STRATEGY_BY_NAME = Invalid(
    _LOOP.replace(
        "from evosax.algorithms import SimpleES\n",
        "from evosax.algorithms import SimpleES\n\nSTRATEGIES = {'SimpleES': SimpleES}\n",
    ).replace("    es = SimpleES(", "    es = STRATEGIES['SimpleES']("),
    fix=Applicability.NONE,
    message="it calls `es.ask`, a method of its argument `es` of a kind not proven",
)

OWN_METRICS_FUNCTION = Invalid(
    _LOOP.replace(
        "def main():\n",
        "def metrics(key, population, fitness, state, params):\n"
        "    return {'best_fitness': state.best_fitness}\n\n\ndef main():\n",
    ).replace("solution=solution)", "solution=solution, metrics_fn=metrics)"),
    fix=Applicability.NONE,
    message="it calls `es.ask`, a method of its argument `es` of a kind not proven",
)

REBUILT_IN_THE_LOOP = Invalid(
    _LOOP.replace(
        "        population, state = es.ask(",
        "        es = SimpleES(population_size=8, solution=state.mean)\n"
        "        population, state = es.ask(",
    ),
    fix=Applicability.NONE,
    message="it calls `evosax.algorithms.SimpleES`, code autoopt cannot see",
)

INVALID = (ASK_TELL, STRATEGY_BY_NAME, OWN_METRICS_FUNCTION, REBUILT_IN_THE_LOOP)

VALID = (
    Valid(
        _LOOP.replace(
            "from evosax.algorithms import SimpleES\n",
            "\n\nclass SimpleES:\n"
            "    def __init__(self, population_size, solution):\n"
            "        self.population_size = population_size\n"
            "        self.default_params = 0.1\n"
            "        self.generations = 0\n\n"
            "    def init(self, key, solution, params):\n"
            "        return solution\n\n"
            "    def ask(self, key, state, params):\n"
            "        self.generations += 1\n"
            "        return state + params, state\n\n"
            "    def tell(self, key, population, fitness, state, params):\n"
            "        return state, {'best_fitness': jnp.min(fitness)}\n",
        ),
        "a class of the program's own named like evosax's: its `ask` counts on `self`",
    ),
    Valid(
        _LOOP.replace("    return jnp.sum(", "    print('evaluating')\n    return jnp.sum("),
        "the fitness function prints every generation (AO101 names the print)",
    ),
)
