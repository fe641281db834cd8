"""Control (for h1361-h1366): notebook cells at module level build a strategy, run it,
then build another (fitness shaped by evosax's `add_weight_decay` of its standardizing
function) and run that; the BBOB problem evaluates. AO103 compiles each generation loop
as one jitted step, each strategy a static argument (safe): the results are
unchanged."""

import jax
import jax.numpy as jnp
from evosax.algorithms import Open_ES, SimpleES
from evosax.core.fitness_shaping import add_weight_decay, standardize_fitness_shaping_fn
from evosax.problems import BBOBProblem

key = jax.random.key(0)
problem = BBOBProblem(fn_name="sphere", num_dims=2, sample_rotations=False, seed=0)
key, subkey = jax.random.split(key)
problem_state = problem.init(subkey)
key, subkey = jax.random.split(key)
solution = problem.sample(subkey)
es = SimpleES(population_size=8, solution=solution)
params = es.default_params
key, subkey = jax.random.split(key)
state = es.init(subkey, solution, params)
first = []
for _ in range(5):
    key, subkey = jax.random.split(key)
    key_ask, key_eval, key_tell = jax.random.split(subkey, 3)
    population, state = es.ask(key_ask, state, params)
    fitness, problem_state, info = problem.eval(key_eval, population, problem_state)
    state, metrics = es.tell(key_tell, population, fitness, state, params)
    first.append(metrics["best_fitness"])

fitness_shaping_fn = add_weight_decay(standardize_fitness_shaping_fn, weight_decay=0.01)
es = Open_ES(population_size=8, solution=solution, fitness_shaping_fn=fitness_shaping_fn)
params = es.default_params
key, subkey = jax.random.split(key)
state = es.init(subkey, solution, params)
second = []
for _ in range(5):
    key, subkey = jax.random.split(key)
    key_ask, key_eval, key_tell = jax.random.split(subkey, 3)
    population, state = es.ask(key_ask, state, params)
    fitness, problem_state, info = problem.eval(key_eval, population, problem_state)
    state, metrics = es.tell(key_tell, population, fitness, state, params)
    second.append(metrics["best_fitness"])


def main():
    return jnp.stack(first), jnp.stack(second), state.mean
